"""`literals.evaluated` gives what libcst's `evaluated_value` gives, value and type, for every
literal shape, and on real modules."""

from __future__ import annotations

import os
import sysconfig

import libcst as cst
import pytest
from siblint.syntax.literals import evaluated

LITERALS = '''\
a = ("", '', """""", \'\'\'\'\'\', "x", 'y', """q"uote""", \'\'\'it's\'\'\', "two\\nlines", r"\\d+", u"u",
     b"bytes", rb"\\x00", br'raw', "tab\\t" 'joined', b"b" b"b", "a" f"{x}", "a" "b" "c",
     """multi
line""", "\\N{BULLET}", 'caf\u00e9', "\\
continued", 0, 10_000, 0x_FF, 0o17, 0b101, 1.5, 1e400, .5e-3, 1_0.0_1)
'''


def literal_nodes(module: cst.Module) -> list[cst.BaseExpression]:
    found: list[cst.BaseExpression] = []

    class Visitor(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            if isinstance(node, (cst.SimpleString, cst.ConcatenatedString, cst.Integer, cst.Float)):
                found.append(node)
            return True

    module.visit(Visitor())
    return found


def check(text: str) -> int:
    nodes = literal_nodes(cst.parse_module(text))
    for node in nodes:
        want = node.evaluated_value
        got = evaluated(node)
        assert type(got) is type(want) and got == want, (cst.Module([]).code_for_node(node), want, got)
    return len(nodes)


def test_every_literal_shape() -> None:
    assert check(LITERALS) > 30
    # A carriage return inside a triple-quoted string reads as a plain newline, as CPython reads it.
    assert check('s = """a\r\nb"""\r\nt = \'\'\'c\rd\'\'\'\r\n') == 2


def test_unevaluable_literal_raises_like_libcst() -> None:
    node = cst.SimpleString('"\\N{NO SUCH NAME}"')
    with pytest.raises(SyntaxError):
        node.evaluated_value
    with pytest.raises(SyntaxError):
        evaluated(node)


@pytest.mark.parametrize("name", ["argparse.py", "typing.py", "tokenize.py", "json/decoder.py"])
def test_real_modules(name: str) -> None:
    path = os.path.join(sysconfig.get_paths()["stdlib"], name)
    with open(path, "rb") as fh:
        assert check(fh.read().decode("utf-8")) > 100
