"""Output formats: each renders a sorted list of findings to one string, under ruff's names.

A renderer takes the findings and `base`, the folder that report paths are made relative to where
a format needs it (SARIF's repo-relative URIs); see `report_base`. Each format's module is imported
only when that format is used (a run prints one).
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Iterator, Mapping

from ..common.diagnostics import Diagnostic

Renderer = Callable[[list[Diagnostic], str], str]

# Format name -> (module, function). The order is ruff's, for `--help`.
_RENDERERS = {
    "concise": ("text", "render"),
    "full": ("text", "render_full"),
    "json": ("json_format", "render"),
    "json-lines": ("json_format", "render_lines"),
    "junit": ("junit", "render"),
    "grouped": ("text", "render_grouped"),
    "github": ("github", "render"),
    "gitlab": ("gitlab", "render"),
    "pylint": ("text", "render_pylint"),
    "rdjson": ("rdjson", "render"),
    "azure": ("azure", "render"),
    "sarif": ("sarif", "render"),
}
# Names earlier siblint releases took (`--format text`); accepted, not listed.
ALIASES = {"text": "concise"}
# Formats a person reads: the severities are coloured and `--quiet` drops the summary line.
TEXT_FORMATS = frozenset({"concise", "full", "grouped"})


def canonical(name: str) -> str:
    return ALIASES.get(name, name)


class _Renderers(Mapping[str, Renderer]):
    """Format name -> renderer, each module imported when its format is used."""

    def __getitem__(self, name: str) -> Renderer:
        module, function = _RENDERERS[canonical(name)]
        render: Renderer = getattr(importlib.import_module(f"{__name__}.{module}"), function)
        return render

    def __iter__(self) -> Iterator[str]:
        return iter(_RENDERERS)

    def __len__(self) -> int:
        return len(_RENDERERS)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and canonical(name) in _RENDERERS


FORMATS: Mapping[str, Renderer] = _Renderers()


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
