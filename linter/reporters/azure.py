"""Azure Pipelines logging commands, `##vso[task.logissue ...]message`: one issue per finding on
the build summary, paths relative to the repository root. The log shows ANSI colours, so controls
are spelled out first (`escape_text`: a newline becomes `\\n`), then values are escaped as the
agent's own task library escapes them (`%` first, so no escape is read twice)."""

from __future__ import annotations

from ..common.diagnostics import Diagnostic
from ..common.escape import escape_text
from .paths import cell_said, repo_relative

_DATA = (("%", "%AZP25"), ("\r", "%0D"), ("\n", "%0A"))
_PROPERTY = (*_DATA, ("]", "%5D"), (";", "%3B"))


def _escape(text: str, table: tuple[tuple[str, str], ...]) -> str:
    text = escape_text(text)
    for raw, escaped in table:
        text = text.replace(raw, escaped)
    return text


def render(diagnostics: list[Diagnostic], base: str) -> str:
    out = []
    for d in diagnostics:
        level = "warning" if d.severity == "warning" else "error"
        props = {"type": level, "sourcepath": repo_relative(d.path, base), "linenumber": d.loc.line,
                 "columnnumber": d.loc.col + 1, "code": d.code}
        spelled = "".join(f"{k}={_escape(str(v), _PROPERTY)};" for k, v in props.items())
        out.append(f"##vso[task.logissue {spelled}]{_escape(cell_said(d.concise or d.message, d.cell), _DATA)}\n")
    return "".join(out)
