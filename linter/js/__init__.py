"""The TypeScript/JavaScript front end: tree-sitter instead of libcst, the same `ModuleFacts`.

`parse` turns bytes into a tree-sitter tree (or one clear reason why not), `modules` names JS
modules and resolves import specifiers to files, `collector` turns a tree into facts, `signal`
judges whether a tool observes its abort signal (the JS cancellation model).
"""

from __future__ import annotations

EXTENSIONS = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")


def is_js(path: str) -> bool:
    """Is `path` a TypeScript or JavaScript source file (by its extension)?"""
    return path.lower().endswith(EXTENSIONS)
