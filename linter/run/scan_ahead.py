"""The project scan made in a forked process while the run's parent reads the files and imports the
engine.

Before a pool can start, the parent reads every file for the pre-filter, scans the project (which
files import which modules, `siblint.model.project.ProjectScan`) and imports the parser and the
rules; the workers fork after all three. On adk-samples (221 files) these took 0.7 s of CPU in a row
while the second core idled. The scan needs nothing the parent computes, so a forked process makes
it meanwhile and hands it back through a pipe: the parent only waits for it when a file's own bytes
name no framework (the scan decides whether the project's agent code imports it). The scan is the
same function of the tree whichever process makes it; when the process fails, the parent makes it.
"""

from __future__ import annotations

import signal
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

    from ..model.project import ProjectIndex, ProjectScan


class ScanAhead:
    def __init__(self, process: Any, receive: "Connection") -> None:
        self._process = process
        self._receive = receive

    @classmethod
    def start(cls, project: "ProjectIndex") -> "ScanAhead | None":
        """Start scanning `project` in a forked process; None where processes cannot be forked."""
        import multiprocessing

        if "fork" not in multiprocessing.get_all_start_methods():
            return None
        ctx = multiprocessing.get_context("fork")
        receive, send = ctx.Pipe(duplex=False)
        process = ctx.Process(target=_scan_and_send, args=(project, send), name="siblint-scan", daemon=True)
        try:
            process.start()
        except OSError:  # no process to spare: the parent scans
            receive.close()
            send.close()
            return None
        send.close()
        return cls(process, receive)

    def result(self) -> "ProjectScan | None":
        """The scan (waiting for it), or None when the process made none."""
        try:
            scan = self._receive.recv()
        except (EOFError, OSError):
            scan = None
        self.close()
        return scan

    def close(self) -> None:
        """End the process, whether or not its scan was wanted."""
        self._receive.close()
        if self._process.is_alive():
            self._process.kill()
        self._process.join()


def _scan_and_send(project: "ProjectIndex", send: "Connection") -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's (see runner._run_pool)
    try:
        scan = project.scan
    except Exception:  # noqa: BLE001 - the parent makes the scan itself, and reports what it raises
        scan = None
    try:
        send.send(scan)
    except OSError:  # the parent no longer waits
        pass
