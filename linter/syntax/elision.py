"""Pytest test bodies, thinned before libcst parses them for facts.

Tests are most of an agent library's bytes (pydantic-ai: 13 of its 19.5 MB of Python), and most of
a test's bytes are assertions on snapshots that no rule reads; libcst's parse, its positions and
the collector's walk cost per byte. CPython's tree, already made for the guard, tells which
statements of a test cannot make, change or feed a tool, a group or a setting: those are blanked
(their first line becomes `pass`, the others empty), so every other line and column stays where it
was and the facts' locations are the file's own. Only the text the collector reads is thinned:
reports, `# noqa`, fixes and the cache key read the file itself.

What is blanked, in a test module (the engine asks `settings.config.is_test_module`): a simple
statement (an expression, assignment or `assert`) in the body of a `test*` function, at the top
level or a method of a top-level `Test*` class, whose decorators spell no framework word and whose
name the module spells nowhere else (nothing lists it as a tool), when the statement:
- spells no word of the frameworks' data (`frameworks.data_words`: names, attributes, keywords;
  for an `assert`, whose value is dropped, no name of `frameworks.vocabulary`, the makers and
  settings whose call could make something: a snapshot's `ToolCallPart(tool_name=...)` makes
  nothing) and holds no `def`, `lambda`, `class`, import, `global` or `nonlocal`;
- binds no name that a kept statement reads or binds (`tools = [a, b]` before
  `Agent(tools=tools)`), and stores into no attribute or item of one;
- starts its line and ends it (a comment may follow), so blanking touches no other statement.
Compound statements (`with`, `for`, `if`, `try`, `while`) are kept, their bodies thinned in turn.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

from ..common.lines import NEWLINE
from ..frameworks import data_words, vocabulary

_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
_BLOCKERS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.Import, ast.ImportFrom,
             ast.Global, ast.Nonlocal)
_BLANKABLE = (ast.Expr, ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Assert)
_THINNED = (ast.With, ast.AsyncWith, ast.For, ast.AsyncFor, ast.While, ast.If, ast.Try)
_BODIES = ("body", "orelse", "finalbody")


def thinned(text: str, tree: ast.Module) -> str:
    """`text` (CPython's `tree` of it) with the statements described above blanked."""
    words = data_words()
    tests = list(_tests(tree))
    if not tests:
        return text
    spelled = Counter(_IDENTIFIER.findall(text))
    blank: list[ast.stmt] = []
    for fn in tests:
        if spelled[fn.name] == 1 and not any(_spells(d, words) for d in fn.decorator_list):
            blank.extend(_blankable(fn.body, words))
    return _blanked(text, blank) if blank else text


def _tests(tree: ast.Module) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    for top in tree.body:
        if isinstance(top, (ast.FunctionDef, ast.AsyncFunctionDef)) and top.name.startswith("test"):
            yield top
        elif isinstance(top, ast.ClassDef) and top.name.startswith("Test"):
            yield from (m for m in top.body
                        if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)) and m.name.startswith("test"))


@dataclass
class _Unit:
    """A statement of a test body, or the header of a compound one (always kept)."""

    node: ast.AST
    kept: bool
    reads: set[str] = field(default_factory=set)
    binds: set[str] = field(default_factory=set)  # names bound, and names whose attribute or item is stored


def _blankable(body: list[ast.stmt], words: frozenset[str]) -> list[ast.stmt]:
    units = list(_units(body, words))
    binders: dict[str, list[_Unit]] = {}  # name -> the unkept units that bind it
    for unit in units:
        if not unit.kept:
            for name in unit.binds:
                binders.setdefault(name, []).append(unit)
    # A statement binding a live name is kept, and what it reads and binds becomes live: a worklist,
    # so a long chain of such statements costs its length, not its length squared.
    pending = [name for unit in units if unit.kept for name in unit.reads | unit.binds]
    live: set[str] = set()
    while pending:
        name = pending.pop()
        if name in live:
            continue
        live.add(name)
        for unit in binders.get(name, ()):
            if not unit.kept:
                unit.kept = True
                pending.extend(unit.reads | unit.binds)
    return [u.node for u in units if not u.kept]  # type: ignore[misc]  # only statements can be unkept


def _units(body: list[ast.stmt], words: frozenset[str]) -> Iterator[_Unit]:
    for stmt in body:
        if isinstance(stmt, _THINNED):
            header: list[ast.AST] = [getattr(stmt, name) for name in ("test", "target", "iter") if hasattr(stmt, name)]
            header += getattr(stmt, "items", [])
            header += [h.type for h in getattr(stmt, "handlers", []) if h.type is not None]
            unit = _Unit(stmt, True)
            for part in header:
                _scan(part, unit)
            unit.binds |= {h.name for h in getattr(stmt, "handlers", []) if h.name}
            yield unit
            for name in _BODIES:
                yield from _units(getattr(stmt, name, []), words)
            for handler in getattr(stmt, "handlers", []):
                yield from _units(handler.body, words)
            continue
        unit = _Unit(stmt, not isinstance(stmt, _BLANKABLE))
        # An assertion's value is dropped: only a framework's own name in it (`Agent(...)`) makes anything.
        if _scan(stmt, unit, vocabulary() if isinstance(stmt, ast.Assert) else words):
            unit.kept = True
        yield unit


def _scan(node: ast.AST, unit: _Unit, words: frozenset[str] = frozenset()) -> bool:
    """Record what `node` reads and binds in `unit`; True when it spells a word or holds a blocker."""
    anchored = False
    for sub in ast.walk(node):
        kind = type(sub)
        if kind is ast.Name:
            (unit.reads if type(sub.ctx) is ast.Load else unit.binds).add(sub.id)  # type: ignore[attr-defined]
            anchored = anchored or sub.id in words  # type: ignore[attr-defined]
        elif kind is ast.Attribute or kind is ast.Subscript:
            if kind is ast.Attribute and sub.attr in words:  # type: ignore[attr-defined]
                anchored = True
            if type(sub.ctx) is not ast.Load:  # type: ignore[attr-defined]
                root = sub.value  # type: ignore[attr-defined]
                while type(root) in (ast.Attribute, ast.Subscript):
                    root = root.value
                if type(root) is ast.Name:
                    unit.binds.add(root.id)
        elif kind is ast.keyword:
            anchored = anchored or sub.arg in words  # type: ignore[attr-defined]
        elif isinstance(sub, _BLOCKERS):
            anchored = True
    return anchored


def _spells(node: ast.AST, words: frozenset[str]) -> bool:
    return _scan(node, _Unit(node, True), words)


def _blanked(text: str, stmts: list[ast.stmt]) -> str:
    lines: list[list[str]] = []  # [content, line end]
    start = 0
    for match in NEWLINE.finditer(text):
        lines.append([text[start:match.start()], match.group()])
        start = match.end()
    lines.append([text[start:], ""])
    for stmt in stmts:
        first, last = stmt.lineno - 1, (stmt.end_lineno or stmt.lineno) - 1
        head = lines[first][0].encode("utf-8")[: stmt.col_offset].decode("utf-8", "replace")
        tail = lines[last][0].encode("utf-8")[stmt.end_col_offset or 0:].decode("utf-8", "replace").strip()
        if head.strip(" \t\f") or (tail and not tail.startswith("#")):
            continue  # shares a line with other code (`a = 1; b = 2`, `if x: y`)
        lines[first][0] = head + "pass"
        for i in range(first + 1, last + 1):
            lines[i][0] = ""
    return "".join(content + end for content, end in lines)
