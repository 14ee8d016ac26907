"""`siblint check --watch`: the polling loop on its own (no sleeps: the wait is a step function),
then the real command in a process, edited under it."""

from __future__ import annotations

import os
import select
import subprocess
import time
from pathlib import Path

from siblint.interfaces import cli
from siblint.interfaces.watch import files_state, watch, watch_check
from support import CLEAN, HAZARD, script, write


def test_the_loop_runs_again_only_when_the_state_changes():
    states = iter([1, 1, 2, 2, 2, 3])
    runs: list[int] = []
    steps = iter(range(5))
    watch(lambda: runs.append(1), lambda: next(states), lambda: next(steps, None) is not None)
    assert len(runs) == 3  # the first run, then 1 -> 2 and 2 -> 3


def test_the_state_follows_edits_new_files_and_the_config(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, {"a.py": CLEAN, "pyproject.toml": "[tool.siblint]\n"})
    opts = cli.CheckOptions(paths=(".",))
    first = files_state(opts)
    assert files_state(opts) == first  # nothing changed, nothing to do
    write(tmp_path, {"b.py": CLEAN})
    second = files_state(opts)
    assert second != first
    os.utime(tmp_path / "pyproject.toml", ns=(1, 1))
    assert files_state(opts) != second
    write(tmp_path, {"pyproject.toml": "[tool.siblint]\nignor = 1\n"})  # broken mid-edit: still a state
    assert files_state(opts) != files_state(cli.CheckOptions(paths=(".",), isolated=True))


def test_watch_check_reports_each_version_of_the_file(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, {"agent.py": CLEAN})
    edits = [lambda: write(tmp_path, {"agent.py": HAZARD}), lambda: None,
             lambda: write(tmp_path, {"pyproject.toml": "[tool.siblint]\nignore = 1\n"})]

    def wait() -> bool:
        if not edits:
            return False
        edits.pop(0)()
        os.utime(tmp_path / "agent.py", ns=(len(edits) + 10, len(edits) + 10))  # mtime granularity
        return True

    status = watch_check(cli.CheckOptions(paths=(".",), no_cache=True), wait)
    out, err = capsys.readouterr()
    reports = out.split("All checks passed.\n")
    assert reports[0] == "" and "agent.py:4:39: SIB201 warning:" in reports[1]
    assert err.count("checking again") == 3 and "ignore: expected a list" in err  # the broken config, shown
    assert status == cli.EXIT_ERROR  # the last check could not run


def _read_until(proc: subprocess.Popen, marker: str, deadline: float) -> str:
    seen = ""
    fd = proc.stdout.fileno()
    while marker not in seen:
        left = deadline - time.monotonic()
        assert left > 0, f"no {marker!r} in time; saw {seen!r}"
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            chunk = os.read(fd, 65536).decode()
            assert chunk, f"siblint ended; saw {seen!r}"
            seen += chunk
    return seen


def test_the_command_checks_again_after_an_edit(tmp_path: Path):
    write(tmp_path, {"agent.py": CLEAN})
    proc = subprocess.Popen([script("siblint"), "check", "--watch", "--no-cache", "."], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env={**os.environ, "NO_COLOR": "1"})
    try:
        deadline = time.monotonic() + 120
        assert "All checks passed." in _read_until(proc, "All checks passed.", deadline)
        write(tmp_path, {"agent.py": HAZARD})
        assert "agent.py:4:39: SIB201 warning:" in _read_until(proc, "Found 1 finding", deadline)
        assert proc.poll() is None  # still watching
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_watch_refuses_what_it_cannot_repeat(tmp_path):
    from support import siblint

    for args in (["--watch", "-"], ["--watch", "--add-noqa", "."], ["--watch", "--show-files", "."]):
        proc = siblint(["check", *args], tmp_path, stdin="")
        assert proc.returncode == 2 and "--watch" in proc.stderr, args
