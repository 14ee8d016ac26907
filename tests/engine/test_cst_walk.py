"""The plain walk visits what libcst's visitor visits, in the same order, minus whitespace.

The walk's child table is checked against libcst's own `_visit_and_replace_children` for every
node class, so a libcst release that adds a node or a field, or reorders one, fails here first.
"""

from __future__ import annotations

import inspect
import re

import libcst as cst
import pytest
from siblint.syntax.cst_walk import CHILDREN, Walker
from siblint.syntax.positions import SKIPPED

# Fields that hold only whitespace or punctuation; the walk leaves them out on purpose.
PRUNED = {
    "leading_lines", "lines_after_decorators", "lpar", "rpar", "comma", "semicolon", "trailing_whitespace",
    "header", "footer", "newline", "dot", "equal", "colon", "lbracket", "rbracket", "lbrace", "rbrace",
    "first_colon", "second_colon", "operator", "asynchronous", "relative", "posonly_ind", "trailing_comma",
    "leading_whitespace", "separator",
}
WHITESPACE_NODES = {"EmptyLine", "TrailingWhitespace", "ParenthesizedWhitespace"}


def libcst_order(cls: type) -> tuple[str, ...]:
    """The fields libcst's visitor descends into, in order, read from libcst's source."""
    src = inspect.getsource(cls._visit_and_replace_children)
    order: list[str] = []
    for name in re.findall(r'self,\s*"(\w+)"', src):
        if name not in order and not name.startswith("whitespace") and name not in PRUNED:
            order.append(name)
    return tuple(order)


NODE_CLASSES = sorted(
    (c for c in vars(cst).values() if isinstance(c, type) and issubclass(c, cst.CSTNode)
     and "_visit_and_replace_children" in vars(c)),
    key=lambda c: c.__name__,
)


def test_table_matches_libcst_for_every_node_class() -> None:
    assert len(NODE_CLASSES) > 100
    expected = {c.__name__: libcst_order(c) for c in NODE_CLASSES}
    expected = {k: v for k, v in expected.items() if v and k not in WHITESPACE_NODES}
    assert CHILDREN == expected


def test_pruned_fields_hold_only_whitespace_and_punctuation() -> None:
    """Nothing the collector looks at hides in a pruned field (checked on a tricky module)."""
    from test_positions import TRICKY

    stack: list[cst.CSTNode] = [cst.parse_module(TRICKY)]
    seen = 0
    while stack:
        node = stack.pop()
        for field in PRUNED & set(getattr(node, "__dataclass_fields__", ())):
            value = getattr(node, field)
            for v in value if isinstance(value, (tuple, list)) else (value,):
                if isinstance(v, cst.CSTNode):
                    seen += 1
                    assert type(v) in SKIPPED or isinstance(v, (cst.LeftParen, cst.RightParen, cst.LeftSquareBracket,
                                                                 cst.RightSquareBracket, cst.LeftCurlyBrace,
                                                                 cst.RightCurlyBrace, cst.Asynchronous, cst.ParamSlash)), type(v)
        stack.extend(node.children)
    assert seen > 50


class Recorder(Walker):
    def __init__(self) -> None:
        self.events: list[str] = []

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.events.append("def " + node.name.value)

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.events.append("end " + node.name.value)

    def visit_Call(self, node: cst.Call) -> None:
        self.events.append("call " + cst.Module([]).code_for_node(node.func))

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        return False  # children skipped


class LibcstRecorder(cst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.events: list[str] = []

    visit_FunctionDef = Recorder.visit_FunctionDef
    visit_Call = Recorder.visit_Call
    visit_ClassDef = Recorder.visit_ClassDef

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.events.append("end " + original_node.name.value)


@pytest.mark.parametrize("code", [
    "@deco(a())\ndef f(x=b()) -> c():\n    d(e())\n    def g(): h()\n",
    "x = p() if q() else r()\nclass C(base()):\n    y = s()\n",
    "{k(): v() for w in z()}\nlambda: t()\nf(a, *b(), k=c(), **d())\n",
])
def test_same_events_as_libcst_visitor(code: str) -> None:
    module = cst.parse_module(code)
    ours, theirs = Recorder(), LibcstRecorder()
    ours.walk(module)
    module.visit(theirs)
    assert ours.events == theirs.events
    assert len(ours.events) >= 3
