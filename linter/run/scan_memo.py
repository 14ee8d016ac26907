"""The project scan's per-file work remembered in the cache, so a warm run reads but does not rescan.

`ProjectScan.of` reads every Python file under the project root and scans its bytes (imports,
classes, whether it imports an agent framework): about half a warm run's time on a 920-file tree.
What one file adds (`siblint.model.project.scan_part`) depends on its bytes and its package alone,
so it is stored under the file's path with the content hash of those bytes and the package: a
record is reused only when both are equal now (the bytes are read and hashed every run; hashing
15 MB takes about 25 ms, so no stat-based shortcut is needed and none can go stale). The code
fingerprint in the blob's header covers siblint's own changes. One blob per project root
(`v2/scan/...`), rewritten when a record changed or a file came or went.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from ..model.project import ScanPart
    from .cache import Cache

Record = tuple[str, str, tuple[str, ...], bool, "tuple[str, ...] | None", "tuple[str, ...] | None"]


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
        self.changed = False
        self.settled = False  # saved (or nothing to save) since the last file was scanned

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
        part = _part(self._load().get(path), sha, package)
        if part is None:
            part = scan_part(path, data, package)
            self.changed = True
        bases, defs = part.classes or (None, None)
        self.fresh[path] = (sha, package, part.imports, part.agent,
                            None if bases is None else tuple(sorted(bases)), None if defs is None else tuple(sorted(defs)))
        return part

    def save(self) -> None:
        """Store the records of this scan when they differ from what was loaded."""
        if self.stored is None or self.settled:
            return  # the flake8 plugin asks after every file: no key-set comparison each time
        self.settled = True
        if not (self.changed or self.fresh.keys() != self.stored.keys()):
            return
        cache = self.open_cache()
        if cache is not None:
            cache.store_scan(self._key(), self.fresh, self.roots[0])
        self.stored, self.changed = dict(self.fresh), False  # saving again is a no-op


def _part(record: Any, sha: str, package: str) -> "ScanPart | None":
    """The stored part when `record` is one for these bytes in this package (None: anything else)."""
    from ..model.project import ScanPart

    try:
        stored_sha, stored_package, imports, agent, bases, defs = record
        if stored_sha != sha or stored_package != package or not isinstance(agent, bool) \
                or not all(isinstance(n, str) for n in (*imports, *(bases or ()), *(defs or ()))):
            return None
        classes = None if bases is None else (frozenset(bases), frozenset(defs))
        return ScanPart(tuple(imports), agent, classes)
    except (TypeError, ValueError):
        return None
