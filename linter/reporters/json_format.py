"""JSON: an array with one object per finding (`json`), or one object per line (`json-lines`, for
streaming consumers). Columns are 1-based as in the text output; paths as `shown_path` spells them."""

from __future__ import annotations

import json

from ..common.diagnostics import Diagnostic
from .paths import shown_path


def as_dict(d: Diagnostic) -> dict:
    return _with_cell(d.cell, {
        "path": shown_path(d.path),
        "line": d.loc.line,
        "column": d.loc.col + 1,
        "end_line": d.loc.end_line,
        "end_column": d.loc.end_col + 1,
        "code": d.code,
        "name": d.name,
        "message": d.message,
        "severity": d.severity,
        "related": [
            _with_cell(r.cell, {"path": shown_path(r.path), "line": r.loc.line, "column": r.loc.col + 1, "message": r.message})
            for r in d.related
        ],
    })


def _with_cell(cell: int, record: dict) -> dict:
    """In a Jupyter notebook, `cell` (from 1, as ruff's JSON has it): the lines are the cell's."""
    return {**record, "cell": cell} if cell else record


def render(diagnostics: list[Diagnostic], base: str) -> str:
    return json.dumps([as_dict(d) for d in diagnostics], indent=2) + "\n"


def render_lines(diagnostics: list[Diagnostic], base: str) -> str:
    return "".join(json.dumps(as_dict(d)) + "\n" for d in diagnostics)
