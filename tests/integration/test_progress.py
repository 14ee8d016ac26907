"""Progress where people wait: off a terminal, a line every few seconds once a run has taken ~5 s;
on a terminal, the counter redrawn in place; `--quiet` silences both. A fake clock, never sleeps."""

from __future__ import annotations

import io
from pathlib import Path

from click.testing import CliRunner
from siblint.interfaces.cli import main
from siblint.run import runner


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_off_a_terminal_a_line_every_few_seconds_after_the_first_five() -> None:
    out, clock = io.StringIO(), Clock()
    p = runner.Progress(920, stream=out, live=False, clock=clock)
    for step in range(60):  # 60 seconds, 10 files finished each second
        clock.now += 1
        p.advance(10)
    p.close()
    lines = out.getvalue().splitlines()
    assert lines[0] == "siblint: 50/920 files, 5 s"
    assert lines[1] == "siblint: 100/920 files, 10 s"
    assert len(lines) == 12 and lines[-1] == "siblint: 600/920 files, 60 s"
    assert "\r" not in out.getvalue() and "\033" not in out.getvalue()  # nothing a log cannot show


def test_a_quick_run_prints_nothing_off_a_terminal() -> None:
    out, clock = io.StringIO(), Clock()
    p = runner.Progress(900, stream=out, live=False, clock=clock)
    for _ in range(900):
        clock.now += 0.004  # 3.6 s in all
        p.advance()
    p.close()
    assert out.getvalue() == ""


def test_a_long_phase_without_finished_files_still_reports_on_tick() -> None:
    out, clock = io.StringIO(), Clock()
    p = runner.Progress(10, stream=out, live=False, clock=clock)
    clock.now += 7
    p.tick()
    clock.now += 2
    p.tick()  # too soon for another line
    clock.now += 4
    p.tick()
    assert out.getvalue().splitlines() == ["siblint: 0/10 files, 7 s", "siblint: 0/10 files, 13 s"]


def test_on_a_terminal_the_counter_is_redrawn_and_erased() -> None:
    out, clock = io.StringIO(), Clock()
    p = runner.Progress(3, stream=out, live=True, clock=clock)
    p.advance()  # before the delay: nothing
    assert out.getvalue() == ""
    clock.now += 2.5
    p.advance()
    p.advance()
    p.close()
    assert out.getvalue() == "\rsiblint: 2/3 files\rsiblint: 3/3 files\r\033[K"


def _tree(root: Path) -> None:
    for n in range(3):
        (root / f"m{n}.py").write_text(f"import os\nx = {n}\n")


def _check(root: Path, monkeypatch, args: list[str]):
    """`siblint check` in a pipe, with a clock that jumps 6 s per reading."""
    ticks = iter(range(0, 6000, 6))
    monkeypatch.setattr(runner.time, "monotonic", lambda: float(next(ticks)))
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.chdir(root)
    result = CliRunner().invoke(main, ["check", ".", "--no-cache", *args])
    assert result.exit_code == 0, result.output
    return result


def test_check_in_a_pipe_logs_progress_on_stderr_and_quiet_silences_it(tmp_path: Path, monkeypatch) -> None:
    _tree(tmp_path)
    logged = _check(tmp_path, monkeypatch, [])
    assert "siblint: 3/3 files, " in logged.stderr
    assert "files" not in logged.stdout
    assert "files" not in _check(tmp_path, monkeypatch, ["--quiet"]).stderr
