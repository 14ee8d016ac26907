"""Issue 12 (S6): the facts of a module of many tiny functions stay small: slotted records, and one
shared empty container for every function that has no calls, raises or `with` bindings. (The
figures are in benchmarks/README.md; this checks the structure that gives them.)"""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from siblint.lint import engine
from siblint.run.cache import decode, encode
from siblint.syntax import facts

TEXT = "import requests\n" + "".join(f"def f{i}(): pass\n" for i in range(200)) + \
       "def g():\n    requests.post('u')\n    raise ValueError\n"


def test_empty_functions_share_their_containers():
    found = engine.facts_from_text(TEXT, "m.py")
    empty = [fn for name, fn in found.functions.items() if name != "g"]
    assert len(empty) == 200
    assert all(fn.calls is facts.EMPTY_CALLS and fn.raises is facts.EMPTY_LOCS
               and fn.raise_sites is facts.EMPTY_RAISE_SITES and fn.with_bindings is facts.EMPTY_BINDINGS for fn in empty)
    g = found.functions["g"]
    assert len(g.calls) == 1 and len(g.raises) == 1 and g.calls is not facts.EMPTY_CALLS
    assert facts.EMPTY_CALLS == [] and facts.EMPTY_LOCS == [] and facts.EMPTY_RAISE_SITES == [] and facts.EMPTY_BINDINGS == {}
    # The same facts after the cache's codec and after pickling (the pool).
    assert decode(encode(found)) == found and pickle.loads(pickle.dumps(found)) == found


def test_every_record_but_the_module_has_slots():
    for cls in vars(facts).values():
        if isinstance(cls, type) and dataclasses.is_dataclass(cls) and cls.__module__ == facts.__name__:
            assert ("__dict__" in dir(cls)) == (cls is facts.ModuleFacts), cls.__name__


def test_frozen_records_pickle_as_constructor_calls():
    # dataclasses' own pickling of a frozen slotted class calls `fields()` per object (3x slower to
    # dump a module's facts); every frozen record is pickled as `cls(*fields)` instead.
    from siblint.common import diagnostics
    from siblint.common.pickling import by_constructor

    for module in (facts, diagnostics):
        for cls in vars(module).values():
            if isinstance(cls, type) and dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen:
                assert "__reduce__" in vars(cls), cls.__name__
    loc = diagnostics.Loc(1, 2, 3, 4)
    assert loc.__reduce__() == (diagnostics.Loc, (1, 2, 3, 4))
    assert pickle.loads(pickle.dumps(facts.Const("x", loc))) == facts.Const("x", loc)

    @dataclasses.dataclass(frozen=True)
    class Derived:
        a: int
        b: int = dataclasses.field(init=False, default=0)

    with pytest.raises(TypeError):  # a field its constructor does not take cannot be pickled as a call
        by_constructor(Derived)
