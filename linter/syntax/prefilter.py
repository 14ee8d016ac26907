"""Decide from the raw bytes whether a file can matter, before paying for a parse.

A file matters when an `import` or `from` line names a supported framework's top-level module (or
its dotted root: `google.adk`, not all of `google`).
The check is conservative: it may let through a file that only mentions the name in a string,
never drop one that imports it.

Cost order: a substring search for each root (memchr speed, ~1.5 GB/s) rejects almost every file
of a general tree; only files that contain a root anywhere pay for the line regex. flake8 mode
decides from the `ast` tree flake8 already built (`may_matter_ast`) or from its lines.

This module imports nothing heavy (no libcst, no rules): the CLI and the flake8 plugin call it
before they know whether they need the engine at all.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from functools import lru_cache


@lru_cache(maxsize=None)
def _default_roots(language: str | None = None) -> tuple[str, ...]:
    from ..frameworks import import_roots

    return import_roots(language)


# siblint.js.EXTENSIONS, repeated here so that this module imports nothing of the engine.
JS_EXTENSIONS = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")


@lru_cache(maxsize=None)
def _js_pattern(roots: tuple[str, ...]) -> re.Pattern[bytes]:
    names = b"|".join(re.escape(r.encode()) for r in roots)
    # `from '@openai/agents'`, `from "@openai/agents-core/..."`, `require('@openai/agents')`,
    # `import('@openai/agents')`, `export ... from '...'`; a subpath import counts.
    return re.compile(rb"""(?:\bfrom|\brequire\s*\(|\bimport\s*\(|^\s*import)\s*['"](?:""" + names + rb""")(?:['"/])""", re.M)


def may_matter_js(data: bytes, roots: tuple[str, ...] | None = None) -> bool:
    """A TS/JS file matters when it imports or requires a JS framework's package."""
    roots = roots or _default_roots("js")
    if not any(r.encode() in data for r in roots):
        return False
    return _js_pattern(roots).search(data) is not None


@lru_cache(maxsize=None)
def _pattern(roots: tuple[str, ...]) -> re.Pattern[bytes]:
    names = b"|".join(re.escape(r.encode()) for r in roots)
    # `import agents`, `import x, agents.tool`, `from agents import`, `from agents.mcp import`,
    # and `import (` / backslash continuations are covered by `[^\n#]*` on the `import` line.
    # A UTF-8 BOM may precede the first line, and a form feed is whitespace at a line's start.
    return re.compile(rb"^(?:\xef\xbb\xbf)?[ \t\f]*(?:from[ \t]+(?:" + names + rb")\b|import[ \t]+[^\n#]*\b(?:" + names + rb")\b)",
                      re.M)


@lru_cache(maxsize=None)
def _needles(roots: tuple[str, ...]) -> tuple[bytes, ...]:
    # A root that contains another (`langchain_core` holds `langchain`) needs no scan of its own.
    kept = [r for r in roots if not any(o != r and o in r for o in roots)]
    return tuple(r.encode() for r in kept)


def may_matter(data: bytes, roots: tuple[str, ...] | None = None, path: str = "") -> bool:
    """`path`, when it names a TS/JS file, selects the JS decision (`may_matter_js`)."""
    if path and path.lower().endswith(JS_EXTENSIONS):
        return may_matter_js(data, roots)
    roots = roots or _default_roots("python")
    if not any(n in data for n in _needles(roots)):
        return False
    # A UTF-16/32 file (BOM) cannot be matched on bytes; let the engine decode it.
    return _pattern(roots).search(data) is not None


def may_matter_lines(lines: Iterable[str], roots: tuple[str, ...] | None = None) -> bool:
    """The same decision over decoded lines (flake8 gives the plugin `lines`)."""
    roots = roots or _default_roots("python")
    text = "".join(lines)
    if not any(r in text for r in roots):
        return False
    return _pattern(roots).search(text.encode("utf-8", "surrogatepass")) is not None


def may_matter_ast(tree: ast.AST, roots: tuple[str, ...] | None = None) -> bool:
    """Exact for a parsed module: does any Import/ImportFrom (at any depth) name a root?"""
    wanted = tuple(roots or _default_roots("python"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level == 0 and node.module and _under(node.module, wanted):
                return True
        elif isinstance(node, ast.Import):
            if any(_under(a.name, wanted) for a in node.names):
                return True
    return False


def _under(module: str, roots: tuple[str, ...]) -> bool:
    """`module` is a root or inside one (a dotted root such as `google.adk` included)."""
    return any(module == r or module.startswith(r + ".") for r in roots)
