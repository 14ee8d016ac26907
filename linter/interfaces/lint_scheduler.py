"""The language server's lints, run in a worker process so the message loop keeps answering.

A lint of a large document holds the GIL for seconds inside CPython's and libcst's parsers, so a
thread would not keep hover or shutdown answered: the analysis runs in one child process that owns
the AnalysisSession (warm between lints). The server's loop only queues and dispatches:

- one job at a time; a job carries the document texts the worker has not seen yet, so nothing is
  written to the worker while it is busy (a 2 MB text would block the loop on a full pipe);
- a lint whose document has changed or closed since it started is stale: its result is dropped,
  and if it is still running after `STALE_GRACE` seconds the worker is killed and started again
  (a short lint is left to finish: the warm state it keeps is worth more than the wait);
- a result reaches the server only for the version it was asked for, and only while that version
  is the document's newest, so published diagnostics are always for the newest text.
No LSP types here (see siblint.interfaces.server).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess

from ..common.diagnostics import Diagnostic

# A stale lint younger than this is left to finish (most lints take well under it); an older one
# is stopped by restarting the worker, which costs an interpreter start and a cold project index.
STALE_GRACE = 0.5

log = logging.getLogger(__name__)


@dataclass
class Result:
    path: str
    version: int
    findings: list[Diagnostic]
    config_errors: list[str]
    consulted: set[str]  # modules the lint looked up (its document depends on them)
    with_dependents: bool = False
    error: str | None = None  # an internal error, with the findings empty


@dataclass
class _Request:
    """One job for the worker: the texts it has not seen (None: closed), then one lint."""
    updates: list[tuple[str, str | None]]
    path: str
    version: int
    with_dependents: bool
    workspace: list[str] | None


@dataclass
class _Job:
    path: str
    version: int
    with_dependents: bool
    started: float = field(default_factory=time.monotonic)
    stale: bool = False


def _work(conn: Connection) -> None:
    """The worker: apply each job's text updates to one AnalysisSession, lint, send the findings."""
    import gc
    import os

    from ..common.gctune import THRESHOLD
    from .analysis_session import AnalysisSession

    os.dup2(2, 1)  # stdout is the client's channel: a stray print must not reach it
    gc.set_threshold(*THRESHOLD)  # this process only analyses (as the CLI's pool workers do)
    session = AnalysisSession()
    while True:
        try:
            job: _Request = conn.recv()
        except (EOFError, OSError):
            return  # the server closed the pipe
        session.workspace = job.workspace
        for changed, text in job.updates:
            session.update(changed, text)
        error = None
        try:
            findings = session.lint(job.path)
        except Exception as exc:  # noqa: BLE001 - the editor's server must outlive a siblint bug
            log.exception("siblint failed on %s", job.path)
            findings, error = [], f"siblint: internal error on {job.path}: {exc!r}"
        errors, session.config_errors = session.config_errors, []
        conn.send(Result(job.path, job.version, findings, errors, session.consulted(job.path), job.with_dependents, error))


class LintScheduler:
    """Lints open documents in a worker process, newest text first, one at a time.

    `publish(result)` is called on the event loop with each result still current; `note(message)`
    with what the user should know about the worker (a stale lint stopped, a worker that died)."""

    def __init__(self, publish: Callable[[Result], None], note: Callable[[str], None]) -> None:
        self._publish = publish
        self._note = note
        self._texts: dict[str, tuple[int, str, str]] = {}  # open document -> (version, text, linted as)
        self._sent: dict[str, int | None] = {}  # what the worker holds: version, None once closed
        self._queue: dict[str, bool] = {}  # documents to lint (in order) -> with their dependents
        self._consulted: dict[str, set[str]] = {}  # document -> modules its last lint looked up
        self._running: _Job | None = None
        self._process: BaseProcess | None = None
        self._conn: Connection | None = None
        self._kill_timer: asyncio.TimerHandle | None = None
        self.workspace: list[str] | None = None  # see AnalysisSession.workspace

    # ---- what the server tells it -------------------------------------------------------------
    def update(self, path: str, version: int, text: str, linted_as: str | None = None) -> None:
        """A document was opened or changed: a lint of an older version is stale. `linted_as`: the
        path the worker analyses it under (its extension picks the front end), `path` by default."""
        self._texts[path] = (version, text, linted_as or path)
        self._supersede(path)

    def close(self, path: str) -> None:
        self._texts.pop(path, None)
        self._queue.pop(path, None)
        self._consulted.pop(path, None)
        self._supersede(path)

    def request(self, path: str, with_dependents: bool = False) -> None:
        """Lint the newest text of `path` when the worker is free (once, however often asked)."""
        if path in self._texts:
            self._queue[path] = self._queue.get(path, False) or with_dependents
            self._dispatch()

    def dependents(self, path: str) -> list[str]:
        """Open documents, other than `path`, whose last lint looked up the module at `path`."""
        return [p for p, used in self._consulted.items() if p != path and path in used]

    def shutdown(self) -> None:
        self._stop_worker()

    # ---- the worker ---------------------------------------------------------------------------
    def start(self) -> None:
        """Start the worker ahead of the first lint (its imports take a moment)."""
        if self._process is None:
            parent, child = multiprocessing.Pipe()
            # spawn: the server has threads (pygls reads stdin on one), which fork would copy badly.
            self._process = multiprocessing.get_context("spawn").Process(
                target=_work, args=(child,), name="siblint-lint", daemon=True)
            self._process.start()
            child.close()
            self._conn = parent
            self._sent.clear()  # a new worker has seen nothing

    def _dispatch(self) -> None:
        if self._running is not None or not self._queue:
            return
        path = next(iter(self._queue))
        with_dependents = self._queue.pop(path)
        version, _, linted_as = self._texts[path]
        self.start()
        assert self._conn is not None
        current = {name: (v, t) for v, t, name in self._texts.values()}
        updates: list[tuple[str, str | None]] = [(p, t) for p, (v, t) in current.items() if self._sent.get(p) != v]
        updates += [(p, None) for p, v in self._sent.items() if v is not None and p not in current]
        try:
            self._conn.send(_Request(updates, linted_as, version, with_dependents, self.workspace))
        except OSError:  # the worker died between two jobs: a new one takes the job, a moment later
            self._restart(f"siblint: the lint worker stopped; starting it again for {path}")
            self._queue = {path: with_dependents, **self._queue}
            asyncio.get_running_loop().call_later(1.0, self._dispatch)
            return
        for p, t in updates:
            self._sent[p] = None if t is None else current[p][0]
        self._running = _Job(path, version, with_dependents)
        asyncio.get_running_loop().add_reader(self._conn.fileno(), self._receive)

    def _receive(self) -> None:
        assert self._conn is not None
        job, self._running = self._running, None
        asyncio.get_running_loop().remove_reader(self._conn.fileno())
        self._cancel_kill_timer()
        try:
            result: Result = self._conn.recv()
        except (EOFError, OSError):  # killed (out of memory?) or crashed
            held = job.path if job is not None else "no document"
            self._restart(f"siblint: the lint worker ended ({self._ending()}) while linting {held}; "
                          "its findings are not shown")
        else:
            if job is not None:
                result.path = job.path  # the document's own path, whatever it was linted as
                self._consulted[job.path] = result.consulted
                if not job.stale and self._texts.get(job.path, (None,))[0] == result.version:
                    self._publish(result)
        self._dispatch()

    def _ending(self) -> str:
        if self._process is None:
            return "no worker"
        self._process.join(timeout=1)
        code = self._process.exitcode
        return f"killed by signal {-code}" if code is not None and code < 0 else f"exit code {code}"

    def _supersede(self, path: str) -> None:
        job = self._running
        if job is None or job.path != path or job.stale:
            return
        job.stale = True
        wait = STALE_GRACE - (time.monotonic() - job.started)
        self._kill_timer = asyncio.get_running_loop().call_later(max(0.0, wait), self._stop_stale, job)

    def _stop_stale(self, job: _Job) -> None:
        self._kill_timer = None
        if self._running is job:  # still running: stop it, and lint what is queued on a new worker
            self._running = None
            self._restart(f"siblint: stopped a stale lint of {job.path} (a newer version arrived)")
            self._dispatch()

    def _cancel_kill_timer(self) -> None:
        if self._kill_timer is not None:
            self._kill_timer.cancel()
            self._kill_timer = None

    def _restart(self, why: str) -> None:
        log.info("%s", why)
        self._note(why)
        self._stop_worker()
        self.start()

    def _stop_worker(self) -> None:
        self._cancel_kill_timer()
        if self._conn is not None:
            try:
                asyncio.get_running_loop().remove_reader(self._conn.fileno())
            except (RuntimeError, ValueError, OSError):
                pass  # no loop (shutdown after it ended) or a closed pipe
            self._conn.close()
            self._conn = None
        if self._process is not None:
            self._process.kill()  # our own child, by its handle
            self._process.join(timeout=5)
            self._process = None
        self._running = None
