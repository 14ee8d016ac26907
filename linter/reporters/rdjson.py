"""reviewdog's Diagnostic Format (rdjson, `reviewdog -f=rdjson`): one DiagnosticResult. Its
columns count UTF-8 bytes, so each is measured on the source line (code points when the file
cannot be read, e.g. stdin)."""

from __future__ import annotations

import json

from ..common.diagnostics import Diagnostic
from ..interfaces.docs import REPOSITORY_URL, rule_url
from .fingerprints import SourceLines
from .paths import cell_said, shown_path


def _column(lines: SourceLines, d: Diagnostic, line: int, col: int) -> int:
    text = lines.get(d.path, line, d.cell)
    return len(text[:col].encode("utf-8")) + 1 + max(0, col - len(text))


def _diagnostic(d: Diagnostic, lines: SourceLines) -> dict:
    return {
        "message": cell_said(d.concise or d.message, d.cell),
        "location": {
            "path": shown_path(d.path),
            "range": {
                "start": {"line": d.loc.line, "column": _column(lines, d, d.loc.line, d.loc.col)},
                "end": {"line": d.loc.end_line, "column": _column(lines, d, d.loc.end_line, d.loc.end_col)},
            },
        },
        "severity": d.severity.upper(),
        "code": {"value": d.code, "url": rule_url(d.code)},
    }


def render(diagnostics: list[Diagnostic], base: str) -> str:
    lines = SourceLines()
    doc = {
        "source": {"name": "siblint", "url": REPOSITORY_URL},
        "severity": "ERROR" if any(d.severity == "error" for d in diagnostics) else "WARNING",
        "diagnostics": [_diagnostic(d, lines) for d in diagnostics],
    }
    return json.dumps(doc, indent=2) + "\n"
