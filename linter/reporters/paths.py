"""How reports name files: the path a finding was checked under, and related locations beside it."""

from __future__ import annotations

import os


def shown_path(path: str, base: str | None = None) -> str:
    """`path` relative to `base` (default: the working folder) when it lies under it, else as given.
    Modules reached through imports are known by absolute path; the findings' own paths are the
    ones discovery produced (relative to where siblint ran)."""
    if not os.path.isabs(path):
        return path
    base = os.path.abspath(base or os.getcwd())
    try:
        rel = os.path.relpath(path, base)
    except ValueError:  # another drive (Windows)
        return path
    return path if rel.startswith(os.pardir) else rel


def repo_relative(path: str, base: str) -> str:
    """`path` (relative to the working folder, or absolute) relative to `base`, the repository root:
    what GitHub annotations and code scanning want wherever siblint ran from."""
    rel = os.path.relpath(os.path.abspath(path), base)
    return path if rel.startswith(os.pardir) else rel.replace(os.sep, "/")
