"""Output formats: each module renders a sorted list of findings to one string."""

from __future__ import annotations

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
