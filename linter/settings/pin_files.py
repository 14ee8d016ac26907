"""Where a project's pin files are and what bytes they hold, without reading what they pin
(`siblint.settings.pins` reads that): a warm run re-checks a cached entry's pins by these bytes
alone, and so imports no `packaging`."""

from __future__ import annotations

import os
import re

from ..common.reading import read_bounded

PIN_MAX_BYTES = 8_000_000  # a lock file of a large monorepo stays well below this
LOCK_FILES = ("uv.lock", "poetry.lock", "pdm.lock")
PIN_FILES = (*LOCK_FILES, "pyproject.toml")
REQUIREMENTS = re.compile(r"requirements[\w.-]*\.(txt|in)$")


def pin_folder(folder: str, top: str) -> str | None:
    """The nearest folder at or above `folder` (not above `top`) that holds a pin file."""
    folder, top = os.path.abspath(folder), os.path.abspath(top)
    while True:
        names = _listing(folder)
        if any(n in names for n in PIN_FILES) or any(REQUIREMENTS.match(n) for n in names):
            return folder
        if folder == top or not folder.startswith(top.rstrip(os.sep) + os.sep):
            return None
        folder = os.path.dirname(folder)


def _listing(folder: str) -> list[str]:
    try:
        return sorted(os.listdir(folder))
    except OSError:
        return []


def pin_sources(folder: str) -> list[str]:
    """The names of the files `read_pins` reads in `folder`, in the order it reads them."""
    names = _listing(folder)
    return [*(n for n in names if REQUIREMENTS.match(n)), *(n for n in ("pyproject.toml", *LOCK_FILES) if n in names)]


def pin_bytes(path: str) -> bytes | None:
    """A pin file's bytes as `read_pins` would read them (None: unreadable)."""
    try:
        return read_bounded(path, PIN_MAX_BYTES, follow_symlinks=False)
    except OSError:
        return None
