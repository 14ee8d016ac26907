"""Statements that cannot raise: a standard-library import, a literal bound to a name, a clock
read, a return of a name or a literal. A body that is one guarded `try` between them is still
guarded (SIB204)."""

from __future__ import annotations

import sys
from typing import Callable

import libcst as cst
from libcst.helpers import get_full_name_for_node

# Reads of the clock and fresh identifiers: they take no input, so nothing makes them fail.
CANNOT_FAIL_CALLS = frozenset({"time.time", "time.monotonic", "time.perf_counter", "time.time_ns",
                               "datetime.datetime.now", "datetime.datetime.utcnow", "uuid.uuid4"})


def cannot_raise(stmt: cst.CSTNode, resolve: Callable[[str], str]) -> bool:
    """`stmt` is a line of imports of the standard library, literal bindings and clock reads."""
    if not isinstance(stmt, cst.SimpleStatementLine):
        return False
    return all(_small_cannot_raise(s, resolve) for s in stmt.body)


def _small_cannot_raise(stmt: cst.BaseSmallStatement, resolve: Callable[[str], str]) -> bool:
    if isinstance(stmt, cst.Pass):
        return True
    if isinstance(stmt, cst.Return):  # `return "ok"`, `return result` after the guarded `try`
        return stmt.value is None or isinstance(stmt.value, cst.Name) or _inert_value(stmt.value, resolve)
    if isinstance(stmt, cst.Import):
        return all(_stdlib(get_full_name_for_node(a.name)) for a in stmt.names)
    if isinstance(stmt, cst.ImportFrom):
        return stmt.module is not None and not stmt.relative and _stdlib(get_full_name_for_node(stmt.module))
    if isinstance(stmt, cst.Assign) and all(isinstance(t.target, cst.Name) for t in stmt.targets):
        return _inert_value(stmt.value, resolve)
    if isinstance(stmt, cst.AnnAssign) and isinstance(stmt.target, cst.Name):
        return stmt.value is None or _inert_value(stmt.value, resolve)
    return False


def _inert_value(node: cst.BaseExpression, resolve: Callable[[str], str]) -> bool:
    if isinstance(node, (cst.SimpleString, cst.Integer, cst.Float)):
        return True
    if isinstance(node, cst.Name):
        return node.value in ("None", "True", "False")
    if isinstance(node, cst.Call) and not node.args:
        name = get_full_name_for_node(node.func) if isinstance(node.func, (cst.Name, cst.Attribute)) else None
        return name is not None and (name in CANNOT_FAIL_CALLS or resolve(name) in CANNOT_FAIL_CALLS)
    return False


def _stdlib(module: str | None) -> bool:
    return module is not None and module.partition(".")[0] in sys.stdlib_module_names
