"""GitHub Actions workflow commands: annotations on the pull request diff, with paths relative to
the repository root (where the runner resolves them), whatever folder siblint ran in."""

from __future__ import annotations

from ..common.diagnostics import Diagnostic
from ..common.escape import UNSAFE
from .paths import cell_said, repo_relative


def _escape_data(s: str) -> str:
    """The runner's escapes for `%`, CR and LF, and every other control, line separator or bidi
    override percent-encoded too: raw, click strips an ANSI sequence from a piped line, so
    `\x1b[31mred\x1b[0m.py` was annotated as another file, `red.py` (issue 22 L13)."""
    return UNSAFE.sub(lambda m: "".join(f"%{b:02X}" for b in m.group().encode()), s.replace("%", "%25"))


def _escape_prop(s: str) -> str:
    return _escape_data(s).replace(":", "%3A").replace(",", "%2C")


def render(diagnostics: list[Diagnostic], base: str) -> str:
    out = []
    for d in diagnostics:
        level = "warning" if d.severity == "warning" else "error"
        out.append(
            f"::{level} file={_escape_prop(repo_relative(d.path, base))},line={d.loc.line},col={d.loc.col + 1},"
            f"endLine={d.loc.end_line},endColumn={d.loc.end_col + 1},"
            f"title={_escape_prop(f'siblint ({d.code})')}::{_escape_data(cell_said(d.message, d.cell))}"
        )
    return "".join(line + "\n" for line in out)
