"""`source.nesting_depth` gives the same (depth, line, nodes) as a plain walk that counts every
node, `ctx` leaves included, the way libcst nests its tree."""

from __future__ import annotations

import ast
import os
import sysconfig

import pytest
from siblint.syntax.source import nesting_depth


def plain(tree: ast.AST) -> tuple[int, int, int]:
    best, best_line, nodes = 0, 1, 0
    stack: list[tuple[ast.AST, int, int]] = [(tree, 0, 1)]
    while stack:
        node, depth, line = stack.pop()
        nodes += 1
        line = getattr(node, "lineno", line)
        if isinstance(node, ast.BoolOp):
            depth += len(node.values) - 1
        elif isinstance(node, ast.alias):
            depth += node.name.count(".")
        elif isinstance(node, ast.ImportFrom):
            depth += (node.module or "").count(".")
        elif isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            depth += len(node.generators)
        depth += 1
        if depth > best:
            best, best_line = depth, line
        for child in ast.iter_child_nodes(node):  # popped last first, as siblint always has
            stack.append((child, depth, line))
    return best, best_line, nodes


@pytest.mark.parametrize("text", [
    "x = " + "a and " * 300 + "b",
    "import " + ".".join(["a"] * 50),
    "from " + ".".join(["a"] * 40) + " import b as c",
    "y = [x for a in b for c in d if e]\nz = {k: v for k, v in w}\n",
    "f(" * 90 + ")" * 90,
    "a[b].c, *d = e\ndel f.g\n",
    "\n\nif a:\n    x = (lambda: (yield))\n",
])
def test_shapes(text: str) -> None:
    tree = ast.parse(text)
    assert nesting_depth(tree) == plain(tree)


@pytest.mark.parametrize("name", ["argparse.py", "typing.py", "asyncio/tasks.py"])
def test_real_modules(name: str) -> None:
    with open(os.path.join(sysconfig.get_paths()["stdlib"], name), "rb") as fh:
        tree = ast.parse(fh.read())
    assert nesting_depth(tree) == plain(tree)
    assert nesting_depth(tree)[2] > 3000
