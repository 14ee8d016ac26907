"""A fix's edit is made from the node it changes, not from the whole module (issue 24: a module with
hundreds of fixable findings took minutes, each edit walking and regenerating all of it). Every
local edit must be exactly the edit a whole-module replacement gives: checked here node by node,
on layouts where generating a node alone differs from generating it in place (the indentation of
the blocks around it, CRLF and tab files, parentheses, semicolons, one-line suites)."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

import siblint.lint.fixes as fixes
from siblint.lint.fixes import _appended, _keyword, _PyTree, _without, changed_range
from siblint.rule_api.registry import all_rules
from siblint.syntax.positions import positions
from siblint.syntax.source import SourceError

LAYOUTS = {
    "nested": (
        "import os; from agents import (Agent,\n    function_tool)  # noqa\n"
        "class Shop:\n"
        "    def build(self):\n"
        "        if os.environ:\n"
        "            agent = Agent(\n"
        "                name='a',\n"
        "                tools=[\n"
        "                    self.charge,  # pay\n"
        "                ],\n"
        "                model=((None)),\n"
        "            )\n"
        "        else: run(agent, max_turns=None); x = [1, 2,\n"
        "            3]\n"
        "        return (\n"
        "            agent\n"
        "        )\n"
        "@function_tool(failure_error_function=None)\n"
        "async def pay(x: str) -> str:\n"
        "    return f'{x!r}' + call(a=1, b=(2), *rest, **kw) \\\n"
        "        + other(c=None)\n"
    ),
    "tabs_crlf": (
        "from tenacity import retry\r\n"
        "def outer():\r\n"
        "\tdef inner():\r\n"
        "\t\treturn call(\r\n"
        "\t\t\tkey=None,\r\n"
        "\t\t)\r\n"
        "\t@retry\r\n"
        "\tdef again():\r\n"
        "\t\tpass\r\n"
        "\treturn inner\r\n"
    ),
}


def _variants(node: cst.CSTNode) -> list[cst.CSTNode]:
    """What the fixes put in a node's place: a new expression, a call with an argument more or less,
    an import with a name more."""
    out: list[cst.CSTNode] = []
    if isinstance(node, cst.BaseExpression):
        out.append(cst.parse_expression("None"))
        out.append(cst.parse_expression("[\n    one,\n    two,\n]"))
    if isinstance(node, cst.Call):
        out.append(node.with_changes(args=_appended(list(node.args), _keyword("stop", cst.Name("None")),
                                                     node.whitespace_before_args)))
        if node.args:
            out.append(node.with_changes(args=_without(list(node.args), len(node.args) - 1)))
        out.append(cst.Call(func=node))
    if isinstance(node, (cst.List, cst.Tuple)) and node.elements:
        out.append(node.with_changes(elements=_without(list(node.elements), 0)))
    if isinstance(node, cst.Decorator):  # neither: replaced through the whole module, as before
        out.append(node.with_changes(decorator=cst.Name("other")))
    if isinstance(node, cst.ImportFrom) and not isinstance(node.names, cst.ImportStar):
        out.append(node.with_changes(names=_appended(list(node.names), cst.ImportAlias(cst.Name("extra")),
                                                     node.lpar.whitespace_after if node.lpar else None)))
    return out


def _whole_module_edit(tree: _PyTree, old: cst.CSTNode, new: cst.CSTNode) -> fixes.Edit:
    fixed = tree.module.deep_replace(old, new)
    assert isinstance(fixed, cst.Module)
    return changed_range(tree.text, fixed.code)


def _check(text: str, every: int = 1) -> int:
    tree = _PyTree(text)
    assert tree.module.code == text
    compared = 0
    nodes = [n for n in tree.walk if isinstance(n, (cst.BaseExpression, cst.BaseSmallStatement, cst.Decorator))]
    for node in nodes[::every]:
        for new in _variants(node):
            try:
                expected = _whole_module_edit(tree, node, new)
            except (cst.CSTValidationError, TypeError):
                continue  # not a tree libcst accepts (`None` as an imported name): no fix makes one
            assert tree._replaced(node, new) == expected, (type(node).__name__, cst.Module([]).code_for_node(node))
            compared += 1
    return compared


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_a_local_edit_is_the_whole_module_edit(name: str) -> None:
    assert _check(LAYOUTS[name]) > 20


def test_local_edits_on_every_rules_examples() -> None:
    compared = 0
    for rule in all_rules():
        for example in (*rule.VALID, *rule.INVALID):
            if example.filename.endswith(".py"):
                try:
                    compared += _check(example.code, every=23)
                except SourceError:
                    continue  # an example of a file libcst rejects
    assert compared > 60


def test_local_edits_on_a_real_module() -> None:
    assert _check(Path(fixes.__file__).read_text(encoding="utf-8"), every=400) > 10


def test_many_fixable_findings_cost_each_their_node() -> None:
    """Each edit of a 400-finding module regenerates only its node: counted in code generation calls."""
    text = "from agents import function_tool\n" + "".join(
        f"@function_tool(failure_error_function=None)\nasync def f{i}(x: str) -> str:\n    return ''\n\n" for i in range(400))
    tree = _PyTree(text)
    values = [a.value for c in tree.walk if isinstance(c, cst.Call) for a in c.args]
    generated: list[int] = []
    real = cst.Name._codegen_impl

    def counting(self: cst.Name, state: object) -> None:
        generated.append(1)
        real(self, state)  # type: ignore[arg-type]

    cst.Name._codegen_impl = counting  # type: ignore[method-assign]
    try:
        edits = [tree._replaced(v, cst.Name("True")) for v in values]
    finally:
        cst.Name._codegen_impl = real  # type: ignore[method-assign]
    assert len(edits) == 400 and len(generated) == 400  # one Name generated per edit, not the module's


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_the_code_generation_walks_the_tree_as_libcst_children_do(name: str) -> None:
    """Parents and order come from one code generation: the same as a walk of `children`."""
    tree = _PyTree(LAYOUTS[name])
    walked, parents = [], {}
    stack: list[cst.CSTNode] = [tree.module]
    while stack:
        node = stack.pop()
        walked.append(node)
        parents.update((id(child), node) for child in node.children)
        stack.extend(reversed(node.children))
    assert [id(n) for n in tree.walk] == [id(n) for n in walked]
    assert {k: id(v) for k, v in tree.parents.items()} == {k: id(v) for k, v in parents.items()}
    assert tree.ranges == positions(tree.module)  # and the ranges are the collector's
