"""SARIF 2.1.0 for GitHub code scanning: every rule in tool.driver.rules (with `helpUri`, the rule's
page in the repository), repo-relative URIs, `partialFingerprints` that survive line moves, and
related locations linked from the message text (`[text](id)`, SARIF 2.1.0 section 3.11.6)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from urllib.parse import quote

from .. import __version__
from ..common.diagnostics import Diagnostic, Loc
from ..interfaces.docs import REPOSITORY_URL, rule_url
from ..rule_api.registry import all_rules
from .fingerprints import fingerprints

# Bump the suffix only if the algorithm changes: it re-opens every alert once.
FINGERPRINT_KEY = "siblintContext/v1"
_BRACKETS = re.compile(r"([\\\[\]])")

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


def _physical(uri: str, loc: Loc, cell: int) -> dict:
    """Where a finding is; in a Jupyter notebook the region's lines are those of the cell named in
    the location's `properties` (the notebook file itself is JSON)."""
    where: dict = {"physicalLocation": {"artifactLocation": {"uri": uri}, "region": _region(loc)}}
    if cell:
        where["properties"] = {"cell": cell}
    return where


def _level(severity: str) -> str:
    return "warning" if severity == "warning" else "error"


def _escape(text: str) -> str:
    """Literal brackets (and backslashes) in a message with embedded links are escaped (3.11.6)."""
    return _BRACKETS.sub(r"\\\1", text)


def _message(d: Diagnostic) -> str:
    if not d.related:
        return d.message
    links = "; ".join(f"[{_escape(r.message)}]({i})" for i, r in enumerate(d.related))
    text = _escape(d.message)
    return f"{text}{'' if text.endswith(('.', '!', '?')) else '.'} Related: {links}."


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
            "helpUri": rule_url(r.code),
            "defaultConfiguration": {"level": _level(r.severity), "enabled": r.default_enabled},
        }
        for r in rules
    ]
    results = []
    uris = [_uri(d.path, base) for d in diagnostics]
    for d, uri, fingerprint in zip(diagnostics, uris, fingerprints(diagnostics, uris)):
        result = {
            "ruleId": d.code,
            "ruleIndex": index[d.code],
            "level": _level(d.severity),
            "message": {"text": _message(d)},
            "locations": [_physical(uri, d.loc, d.cell)],
            "partialFingerprints": {FINGERPRINT_KEY: fingerprint},
        }
        if d.related:
            result["relatedLocations"] = [
                {"id": i, "message": {"text": r.message}, **_physical(_uri(r.path, base), r.loc, r.cell)}
                for i, r in enumerate(d.related)
            ]
        results.append(result)
    doc = {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": {"name": "siblint", "version": __version__, "informationUri": REPOSITORY_URL, "rules": driver_rules}},
                "columnKind": "unicodeCodePoints",  # libcst columns count code points
                "results": results,
            }
        ],
    }
    return json.dumps(doc, indent=2) + "\n"
