"""Bounds on the pool's memory while it parses.

libcst's tree of a file takes about 380 times the file's size (a 1 MB test module: ~390 MB), and
glibc keeps what the tree freed in the process rather than giving it back, so each worker would
stay at the size of the biggest tree it ever built. These measures keep a run's peak near one big
tree plus the facts the workers keep:

- `release_to_os`: after a big parse, or many small ones (`Untrimmed`), the freed memory goes back
  to the system (`malloc_trim`).
- `ParseBudget`: the workers together parse at most `PARSE_BUDGET` bytes of big files at once
  (a file larger than that parses alone, but for `RESERVE`); small files never wait. `Dispatch`
  hands a free worker small files while a big one would wait, so the budget leaves no core idle.
- `HELD_BYTES`: how much of other modules' facts a process keeps between two files.
"""

from __future__ import annotations

import ctypes
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

# Source bytes of big files the pool's workers may hold as trees at once. At 640 KB, pydantic-ai's
# workers stood idle 1.9 s waiting for it (two of its test modules are 400 and 517 KB); at 1 MB
# its peak stayed at 473-477 MB.
PARSE_BUDGET = 1024 * 1024
UNIT = 32 * 1024  # the budget's grain; a file under it never waits
# Units no single file takes: a worker may parse a module of up to this many units (the import a
# small file looks up) beside the biggest file instead of idling for its whole parse.
RESERVE = 2
# A parse of at least this many bytes (or a run of smaller ones adding up to it) hands its freed
# memory back. Each hand-back makes the next trees fault their pages in again: at 128 KB that was
# 3.2 s of system time on pydantic-ai at -j2, at 1 MB 2.1 s, for 476 and 488-496 MB of peak.
TRIM_AFTER = 1024 * 1024
# Source bytes of other modules whose facts one process keeps between two files (facts take about
# 20 times their source): past it, the least recently used are forgotten and come back from the
# run's facts store (or the cache) when asked again, never from a parse.
HELD_BYTES = 4 * 1024 * 1024


@lru_cache(maxsize=1)
def _malloc_trim() -> Any:
    """glibc's `malloc_trim`, or None (another C library, or no ctypes). Looked up among the symbols
    the process already has (the C library is loaded): `ctypes.util.find_library` runs `ldconfig -p`
    in a subprocess, once in every pool worker."""
    try:
        trim = getattr(ctypes.CDLL(None), "malloc_trim", None)
    except (OSError, TypeError):  # TypeError: Windows' loader takes no None
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


class Untrimmed:
    """Bytes parsed (or facts forgotten) since this process last handed memory back: a run of
    small parses leaves as much freed memory in the process as one big one (62 pydantic-ai files
    at -j1: 84 MB of objects traced, 586 MB RSS), so memory goes back once their sum is big."""

    def __init__(self) -> None:
        self.bytes = 0

    def add(self, size: int) -> bool:
        """Count `size` more bytes; True when that handed memory back."""
        self.bytes += size
        if release_to_os(self.bytes):
            self.bytes = 0
            return True
        return False


class ParseBudget:
    """A semaphore in units of `UNIT` source bytes shared by the pool's workers (made before the
    fork). A parse takes its file's units, all at once under a lock so that two big parses
    never hold half each, and gives them back when its facts are built."""

    def __init__(self, ctx: Any, total: int = PARSE_BUDGET) -> None:
        self.units = max(1, total // UNIT)
        self._free = ctx.Semaphore(self.units)
        self._taking = ctx.Lock()

    def units_for(self, size: int) -> int:
        return 0 if size < UNIT else min(max(1, self.units - RESERVE), -(-size // UNIT))

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


class Dispatch:
    """The order in which the parent hands batches to free workers (`_run_pool` keeps one batch
    in flight per worker). A batch holding a big file goes out only when its units fit beside those
    of the batches in flight; otherwise a free worker gets the biggest batch of small files, so no
    worker waits on the budget while other work is left. When only big files are left, they go out
    anyway and wait on the budget in the worker (their imports' parses take it there too)."""

    def __init__(self, batches: list[list[str]], sizes: dict[str, int], budget: ParseBudget) -> None:
        self.budget = budget
        units = [max((budget.units_for(sizes.get(p, 0)) for p in b), default=0) for b in batches]
        self.big = deque((b, u) for b, u in zip(batches, units) if u)
        self.small = deque((b, u) for b, u in zip(batches, units) if not u)

    def __bool__(self) -> bool:
        return bool(self.big or self.small)

    def take(self, busy_units: int) -> tuple[list[str], int]:
        """The next batch and its units, given the units of the batches in flight."""
        if self.big and (busy_units + self.big[0][1] <= self.budget.units or not self.small):
            return self.big.popleft()
        return self.small.popleft()

    def left(self) -> list[str]:
        return [p for queue in (self.big, self.small) for b, _ in queue for p in b]
