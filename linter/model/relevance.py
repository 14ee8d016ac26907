"""The second stage after the byte pre-filter: a file that imports a framework but cannot report.

A finding is reported in the file being analysed, at something of a framework the engine finds
there: a tool, a group, a fatal setting, a hook, a retry setting. It finds each by a framework's
name the file spells (`frameworks.vocabulary`: `function_tool`, `Agent`, `BaseTool`, ...), or, for
a plain function, in a group of a module that imports the file (`groups.listed_by_importers`:
direct importers only). So a file can report only when it uses such a name, or a direct importer
does. The engine does not follow project wrappers to find these (an alias of a tool maker, a
decorator around one, a project base class of `BaseTool`: `tests/engine/test_relevance.py` pins
each), and this stage must learn any such path the engine learns.

Kept whatever they say: a file CPython or the guard rejects (SIB900), one holding `SIB` (a
`# noqa: SIB...`, SIB902), notebooks and TS/JS. A file not kept is still parsed when an analysed
file looks it up (the `ProjectIndex` loader), and what the answer read is recorded in the trace
(its importers, by the import index and by content), so a cached answer is re-checked.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..common.reading import read_bounded
from ..frameworks import vocabulary
from ..syntax import source

if TYPE_CHECKING:
    from .project import ProjectIndex

_NOQA_MARK = b"SIB"


def names_used(tree: ast.AST) -> Iterator[str]:
    """Names a module spells in code, breadth first (imports come early): plain names, attributes,
    and what its imports name."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            yield node.id
        elif isinstance(node, ast.Attribute):
            yield node.attr
        elif isinstance(node, ast.alias):
            yield from node.name.split(".")
            if node.asname:
                yield node.asname


def syntax_tree(path: str, data: bytes, tree: ast.Module | None = None) -> ast.Module | None:
    """CPython's tree of a Python file that passed the guard; None when the engine must decide
    (not a .py file, undecodable, rejected: it reports SIB900, or a newer grammar). `tree`: CPython's
    parse of `data` when the caller has one (flake8's), guarded instead of parsing again."""
    if not path.endswith(".py"):
        return None
    try:
        return source.check_syntax(source.decode(data), path, tree)
    except Exception:  # noqa: BLE001 - SourceError or anything else: the engine parses again and reports it
        return None


def _uses_a_framework(data: bytes, tree: ast.AST) -> bool:
    words = vocabulary()
    return _NOQA_MARK in data or any(name in words for name in names_used(tree))


def may_report(path: str, data: bytes, tree: ast.Module, project: "ProjectIndex", max_bytes: int) -> bool:
    """False only when the file (`data`, its guarded `tree`) cannot yield a finding: it uses no
    framework's name, and no direct importer does."""
    if _uses_a_framework(data, tree):
        return True
    return any(_importer_uses_a_framework(importer, project, max_bytes) for importer in project.importer_paths(path))


def _importer_uses_a_framework(path: str, project: "ProjectIndex", max_bytes: int) -> bool:
    project.noted(path)  # the answer reads it: a cached answer is re-checked when it changes
    memo: dict[str, bool] = project.memo.setdefault("relevance.importers", {})
    if path not in memo:
        try:
            data = read_bounded(path, max_bytes)
        except OSError:
            data = b""
        tree = syntax_tree(path, data)
        memo[path] = tree is None or _uses_a_framework(data, tree)
    return memo[path]
