"""SARIF 2.1.0 for GitHub code scanning: every rule in tool.driver.rules, repo-relative URIs."""

from __future__ import annotations

import json
import os
from pathlib import Path
from urllib.parse import quote

from siblint import __version__
from siblint.diagnostics import Diagnostic, Loc
from siblint.registry import all_rules

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def _uri(path: str, base: str) -> str:
    """A URI relative to `base` (the repository root), or an absolute file URI outside it."""
    full = os.path.abspath(path)
    rel = os.path.relpath(full, base) if os.path.splitdrive(full)[0] == os.path.splitdrive(base)[0] else ".."
    if rel == ".." or rel.startswith(".." + os.sep):
        return Path(full).as_uri()
    return quote(rel.replace(os.sep, "/"))


def _region(loc: Loc) -> dict:
    return {"startLine": loc.line, "startColumn": loc.col + 1, "endLine": loc.end_line, "endColumn": loc.end_col + 1}


def _level(severity: str) -> str:
    return "warning" if severity == "warning" else "error"


def render(diagnostics: list[Diagnostic], base: str) -> str:
    rules = all_rules()
    index = {r.code: i for i, r in enumerate(rules)}
    driver_rules = [
        {
            "id": r.code,
            "name": r.name,
            "shortDescription": {"text": r.summary},
            "fullDescription": {"text": r.doc()},
            "help": {"text": r.doc(), "markdown": r.doc()},
            "defaultConfiguration": {"level": _level(r.severity), "enabled": r.default_enabled},
        }
        for r in rules
    ]
    results = []
    for d in diagnostics:
        result = {
            "ruleId": d.code,
            "ruleIndex": index[d.code],
            "level": _level(d.severity),
            "message": {"text": d.message},
            "locations": [{"physicalLocation": {"artifactLocation": {"uri": _uri(d.path, base)}, "region": _region(d.loc)}}],
        }
        if d.related:
            result["relatedLocations"] = [
                {
                    "id": i,
                    "message": {"text": r.message},
                    "physicalLocation": {"artifactLocation": {"uri": _uri(r.path, base)}, "region": _region(r.loc)},
                }
                for i, r in enumerate(d.related)
            ]
        results.append(result)
    doc = {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": {"name": "siblint", "version": __version__, "informationUri": "https://pypi.org/project/siblint/", "rules": driver_rules}},
                "columnKind": "unicodeCodePoints",  # libcst columns count code points
                "results": results,
            }
        ],
    }
    return json.dumps(doc, indent=2) + "\n"
