"""`path:line:col: CODE message`, related locations indented below, then a summary line."""

from __future__ import annotations

from siblint.diagnostics import Diagnostic


def render(diagnostics: list[Diagnostic], base: str) -> str:
    lines: list[str] = []
    for d in diagnostics:
        lines.append(f"{d.path}:{d.loc.line}:{d.loc.col + 1}: {d.code} {d.message}")
        for r in d.related:
            lines.append(f"    {r.path}:{r.loc.line}:{r.loc.col + 1}: {r.message}")
    n = len(diagnostics)
    lines.append(f"Found {n} finding{'s' if n != 1 else ''}." if n else "All checks passed.")
    return "\n".join(lines) + "\n"
