"""The language server's editor latency: didChange -> publishDiagnostics, warm.

    python benchmarks/lsp_latency.py [TREE_OR_FILE] [--runs 21] [--warmup 3] [--stages]

Starts `siblint server` (next to this Python) over stdio with pygls's client, opens one agent
module (the one closest to 1,000 lines in TREE, by default the installed `agents` package), makes
a few untimed edits so the server is warm (rules imported, the project's other modules loaded),
then times each edit: from sending a full-text didChange (a comment line appended) to receiving the
publishDiagnostics of that version. The server's debounce (siblint.interfaces.server.DEBOUNCE_SECONDS) is part
of every figure. The module is copied to a temporary folder, so the tree is never written to.
Target: a median of at most 100 ms. `--stages` also times, in this process, each step of one lint
(where the server's time goes).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))  # the same client the tests drive the server with
sys.path.insert(0, str(HERE))

from lsp_client import SiblintClient  # noqa: E402
from run import pick_agent_module, proc_tree  # noqa: E402
from siblint.interfaces.server import DEBOUNCE_SECONDS  # noqa: E402


def default_tree() -> str:
    import importlib.util

    spec = importlib.util.find_spec("agents")  # located, not imported
    if spec is None or not spec.submodule_search_locations:
        sys.exit("no TREE given and the `agents` package (openai-agents) is not installed")
    return list(spec.submodule_search_locations)[0]


def cpu_seconds(pid: int) -> float | None:
    """utime + stime of a process and of its live descendants, from /proc (None elsewhere): less
    sensitive to a busy machine. The server lints in a child process of its own
    (siblint.interfaces.lint_scheduler), whose time the server's own figures do not hold."""
    tree = proc_tree(pid)
    if pid not in tree:
        return None
    return sum(int(parts[11]) + int(parts[12]) for parts in tree.values()) / os.sysconf("SC_CLK_TCK")


async def measure(module: Path, root: Path, runs: int, warmup: int) -> tuple[list[float], int, float | None]:
    server = [str(Path(sys.executable).parent / "siblint"), "server"]
    text = module.read_text(encoding="utf-8")
    async with SiblintClient(server, root) as client:
        uri = client.open(module, text)
        first = await client.diagnostics(uri, timeout=120)
        pid = client.client._server.pid  # pygls keeps the server's process private; only read here
        times: list[float] = []
        cpu_start = None
        for i in range(warmup + runs):
            if i == warmup:
                cpu_start = cpu_seconds(pid)
            text += f"# edit {i}\n"
            start = time.perf_counter()
            client.change(uri, text)
            params = await client.diagnostics(uri, timeout=120)
            elapsed = time.perf_counter() - start
            assert params.version == client.versions[uri], "a publish for an older version"
            if i >= warmup:
                times.append(elapsed)
        cpu_end = cpu_seconds(pid)
        cpu = (cpu_end - cpu_start) / runs if cpu_start is not None and cpu_end is not None else None
        return times, len(first.diagnostics), cpu


def stages(module: Path, runs: int) -> dict[str, float]:
    """Median CPU seconds of each step of one lint, in this process, warm (--stages)."""
    import gc

    from siblint.common.gctune import THRESHOLD
    from siblint.interfaces.analysis_session import AnalysisSession
    from siblint.syntax import source
    from siblint.syntax.collector import collect

    gc.set_threshold(*THRESHOLD)  # as the server runs
    path = str(module)
    text = module.read_text(encoding="utf-8")
    session = AnalysisSession()
    session.update(path, text)
    session.lint(path)
    steps = {
        "CPython guard (ast.parse + depth)": lambda t: source.check_syntax(t, path),
        "libcst parse": source.parse,
        "libcst parse + facts": lambda t: collect(source.parse(t), path, "m", False),
        "whole lint (AnalysisSession.lint)": lambda t: (session.update(path, t), session.lint(path)),
    }
    out: dict[str, list[float]] = {name: [] for name in steps}
    for i in range(runs):
        edited = text + f"# edit {i}\n"
        for name, step in steps.items():
            start = time.process_time()
            step(edited)
            out[name].append(time.process_time() - start)
    return {name: statistics.median(v) for name, v in out.items()}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tree", nargs="?", help="a tree to pick the module from, or the module itself")
    ap.add_argument("--runs", type=int, default=21)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--stages", action="store_true", help="also time each step of a lint in this process (CPU)")
    args = ap.parse_args()

    src = os.path.abspath(args.tree or default_tree())
    if os.path.isdir(src):
        picked = pick_agent_module(src)
        if picked is None:
            sys.exit(f"{src}: no agent module (nothing passes the pre-filter)")
        tree, rel = src, os.path.relpath(picked, src)
    else:
        tree, rel = os.path.dirname(src), os.path.basename(src)
    work = Path(tempfile.mkdtemp(prefix="siblint-lsp-bench-"))
    try:
        copy = work / os.path.basename(tree)  # the same folder name: absolute imports resolve in the copy
        shutil.copytree(tree, copy, ignore=shutil.ignore_patterns(".git", "__pycache__", ".siblint_cache"))
        module = copy / rel
        lines = module.read_text(encoding="utf-8").count("\n")
        times, n, cpu = asyncio.run(measure(module, copy, args.runs, args.warmup))
        split = stages(module, args.runs) if args.stages else {}
    finally:
        shutil.rmtree(work, ignore_errors=True)
    ms = sorted(t * 1000 for t in times)
    print(f"module: {os.path.join(tree, rel)} ({lines} lines, {n} findings); python {sys.version.split()[0]}, "
          f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}")
    print(f"didChange -> publishDiagnostics, warm, n={len(ms)}: median {statistics.median(ms):.1f} ms, "
          f"min {ms[0]:.1f} ms, max {ms[-1]:.1f} ms (target <= 100 ms; includes the {DEBOUNCE_SECONDS * 1000:.0f} ms debounce)")
    if cpu is not None:
        print(f"server CPU per edit (user+sys of the server and its lint process, mean of the timed runs): {cpu * 1000:.1f} ms")
    for name, seconds in split.items():
        print(f"  in process, median CPU: {name:<36} {seconds * 1000:6.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
