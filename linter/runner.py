"""Run the engine over many files: inline for one job, a process pool for more.

Workers receive paths, never trees, and each keeps its own project index, so cross-module facts
are parsed at most once per worker. Results are sorted, so output does not depend on `-j`.
"""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from siblint.config import Config
from siblint.diagnostics import Diagnostic, Loc
from siblint.engine import analyse, filter_findings, new_project
from siblint.project import ProjectIndex
from siblint.registry import by_code

CHUNK = 8


@dataclass
class RunResult:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    files_checked: int = 0


def _unreadable(path: str, exc: OSError) -> Diagnostic:
    rule = by_code()["SIB900"]
    return Diagnostic(path, Loc(1, 0, 1, 0), rule.code, rule.message.format(reason=f"cannot read file: {exc.strerror or exc}"),
                      rule.name, rule.severity)


def check_file(path: str, config: Config, project: ProjectIndex, data: bytes | None = None) -> list[Diagnostic]:
    if data is None:
        try:
            with open(path, "rb") as fh:
                data = fh.read()
        except OSError as exc:
            return [_unreadable(path, exc)]
    return filter_findings(analyse(path, data, config, project), config)


_worker: tuple[Config, ProjectIndex] | None = None


def _init_worker(config: Config) -> None:
    global _worker
    _worker = (config, new_project(config))


def _check_chunk(paths: list[str]) -> list[Diagnostic]:
    assert _worker is not None
    config, project = _worker
    out: list[Diagnostic] = []
    for p in paths:
        out.extend(check_file(p, config, project))
    return out


def run(files: list[str], config: Config, jobs: int = 1) -> RunResult:
    result = RunResult(files_checked=len(files))
    jobs = max(1, min(jobs, (len(files) + CHUNK - 1) // CHUNK or 1))
    if jobs == 1:
        project = new_project(config)
        for p in files:
            result.diagnostics.extend(check_file(p, config, project))
    else:
        import libcst

        libcst.parse_module("")  # warm the parser before the pool forks
        chunks = [files[i : i + CHUNK] for i in range(0, len(files), CHUNK)]
        with ProcessPoolExecutor(max_workers=jobs, initializer=_init_worker, initargs=(config,)) as pool:
            for found in pool.map(_check_chunk, chunks):
                result.diagnostics.extend(found)
    result.diagnostics.sort(key=Diagnostic.sort_key)
    return result


def default_jobs() -> int:
    return os.cpu_count() or 1
