"""Output formats: each module renders a sorted list of findings to one string.

A renderer takes the findings and `base`, the folder that report paths are made relative to where
a format needs it (SARIF's repo-relative URIs); see `report_base`.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Iterator, Mapping

from ..common.diagnostics import Diagnostic

Renderer = Callable[[list[Diagnostic], str], str]


class _Renderers(Mapping[str, Renderer]):
    """Format name -> renderer, each module imported when its format is used (a run prints one)."""

    _MODULES = {"text": "text", "json": "json_format", "sarif": "sarif", "github": "github"}

    def __getitem__(self, name: str) -> Renderer:
        render: Renderer = importlib.import_module(f"{__name__}.{self._MODULES[name]}").render
        return render

    def __iter__(self) -> Iterator[str]:
        return iter(self._MODULES)

    def __len__(self) -> int:
        return len(self._MODULES)


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
