"""GitLab Code Quality: the JSON array a job uploads as `artifacts:reports:codequality`, shown on
the merge request. Paths are relative to the repository root, where GitLab resolves them; the
fingerprint follows the finding when lines above it move (the one SARIF uses), so an unchanged
finding is not reported as new."""

from __future__ import annotations

import json

from ..common.diagnostics import Diagnostic
from .fingerprints import fingerprints
from .paths import cell_said, repo_relative

# GitLab's levels are info, minor, major, critical, blocker.
_SEVERITY = {"error": "major", "warning": "minor"}


def render(diagnostics: list[Diagnostic], base: str) -> str:
    paths = [repo_relative(d.path, base) for d in diagnostics]
    issues = [
        {
            "type": "issue",
            "check_name": d.code,
            "description": f"{d.code}: {cell_said(d.concise or d.message, d.cell)}",
            "categories": ["Bug Risk"],
            "severity": _SEVERITY.get(d.severity, "major"),
            "fingerprint": fingerprint,
            "location": {"path": path, "lines": {"begin": d.loc.line, "end": d.loc.end_line}},
        }
        for d, path, fingerprint in zip(diagnostics, paths, fingerprints(diagnostics, paths))
    ]
    return json.dumps(issues, indent=2) + "\n"
