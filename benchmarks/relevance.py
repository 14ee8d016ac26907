"""How many files that pass the import pre-filter can report, and how many the second stage skips.

    python benchmarks/relevance.py share TREE... [--skip-empty]
    python benchmarks/relevance.py closure TREE...

`share` runs `siblint check --no-cache -j1` in-process on each tree (its own settings, as the CLI
finds them), first with the second stage off (`siblint.model.relevance`), and prints one JSON line
per tree: files discovered, files the pre-filter lets through (`passed`), Python files analysed,
those that yield no tool (`tools_in`), no group (`groups_in`) and no finding before suppression
(`empty`, listed in `empty.<tree>.txt` in the working folder), and the libcst parses made
(analysed files plus modules loaded on demand). Then with the stage on: `parses_stage`, and
whether the findings are the same. With `--skip-empty`, a third run skips exactly the empty files
(they stay loadable on demand): `parses_oracle`, the most any second stage could save.

`closure` measures a wider rule that also follows project wrappers by name (a name bound by a
module-level statement using a framework's name reaches too, to a fixed point): per tree, the
CPU time to read every project module with CPython's `ast`, the names that reach, and the modules
kept and skipped. It keeps nearly every file of a framework's own tree (issue 24's note).
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import time
from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple

from siblint.frameworks import vocabulary
from siblint.model.relevance import names_used

_BLOCKS = ("body", "orelse", "finalbody", "handlers")


# ---- share: what the engine itself finds in each passing file --------------------------------------
def _checked_files(tree: str) -> list[tuple[Any, list[str]]]:
    """(settings, files) as `siblint check .` in `tree` groups them."""
    from siblint.interfaces.cli import CheckOptions, discover_files, make_resolver

    os.chdir(tree)
    opts = CheckOptions(paths=(".",), quiet=True)
    resolver = make_resolver(opts)
    groups: dict[Any, list[str]] = {}
    for f in discover_files(opts, resolver):
        groups.setdefault(resolver.for_file(f), []).append(f)
    return list(groups.items())


class _Probe:
    """Wraps the engine's `analyse` and `facts_from_text` to count tools, groups, findings, parses."""

    def __init__(self) -> None:
        from siblint.lint import engine

        self.engine = engine
        self.analyse, self.parse = engine.analyse, engine.facts_from_text
        self.per_file: dict[str, tuple[int, int, int]] = {}
        self.parses = 0

    def __enter__(self) -> "_Probe":
        from siblint.model.groups import groups_in
        from siblint.model.tools import tools_in

        def analyse(path: str, data: bytes, config: Any, project: Any, **kw: Any) -> Any:
            result = self.analyse(path, data, config, project, **kw)
            if result.facts is not None:
                self.per_file[os.path.abspath(path)] = (len(tools_in(result.facts)), len(groups_in(result.facts, project)),
                                                        len(result.diagnostics) + sum(len(p.diagnostics) for p in result.parts))
            return result

        def parse(text: str, path: str, tree: Any = None, **kw: Any) -> Any:
            self.parses += 1
            return self.parse(text, path, tree, **kw)

        self.engine.analyse, self.engine.facts_from_text = analyse, parse
        return self

    def __exit__(self, *exc: object) -> None:
        self.engine.analyse, self.engine.facts_from_text = self.analyse, self.parse


def _run(tree: str, skip: frozenset[str] = frozenset(), stage: bool = True) -> tuple[dict[str, Any], list[str], _Probe]:
    from siblint.model import relevance
    from siblint.model.project import ProjectIndex
    from siblint.run import runner

    wants, may_report = ProjectIndex.wants, relevance.may_report
    ProjectIndex.wants = lambda self, p, d: os.path.abspath(p) not in skip and wants(self, p, d)  # type: ignore[method-assign]
    if not stage:
        relevance.may_report = lambda *args: True  # type: ignore[assignment]
    try:
        with _Probe() as probe:
            started = time.process_time()
            counts = {"files": 0, "passed": 0}
            findings: list[str] = []
            for config, files in _checked_files(tree):
                result = runner.run(files, config, 1, cache=None)
                counts["files"] += len(files)
                counts["passed"] += result.files_passed
                findings += sorted(repr(d) for d in result.diagnostics)
            counts["cpu"] = round(time.process_time() - started, 1)
    finally:
        ProjectIndex.wants, relevance.may_report = wants, may_report  # type: ignore[method-assign]
    return counts, findings, probe


def share(trees: Iterable[str], skip_empty: bool, out: str) -> None:
    for tree in trees:
        name = os.path.basename(os.path.abspath(tree))
        counts, findings, probe = _run(tree, stage=False)
        python = {p: v for p, v in probe.per_file.items() if p.endswith(".py")}
        empty = frozenset(p for p, v in python.items() if v == (0, 0, 0))
        row = dict(tree=name, **counts, analysed=len(python), empty=len(empty), parses=probe.parses)
        with open(os.path.join(out, f"empty.{name}.txt"), "w") as fh:
            fh.write("".join(f"{p}\n" for p in sorted(empty)))
        staged, found, probe = _run(tree)
        row.update(parses_stage=probe.parses, cpu_stage=staged["cpu"], same_stage=_same(findings, found))
        if skip_empty:
            oracle, found, probe = _run(tree, empty, stage=False)
            row.update(parses_oracle=probe.parses, cpu_oracle=oracle["cpu"], same_oracle=_same(findings, found))
        print(json.dumps(row), flush=True)


def _same(a: list[str], b: list[str]) -> bool:
    return sorted(map(_spelled, a)) == sorted(map(_spelled, b))


def _spelled(finding: str) -> str:
    """A finding's repr with absolute paths made relative (the engine spells a related location
    with the path it first met the file by)."""
    return finding.replace(os.getcwd() + os.sep, "./")


# ---- closure: the cheap rule ---------------------------------------------------------------------
def _names(node: ast.AST) -> frozenset[str]:
    return frozenset(names_used(node))


def _bound(stmt: ast.stmt) -> set[str]:
    """What a module-level statement binds: a definition's name and the globals it declares; every
    name or attribute stored to; the receiver of a module-level call (`TOOLS.append(...)`)."""
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {stmt.name, *(name for n in ast.walk(stmt) if isinstance(n, ast.Global) for name in n.names)}
    out: set[str] = set()
    for n in ast.walk(stmt):
        if isinstance(n, (ast.Name, ast.Attribute, ast.Subscript, ast.Starred)) and isinstance(n.ctx, (ast.Store, ast.Del)):
            out.update(_names(n))
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute):
            out.update(_names(n.func.value))
    return out


def _statements(tree: ast.Module) -> Iterator[ast.stmt]:
    """Module-level statements, those inside module-level `if`/`try`/`with`/`for` blocks included."""
    stack: list[Any] = list(reversed(tree.body))
    while stack:
        stmt = stack.pop()
        if isinstance(stmt, ast.ExceptHandler):
            stack.extend(reversed(stmt.body))
            continue
        yield stmt
        if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for field in _BLOCKS:
                stack.extend(reversed(getattr(stmt, field, None) or []))


Pairs = list[tuple[frozenset[str], frozenset[str]]]


class Module(NamedTuple):
    used: frozenset[str]  # every name the module uses
    pairs: Pairs  # (used, bound) per module-level statement; an import once per name it imports
    noqa: bool  # it holds `SIB`: a `# noqa: SIB...` the engine judges (SIB902) whatever it uses


def _read(path: str) -> Module | None:
    """What one module says; None when CPython or the engine's guard rejects it (the engine then
    reports SIB900, so it is kept)."""
    from siblint.common.reading import read_bounded
    from siblint.syntax import source

    try:
        data = read_bounded(path, 10_000_000)
        tree = source.check_syntax(source.decode(data), path)
    except Exception:  # noqa: BLE001 - anything the engine would report
        return None
    if tree is None:
        return None
    pairs: Pairs = []
    for stmt in _statements(tree):
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            pairs += [(_names(a), frozenset({a.asname or a.name.split(".")[0]})) for a in stmt.names if a.name != "*"]
        else:
            pairs.append((_names(stmt), frozenset(_bound(stmt))))
    return Module(_names(tree), pairs, b"SIB" in data)


def _reaching(seed: frozenset[str], pairs: Pairs) -> set[str]:
    """The seed and every name a statement using one binds, to a fixed point (a worklist by name)."""
    waiting: dict[str, list[int]] = {}
    for i, (used, _) in enumerate(pairs):
        for name in used:
            waiting.setdefault(name, []).append(i)
    reaching, todo, done = set(seed), list(seed), set()
    while todo:
        for i in waiting.pop(todo.pop(), ()):
            if i in done:
                continue
            done.add(i)
            fresh = pairs[i][1] - reaching
            reaching |= fresh
            todo += fresh
    return reaching


def kept_files(tree: str) -> tuple[list[str], list[str], int, float]:
    """(the project's modules, those the rule keeps, how many names reach a framework, CPU seconds
    to read the modules and close over their names)."""
    from siblint.model.project import ProjectIndex

    project = ProjectIndex([os.path.abspath(tree)])
    paths = [p for named in project.scan.names.values() for p in named]
    started = time.process_time()
    modules = {p: _read(p) for p in paths}
    reaching = _reaching(vocabulary(), [pair for m in modules.values() if m is not None for pair in m.pairs])
    cpu = time.process_time() - started

    def mentions(path: str) -> bool:
        module = modules.get(path)
        return module is None or module.noqa or not module.used.isdisjoint(reaching)

    kept = [p for p in paths if mentions(p) or any(mentions(i) for i in project.importer_paths(p))]
    return paths, kept, len(reaching), cpu


def closure(trees: Iterable[str]) -> None:
    for tree in trees:
        paths, kept, reaching, cpu = kept_files(tree)
        print(json.dumps(dict(tree=os.path.basename(os.path.abspath(tree)), modules=len(paths), cpu=round(cpu, 2),
                              reaching=reaching, kept=len(kept), skipped=len(paths) - len(kept))), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="mode", required=True)
    one = sub.add_parser("share")
    one.add_argument("trees", nargs="+")
    one.add_argument("--skip-empty", action="store_true")
    two = sub.add_parser("closure")
    two.add_argument("trees", nargs="+")
    args = parser.parse_args()
    if args.mode == "share":
        share([os.path.abspath(t) for t in args.trees], args.skip_empty, os.getcwd())
    else:
        closure(args.trees)


if __name__ == "__main__":
    main()
