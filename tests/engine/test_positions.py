"""`positions()` gives libcst's PositionProvider ranges for every node it records."""

from __future__ import annotations

import os
import sysconfig

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider
from siblint.syntax.positions import SKIPPED, positions

TRICKY = '''\
from a.b import (
    c,
    d as e,
)
from . import *
x = (1 +  # comment
     2) ; y = [i for i in range(3) if i]
s = """multi
line""" "tail" \\
    "more"
async def f(a, /, b=1, *c, d, **e) -> "T":
    async with g() as h, k():
        try:
            await h.send(b'x', r"y", f"{a!r:>{b}}")
        except* (ValueError, KeyError) as exc:
            raise
        finally:
            pass
    return lambda q, *r: q[1:2, ::3] @ r
class C(B, metaclass=M):
    @decorator(1)
    def m(self): return self.x.y.z(**{"k": [*v]})
if a: b = 1
elif c:
    pass
else:
    d: int = -~e if not f else (yield)
match p:
    case {"k": [1, *rest]} | Point(x=0) if rest: pass
    case _: pass
'''


def compare(text: str) -> int:
    module = cst.parse_module(text)
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    got = positions(module)
    checked = 0
    for node, rng in expected.items():
        if type(node) in SKIPPED:
            continue
        want = (rng.start.line, rng.start.column, rng.end.line, rng.end.column)
        assert got[id(node)] == want, (type(node).__name__, want, got.get(id(node)))
        checked += 1
    return checked


def test_tricky_module() -> None:
    assert compare(TRICKY) > 200
    assert compare("") == 1 and compare("\n\n# only a comment\n") >= 1
    assert compare("x = 1\r\ny = 2\r") > 3


def _stdlib_sample() -> list[str]:
    root = sysconfig.get_paths()["stdlib"]
    names = ["argparse.py", "dataclasses.py", "asyncio/tasks.py", "typing.py", "json/decoder.py"]
    return [os.path.join(root, n) for n in names if os.path.exists(os.path.join(root, n))]


@pytest.mark.parametrize("path", _stdlib_sample())
def test_real_modules(path: str) -> None:
    with open(path, "rb") as fh:
        assert compare(fh.read().decode("utf-8")) > 1000
