"""A worker forked when a warm run meets a file it must analyse again: it imports libcst and the
engine while the parent goes on reading, hashing and consulting the cache, then analyses the few
files the cache could not answer.

A run after one edit spent about 0.4 s of its 1.2 s importing libcst and the rules, after the
0.6 s of reading that a run which changed nothing also takes, with the second core idle (the
OpenAI Agents SDK repository, `benchmarks/run.py`). The worker pays that import on the other core;
a run that finds enough to start the pool stops it unused. A run that changed nothing never
starts it.
"""

from __future__ import annotations

import os
import signal
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

    from ..common.diagnostics import Diagnostic
    from .cache import Entry
    from .runner import Spec

Outcome = tuple[str, "list[Diagnostic]", "Entry | None"]


class Prewarmed:
    """At most one forked worker per run (see the module doc); `start` does nothing after the first
    call, when disabled (`-j1`), or without `fork` (the worker must inherit the parent's settings)."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self._proc: Any = None
        self._conn: "Connection | None" = None

    def start(self) -> None:
        if not self.enabled or self._proc is not None:
            return
        import multiprocessing

        if "fork" not in multiprocessing.get_all_start_methods():
            self.enabled = False
            return
        ctx = multiprocessing.get_context("fork")
        self._conn, child_end = ctx.Pipe()
        self._proc = ctx.Process(target=_serve, args=(child_end, self._conn), daemon=True, name="siblint-prewarmed")
        self._proc.start()
        child_end.close()

    @property
    def started(self) -> bool:
        return self._proc is not None

    def analyse(self, specs: list["Spec"], work: list[tuple[int, list[str]]]) -> list[Outcome] | None:
        """The outcomes of each (spec index, paths) of `work`, analysed in the worker; None when it
        could not (it died, or was never started): the caller then analyses them itself."""
        conn = self._conn
        if conn is None:
            return None
        try:
            conn.send((specs, work))
            return conn.recv()
        except (EOFError, OSError):
            return None
        finally:
            self.stop()

    def stop(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        if self._proc is not None:
            if self._proc.is_alive():
                self._proc.kill()
            self._proc.join()
            self._proc = None


def _serve(conn: "Connection", parents_end: "Connection") -> None:
    """In the worker: import, then analyse the one job the parent sends, if any."""
    from .runner import _check_batch, _init_worker, _warm_up

    parents_end.close()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and stops this worker
    _warm_up()
    try:
        specs, work = conn.recv()
    except (EOFError, OSError):  # stopped unused
        os._exit(0)
    _init_worker(specs, None)  # from here it exits when the parent is gone
    conn.send([outcome for index, paths in work for outcome in _check_batch(index, paths)])
