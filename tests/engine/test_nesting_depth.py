"""`source.nesting_depth` gives the same (depth, line, nodes) as a plain walk that counts every
node, `ctx` leaves included, the way libcst nests its tree; `source.guard`'s bounds, which spare
it the walk, hold, and the walk it does instead finds every depth past the limit."""

from __future__ import annotations

import ast
import os
import sysconfig

import pytest
from siblint.common.lines import line_starts
from siblint.syntax.source import (
    LEVELS_PER_CHAR,
    MAX_DEPTH,
    MEMORY_BUDGET,
    NODES_PER_CHAR,
    PY_BYTES_PER_NODE,
    SourceError,
    guard,
    nesting_depth,
)


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


# The densest shapes per character: a node per `~`, a level per `.b`, `()`, `[0]`, ` or b`, ...
DENSE = [
    "x = " + "~" * 400 + "y\n",
    "x = " + "-+" * 200 + "1\n",
    "x = " + "not " * 100 + "y\n",
    "x = a" + ".b" * 300 + "\n",
    "x = f" + "()" * 300 + "\n",
    "x = a" + "[0]" * 200 + "\n",
    "x = " + "f(" * 90 + ")" * 90 + "\n",
    "x = " + "a or " * 300 + "b\n",
    "x = a" + " + a" * 300 + "\n",
    "x = a" + " < a" * 300 + "\n",
    "x = [" + "*a, " * 300 + "]\n",
    "x = {" + "**a, " * 300 + "}\n",
    "import " + ".".join(["a"] * 300) + "\n",
    "from " + ".".join(["a"] * 300) + " import b\n",
    "x = [a " + "for a in b " * 100 + "]\n",
    "x = " + "lambda: " * 100 + "y\n",
    "x = " + "[" * 90 + "]" * 90 + "\n",
    "a = b = " * 100 + "c\n",
    "x = f'" + "{a}" * 200 + "'\n",
    "match x:\n    case " + " | ".join(["a.b"] * 100) + ":\n        pass\n",
    "@d" + ".e" * 100 + "\ndef f(): pass\n",
]


@pytest.mark.parametrize("text", DENSE)
def test_the_bounds_hold_with_room_on_the_densest_shapes(text: str) -> None:
    """`guard` skips counting and walking on these bounds: the densest shapes reach two nodes per
    character (a unary chain) and two levels per character, under the factors it uses."""
    assert NODES_PER_CHAR >= 3 and LEVELS_PER_CHAR >= 4
    tree = ast.parse(text)
    assert nesting_depth(tree)[2] <= 2 * len(text) + 2
    starts = [*line_starts(text), len(text)]
    for node in ast.walk(tree):
        if hasattr(node, "end_lineno") and not getattr(node, "decorator_list", None):
            chars = starts[node.end_lineno] - starts[node.lineno - 1]
            assert nesting_depth(node)[0] <= 2 * chars + 1, ast.dump(node)[:80]


ORDINARY = "def f(a):\n    return g(a, [b, {'k': a}], c=b.d)\n\n"
DEEP = [
    "x = " + "a and " * 5000 + "b\n",  # deep in libcst's tree, flat in CPython's
    "import " + ".".join(["a"] * 5000) + "\n",
    "@d(" + "a or " * 5000 + "b)\ndef f():\n    pass\n",  # above a short `def`
    "class C:\n    @d(" + "a or " * 5000 + "b)\n    def f(self): pass\n",
    "if x:\n    y = " + "a and " * 5000 + "b\n",
    "x = f\"\"\"\n{" + "a and " * 5000 + "b}\"\"\"\n",
]


@pytest.mark.parametrize("deep", DEEP)
@pytest.mark.parametrize("where", ["alone", "after", "before"])
def test_the_unbounded_walk_finds_what_the_whole_walk_finds_past_the_limit(deep: str, where: str) -> None:
    text = {"alone": deep, "after": ORDINARY * 50 + deep, "before": deep + ORDINARY * 50}[where]
    tree = ast.parse(text)
    depth, line, _ = nesting_depth(tree)
    assert depth > MAX_DEPTH
    assert nesting_depth(tree, text)[:2] == (depth, line)
    with pytest.raises(SourceError, match=f"nested {depth} levels deep"):
        guard(tree, text)


def test_ordinary_code_is_not_walked_past_its_statements_and_passes() -> None:
    text = ORDINARY * 2000
    tree = ast.parse(text)
    depth = nesting_depth(tree, text)[0]
    assert depth <= 2 < nesting_depth(tree)[0]  # Module and each `def`: their statements are short
    guard(tree, text)


def test_a_file_too_big_for_its_size_to_settle_the_budget_is_counted() -> None:
    text = "f()\n" * (MEMORY_BUDGET // PY_BYTES_PER_NODE // 3)  # four nodes per line: over the budget
    assert NODES_PER_CHAR * len(text) > MEMORY_BUDGET // PY_BYTES_PER_NODE
    with pytest.raises(SourceError, match="memory budget"):
        guard(ast.parse(text), text)
