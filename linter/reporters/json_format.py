"""JSON: an array with one object per finding (`json`), or one object per line (`json-lines`, for
streaming consumers). Columns are 1-based as in the text output; paths as `shown_path` spells them.

`fix` is ruff's: null, or the applicability, what the fix does (its first clause), and its edits (1-based `row` and
`column` of the text that was checked; none for a display-only fix, which is never applied)."""

from __future__ import annotations

import bisect
import json
from typing import Any

from ..common.diagnostics import Diagnostic
from ..common.lines import line_starts
from ..rule_api.fixes import Fix, FixSpec, title_of
from .paths import shown_path


def as_dict(d: Diagnostic, fix: dict[str, Any] | None = None) -> dict:
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
        "fix": fix,
    })


def _with_cell(cell: int, record: dict) -> dict:
    """In a Jupyter notebook, `cell` (from 1, as ruff's JSON has it): the lines are the cell's."""
    return {**record, "cell": cell} if cell else record


def fix_dict(fix: Fix, text: str) -> dict[str, Any]:
    """ruff's `fix` object for `fix`, whose edits are character offsets of `text`."""
    starts = line_starts(text)

    def location(offset: int) -> dict[str, int]:
        row = bisect.bisect_right(starts, offset)
        return {"row": row, "column": offset - starts[row - 1] + 1}

    return {"applicability": fix.applicability, "message": title_of(fix.description),
            "edits": [{"content": e.content, "location": location(e.start), "end_location": location(e.end)}
                      for e in fix.edits]}


def _fixes(diagnostics: list[Diagnostic]) -> list[dict[str, Any] | None]:
    """Each finding's `fix` (a rule's display-only fix is shown with no edits)."""
    from ..interfaces.fixing import fix_specs, fixes_with_text

    specs: dict[str, FixSpec] = fix_specs()
    found = fixes_with_text(diagnostics)
    out: list[dict[str, Any] | None] = []
    for d in diagnostics:
        spec = specs.get(d.code)
        if d in found:
            out.append(fix_dict(*found[d]))
        elif spec is not None and spec.action is None:
            out.append({"applicability": spec.applicability, "message": title_of(spec.description), "edits": []})
        else:
            out.append(None)
    return out


def render(diagnostics: list[Diagnostic], base: str) -> str:
    return json.dumps([as_dict(d, f) for d, f in zip(diagnostics, _fixes(diagnostics))], indent=2) + "\n"


def render_lines(diagnostics: list[Diagnostic], base: str) -> str:
    return "".join(json.dumps(as_dict(d, f)) + "\n" for d, f in zip(diagnostics, _fixes(diagnostics)))
