"""benchmarks/floor.py (`run.py --floor TREE --baseline OTHER`): the baseline's cold run joins every
round, interleaved after ours, and its medians reach the rows."""

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
    walls = {"floor": 1.0, "ours": 1.5, "theirs": 2.0}

    def timed(argv: list[str], cwd: str, rss: list[int] | None = None) -> Sample:
        who = "floor" if argv[1].endswith("parse_floor.py") else "ours" if argv[0] == "ours" else "theirs"
        calls.append(who)
        if rss is not None:
            rss.append(1)
        return Sample(walls[who], walls[who] / 2)

    (row,) = floor.measure("ours", [str(tmp_path)], 3, 2, timed, baseline="theirs")
    assert calls == ["floor", "ours", "theirs"] * 3
    assert (row.floor, row.cold, row.base, row.cpu_base) == (1.0, 1.5, 2.0, 1.0)
    assert "| 0.75x | 0.75x |" in capsys.readouterr().out  # ours / the baseline's, wall and CPU


def test_without_a_baseline_only_the_floor_and_ours_run(tmp_path: Path) -> None:
    calls: list[str] = []

    def timed(argv: list[str], cwd: str, rss: list[int] | None = None) -> Sample:
        calls.append(argv[0])
        if rss is not None:
            rss.append(1)
        return Sample(1.0, 1.0)

    (row,) = floor.measure("ours", [str(tmp_path)], 2, 2, timed)
    assert calls == [sys.executable, "ours"] * 2 and row.base is None
