"""Do two installs of siblint (or two `-j`) report byte-identical findings on every tree?

    python benchmarks/same_findings.py record SIBLINT OUT_DIR TREE... [--jobs 1 2]
    python benchmarks/same_findings.py compare DIR_A DIR_B

`record` runs `SIBLINT check --no-cache -jN --format json --exit-zero .` in each tree (one after the
other, never in parallel) and writes `<tree name>.jN.json` plus its wall time to OUT_DIR.
`compare` reports every file of DIR_A whose bytes differ in DIR_B, and, within one folder, every
tree whose `-j` outputs differ; it exits 1 on any difference.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time


def record(siblint: str, out: str, trees: list[str], jobs: list[int]) -> int:
    os.makedirs(out, exist_ok=True)
    failed = 0
    for tree in trees:
        name = os.path.basename(os.path.abspath(tree))
        for j in jobs:
            t0 = time.perf_counter()
            proc = subprocess.run([siblint, "check", "--no-cache", f"-j{j}", "--format", "json", "--exit-zero", "."],
                                  cwd=tree, capture_output=True)
            wall = time.perf_counter() - t0
            with open(os.path.join(out, f"{name}.j{j}.json"), "wb") as fh:
                fh.write(proc.stdout)
            if proc.returncode != 0:
                failed += 1
                sys.stderr.write(f"{name} -j{j}: exit {proc.returncode}: {proc.stderr[-300:]!r}\n")
            print(f"{name} -j{j}: {wall:.1f}s, {len(proc.stdout)} bytes", flush=True)
    return 1 if failed else 0


def _read(path: str) -> bytes:
    with open(path, "rb") as fh:
        return fh.read()


def compare(a: str, b: str) -> int:
    differ = 0
    names = sorted(f for f in os.listdir(a) if f.endswith(".json"))
    for f in names:
        other = os.path.join(b, f)
        if not os.path.exists(other):
            print(f"missing in {b}: {f}")
            differ += 1
        elif _read(os.path.join(a, f)) != _read(other):
            print(f"differs: {f}")
            differ += 1
    for folder in (a, b):
        by_tree: dict[str, list[str]] = {}
        for f in sorted(os.listdir(folder)):
            if f.endswith(".json"):
                by_tree.setdefault(f.rsplit(".", 2)[0], []).append(f)
        for tree, files in by_tree.items():
            if len({_read(os.path.join(folder, f)) for f in files}) > 1:
                print(f"-j changes the findings in {folder}: {tree}")
                differ += 1
    print(f"{len(names)} outputs compared, {differ} differences")
    return 1 if differ else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record")
    rec.add_argument("siblint")
    rec.add_argument("out")
    rec.add_argument("trees", nargs="+")
    rec.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    cmp_ = sub.add_parser("compare")
    cmp_.add_argument("a")
    cmp_.add_argument("b")
    args = ap.parse_args()
    if args.command == "record":
        return record(args.siblint, args.out, args.trees, args.jobs)
    return compare(args.a, args.b)


if __name__ == "__main__":
    sys.exit(main())
