"""A worker forked when a run meets the first file it must analyse: it imports libcst and the
engine while the parent goes on reading, pre-filtering, scanning the project and consulting the
cache, then analyses what is left: the few files a warm run could not answer itself, or, when
there is enough work for a pool, as the pool's parent (its workers fork from it, imports and all).

A run after one edit spent about 0.4 s of its 1.2 s importing libcst and the rules, after the
0.6 s of reading that a run which changed nothing also takes, with the second core idle (the
OpenAI Agents SDK repository, `benchmarks/run.py`). A cold run of a small tree spent as long
importing before its pool could fork (adk-samples: 0.4 s of 1.4 s). The worker pays that import
on the other core. A run that changed nothing never starts it.
"""

from __future__ import annotations

import os
import signal
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

    from ..common.diagnostics import Diagnostic
    from .cache import Entry
    from .runner import Progress, Spec

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
        # Not a daemon: it may fork a pool (`stop` ends it; `_die_with_parent` if this process dies first).
        self._proc = ctx.Process(target=_serve, args=(child_end, self._conn), name="siblint-prewarmed")
        self._proc.start()
        child_end.close()

    @property
    def started(self) -> bool:
        return self._proc is not None

    def analyse(self, specs: list["Spec"], work: list[tuple[int, list[str]]]) -> list[Outcome] | None:
        """The outcomes of each (spec index, paths) of `work`, analysed in the worker; None when it
        could not (it died, or was never started): the caller then analyses them itself."""
        return self._ask(("inline", specs, work), None)

    def pool(self, specs: list["Spec"], batches: list[list[str]], sizes: dict[str, int], project_of: dict[str, int],
             jobs: int, progress: "Progress | None") -> list[Outcome] | None:
        """The outcomes of every batch, analysed in a pool of `jobs` workers the worker forks
        (`siblint.run.runner._run_pool`, run there); progress comes back as it is made. None when
        it could not: the caller then runs the pool itself."""
        return self._ask(("pool", specs, (batches, sizes, project_of, jobs)), progress)

    def _ask(self, job: tuple, progress: "Progress | None") -> list[Outcome] | None:
        conn = self._conn
        if conn is None:
            return None
        try:
            conn.send(job)
            while True:
                kind, value = conn.recv()
                if kind != "advance":
                    return value
                if progress:
                    progress.advance(value)
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
    """In the worker: import, then do the one job the parent sends, if any."""
    from .runner import _check_batch, _die_with_parent, _init_worker, _run_pool, _warm_up

    parents_end.close()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and stops this worker
    _warm_up()
    try:
        kind, specs, work = conn.recv()
    except (EOFError, OSError):  # stopped unused
        os._exit(0)
    if kind == "inline":
        _init_worker(specs, None)  # from here it exits when the parent is gone
        conn.send(("done", [outcome for index, paths in work for outcome in _check_batch(index, paths)]))
        return
    _die_with_parent(None)  # and its pool's workers when it is gone (their liveness pipe)
    try:
        batches, sizes, project_of, jobs = work
        conn.send(("done", _run_pool(batches, sizes, project_of, specs, jobs, _Relay(conn))))
    except BaseException:  # noqa: BLE001 - stopped (the parent closed the pipe, or is gone): quietly
        os._exit(1)


class _Relay:
    """The pool's progress, sent to the parent, which shows it."""

    def __init__(self, conn: "Connection") -> None:
        self.conn = conn

    def advance(self, n: int = 1) -> None:
        self.conn.send(("advance", n))
