"""The front-end arm of the benchmark (`run.py --frontends TS_TREE PY_TREE`): tree-sitter on a
TypeScript tree against libcst on a Python tree, in the same run.

Both trees are copied to a temporary folder; each round runs `siblint check --no-cache -j1` once
on each, in turn, so a busy phase of a shared machine hits both alike. The report gives, per
tree, the median wall and CPU time (user+sys) of `--frontend-runs` runs, and files/s and MB/s of
the files the pre-filter passes (what is parsed and analysed) per CPU second and per wall second.
"""

from __future__ import annotations

import os
import shutil
import statistics
import tempfile
from collections.abc import Callable


def run(siblint: str, trees: list[str], runs: int, timed: Callable, counts: Callable) -> int:
    """`timed` and `counts` are run.py's: one timed run, and the pre-filter's counts of a tree."""
    if len(trees) != 2:
        raise SystemExit("--frontends takes two trees: a TypeScript/JavaScript one, then a Python one")
    work = tempfile.mkdtemp(prefix="siblint-frontends-")
    copies: list[tuple[str, str]] = []
    for label, src in zip(("TS/JS (tree-sitter)", "Python (libcst)"), trees):
        dst = os.path.join(work, label.split()[0].replace("/", ""))
        shutil.copytree(os.path.abspath(src), dst, ignore=shutil.ignore_patterns(".git", "__pycache__", ".siblint_cache",
                                                                                 "node_modules"))
        copies.append((label, dst))
    samples: dict[str, list] = {label: [] for label, _ in copies}
    for _ in range(runs):
        for label, tree in copies:
            samples[label].append(timed([siblint, "check", tree, "--no-cache", "-j1", "-q"], work))
    print(f"front ends, `siblint check --no-cache -j1 -q`, median of {runs} interleaved runs each:")
    for label, tree in copies:
        found, passed, total, size = counts(tree)
        wall = statistics.median(s.wall for s in samples[label])
        cpu = statistics.median(s.cpu for s in samples[label])
        print(f"  {label}: {passed} of {found} files pass the pre-filter ({size / 1e6:.2f} of {total / 1e6:.2f} MB); "
              f"wall {wall:.2f}s, CPU {cpu:.2f}s -> {passed / cpu:.0f} files/s, {size / 1e6 / cpu:.2f} MB/s per CPU second; "
              f"{passed / wall:.0f} files/s, {size / 1e6 / wall:.2f} MB/s per wall second")
    shutil.rmtree(work, ignore_errors=True)
    return 0
