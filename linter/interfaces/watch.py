"""`siblint check --watch`: check, then check again whenever a checked file or a config file
changes, until Ctrl-C (exit status 130, as for any interrupted run).

Changes are found by polling: once a second, discovery runs again and each file found (and each
config file in use) is stat'ed. No file-watching library is a dependency of siblint, a stat is
cheap next to a lint, and polling sees the same thing on every platform and file system (network
mounts and containers included). A re-check goes through the cache, so only changed files (and
the files whose imports changed) are analysed again.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Hashable

import click

from ..run.discovery import discover
from . import cli

POLL_SECONDS = 1.0


def watch(run: Callable[[], object], state: Callable[[], Hashable], wait: Callable[[], bool]) -> None:
    """`run()`, then `run()` again each time `state()` differs from what it was at the last run;
    `wait()` pauses between looks and returns False to stop. The state is taken before each run, so
    a change made while a run is under way is seen at the next look."""
    seen = state()
    run()
    while wait():
        now = state()
        if now != seen:
            seen = now
            run()


def _stat(path: str) -> tuple[str, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (path, st.st_mtime_ns, st.st_size)


def files_state(opts: cli.CheckOptions) -> frozenset:
    """What a re-check depends on: each file discovery finds now, and each config file in use."""
    try:
        resolver = cli.make_resolver(opts)
        found = discover(list(opts.paths), resolver.for_folder, follow_symlinks=opts.follow_symlinks)
    except (cli.ConfigError, click.ClickException) as exc:  # a config mid-edit: its text is the state
        return frozenset({("error", str(exc))})
    configs = [c.source for c in resolver.used() if c.source] + ([opts.config_path] if opts.config_path else [])
    return frozenset(_stat(p) for p in [*found.files, *configs])


def _check_once(opts: cli.CheckOptions) -> int | None:
    """One check, as `siblint check` would run it; an error (a broken config while it is being
    edited, a path that went away) is shown and watching goes on."""
    try:
        return cli.run_check(opts)
    except click.ClickException as exc:
        exc.show()
    except click.exceptions.Exit:
        pass
    return None


def _poll() -> bool:
    time.sleep(POLL_SECONDS)
    return True


def watch_check(opts: cli.CheckOptions, wait: Callable[[], bool] | None = None) -> int:
    """Watch until interrupted (or until `wait` says stop); the last check's exit status."""
    status: list[int | None] = [None]
    runs = [0]

    def run() -> None:
        if runs[0]:
            click.echo("siblint: a file changed, checking again", err=True)
        runs[0] += 1
        status[0] = _check_once(opts)
        click.echo("siblint: watching for changes (Ctrl-C to stop)", err=True)

    watch(run, lambda: files_state(opts), wait or _poll)
    return status[0] if status[0] is not None else cli.EXIT_ERROR
