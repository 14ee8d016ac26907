"""benchmarks/floor.py (`run.py --floor TREE --baseline OTHER`): the baseline's cold run joins every
round, interleaved after ours, and its medians reach the rows; a short tree gets more rounds."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from support import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))
import floor  # noqa: E402


@dataclass
class Sample:
    wall: float
    cpu: float
    rc: int = 0


def test_the_baseline_runs_in_every_round_after_ours(tmp_path: Path, capsys) -> None:
    calls: list[str] = []
    walls = {"floor": 10.0, "ours": 15.0, "theirs": 20.0}

    def timed(argv: list[str], cwd: str, rss: list[int] | None = None) -> Sample:
        who = "floor" if argv[1].endswith("parse_floor.py") else "ours" if argv[0] == "ours" else "theirs"
        calls.append(who)
        if rss is not None:
            rss.append(1)
        return Sample(walls[who], walls[who] / 2)

    (row,) = floor.measure("ours", [str(tmp_path)], 3, 2, timed, baseline="theirs")
    assert calls == ["floor", "ours", "theirs"] * 3
    assert (row.floor, row.cold, row.base, row.cpu_base) == (10.0, 15.0, 20.0, 10.0)
    assert "| 0.75x | 0.75x |" in capsys.readouterr().out  # ours / the baseline's, wall and CPU


def test_without_a_baseline_only_the_floor_and_ours_run(tmp_path: Path) -> None:
    calls: list[str] = []

    def timed(argv: list[str], cwd: str, rss: list[int] | None = None) -> Sample:
        calls.append(argv[0])
        if rss is not None:
            rss.append(1)
        return Sample(10.0, 10.0)

    (row,) = floor.measure("ours", [str(tmp_path)], 2, 2, timed)
    assert calls == [sys.executable, "ours"] * 2 and row.base is None


def test_a_short_tree_gets_at_least_ten_rounds_a_long_one_the_rounds_asked(tmp_path: Path) -> None:
    short, long = tmp_path / "short", tmp_path / "long"
    short.mkdir()
    long.mkdir()
    calls: list[tuple[str, str]] = []
    cold = {str(short): [1.0, 6.0, 1.0], str(long): [9.0, 4.0, 9.0]}  # medians of 3: 1 s and 9 s

    def timed(argv: list[str], cwd: str, rss: list[int] | None = None) -> Sample:
        arm = "floor" if argv[1].endswith("parse_floor.py") else "cold"
        calls.append((cwd, arm))
        if rss is not None:
            rss.append(1)
        rounds = sum(1 for c in calls if c == (cwd, arm))
        wall = cold[cwd][rounds - 1] if arm == "cold" and rounds <= 3 else 1.0
        return Sample(wall, wall)

    rows = floor.measure("ours", [str(short), str(long)], 3, 2, timed)
    assert calls.count((str(short), "cold")) == floor.SHORT_ROUNDS == 10
    assert calls.count((str(long), "cold")) == calls.count((str(long), "floor")) == 3
    assert [r.tree for r in rows] == ["short", "long"] and rows[1].cold == 9.0


def test_the_ratio_is_each_rounds_ratio_not_the_ratio_of_medians(tmp_path: Path) -> None:
    """A round's floor and cold run are side by side; the medians of each side come from different
    rounds when the machine's speed drifts: here 30 s / 10 s = 3.0x, though each round says 1.5x or 3x."""
    rounds = iter([(10.0, 15.0), (20.0, 30.0), (10.0, 30.0)])
    current: list[float] = []

    def timed(argv: list[str], cwd: str, rss: list[int] | None = None) -> Sample:
        if argv[1].endswith("parse_floor.py"):
            current[:] = next(rounds)
            return Sample(current[0], current[0])
        if rss is not None:
            rss.append(1)
        return Sample(current[1], current[1] / 2)

    (row,) = floor.measure("ours", [str(tmp_path)], 3, 2, timed)
    assert (row.floor, row.cold) == (10.0, 30.0)
    assert (row.ratio, row.cpu_ratio) == (1.5, 0.75)
