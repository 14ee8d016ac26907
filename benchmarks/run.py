"""siblint's speed benchmark: interleaved runs of siblint and its peers on one tree.

    python benchmarks/run.py TREE [--runs 5] [--slow-runs 3] [--no-fixit] [--no-flake8] [--editor-file F]
                                  [--baseline OTHER_SIBLINT]
    python benchmarks/run.py --scaling [BIG_FILE ...] [--scaling-runs 3] [--scaling-factor 1]
    python benchmarks/run.py --frontends TS_TREE PY_TREE [--frontend-runs 5]
    python benchmarks/run.py --stdlib [--stdlib-runs 3]
    python benchmarks/run.py --floor TREE [TREE ...] [--floor-runs 3] [--floor-jobs 2]
    python benchmarks/run.py --report TREES_DIR [--report-runs 3]

`--report` prints issue 24's figures in one run and one table: the `--floor` arm on the four trees
of TREES_DIR (adk-samples, openai-agents-python, pydantic-ai, langgraph: each cold time beside its
parse floor, pydantic-ai's peak RSS), then the tree arm on openai-agents-python without fixit and
without the cold -j1 arm (flake8 with and without the plugin beside cold `siblint check`, the warm
flake8 run, warm and one-changed-file runs, the cache's size after a cold run and after edits and
deletions), `--report-runs` rounds of each (medians; at least 10 for a tree checked in under 5 s,
see benchmarks/floor.py), each figure beside its target. About 25 minutes on 2 quiet cores.

`--stdlib` is another separate arm: `siblint check --no-cache` and `ruff check --no-cache --select ALL`
on a copy of the CPython standard library (no agent code: what siblint costs a tree it has nothing
to say about), interleaved, medians and their ratio.

`--floor` is another separate arm (benchmarks/floor.py): for each tree, libcst's parse of every .py
file with N processes beside cold `siblint check --no-cache -jN`, interleaved: floor, cold, the
ratio and siblint's peak RSS; with `--baseline`, that install's cold run too, and ours / its.

`--frontends` is another separate arm (benchmarks/frontends.py): `siblint check --no-cache` on a
TypeScript tree and on a Python tree, interleaved in the same run: files/s and MB/s of each front end.

`--scaling` is a separate arm (benchmarks/scaling.py): generated modules at N and 4N units per shape,
the growth exponent of the analysis time, and a whole check of the 4N module against libcst's parse.

The tree is copied to a temporary folder first (the "one changed file" arm edits a file, and the
cache goes to a temporary folder), so the given tree is never written to. Every command runs in the
copy's root, as a user runs it (from the folder above, siblint would take that folder for the
project, and with --baseline its scan would read both copies). Each round runs every
command once, in a fixed order, so slow phases of a shared machine hit every command alike; the
report gives the median, min and max wall time of each command and the ratios the targets are
stated in. CPU time (user+sys of the process tree) is shown next to wall time because it is far
less sensitive to a busy machine.

Commands (all public tools; fixit and flake8 arms are skipped when not installed):

  siblint cold+cache -jN  `siblint check --cache-dir <empty> -jN` (N = CPUs): parse all, fill the cache
  siblint cold -j1/-j2    `siblint check --no-cache -j1` / `-j2`
  siblint warm       the same again with the cache from the previous run: nothing changed
  siblint 1 changed  one agent module gets a new comment line, then a warm run
  ruff               `ruff check --no-cache --select E,F,B`
  flake8 [+siblint]  flake8 with the siblint plugin (default selection: its codes are on)
  flake8 [-siblint]  the same flake8 with siblint unplugged (benchmarks/flake8_shim.py bans the
                     plugin in flake8's own discovery, as if it were not installed)
  flake8 stdin +/-   `flake8 - --stdin-display-name x.py` on one agent module (the editor case)
  flake8 warm +siblint  flake8 with the plugin and a filled cache ($SIBLINT_CACHE_DIR): what
                     pre-commit's flake8 hook costs on a tree that did not change
  fixit              `fixit lint` with its default rules (slow: --slow-runs rounds only)
  baseline ...       with --baseline: cold -j2, warm and one changed file for another install of
                     siblint (say, the previous release in its own venv), for before/after ratios

It also prints how many files the pre-filter lets through and the peak RSS (sum over the process
tree, sampled every 20 ms) of `siblint check -j2` cold.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

HERE = os.path.dirname(os.path.abspath(__file__))
BIN = os.path.dirname(sys.executable)


def tool(name: str) -> str | None:
    p = os.path.join(BIN, name)
    return p if os.path.exists(p) else shutil.which(name)


@dataclass
class Sample:
    wall: float
    cpu: float
    rc: int


@dataclass
class Arm:
    name: str
    argv: list[str]
    stdin: bytes | None = None
    prepare: object = None  # callable run (untimed) before each timed run
    slow: bool = False
    env: dict[str, str] | None = None  # added to the environment
    cwd: str | None = None  # where it runs (default: the tree's root, as a user runs it)
    samples: list[Sample] = field(default_factory=list)


# Tools run as they would for a user: bytecode caching on, so the warm-up pass writes the .pyc
# files an editable install lacks (a wheel install has them from pip). With
# PYTHONDONTWRITEBYTECODE set, every run would compile siblint's modules again (~40 ms).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def timed(argv: list[str], cwd: str, stdin: bytes | None = None, rss: list[int] | None = None,
          env: dict[str, str] | None = None) -> Sample:
    """Wall and CPU time of one run; with `rss`, the peak RSS of its process tree is appended."""
    before = os.times()
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env={**ENV, **(env or {})})
    if rss is None:
        _, err = proc.communicate(stdin)
    else:
        peak = 0
        while proc.poll() is None:
            peak = max(peak, tree_rss(proc.pid))
            time.sleep(0.02)
        err = proc.stderr.read() if proc.stderr else b""
        rss.append(peak)
    wall = time.perf_counter() - t0
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    if proc.returncode not in (0, 1):
        sys.stderr.write(f"warning: {' '.join(argv[:3])}... exit {proc.returncode}: {err[-300:]!r}\n")
    return Sample(wall, cpu, proc.returncode)


def proc_tree(pid: int) -> dict[int, list[str]]:
    """The /proc/PID/stat fields after the command name (index 1: the parent's pid) of `pid` and of
    all its live descendants; empty where there is no /proc or no such process."""
    stats: dict[int, list[str]] = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return {}
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fh:
                stats[int(entry)] = fh.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
    children: dict[int, list[int]] = {}
    for child, parts in stats.items():
        children.setdefault(int(parts[1]), []).append(child)
    found, stack = {}, [pid]
    while stack:
        p = stack.pop()
        if p in stats:
            found[p] = stats[p]
            stack.extend(children.get(p, ()))
    return found


def tree_rss(pid: int) -> int:
    """RSS in bytes of `pid` and all its descendants."""
    page = os.sysconf("SC_PAGE_SIZE")
    return sum(int(parts[21]) * page for parts in proc_tree(pid).values())


def peak_rss(argv: list[str], cwd: str) -> tuple[int, float]:
    proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak = 0
    t0 = time.perf_counter()
    while proc.poll() is None:
        peak = max(peak, tree_rss(proc.pid))
        time.sleep(0.02)
    return peak, time.perf_counter() - t0


def prefilter_counts(tree: str) -> tuple[int, int, int, int]:
    from siblint.run.discovery import discover
    from siblint.settings.config import load
    from siblint.syntax.prefilter import may_matter

    files = discover([tree], load(tree)).files
    passed = size = total = 0
    for p in files:
        with open(p, "rb") as fh:
            data = fh.read()
        total += len(data)
        if may_matter(data, path=p):
            passed += 1
            size += len(data)
    return len(files), passed, total, size


def pick_agent_module(tree: str, lines: int = 1000) -> str | None:
    """An agent module (passes the pre-filter) whose length is closest to `lines` lines."""
    from siblint.syntax.prefilter import may_matter

    best: tuple[int, str] | None = None
    for folder, dirs, files in os.walk(tree):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
        for f in sorted(files):
            if f.endswith(".py"):
                p = os.path.join(folder, f)
                with open(p, "rb") as fh:
                    data = fh.read()
                if may_matter(data):
                    score = abs(data.count(b"\n") - lines)
                    if best is None or score < best[0]:
                        best = (score, p)
    return best[1] if best else None


def folder_bytes(folder: str) -> int:
    total = 0
    for here, _, names in os.walk(folder):
        total += sum(os.lstat(os.path.join(here, n)).st_size for n in names)
    return total


def py_bytes(tree: str) -> int:
    return sum(os.path.getsize(os.path.join(here, n)) for here, _, names in os.walk(tree) for n in names
               if n.endswith(".py"))


def cache_pruning(siblint: str, tree: str, cache: str, cwd: str) -> dict[str, float]:
    """The cache's size after a cold run, then after every agent module was edited and a quarter of
    them deleted (each followed by a run): pruning keeps it near the first figure, where an unpruned
    cache would hold both versions of every edited file. Edits this copy of the tree: run it last."""
    from siblint.syntax.prefilter import may_matter

    shutil.rmtree(cache, ignore_errors=True)
    argv = [siblint, "check", tree, "--cache-dir", cache, "--exit-zero", "-q"]
    timed(argv, cwd)
    cold = folder_bytes(cache)
    agents = []
    for here, _, names in os.walk(tree):
        for n in sorted(names):
            p = os.path.join(here, n)
            if n.endswith(".py") and may_matter(open(p, "rb").read(), path=p):
                agents.append(p)
    for p in agents:
        with open(p, "a", encoding="utf-8") as fh:
            fh.write("# benchmark edit\n")
    timed(argv, cwd)
    edited = folder_bytes(cache)
    for p in agents[::4]:
        os.unlink(p)
    timed(argv, cwd)
    print(f"\ncache size (source: {py_bytes(tree) / 1e6:.1f} MB of .py): {cold / 1e6:.2f} MB after a cold run; "
          f"{edited / 1e6:.2f} MB after editing all {len(agents)} agent modules; {folder_bytes(cache) / 1e6:.2f} MB "
          f"after deleting {len(agents[::4])} of them")
    return {"cache source": py_bytes(tree), "cache cold": cold, "cache edited": edited, "cache deleted": folder_bytes(cache)}


def stdlib_ratio(siblint: str, runs: int) -> int:
    """siblint against `ruff --select ALL` on a copy of the standard library (no site-packages), side by side."""
    import sysconfig

    ruff = tool("ruff")
    if not ruff:
        print("ruff is not installed (pip install ruff): no stdlib figure", file=sys.stderr)
        return 2
    work = tempfile.mkdtemp(prefix="siblint-stdlib-")
    tree = os.path.join(work, "stdlib")
    shutil.copytree(sysconfig.get_paths()["stdlib"], tree, symlinks=True,
                    ignore=shutil.ignore_patterns("site-packages", "__pycache__"))
    arms = [Arm("siblint check", [siblint, "check", tree, "--no-cache", "--exit-zero", "-q"]),
            Arm("ruff --select ALL", [ruff, "check", "--no-cache", "--select", "ALL", "--exit-zero", "-q", tree])]
    for arm in arms:  # warm the OS file cache and the .pyc files
        timed(arm.argv, work)
    for _ in range(runs):
        for arm in arms:
            arm.samples.append(timed(arm.argv, work))
    print(f"stdlib: {tree} ({py_bytes(tree) / 1e6:.1f} MB of .py); load {os.getloadavg()[0]:.1f}")
    base = statistics.median(s.wall for s in arms[1].samples)
    for arm in arms:
        print(fmt_row(arm.name, arm, base))
    cpu_base = statistics.median(s.cpu for s in arms[1].samples)
    print(f"siblint / ruff --select ALL (medians of {runs}): "
          f"{statistics.median(s.wall for s in arms[0].samples) / base:.3f} wall, "
          f"{statistics.median(s.cpu for s in arms[0].samples) / cpu_base:.3f} CPU")
    shutil.rmtree(work, ignore_errors=True)
    return 0


def fmt_row(name: str, arm: Arm, base: float | None) -> str:
    walls = [s.wall for s in arm.samples]
    cpus = [s.cpu for s in arm.samples]
    med = statistics.median(walls)
    ratio = f"{med / base:6.2f}x" if base else "      "
    return (f"{name:<28} n={len(walls):<2} median {med:8.3f}s  min {min(walls):8.3f}s  max {max(walls):8.3f}s"
            f"  cpu {statistics.median(cpus):8.3f}s  {ratio}")


REPORT_TREES = ("adk-samples", "openai-agents-python", "pydantic-ai", "langgraph")
REPORT_SDK, REPORT_MEMORY = "openai-agents-python", "pydantic-ai"


def report(args: argparse.Namespace) -> int:
    """`--report TREES_DIR`: the parse-floor arm on REPORT_TREES, then the tree arm (no fixit, no
    cold -j1) on REPORT_SDK, the cache-pruning figure included, `--report-runs` rounds each; then
    one table of issue 24's figures beside their targets."""
    import floor

    trees = [os.path.join(os.path.abspath(args.report), name) for name in REPORT_TREES]
    missing = [t for t in trees if not os.path.isdir(t)]
    if missing:
        print(f"not found: {', '.join(missing)}", file=sys.stderr)
        return 2
    start = os.getloadavg()
    rows = floor.measure(tool("siblint"), trees, args.report_runs, 2, timed, args.baseline)
    print()
    args.runs = args.slow_runs = args.report_runs
    args.no_fixit = args.no_rss = args.no_j1 = True
    sdk = tree_run(args, trees[REPORT_TREES.index(REPORT_SDK)])
    print(f"\nissue 24 in one run: medians of {args.report_runs} rounds, at least {floor.SHORT_ROUNDS} for a tree "
          f"checked in under {floor.SHORT_SECONDS:.0f} s (wall; CPU in brackets; a ratio to the floor or the "
          f"baseline is the median of the rounds' ratios), -j2, "
          f"load {start[0]:.1f} at start, {os.getloadavg()[0]:.1f} at end")
    print("| figure | measured | target |")
    print("|---|---|---|")
    for row in rows:
        print(f"| {row.tree}: cold `siblint check --no-cache -j2` / libcst parse floor -j2 | {row.cold:.1f} s / "
              f"{row.floor:.1f} s: {row.ratio:.2f}x ({row.cpu_ratio:.2f}x CPU) | ≤ 1.5x |")
    memory = rows[REPORT_TREES.index(REPORT_MEMORY)]
    print(f"| {memory.tree}: peak RSS of that cold run (process tree) | {memory.peak / 2**20:.0f} MB | ≤ 600 MB |")
    for row in rows if args.baseline else ():
        print(f"| {row.tree}: cold, this / the baseline (`--baseline`) | {row.cold:.1f} s / {row.base:.1f} s: "
              f"{row.ours_to_base:.2f}x ({row.cpu_ours_to_base:.2f}x CPU) | |")

    def pair(a: str, b: str) -> str:
        if a not in sdk or b not in sdk:
            return "n/a"
        return (f"{sdk[a]:.2f} s / {sdk[b]:.2f} s = {sdk[a] / sdk[b]:.2f}x "
                f"({sdk[a + ' cpu']:.2f} s / {sdk[b + ' cpu']:.2f} s CPU)")

    print(f"| {REPORT_SDK}: flake8 with the plugin / cold `siblint check --no-cache -j2` | "
          f"{pair('flake8 +siblint', 'siblint cold -j2')} | ≤ 1.5x |")
    print(f"| {REPORT_SDK}: flake8 without the plugin / cold `siblint check` | "
          f"{pair('flake8 -siblint', 'siblint cold -j2')} | (flake8's own share) |")
    if "flake8 warm +siblint" in sdk and "flake8 -siblint" in sdk and "siblint warm" in sdk:
        added = sdk["flake8 warm +siblint"] - sdk["flake8 -siblint"]
        print(f"| {REPORT_SDK}: what the plugin adds to a warm flake8 / warm `siblint check` | {added:.2f} s / "
              f"{sdk['siblint warm']:.2f} s = {added / sdk['siblint warm']:.2f}x | ≤ 2x |")
    for name in ("siblint warm", "siblint 1 changed"):
        if name in sdk:
            print(f"| {REPORT_SDK}: {name} | {sdk[name]:.2f} s ({sdk[name + ' cpu']:.2f} s CPU) | < 1 s |")
    if "cache cold" in sdk:
        print(f"| {REPORT_SDK}: cache size after a cold run; after editing every agent module (pruned); after "
              f"deleting a quarter of them | {sdk['cache cold'] / 1e6:.1f} MB; {sdk['cache edited'] / 1e6:.1f} MB; "
              f"{sdk['cache deleted'] / 1e6:.1f} MB ({sdk['cache source'] / 1e6:.1f} MB of .py) | ≤ 2x the source |")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tree", nargs="?")
    ap.add_argument("--scaling", nargs="*", metavar="FILE",
                    help="the scaling arm instead of a tree: generated modules at N and 4N, plus these real files")
    ap.add_argument("--scaling-runs", type=int, default=3, help="runs per figure of the scaling arm (median; default 3)")
    ap.add_argument("--scaling-factor", type=float, default=1.0, help="multiply every shape's N (default 1)")
    ap.add_argument("--frontends", nargs=2, metavar=("TS_TREE", "PY_TREE"),
                    help="the front-end arm instead of a tree: tree-sitter on TS_TREE against libcst on PY_TREE")
    ap.add_argument("--frontend-runs", type=int, default=5, help="runs per tree of the front-end arm (median; default 5)")
    ap.add_argument("--stdlib", action="store_true",
                    help="the stdlib arm instead of a tree: siblint against ruff --select ALL on the standard library")
    ap.add_argument("--stdlib-runs", type=int, default=3, help="runs per tool of the stdlib arm (median; default 3)")
    ap.add_argument("--no-cache-pruning", action="store_true", help="skip the cache size before/after pruning figure")
    ap.add_argument("--floor", nargs="+", metavar="TREE",
                    help="the parse-floor arm instead of a tree: cold siblint beside libcst's parse of every .py file")
    ap.add_argument("--floor-runs", type=int, default=3, help="rounds of the parse-floor arm (median; default 3)")
    ap.add_argument("--floor-jobs", type=int, default=2, help="processes for both sides of the parse-floor arm (default 2)")
    ap.add_argument("--runs", type=int, default=5, help="rounds for fast arms (default 5)")
    ap.add_argument("--slow-runs", type=int, default=3,
                    help="rounds for slow arms: cold siblint -j1/-j2 on big agent trees, fixit (median; default 3)")
    ap.add_argument("--cold-slow", action="store_true", help="treat the cold siblint arms as slow (agent-dense trees)")
    ap.add_argument("--no-fixit", action="store_true")
    ap.add_argument("--no-flake8", action="store_true")
    ap.add_argument("--no-flake8-tree", action="store_true", help="skip whole-tree flake8 arms (keep the stdin/editor arms)")
    ap.add_argument("--no-rss", action="store_true")
    ap.add_argument("--cold-once", action="store_true",
                    help="big agent trees: one cold arm only (cold+cache -jN, --slow-runs rounds), its peak RSS sampled")
    ap.add_argument("--editor-file", help="agent module for the flake8 stdin arm (default: the one closest to 1,000 lines)")
    ap.add_argument("--baseline", metavar="SIBLINT",
                    help="another install's siblint executable: its cold, warm and one-changed arms run interleaved "
                         "with this one's, and the report gives this / baseline ratios")
    ap.add_argument("--no-j1", action="store_true", help="skip the cold -j1 arm")
    ap.add_argument("--report", metavar="TREES_DIR",
                    help="issue 24's figures in one run and one table: the parse-floor arm on the four trees of "
                         "TREES_DIR, then the tree arm on its SDK tree (see REPORT_TREES)")
    ap.add_argument("--report-runs", type=int, default=3, help="rounds of every arm of --report (median; default 3)")
    args = ap.parse_args()
    if args.scaling is not None:
        import scaling

        return scaling.run(tool("siblint"), args.scaling, args.scaling_runs, args.scaling_factor)
    if args.frontends is not None:
        import frontends

        return frontends.run(tool("siblint"), args.frontends, args.frontend_runs, timed, prefilter_counts)
    if args.stdlib:
        return stdlib_ratio(tool("siblint"), args.stdlib_runs)
    if args.floor is not None:
        import floor

        return floor.run(tool("siblint"), args.floor, args.floor_runs, args.floor_jobs, timed, args.baseline)
    if args.report is not None:
        return report(args)
    if args.tree is None:
        ap.error("TREE is required (or --scaling)")
    tree_run(args, os.path.abspath(args.tree))
    return 0


def tree_run(args: argparse.Namespace, src: str) -> dict[str, float]:
    """The tree arm on a copy of `src`; prints its report and returns the median wall time of each
    arm by name, its median CPU time under `<name> cpu`, and the cache sizes (`cache ...`, bytes)."""
    work = tempfile.mkdtemp(prefix="siblint-bench-")
    tree = os.path.join(work, "tree")
    shutil.copytree(src, tree, ignore=shutil.ignore_patterns(".git", "__pycache__", ".siblint_cache", ".ruff_cache"))
    cache = os.path.join(work, "cache")
    siblint = tool("siblint")
    env_note = f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}"
    print(f"tree: {src} (copied to {tree}); {env_note}")

    n, passed, total, size = prefilter_counts(tree)
    print(f"pre-filter: {passed} of {n} files pass ({size / 1e6:.2f} of {total / 1e6:.2f} MB)")

    def fresh_cache() -> None:
        shutil.rmtree(cache, ignore_errors=True)

    agent_file = args.editor_file or pick_agent_module(tree)
    if args.editor_file:
        # Relative to the cwd if it exists there, else to TREE; inside TREE it means the copy, which
        # the "1 changed" arm edits: the given tree is never written to.
        given = args.editor_file if os.path.exists(args.editor_file) else os.path.join(src, args.editor_file)
        given = os.path.abspath(given)
        agent_file = os.path.join(tree, os.path.relpath(given, src)) if given.startswith(src + os.sep) else given
    counter = [0]

    def touch_agent_file() -> None:
        counter[0] += 1
        with open(agent_file, "a", encoding="utf-8") as fh:
            fh.write(f"# benchmark edit {counter[0]}\n")

    cold_slow = args.cold_slow
    arms: list[Arm] = []
    jobs = os.cpu_count() or 1
    arms.append(Arm(f"siblint cold+cache -j{jobs}", [siblint, "check", tree, "--cache-dir", cache, f"-j{jobs}"],
                    prepare=fresh_cache, slow=cold_slow))
    arms.append(Arm("siblint warm", [siblint, "check", tree, "--cache-dir", cache]))
    if agent_file:
        arms.append(Arm("siblint 1 changed", [siblint, "check", tree, "--cache-dir", cache], prepare=touch_agent_file))
    if not args.cold_once and not args.no_j1:
        arms.append(Arm("siblint cold -j1", [siblint, "check", tree, "--no-cache", "-j1"], slow=cold_slow))
    if not args.cold_once:
        arms.append(Arm("siblint cold -j2", [siblint, "check", tree, "--no-cache", "-j2"], slow=cold_slow))
    if args.baseline:
        # The same arms for the baseline install, on its own copy of the tree with its own cache, so
        # that one install's edits never make the other's "warm" run a changed one.
        base_tree, base_cache = os.path.join(work, "base-tree"), os.path.join(work, "base-cache")
        shutil.copytree(tree, base_tree)
        base_file = os.path.join(base_tree, os.path.relpath(agent_file, tree)) if agent_file else None

        def touch_base_file() -> None:
            counter[0] += 1
            with open(base_file, "a", encoding="utf-8") as fh:
                fh.write(f"# benchmark edit {counter[0]}\n")

        arms.append(Arm("baseline cold -j2", [args.baseline, "check", base_tree, "--no-cache", "-j2"], slow=cold_slow,
                        cwd=base_tree))
        arms.append(Arm("baseline warm", [args.baseline, "check", base_tree, "--cache-dir", base_cache], cwd=base_tree))
        if base_file:
            arms.append(Arm("baseline 1 changed", [args.baseline, "check", base_tree, "--cache-dir", base_cache],
                            prepare=touch_base_file, cwd=base_tree))
    ruff = tool("ruff")
    if ruff:
        arms.append(Arm("ruff E,F,B", [ruff, "check", "--no-cache", "--select", "E,F,B", "--exit-zero", "-q", tree]))
    shim = os.path.join(HERE, "flake8_shim.py")
    have_flake8 = not args.no_flake8 and subprocess.run([sys.executable, "-c", "import flake8"]).returncode == 0
    if have_flake8:
        if not args.no_flake8_tree:
            arms.append(Arm("flake8 +siblint", [sys.executable, shim, "--exit-zero", tree]))
            arms.append(Arm("flake8 -siblint", [sys.executable, shim, "--without-siblint", "--exit-zero", tree]))
            # The warm-up pass fills its cache; every timed run is then warm.
            arms.append(Arm("flake8 warm +siblint", [sys.executable, shim, "--exit-zero", tree],
                            env={"SIBLINT_CACHE_DIR": os.path.join(work, "flake8-cache")}))
        if agent_file:
            with open(agent_file, "rb") as fh:
                text = fh.read()
            name = os.path.basename(agent_file)
            arms.append(Arm("flake8 stdin +siblint", [sys.executable, shim, "--exit-zero", "-", "--stdin-display-name", name], stdin=text))
            arms.append(Arm("flake8 stdin -siblint", [sys.executable, shim, "--without-siblint", "--exit-zero", "-",
                                                      "--stdin-display-name", name], stdin=text))
    fixit = tool("fixit")
    if fixit and not args.no_fixit:
        arms.append(Arm("fixit lint", [fixit, "lint", tree], slow=True))

    # One untimed pass warms the OS file cache and the .pyc files of every tool.
    for arm in arms:
        if not arm.slow and not (cold_slow and arm.name.startswith("siblint")):
            if arm.prepare:
                arm.prepare()
            timed(arm.argv, arm.cwd or tree, arm.stdin, env=arm.env)
    rounds = max(args.runs, args.slow_runs)
    cold_rss: list[int] = []
    for r in range(rounds):
        for arm in arms:
            if arm.slow and r >= args.slow_runs or not arm.slow and r >= args.runs:
                continue
            if arm.prepare:
                arm.prepare()
            sample_rss = cold_rss if args.cold_once and arm is arms[0] and not args.no_rss else None
            arm.samples.append(timed(arm.argv, arm.cwd or tree, arm.stdin, sample_rss, env=arm.env))
        print(f"  round {r + 1}/{rounds} done", file=sys.stderr)

    by = {a.name: a for a in arms}

    def med(name: str) -> float | None:
        a = by.get(name)
        return statistics.median(s.wall for s in a.samples) if a and a.samples else None

    print()
    base_ruff = med("ruff E,F,B")
    for arm in arms:
        if not arm.samples:
            continue
        base = base_ruff if arm.name.startswith("siblint") else None
        print(fmt_row(arm.name, arm, base))
    print("(ratios: x ruff median)")

    print()
    print("ratios of medians:")
    if base_ruff:
        for name in (f"siblint cold+cache -j{jobs}", "siblint cold -j1", "siblint cold -j2", "siblint warm"):
            if med(name):
                print(f"  {name} / ruff E,F,B: {med(name) / base_ruff:.3f}")
    if med("flake8 +siblint") and med("flake8 -siblint"):
        print(f"  flake8 with siblint / without: {med('flake8 +siblint') / med('flake8 -siblint'):.3f} "
              f"(+{(med('flake8 +siblint') - med('flake8 -siblint')) * 1000:.0f} ms)")
    if med("flake8 warm +siblint") and med("flake8 -siblint") and med("siblint warm"):
        added = med("flake8 warm +siblint") - med("flake8 -siblint")
        print(f"  flake8 warm: siblint adds {added:.3f}s to flake8; siblint check warm {med('siblint warm'):.3f}s "
              f"({added / med('siblint warm'):.2f}x); flake8 cold with siblint / siblint check cold -j2: "
              + (f"{med('flake8 +siblint') / med('siblint cold -j2'):.2f}" if med("siblint cold -j2") else "n/a"))
    if med("flake8 stdin +siblint") and med("flake8 stdin -siblint"):
        lines = open(agent_file, "rb").read().count(b"\n")
        print(f"  editor: flake8 stdin on {os.path.relpath(agent_file, tree)} ({lines} lines): "
              f"+{(med('flake8 stdin +siblint') - med('flake8 stdin -siblint')) * 1000:.0f} ms with siblint")
    if med("fixit lint"):
        for name in (f"siblint cold+cache -j{jobs}", "siblint cold -j2"):
            if med(name):
                print(f"  {name} / fixit lint: {med(name) / med('fixit lint'):.3f}")
    if med("siblint 1 changed"):
        print(f"  one changed file: {med('siblint 1 changed'):.3f}s ({os.path.relpath(agent_file, tree)})")
    for ours, theirs in (("siblint cold -j2", "baseline cold -j2"), ("siblint warm", "baseline warm"),
                         ("siblint 1 changed", "baseline 1 changed")):
        if med(ours) and med(theirs):
            print(f"  {ours} / {theirs}: {med(ours) / med(theirs):.3f} ({med(ours):.3f}s vs {med(theirs):.3f}s)")

    if cold_rss:
        print(f"\npeak RSS of `{' '.join(os.path.basename(a) if a == siblint else a for a in arms[0].argv[:2])} ... -j{jobs}` "
              f"cold (process tree): {max(cold_rss) / 2**20:.0f} MB")
    elif not args.no_rss:
        argv = [siblint, "check", tree, "--no-cache", "-j2"]
        peak, wall = peak_rss(argv, tree)
        print(f"\npeak RSS of `siblint check -j2 --no-cache` (process tree): {peak / 2**20:.0f} MB ({wall:.1f}s)")
    figures: dict[str, float] = {}
    for arm in arms:
        if arm.samples:
            figures[arm.name] = statistics.median(s.wall for s in arm.samples)
            figures[f"{arm.name} cpu"] = statistics.median(s.cpu for s in arm.samples)
    if not args.no_cache_pruning:
        figures.update(cache_pruning(siblint, tree, cache, tree))
    shutil.rmtree(work, ignore_errors=True)
    return figures


if __name__ == "__main__":
    sys.exit(main())
