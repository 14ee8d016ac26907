"""The formats a person reads: `path:line:col: CODE severity: message` per finding, then a summary
line with the count per severity.

`concise` (the default) is one line per finding (what, and the fix); `full` adds the explanation
and the locations that explain the finding, indented below it; `grouped` lists the findings under
their file; `pylint` is `path:line: [CODE] severity: message`. Every path is shown as
`paths.shown_path` spells it, related locations too.

Paths and messages come from the checked tree: each is escaped (`siblint.common.escape`), so every line
of the report is one that siblint started."""

from __future__ import annotations

from itertools import groupby

from ..common.diagnostics import Diagnostic
from ..common.escape import escape_text
from .paths import in_cell, shown_path


def _path(path: str) -> str:
    return escape_text(shown_path(path))


def _body(d: Diagnostic, full: bool = False) -> str:
    """`CODE severity: message`: the part of a line after the location."""
    message = d.message if full or not d.concise else d.concise
    return f"{d.code} {d.severity}: {escape_text(message)}"


def render(diagnostics: list[Diagnostic], base: str, full: bool = False) -> str:
    lines: list[str] = []
    for d in diagnostics:
        lines.append(f"{_path(d.path)}:{in_cell(d.cell)}{d.loc.line}:{d.loc.col + 1}: {_body(d, full)}")
        if full:
            lines += [f"    {_path(r.path)}:{in_cell(r.cell)}{r.loc.line}:{r.loc.col + 1}: {escape_text(r.message)}"
                      for r in d.related]
    lines.append(summary(diagnostics))
    return "\n".join(lines) + "\n"


def render_full(diagnostics: list[Diagnostic], base: str) -> str:
    return render(diagnostics, base, full=True)


def render_grouped(diagnostics: list[Diagnostic], base: str) -> str:
    """Each file's name, then its findings as `line:col CODE severity: message`, a blank line after."""
    lines: list[str] = []
    for path, group in groupby(diagnostics, key=lambda d: _path(d.path)):
        lines.append(f"{path}:")
        lines += [f"  {in_cell(d.cell)}{d.loc.line}:{d.loc.col + 1} {_body(d)}" for d in group]
        lines.append("")
    lines.append(summary(diagnostics))
    return "\n".join(lines) + "\n"


def render_pylint(diagnostics: list[Diagnostic], base: str) -> str:
    """pylint's parseable layout as ruff writes it, with the severity before the message."""
    return "".join(f"{_path(d.path)}:{in_cell(d.cell)}{d.loc.line}: [{d.code}] {d.severity}: {escape_text(d.concise or d.message)}\n"
                   for d in diagnostics)


def summary(diagnostics: list[Diagnostic]) -> str:
    """`Found 3 findings (1 error, 2 warnings).`, or `All checks passed.`"""
    n = len(diagnostics)
    if not n:
        return "All checks passed."
    errors = sum(1 for d in diagnostics if d.severity == "error")
    parts = [f"{k} {word}{'s' if k != 1 else ''}" for k, word in ((errors, "error"), (n - errors, "warning")) if k]
    return f"Found {n} finding{'s' if n != 1 else ''} ({', '.join(parts)})."
