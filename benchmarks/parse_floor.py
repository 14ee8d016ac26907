"""The floor a libcst linter cannot beat: libcst-parse every .py file `siblint check` would see.

    python benchmarks/parse_floor.py TREE JOBS

The files are siblint's own discovery of TREE (excludes, .gitignore), every .py file whether or not
the pre-filter would skip it; JOBS forked processes each parse a share (big files first, one at a
time from a queue). A file libcst rejects still counts its attempt. Prints the number of files.
"""

from __future__ import annotations

import multiprocessing
import os
import sys

import libcst


def parse(path: str) -> int:
    try:
        with open(path, "rb") as fh:
            libcst.parse_module(fh.read())
    except Exception:  # noqa: BLE001 - a file libcst rejects costs its attempt, as in siblint
        return 0
    return 1


def main() -> int:
    from siblint.run.discovery import discover
    from siblint.settings.config import load

    tree, jobs = sys.argv[1], int(sys.argv[2])
    files = [p for p in discover([tree], load(tree)).files if p.endswith(".py")]
    files.sort(key=lambda p: -os.path.getsize(p))
    libcst.parse_module("")  # the parser is loaded before the fork, as siblint's workers have it
    if jobs == 1:
        parsed = sum(map(parse, files))
    else:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            parsed = sum(pool.imap_unordered(parse, files, chunksize=1))
    print(f"{len(files)} files, {parsed} parsed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
