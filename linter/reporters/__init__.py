"""Output formats: each module renders a sorted list of findings to one string.

A renderer takes the findings and `base`, the folder that report paths are made relative to where
a format needs it (SARIF's repo-relative URIs); see `report_base`.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from siblint.diagnostics import Diagnostic
from siblint.reporters import github, json_format, sarif, text

Renderer = Callable[[list[Diagnostic], str], str]

FORMATS: dict[str, Renderer] = {
    "text": text.render,
    "json": json_format.render,
    "sarif": sarif.render,
    "github": github.render,
}


def report_base(start: str | None = None) -> str:
    """The repository root above `start` (default: the cwd), else `start` itself.

    GitHub code scanning wants URIs relative to the repository root, wherever siblint ran from.
    """
    here = os.path.abspath(start or os.getcwd())
    for folder in (here, *_parents(here)):
        if os.path.exists(os.path.join(folder, ".git")):
            return folder
    return here


def _parents(path: str) -> list[str]:
    out = []
    while (parent := os.path.dirname(path)) != path:
        out.append(parent)
        path = parent
    return out
