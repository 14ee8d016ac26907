"""How reports name files: the path a finding was checked under, and related locations beside it."""

from __future__ import annotations

import os


def shown_path(path: str, base: str | None = None) -> str:
    """A related location's `path`, relative to `base` (default: the working folder) when it lies
    under it, else absolute. One spelling however the run reached the module: analysed under the
    name discovery gave it (`./pkg/x.py`), or loaded through an import by its absolute path."""
    full = os.path.abspath(path)
    base = os.path.abspath(base or os.getcwd())
    try:
        rel = os.path.relpath(full, base)
    except ValueError:  # another drive (Windows)
        return full
    return full if rel.startswith(os.pardir) else rel


def repo_relative(path: str, base: str) -> str:
    """`path` (relative to the working folder, or absolute) relative to `base`, the repository root:
    what GitHub annotations and code scanning want wherever siblint ran from."""
    rel = os.path.relpath(os.path.abspath(path), base)
    return path if rel.startswith(os.pardir) else rel.replace(os.sep, "/")


def in_cell(cell: int) -> str:
    """`cell 3:` before a line number in a Jupyter notebook (ruff's spelling); "" elsewhere."""
    return f"cell {cell}:" if cell else ""


def cell_said(message: str, cell: int) -> str:
    """A message that names its notebook cell, for formats whose location has a line but no cell
    (their line is the line within that cell)."""
    return f"cell {cell}: {message}" if cell else message
