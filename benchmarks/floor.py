"""The parse-floor arm of `benchmarks/run.py --floor TREE...`: cold `siblint check --no-cache -jN`
beside libcst parsing every .py file of the same tree with N processes (`parse_floor.py`),
interleaved (each round runs the floor and siblint on every tree, in that order), medians of the
rounds (at least SHORT_ROUNDS for a short tree), the ratio the target is stated in (cold / floor)
as the median of each round's ratio (a round's two runs are side by side; medians taken apart
would pair a fast moment's floor with a slow moment's run), the same ratio of CPU time (user+sys of
the process tree: far steadier on a busy machine), and siblint's peak RSS (process tree, the
highest of the rounds). The trees are only read. With a baseline (another install's siblint,
`run.py --floor TREE --baseline OTHER`), its cold run joins each round, after ours, and the table
gives both, and ours / the baseline's in wall and CPU time."""

from __future__ import annotations

import os
import statistics
import sys
from dataclasses import dataclass
from typing import Callable

HERE = os.path.dirname(os.path.abspath(__file__))
# A tree checked in a second or two swings most from round to round (adk-samples, three rounds of one
# report: 1.33x, 1.78x, 1.0x), and its rounds are cheap: it gets at least SHORT_ROUNDS of them.
SHORT_SECONDS = 5.0
SHORT_ROUNDS = 10


@dataclass
class Row:
    tree: str
    floor: float  # medians of the rounds, wall seconds
    cold: float
    cpu_floor: float
    cpu_cold: float
    peak: int  # bytes, the highest of the rounds
    ratio: float = 0.0  # cold / floor: the median of the rounds' ratios (wall, then CPU)
    cpu_ratio: float = 0.0
    base: float | None = None  # the baseline's cold run (medians), when there is one
    cpu_base: float | None = None
    base_ratio: float | None = None  # the baseline's cold / the floor, and ours / the baseline's: per round, medians
    cpu_base_ratio: float | None = None
    ours_to_base: float | None = None
    cpu_ours_to_base: float | None = None


def run(siblint: str, trees: list[str], runs: int, jobs: int, timed: Callable, baseline: str | None = None) -> int:
    measure(siblint, trees, runs, jobs, timed, baseline)
    return 0


def measure(siblint: str, trees: list[str], runs: int, jobs: int, timed: Callable, baseline: str | None = None) -> list[Row]:
    """Print the arm's table and return its rows."""
    floor_cmd = [sys.executable, os.path.join(HERE, "parse_floor.py")]
    walls: dict[tuple[str, str], list[float]] = {}
    cpus: dict[tuple[str, str], list[float]] = {}
    peaks: dict[str, list[int]] = {}
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, -j{jobs}, {runs} rounds "
          f"(at least {SHORT_ROUNDS} for a tree whose cold run takes under {SHORT_SECONDS:.0f} s); "
          f"load at start {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    for r in range(max(runs, SHORT_ROUNDS)):
        for tree in trees:
            tree = os.path.abspath(tree)
            if r >= runs and statistics.median(walls[(tree, "cold")]) >= SHORT_SECONDS:
                continue  # only a short tree's rounds go on
            arms = [("floor", [*floor_cmd, tree, str(jobs)]), ("cold", cold(siblint, tree, jobs))]
            if baseline:
                arms.append(("base", cold(baseline, tree, jobs)))
            for arm, argv in arms:
                rss: list[int] | None = peaks.setdefault(tree, []) if arm == "cold" else None
                sample = timed(argv, tree, rss=rss)
                walls.setdefault((tree, arm), []).append(sample.wall)
                cpus.setdefault((tree, arm), []).append(sample.cpu)
            print(f"  round {r + 1}: {os.path.basename(tree)} floor {walls[(tree, 'floor')][-1]:.1f} s, "
                  f"cold {walls[(tree, 'cold')][-1]:.1f} s, peak {peaks[tree][-1] / 2**20:.0f} MB"
                  + (f", baseline cold {walls[(tree, 'base')][-1]:.1f} s" if baseline else ""), file=sys.stderr, flush=True)
        print(f"  round {r + 1}/{max(runs, SHORT_ROUNDS)} done, load {os.getloadavg()[0]:.1f}", file=sys.stderr)
    print(f"load at end {' '.join(f'{x:.1f}' for x in os.getloadavg())}\n")
    print(f"| tree | parse floor -j{jobs} | cold `siblint check --no-cache -j{jobs}` | ratio (each round's) | CPU ratio "
          f"| peak RSS | CPU floor / cold |")
    print("|---|---|---|---|---|---|---|")
    rows: list[Row] = []
    for tree in trees:
        tree = os.path.abspath(tree)

        def rounds(series: dict[tuple[str, str], list[float]], over: str, under: str, tree: str = tree) -> list[float]:
            return [a / b for a, b in zip(series[(tree, over)], series[(tree, under)])]

        def ratio(series: dict[tuple[str, str], list[float]], over: str, under: str) -> float:
            return statistics.median(rounds(series, over, under))

        row = Row(os.path.basename(tree), statistics.median(walls[(tree, "floor")]), statistics.median(walls[(tree, "cold")]),
                  statistics.median(cpus[(tree, "floor")]), statistics.median(cpus[(tree, "cold")]), max(peaks[tree]),
                  ratio(walls, "cold", "floor"), ratio(cpus, "cold", "floor"))
        if baseline:
            row.base, row.cpu_base = statistics.median(walls[(tree, "base")]), statistics.median(cpus[(tree, "base")])
            row.base_ratio, row.cpu_base_ratio = ratio(walls, "base", "floor"), ratio(cpus, "base", "floor")
            row.ours_to_base, row.cpu_ours_to_base = ratio(walls, "cold", "base"), ratio(cpus, "cold", "base")
        rows.append(row)
        per_round = ", ".join(f"{r:.2f}" for r in rounds(walls, "cold", "floor"))
        print(f"| {row.tree} | {row.floor:.2f} s | {row.cold:.2f} s | {row.ratio:.2f}x ({per_round}) "
              f"| {row.cpu_ratio:.2f}x | {row.peak / 2**20:.0f} MB | {row.cpu_floor:.2f} s / {row.cpu_cold:.2f} s |")
    if baseline:
        print(f"\nbaseline: {baseline}\n")
        print(f"| tree | baseline cold -j{jobs} | ratio to floor | CPU ratio | CPU | ours / baseline | CPU ours / baseline |")
        print("|---|---|---|---|---|---|---|")
        for row in rows:
            print(f"| {row.tree} | {row.base:.2f} s | {row.base_ratio:.2f}x | {row.cpu_base_ratio:.2f}x "
                  f"| {row.cpu_base:.2f} s | {row.ours_to_base:.2f}x | {row.cpu_ours_to_base:.2f}x |")
    return rows


def cold(siblint: str, tree: str, jobs: int) -> list[str]:
    return [siblint, "check", tree, "--no-cache", f"-j{jobs}", "--exit-zero", "-q"]
