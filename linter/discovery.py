"""Which files a run checks: the given paths, folders walked for .py/.pyi, excludes applied.

A folder named on the command line is always walked; everything found in it, and every file named
on the command line, is subject to `exclude` / `extend-exclude` (gitignore patterns relative to the
folder of the config that applies there) and, unless `respect-gitignore = false`, to the
repository's `.gitignore` files.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from siblint.config import Config
from siblint.gitignore import GitIgnore

EXTENSIONS = (".py", ".pyi")


@dataclass
class Discovery:
    files: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)


class Skip:
    """Excludes and .gitignore, with the config of the folder an entry sits in."""

    def __init__(self, settings: Config | Callable[[str], Config]) -> None:
        self.config_for_folder = settings if callable(settings) else (lambda _folder: settings)
        self.gitignore = GitIgnore()

    def __call__(self, path: str, is_dir: bool) -> bool:
        path = os.path.abspath(path)
        config = self.config_for_folder(os.path.dirname(path))
        if config.is_excluded(path, is_dir, absolute=True):
            return True
        return config.respect_gitignore and self.gitignore.ignored(path, is_dir, absolute=True)

    def walk_would_skip(self, path: str, top: str) -> bool:
        """Would walking `top` leave out the file `path`? (It, or a folder between, is skipped.)
        The flake8 plugin asks this for each file flake8 hands it, with `top` the working folder."""
        path, top = os.path.abspath(path), os.path.abspath(top)
        if self(path, False):
            return True
        folder = os.path.dirname(path)
        while folder != top and folder.startswith(top + os.sep):
            if self(folder, True):
                return True
            folder = os.path.dirname(folder)
        return False


def discover(paths: list[str], settings: Config | Callable[[str], Config]) -> Discovery:
    """Files under `paths` in a stable order; a missing path is recorded, never skipped silently.

    `settings` is one Config for every file, or a function from a folder to its Config."""
    found = Discovery()
    seen: set[str] = set()
    visited_dirs: set[tuple[int, int]] = set()
    skip = Skip(settings)
    for given in paths:
        if not os.path.lexists(given):
            found.missing.append(given)
            continue
        for path in _walk(given, skip, found, visited_dirs, explicit=True):
            key = os.path.normcase(os.path.abspath(path))
            if key not in seen:
                seen.add(key)
                found.files.append(path)
    found.files.sort()
    return found


def _walk(path: str, skip: Skip, found: Discovery, visited: set[tuple[int, int]], explicit: bool) -> Iterator[str]:
    try:
        st = os.stat(path)
    except OSError as exc:  # a dangling link, a symlink loop, no permission to stat
        found.warnings.append(f"{path}: skipped ({exc.strerror or exc})")
        return
    if stat.S_ISDIR(st.st_mode):
        if (st.st_dev, st.st_ino) in visited:
            found.warnings.append(f"{path}: skipped (directory already visited: symlink loop?)")
            return
        visited.add((st.st_dev, st.st_ino))
        if not explicit and skip(path, True):
            return
        try:
            entries = sorted(os.scandir(path), key=lambda e: e.name)
        except OSError as exc:
            found.warnings.append(f"{path}: skipped ({exc.strerror or exc})")
            return
        for entry in entries:
            if entry.name.startswith(".") and entry.is_dir(follow_symlinks=False) and skip(entry.path, True):
                continue
            if entry.name.endswith(EXTENSIONS) or _maybe_dir(entry):
                yield from _walk(entry.path, skip, found, visited, explicit=False)
        return
    if not stat.S_ISREG(st.st_mode):  # FIFO, socket, device: reading could block for ever
        found.warnings.append(f"{path}: skipped (not a regular file)")
        return
    if not explicit and not path.endswith(EXTENSIONS):
        return
    # Excludes apply to files named on the command line too, as in flake8: pre-commit passes
    # every staged file by name, and `exclude` must still keep generated code out.
    if skip(path, False):
        return
    yield path


def _maybe_dir(entry: os.DirEntry) -> bool:
    """entry.is_dir(), but a symlink loop (ELOOP) is handed to `_walk`, which warns and skips it."""
    try:
        return entry.is_dir()
    except OSError:
        return True
