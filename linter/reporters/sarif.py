"""SARIF 2.1.0 for GitHub code scanning: every rule in tool.driver.rules, repo-relative URIs."""

from __future__ import annotations

import json
import os

from siblint import __version__
from siblint.diagnostics import Diagnostic, Loc
from siblint.registry import all_rules

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def _uri(path: str, root: str) -> str:
    rel = os.path.relpath(os.path.abspath(path), root) if os.path.isabs(path) or os.path.exists(path) else path
    return rel.replace(os.sep, "/")


def _region(loc: Loc) -> dict:
    return {"startLine": loc.line, "startColumn": loc.col + 1, "endLine": loc.end_line, "endColumn": loc.end_col + 1}


def _level(severity: str) -> str:
    return "warning" if severity == "warning" else "error"


def render(diagnostics: list[Diagnostic], root: str) -> str:
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
            "locations": [{"physicalLocation": {"artifactLocation": {"uri": _uri(d.path, root)}, "region": _region(d.loc)}}],
        }
        if d.related:
            result["relatedLocations"] = [
                {
                    "id": i,
                    "message": {"text": r.message},
                    "physicalLocation": {"artifactLocation": {"uri": _uri(r.path, root)}, "region": _region(r.loc)},
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
                "results": results,
            }
        ],
    }
    return json.dumps(doc, indent=2) + "\n"
