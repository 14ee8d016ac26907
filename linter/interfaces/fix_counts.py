"""The "N findings fixable with --fix" hint, remembered in the run's cache.

Counting fixes means building them: libcst parses every file with a fixable finding again, after
the findings themselves came from the cache (0.7 s of CPU in a warm run of the OpenAI Agents SDK,
most of that run). The count of a file depends on its bytes, its findings and siblint's code
alone, so it is stored under a hash of those (the code fingerprint is in the blob's header): one
blob per cache folder, holding the counts this run used.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any

from ..common.diagnostics import Diagnostic

if TYPE_CHECKING:
    from ..run.cache import Cache

_BLOB = "<fix counts>"


def fixable_counts(findings: list[Diagnostic], cache: "Cache | None") -> tuple[int, int]:
    """(safe, unsafe) fixable findings, as `siblint.interfaces.fixing.fixable_counts` counts them."""
    if cache is None:
        from .fixing import fixable_counts as counted

        return counted(findings)
    from ..run.cache import Cache

    key = Cache.facts_key(cache.folder, _BLOB, False, "")
    stored = cache.load_fix_counts(key)
    stored = stored if isinstance(stored, dict) else {}
    used: dict[str, tuple[int, int]] = {}
    by_file: dict[str, list[Diagnostic]] = {}
    for d in findings:
        by_file.setdefault(d.path, []).append(d)
    for path, mine in sorted(by_file.items()):
        try:
            with open(path, "rb") as fh:
                data = fh.read()
        except OSError:
            continue  # as the uncached count: an unreadable file has no fix
        digest = _digest(path, data, mine)
        counts = _counts(stored.get(digest))
        if counts is None:
            from .fixing import file_fixable_counts

            counts = file_fixable_counts(path, data, mine)
        used[digest] = counts
    if used != stored:
        cache.store_fix_counts(key, used, cache.folder)
    return sum(s for s, _ in used.values()), sum(u for _, u in used.values())


def _digest(path: str, data: bytes, findings: list[Diagnostic]) -> str:
    h = hashlib.sha256(f"{path}\0{len(data)}\0".encode("utf-8", "surrogateescape") + data)
    h.update(repr(sorted(findings, key=Diagnostic.sort_key)).encode("utf-8", "surrogateescape"))
    return h.hexdigest()


def _counts(value: Any) -> tuple[int, int] | None:
    """A stored (safe, unsafe) pair (None: anything else)."""
    if isinstance(value, tuple) and len(value) == 2 and all(type(v) is int and v >= 0 for v in value):
        return value
    return None
