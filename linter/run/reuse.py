"""When cached findings of a file still hold, and what to record so the next run can tell.

Findings of a file are reused only when its bytes and its module name are unchanged and every
module its rules looked up through the ProjectIndex still resolves to the same file with the same
content, or is still not found. `siblint check` keeps them in the cache's index (`siblint.run.runner`);
front ends that see one file at a time (the flake8 plugin, so pre-commit's flake8 hook too) keep
one cache file per checked file (`FileFindings`), since several of their processes write at once.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from ..common.reading import read_bounded
from .cache import Cache, Dep, Entry, content_hash

if TYPE_CHECKING:
    from ..common.diagnostics import Diagnostic
    from ..model.project import ProjectIndex

ShaOf = Callable[[str], "str | None"]


def still_valid(entry: Entry, path: str, project: "ProjectIndex", sha_of: ShaOf) -> bool:
    """`entry`'s findings of `path` hold: the same module name and import aliases, every lookup
    answered as before."""
    return entry.module == _identity(path) and all(
        project.locate(d.module) == d.path and (d.path is None or sha_of(d.path) == d.sha) for d in entry.deps)


def _identity(path: str) -> str:
    """The file's module name, and for a JS file the digest of the tsconfig `paths` its imports
    resolve through: an edited alias outdates its findings as a rename would."""
    from ..js.modules import resolution_context
    from ..model.project import module_name_for

    context = resolution_context(path)
    return f"{module_name_for(path)[0]}\0{context}" if context else module_name_for(path)[0]


def entry_of(path: str, sha: str, diagnostics: list["Diagnostic"], trace: dict[str, str | None],
             sha_of: ShaOf, skipped: bool = False) -> Entry:
    """What to record: every lookup the rules made, found or not, and the file's own name
    (`skipped`: the lookups that decided not to analyse the file, see `Entry.skipped`)."""
    deps = [Dep(m, p, sha_of(p) if p else None) for m, p in sorted(trace.items())]
    return Entry(sha, diagnostics, deps, _identity(path), skipped)


@contextmanager
def traced(project: "ProjectIndex") -> Iterator[dict[str, str | None]]:
    """The modules looked up through `project` while the block runs (module -> file, or None)."""
    trace: dict[str, str | None] = {}
    project.trace = trace
    try:
        yield trace
    finally:
        project.trace = None


class FileFindings:
    """One file's findings under one configuration, one cache file each (see the module doc)."""

    def __init__(self, cache: Cache, project: "ProjectIndex", max_file_size: int, context: str) -> None:
        self.cache = cache
        self.project = project
        self.max_file_size = max_file_size
        self.context = f"{cache.config_key}\0{context}"
        self.shas: dict[str, str | None] = {}  # dependency -> content hash, read once per run

    def sha_of(self, path: str) -> str | None:
        if path not in self.shas:
            try:
                self.shas[path] = content_hash(read_bounded(path, self.max_file_size))
            except OSError:
                self.shas[path] = None
        return self.shas[path]

    def _key(self, path: str, sha: str) -> str:
        from ..model.project import module_name_for

        name, is_package, _ = module_name_for(path)
        return Cache.facts_key(path, name, is_package, sha, self.context)

    def get(self, path: str, data: bytes) -> list["Diagnostic"] | None:
        """The findings stored for these bytes of `path`, if they still hold."""
        sha = content_hash(data)
        entry = self.cache.load_findings(self._key(path, sha))
        if entry is None or entry.sha != sha or not still_valid(entry, path, self.project, self.sha_of):
            return None
        return entry.diagnostics

    def put(self, path: str, data: bytes, diagnostics: list["Diagnostic"], trace: dict[str, str | None]) -> None:
        sha = content_hash(data)
        self.shas[os.path.abspath(path)] = sha
        self.cache.store_findings(self._key(path, sha), path, entry_of(path, sha, diagnostics, trace, self.sha_of))
