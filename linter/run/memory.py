"""Bounds on the pool's memory while it parses.

libcst's tree of a file takes about 380 times the file's size (a 1 MB test module: ~390 MB), and
glibc keeps what the tree freed in the process rather than giving it back, so each worker would
stay at the size of the biggest tree it ever built. Two measures keep a run's peak near one big
tree plus the facts the workers keep:

- `release_to_os`: after a big parse, the freed memory goes back to the system (`malloc_trim`).
- `ParseBudget`: the workers together parse at most `PARSE_BUDGET` bytes of big files at once
  (a file larger than that parses alone); small files never wait.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

PARSE_BUDGET = 640 * 1024  # source bytes of big files the pool's workers may hold as trees at once
UNIT = 32 * 1024  # the budget's grain; a file under it never waits
TRIM_AFTER = 128 * 1024  # a parse of at least this many bytes hands its freed memory back


@lru_cache(maxsize=1)
def _malloc_trim() -> Any:
    """glibc's `malloc_trim`, or None (another C library, or no ctypes)."""
    try:
        name = ctypes.util.find_library("c")
        trim = getattr(ctypes.CDLL(name), "malloc_trim", None) if name else None
    except OSError:
        return None
    if trim is not None:
        trim.argtypes = [ctypes.c_size_t]
        trim.restype = ctypes.c_int
    return trim


def release_to_os(parsed_bytes: int) -> bool:
    """Hand the memory a big parse freed back to the system; True when it was asked to."""
    trim = _malloc_trim()
    if trim is None or parsed_bytes < TRIM_AFTER:
        return False
    trim(0)
    return True


class ParseBudget:
    """A semaphore in units of `UNIT` source bytes shared by the pool's workers (made before the
    fork). A parse takes its file's units, all at once under a lock so that two big parses
    never hold half each, and gives them back when its facts are built."""

    def __init__(self, ctx: Any, total: int = PARSE_BUDGET) -> None:
        self.units = max(1, total // UNIT)
        self._free = ctx.Semaphore(self.units)
        self._taking = ctx.Lock()

    def units_for(self, size: int) -> int:
        return 0 if size < UNIT else min(self.units, -(-size // UNIT))

    @contextmanager
    def held(self, size: int) -> Iterator[None]:
        units = self.units_for(size)
        if units:
            with self._taking:
                for _ in range(units):
                    self._free.acquire()
        try:
            yield
        finally:
            for _ in range(units):
                self._free.release()
