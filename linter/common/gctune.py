"""Cyclic-GC thresholds for analysis.

libcst allocates tens of thousands of short-lived, acyclic objects per file; with the default
thresholds the cyclic collector scans them (and everything else the process holds: cached facts,
or an editor's whole heap when flake8 runs in-process) over and over and finds nothing.
Measured: ~15% less CPU per parse in the CLI; `flake8 -` on a 1,000-line agent module 13 ms faster
(median of 21 interleaved runs each way).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

THRESHOLD = (100_000, 50, 1000)


@contextmanager
def analysis_thresholds() -> Iterator[None]:
    """Raise the thresholds while the block runs, then restore the caller's."""
    old = gc.get_threshold()
    gc.set_threshold(*THRESHOLD)
    try:
        yield
    finally:
        gc.set_threshold(*old)
