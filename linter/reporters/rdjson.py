"""reviewdog's Diagnostic Format (rdjson, `reviewdog -f=rdjson`): one DiagnosticResult. Its
columns count UTF-8 bytes, so each is measured on the source line (code points when the file
cannot be read, e.g. stdin)."""

from __future__ import annotations

import json

from ..common.diagnostics import Diagnostic
from ..interfaces.docs import REPOSITORY_URL, rule_url
from .fingerprints import SourceLines
from .paths import shown_path


def _column(lines: SourceLines, path: str, line: int, col: int) -> int:
    text = lines.get(path, line)
    return len(text[:col].encode("utf-8")) + 1 + max(0, col - len(text))


def _diagnostic(d: Diagnostic, lines: SourceLines) -> dict:
    return {
        "message": d.concise or d.message,
        "location": {
            "path": shown_path(d.path),
            "range": {
                "start": {"line": d.loc.line, "column": _column(lines, d.path, d.loc.line, d.loc.col)},
                "end": {"line": d.loc.end_line, "column": _column(lines, d.path, d.loc.end_line, d.loc.end_col)},
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
