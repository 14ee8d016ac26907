"""CPU time of each per-file phase after reading, every .py file of a tree in one thread.

    python benchmarks/phases.py TREE [--profile OUT.prof]

Prints, in thread CPU seconds: CPython's parse (the guard), its depth count, libcst's parse (the
floor), positions, and the collector's walk, then the four extras as a multiple of the parse.
Run it with another install's python to compare (the phases are the same functions on main).
"""

from __future__ import annotations

import argparse
import ast
import os
import sys
import threading
import time


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("tree")
    parser.add_argument("--profile", help="write a cProfile of the phases here")
    args = parser.parse_args()
    sys.setrecursionlimit(10_000)
    threading.stack_size(512 * 1024 * 1024)  # deep files, as `source.run_isolated` allows them
    result: dict[str, float] = {}
    thread = threading.Thread(target=lambda: result.update(measure(args.tree, args.profile)))
    thread.start()
    thread.join()
    files = int(result.pop("files"))
    extras = sum(v for k, v in result.items() if k != "libcst parse") / result["libcst parse"]
    print(f"{files} files: " + ", ".join(f"{k} {v:.2f} s" for k, v in result.items()) + f"; extras/parse {extras:.2f}")


def measure(tree: str, profile: str | None) -> dict[str, float]:
    import libcst as cst
    from siblint.model.project import module_name_for
    from siblint.syntax import collector, positions, source
    from siblint.syntax.facts import ModuleFacts

    paths = sorted(os.path.join(d, f) for d, _, fs in os.walk(tree) for f in fs if f.endswith(".py"))
    spent = dict.fromkeys(("ast parse", "depth", "libcst parse", "positions", "walk"), 0.0)
    clock = time.thread_time
    profiler = None
    if profile:
        import cProfile

        profiler = cProfile.Profile(clock)
        profiler.enable()
    files = 0
    for path in paths:
        try:
            with open(path, "rb") as fh:
                text = source.decode(fh.read())
            t0 = clock()
            module_ast = ast.parse(text)
            t1 = clock()
            source.nesting_depth(module_ast)
            t2 = clock()
            module = cst.parse_module(text)
        except Exception:  # not analysable: not part of the comparison
            continue
        t3 = clock()
        ranges = positions.positions(module)
        t4 = clock()
        name, is_package, _ = module_name_for(path)
        collector.Collector(ModuleFacts(path=path, module=name, is_package=is_package), ranges).walk(module)
        t5 = clock()
        for key, start, end in zip(spent, (t0, t1, t2, t3, t4), (t1, t2, t3, t4, t5)):
            spent[key] += end - start
        files += 1
    if profiler is not None:
        profiler.disable()
        profiler.dump_stats(profile)  # type: ignore[arg-type]
    return {"files": files, **spent}


if __name__ == "__main__":
    main()
