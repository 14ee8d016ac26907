"""The second stage after the byte pre-filter: a file that imports a framework but cannot report.

A finding is reported in the file being analysed, at something of a framework the engine finds
there: a tool, a group, a fatal setting, a hook, a retry setting. It finds each by a framework's
name the file spells (`frameworks.vocabulary`: `function_tool`, `Agent`, `BaseTool`, ...), or, for
a plain function, in a group of a module that imports the file (`groups.listed_by_importers`:
direct importers, and the agent code `ProjectIndex.agent_code_near` finds further off), or, for a
class, through a project base class of a framework's tool class in another module
(`ProjectIndex.derives_a_project_tool_base`). So a file can report only when one of these holds.
The engine does not follow other project wrappers to find these (an alias of a tool maker, a
decorator around one: `tests/engine/test_relevance.py` pins each), and this stage must learn any
such path the engine learns. The engine asks the same of
importers when it looks for the groups that list a module's functions: one naming no framework
makes none, so it is not parsed to ask (`names_a_framework`, used by `siblint.model.groups`).

Kept whatever they say: a file CPython or the guard rejects (SIB900), one holding `SIB` (a
`# noqa: SIB...`, SIB902), notebooks and TS/JS. A file not kept is still parsed when an analysed
file looks it up (the `ProjectIndex` loader), and what the answer read is recorded in the trace
(its importers, by the import index and by content), so a cached answer is re-checked.
"""

from __future__ import annotations

import ast
import os
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


def may_report(path: str, data: bytes, tree: ast.Module, project: "ProjectIndex") -> bool:
    """False only when the file (`data`, its guarded `tree`) cannot yield a finding: it uses no
    framework's name, no direct importer does, and no agent code near it in the import graph may list
    its functions (`ProjectIndex.agent_code_near`)."""
    uses = _uses_a_framework(data, tree)
    _answers(project)[os.path.abspath(path)] = uses  # what `names_a_framework` asks of it later
    if project.framework_source(path):
        return False  # the framework's own code (its repository): the library, not agent code
    if uses or project.derives_a_project_tool_base(path):  # `class Lights(HABaseTool)`, HABaseTool a BaseTool
        return True
    near = dict.fromkeys([*project.importer_paths(path), *project.agent_code_near(path)])
    return any(names_a_framework(module, project) for module in near)


def names_a_framework(path: str, project: "ProjectIndex") -> bool:
    """Does the project file at `path` spell a framework's name (or is it one the engine must
    parse to tell)? A file that does not holds no tool, group or setting of a framework, so its
    facts need not be parsed to look for one."""
    path = os.path.abspath(path)  # the key `may_report` stores its own answer under
    project.noted(path)  # the answer reads it: a cached answer is re-checked when it changes
    memo = _answers(project)
    if path not in memo:
        try:
            data = read_bounded(path, project.max_bytes)
        except OSError:
            data = b""
        tree = syntax_tree(path, data)
        memo[path] = tree is None or _uses_a_framework(data, tree)
    return memo[path]


def _answers(project: "ProjectIndex") -> dict[str, bool]:
    """absolute path -> does the file name a framework, for the run (each file's CPython parse once)."""
    answers: dict[str, bool] = project.memo.setdefault("relevance.names_a_framework", {})
    return answers
