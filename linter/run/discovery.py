"""Which files a run checks: the given paths, folders walked for .py/.pyi, Jupyter notebooks
(.ipynb) and TS/JS sources (.ts .tsx .mts .cts .js .jsx .mjs .cjs), excludes applied.

A folder named on the command line is always walked; everything found in it, and every file named
on the command line, is subject to `exclude` / `extend-exclude` (gitignore patterns relative to the
folder of the config that applies there) and, unless `respect-gitignore = false`, to the
repository's `.gitignore` files.

Symlinks found while walking: in a CI gate the tree is the pull request's, and a committed
`root -> /` would walk the whole filesystem, or `x -> ~/secrets` analyse code outside the
repository. So by default a link to a folder is not followed, and a link whose target lies outside
the project (the config's folder and the folders named on the command line) is skipped with a
warning. `follow_symlinks` (`--follow-symlinks`) follows both. Paths named on the command line are
taken as given. The walk keeps its own stack, so a tree of any depth is fine.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from dataclasses import dataclass, field

from ..js import EXTENSIONS as JS_EXTENSIONS
from ..settings.config import Config
from ..settings.excludes import Skip
from ..syntax.prefilter import NOTEBOOK_SUFFIX

# Jupyter notebooks too, unless `notebooks = false` (settings.excludes leaves them out).
EXTENSIONS = (".py", ".pyi", *JS_EXTENSIONS, NOTEBOOK_SUFFIX)


@dataclass
class Discovery:
    files: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)




def discover(paths: list[str], settings: Config | Callable[[str], Config], follow_symlinks: bool = False) -> Discovery:
    """Files under `paths` in a stable order; a missing path is recorded, never skipped silently.

    `settings` is one Config for every file, or a function from a folder to its Config."""
    found = Discovery()
    seen: set[str] = set()
    skip = Skip(settings)
    roots = [skip.config_for_folder(os.path.abspath(p if os.path.isdir(p) else os.path.dirname(p) or ".")).root
             for p in paths]
    walker = _Walker(skip, found, follow_symlinks, [*dict.fromkeys(roots), *paths])
    for given in paths:
        if not os.path.lexists(given):
            found.missing.append(given)
            continue
        for path in walker.walk(given):
            key = os.path.normcase(os.path.abspath(path))
            if key not in seen:
                seen.add(key)
                found.files.append(path)
    found.files.sort()
    return found


class _Walker:
    def __init__(self, skip: Skip, found: Discovery, follow_symlinks: bool, roots: list[str]) -> None:
        self.skip = skip
        self.found = found
        self.follow = follow_symlinks
        self.visited: set[tuple[int, int]] = set()
        # Real paths, with a trailing separator: a link's target must be one of them or below.
        self.roots = tuple(os.path.join(os.path.realpath(r if os.path.isdir(r) else os.path.dirname(r) or "."), "")
                           for r in roots)

    def _warn(self, path: str, why: str) -> None:
        # One spelling with the report: `b.py`, never the walk's `./b.py`.
        self.found.warnings.append(f"{os.path.normpath(path)}: skipped ({why})")

    def walk(self, given: str) -> list[str]:
        out: list[str] = []
        stack: list[tuple[str, bool]] = [(given, True)]
        while stack:
            path, explicit = stack.pop()
            children = self._visit(path, explicit, out)
            stack.extend((c, False) for c in reversed(children))
        return out

    def _visit(self, path: str, explicit: bool, out: list[str]) -> list[str]:
        """Add `path` to `out` if it is a file to check; the entries to walk if it is a folder."""
        if not explicit and os.path.islink(path) and not self._link_allowed(path):
            return []
        try:
            st = os.stat(path)
        except OSError as exc:  # a dangling link, a symlink loop, no permission to stat
            self._warn(path, exc.strerror or str(exc))
            return []
        if stat.S_ISDIR(st.st_mode):
            if (st.st_dev, st.st_ino) in self.visited:
                self._warn(path, "directory already visited: symlink loop?")
                return []
            self.visited.add((st.st_dev, st.st_ino))
            if not explicit and self.skip(path, True):
                return []
            try:
                entries = sorted(os.scandir(path), key=lambda e: e.name)
            except OSError as exc:
                self._warn(path, exc.strerror or str(exc))
                return []
            return [e.path for e in entries
                    if not (e.name.startswith(".") and e.is_dir(follow_symlinks=False) and self.skip(e.path, True))
                    and (e.name.endswith(EXTENSIONS) or _maybe_dir(e))]
        if not stat.S_ISREG(st.st_mode):  # FIFO, socket, device: reading could block for ever
            self._warn(path, "not a regular file")
            return []
        if not explicit and not path.endswith(EXTENSIONS):
            return []
        # Excludes apply to files named on the command line too, as in flake8: pre-commit passes
        # every staged file by name, and `exclude` must still keep generated code out.
        if not self.skip(path, False):
            out.append(path)
        return []

    def _link_allowed(self, path: str) -> bool:
        if self.follow:
            return True
        target = os.path.realpath(path)
        if not os.path.join(target, "").startswith(self.roots):
            self._warn(path, "symbolic link to outside the project; --follow-symlinks follows it")
            return False
        return not os.path.isdir(target)  # a folder inside the project is walked under its own name


def _maybe_dir(entry: os.DirEntry) -> bool:
    """entry.is_dir(), but a symlink loop (ELOOP) is handed to the walk, which warns and skips it."""
    try:
        return entry.is_dir()
    except OSError:
        return True
