"""`path:line:col: CODE message`, related locations indented below, then a summary line.

Paths and messages come from the checked tree: each is escaped (`siblint.escape`), so every line
of the report is one that siblint started."""

from __future__ import annotations

from siblint.diagnostics import Diagnostic
from siblint.escape import escape_text


def render(diagnostics: list[Diagnostic], base: str) -> str:
    lines: list[str] = []
    for d in diagnostics:
        lines.append(f"{escape_text(d.path)}:{d.loc.line}:{d.loc.col + 1}: {d.code} {escape_text(d.message)}")
        for r in d.related:
            lines.append(f"    {escape_text(r.path)}:{r.loc.line}:{r.loc.col + 1}: {escape_text(r.message)}")
    n = len(diagnostics)
    lines.append(f"Found {n} finding{'s' if n != 1 else ''}." if n else "All checks passed.")
    return "\n".join(lines) + "\n"
