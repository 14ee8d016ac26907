"""Ending the `siblint` process without tearing the interpreter down.

At exit CPython clears every module and frees every object one by one: libcst's ~250 node classes,
the rules, and under `-j1` the facts of every analysed module. On adk-samples (221 files) that took
longer than the whole report (~0.2 s of a 1.6 s run). A process that has written its output has
nothing left to free, so the command's process ends as soon as its exit handlers have run and its
streams are flushed. Only the command's own process does this (`cli.run`): Python callers of
`cli.main` (tests, the language server's host) get the usual `SystemExit`.
"""

from __future__ import annotations

import atexit
import os
import sys
import threading
from typing import NoReturn


def exit_process(code: object) -> NoReturn:
    """Exit with `code` (a `SystemExit` code) now; fall back to the ordinary exit whenever it
    could lose something: a code that is not a status (Python prints it), a thread that the
    ordinary exit would wait for, or a stream that cannot be flushed (Python reports that)."""
    if not (code is None or isinstance(code, int)) or _threads_to_wait_for() or not _flushed():
        raise SystemExit(code)
    atexit._run_exitfuncs()  # the handlers the ordinary exit runs (multiprocessing, temporary files)
    if not _flushed():  # a handler wrote something that cannot be written
        raise SystemExit(code)
    os._exit(code or 0)


def _threads_to_wait_for() -> bool:
    main = threading.main_thread()
    return any(t is not main and not t.daemon and t.is_alive() for t in threading.enumerate())


def _flushed() -> bool:
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except (OSError, ValueError):
        return False
    return True
