"""Pins read from a project's pin files, kept in the cache by the digest of those files' bytes.

Parsing the SDK's 850 KB `uv.lock` takes about 0.3 s, and a run that analyses any file of the
project needs its pins: a warm run after one edit would parse it again every time. The digest
(`siblint.model.versions.pins_digest`) covers the pin files' paths and bytes, so equal digests
mean equal pins; the code fingerprint in the blob's header covers the parser's own changes.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..model.project import ProjectIndex
    from ..settings.pins import Pin
    from .cache import Cache


class PinStore:
    """`digest -> pins` backed by `cache` (`siblint.model.versions.PIN_STORE`)."""

    def __init__(self, cache: "Cache") -> None:
        self.cache = cache

    @staticmethod
    def _key(digest: str) -> str:
        from .cache import code_fingerprint

        h = hashlib.sha256(f"{code_fingerprint()}\0{digest}".encode()).hexdigest()
        return f"{h[:24]}-{h[24:]}"

    def get(self, digest: str) -> "dict[str, Pin] | None":
        """The pins stored for `digest` (None: none, or not a list of three strings each)."""
        from ..settings.pins import Pin

        rows = self.cache.load_pins(self._key(digest))
        if not isinstance(rows, list) or not all(
                isinstance(r, tuple) and len(r) == 3 and all(isinstance(v, str) for v in r) for r in rows):
            return None
        return {dist: Pin(dist, spec, source) for dist, spec, source in rows}

    def __setitem__(self, digest: str, pins: "dict[str, Pin]") -> None:
        rows = [(p.distribution, p.specifier, p.source) for p in pins.values()]
        self.cache.store_pins(self._key(digest), rows, next((p.source for p in pins.values()), digest))


def keep_pins(project: "ProjectIndex", cache: "Cache | None") -> None:
    """Let `project`'s version lookups read and store pins through `cache` (when there is one)."""
    if cache is not None:
        from ..model.versions import PIN_STORE

        project.memo[PIN_STORE] = PinStore(cache)
