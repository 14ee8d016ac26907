"""The project scan's per-file work remembered in the cache, so a warm run reads but does not rescan.

`ProjectScan.of` reads every Python file under the project root and scans its bytes (imports,
classes, whether it imports an agent framework): about half a warm run's time on a 920-file tree.
What one file adds (`siblint.model.project.scan_part`) depends on its bytes and its package alone,
so it is stored under the file's path with the content hash of those bytes and the package: a
record is reused only when both are equal now (the bytes are read and hashed every run; hashing
15 MB takes about 25 ms, so no stat-based shortcut is needed and none can go stale). The code
fingerprint in the blob's header covers siblint's own changes. One blob per project root
(`v2/scan/...`), rewritten when a record changed or a file came or went.

A record also keeps the pre-filter's verdict on the same bytes (`siblint.syntax.prefilter.may_matter`,
a function of the bytes alone), so a warm run asks CPython's parser nothing: a file that names a
framework only in prose is parsed by `ast` to prove that it imports none (20 ms for a big one).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from ..model.project import ScanPart
    from .cache import Cache

# (sha, package (None: a file the scan does not read), imports, agent, class bases, function names,
# the pre-filter's verdict (None: not asked))
Record = tuple[str, "str | None", tuple[str, ...], bool, "tuple[str, ...] | None", "tuple[str, ...] | None",
               "bool | None"]


class OpenOnce:
    """The run's cache, opened on first need (the scan or the first passing file), at most once:
    `given` is a Cache, a factory of one (None: the folder must not be used), or None."""

    def __init__(self, given: "Cache | Callable[[], Cache | None] | None") -> None:
        self.given = given
        self.opened = False
        self.cache: "Cache | None" = None

    def __call__(self) -> "Cache | None":
        if not self.opened:
            from .cache import Cache

            self.opened = True
            given = self.given
            self.cache = given if isinstance(given, Cache) or given is None else given()
        return self.cache


class ScanMemo:
    """A `PartOf` for `ProjectScan.of` backed by the cache of `open_cache` (see the module doc)."""

    def __init__(self, open_cache: Callable[[], "Cache | None"], roots: list[str]) -> None:
        self.open_cache = open_cache
        self.roots = roots
        self.stored: dict[str, Any] | None = None  # loaded on the first file
        self.fresh: dict[str, Record] = {}
        self.verdicts: dict[str, tuple[str, bool]] = {}  # path -> (sha, verdict) worked out this run
        self.changed = False
        self.settled = True  # saved (or nothing to save) since the last file was scanned

    def _key(self) -> str:
        from .cache import Cache

        return Cache.facts_key(self.roots[0], "<scan>", False, "", "\0".join(self.roots))

    def _load(self) -> dict[str, Any]:
        if self.stored is None:
            cache = self.open_cache()
            found = cache.load_scan(self._key()) if cache is not None else None
            self.stored = found if isinstance(found, dict) else {}
        return self.stored

    def __call__(self, path: str, data: bytes, package: str) -> "ScanPart":
        from ..model.project import scan_part
        from .cache import content_hash

        self.settled = False
        sha = content_hash(data)
        stored = self._load().get(path)
        part = _part(stored, sha, package)
        if part is None:
            part = scan_part(path, data, package)
        bases, defs = part.classes or (None, None)
        known = self.verdicts.get(path)
        verdict = known[1] if known is not None and known[0] == sha else _verdict(stored, sha)
        record = (sha, package, part.imports, part.agent, None if bases is None else tuple(sorted(bases)),
                  None if defs is None else tuple(sorted(defs)), verdict)
        self.fresh[path] = record
        self.changed = self.changed or record != stored
        return part

    def matters(self, path: str, data: bytes) -> bool:
        """`may_matter(data, path=path)`, from the record of these bytes when it holds the verdict."""
        from ..syntax.prefilter import may_matter
        from .cache import content_hash

        sha = content_hash(data)
        key = os.path.abspath(path)  # the scan's records are under absolute paths
        verdict = _verdict(self._load().get(key), sha)
        if verdict is not None:
            return verdict
        verdict = may_matter(data, path=path)
        self.verdicts[key] = (sha, verdict)
        record = self.fresh.get(key)
        if record is not None and record[0] == sha:  # scanned already: the record takes it now
            self.fresh[key] = (*record[:6], verdict)
            self.changed, self.settled = True, False
        return verdict

    def save(self) -> None:
        """Store the records of this scan when they differ from what was loaded."""
        if self.stored is None or self.settled:
            return  # the flake8 plugin asks after every file: no key-set comparison each time
        self.settled = True
        self._keep_verdicts()
        if not (self.changed or self.fresh.keys() != self.stored.keys()):
            return
        cache = self.open_cache()
        if cache is not None:
            cache.store_scan(self._key(), self.fresh, self.roots[0])
        self.stored, self.changed = dict(self.fresh), False  # saving again is a no-op

    def _keep_verdicts(self) -> None:
        """Files the scan does not read (TS/JS, notebooks, files outside the roots) keep a record of
        their verdict alone: asked this run, or stored and still there (a run over some files only
        must not drop the others'). Their verdicts need every framework's data, imported for them alone."""
        for path, (sha, verdict) in self.verdicts.items():
            if path not in self.fresh:
                self.fresh[path] = (sha, None, (), False, None, None, verdict)
        for path, record in (self.stored or {}).items():
            if path not in self.fresh and isinstance(record, tuple) and len(record) == 7 and record[1] is None \
                    and os.path.isfile(path):
                self.fresh[path] = record


def _verdict(record: Any, sha: str) -> bool | None:
    """The pre-filter's verdict a stored record holds for these bytes (None: none)."""
    try:
        return record[6] if record[0] == sha and isinstance(record[6], bool) else None
    except (TypeError, IndexError, KeyError):
        return None


def _part(record: Any, sha: str, package: str) -> "ScanPart | None":
    """The stored part when `record` is one for these bytes in this package (None: anything else)."""
    from ..model.project import ScanPart

    try:
        stored_sha, stored_package, imports, agent, bases, defs, _ = record
        if stored_sha != sha or stored_package != package or not isinstance(agent, bool) \
                or not all(isinstance(n, str) for n in (*imports, *(bases or ()), *(defs or ()))):
            return None
        classes = None if bases is None else (frozenset(bases), frozenset(defs))
        return ScanPart(tuple(imports), agent, classes)
    except (TypeError, ValueError):
        return None
