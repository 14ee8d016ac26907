"""`path:line:col: CODE message` per finding, then a summary line with the count per severity.

The default is one concise line per finding (what, and the fix); `full` adds the explanation and
the locations that explain the finding, indented below it. Related locations in other modules are
shown relative to the working folder, as the findings' own paths are.

Paths and messages come from the checked tree: each is escaped (`siblint.common.escape`), so every line
of the report is one that siblint started."""

from __future__ import annotations

from ..common.diagnostics import Diagnostic
from ..common.escape import escape_text
from .paths import shown_path


def render(diagnostics: list[Diagnostic], base: str, full: bool = False) -> str:
    lines: list[str] = []
    for d in diagnostics:
        message = d.message if full or not d.concise else d.concise
        lines.append(f"{escape_text(d.path)}:{d.loc.line}:{d.loc.col + 1}: {d.code} {escape_text(message)}")
        if full:
            for r in d.related:
                lines.append(f"    {escape_text(shown_path(r.path))}:{r.loc.line}:{r.loc.col + 1}: {escape_text(r.message)}")
    lines.append(summary(diagnostics))
    return "\n".join(lines) + "\n"


def summary(diagnostics: list[Diagnostic]) -> str:
    """`Found 3 findings (1 error, 2 warnings).`, or `All checks passed.`"""
    n = len(diagnostics)
    if not n:
        return "All checks passed."
    errors = sum(1 for d in diagnostics if d.severity == "error")
    parts = [f"{k} {word}{'s' if k != 1 else ''}" for k, word in ((errors, "error"), (n - errors, "warning")) if k]
    return f"Found {n} finding{'s' if n != 1 else ''} ({', '.join(parts)})."
