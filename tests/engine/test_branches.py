"""Which `if` arms that test one name (`name == "literal"`, `name`, `name is None`) the collector
records around each call."""

from __future__ import annotations

import textwrap

import libcst as cst
from siblint.syntax.collector import collect

CODE = """\
    def f(method, kind, x, dry_run, path):
        if method == "GET":
            a()
        elif method.lower() in ("put", "patch"):
            b()
        else:
            c()
        if kind != "raw":
            return d()
        e()
        if x:
            return g()
        h()
        if "HEAD" == method:
            i()
        else:
            j()
        k()
        if not dry_run:
            m()
        if path is None:
            n()
        elif path is not None:
            o()
"""


def arms(test: str = "in") -> dict[str, list[tuple[str, tuple[str, ...], bool, bool]]]:
    """Each call's arms of one kind of test."""
    facts = collect(cst.parse_module(textwrap.dedent(CODE)), "m.py", "m", False)
    return {site.call.func.text: [(b.name, b.values, b.equals, b.folded) for b in site.branches if b.test == test]
            for site in facts.functions["f"].calls}


def test_if_elif_else_arms():
    found = arms()
    assert found["a"] == [("method", ("GET",), True, False)]
    assert found["b"] == [("method", ("GET",), False, False), ("method", ("put", "patch"), True, True)]
    assert found["c"] == [("method", ("GET",), False, False), ("method", ("put", "patch"), False, True)]


def test_guard_clause_narrows_the_rest_of_the_block():
    found = arms()
    assert found["d"] == [("kind", ("raw",), False, False)]
    assert found["e"] == found["h"] == found["k"] == [("kind", ("raw",), True, False)]
    assert found["g"] == [("kind", ("raw",), True, False)]
    truthy = arms("truthy")
    assert truthy["g"] == [("x", (), True, False)]
    assert truthy["h"] == truthy["k"] == [("x", (), False, False)]  # after `if x: return ...`
    assert truthy["e"] == []


def test_truth_and_none_tests():
    assert arms("truthy")["m"][-1] == ("dry_run", (), False, False)
    nones = arms("none")
    assert nones["n"] == [("path", (), True, False)]
    assert nones["o"] == [("path", (), False, False), ("path", (), False, False)]


def test_literal_on_the_left_and_arms_end_with_their_if():
    found = arms()
    assert found["i"] == [("kind", ("raw",), True, False), ("method", ("HEAD",), True, False)]
    assert found["j"] == [("kind", ("raw",), True, False), ("method", ("HEAD",), False, False)]


def test_branch_allows_folds_case_only_when_the_source_did():
    from siblint.syntax.facts import Branch

    assert Branch("m", ("GET",), True).allows("GET") and not Branch("m", ("GET",), True).allows("get")
    assert Branch("m", ("put",), True, folded=True).allows("PUT")
    assert Branch("m", ("GET",), False).allows("POST")


def test_branch_allows_by_truth_and_none():
    from siblint.syntax.facts import Branch

    assert Branch("c", (), True, test="truthy").allows(True) and not Branch("c", (), True, test="truthy").allows(None)
    assert Branch("c", (), False, test="truthy").allows("") and not Branch("c", (), False, test="truthy").allows(0.5)
    assert Branch("p", (), True, test="none").allows(None) and not Branch("p", (), True, test="none").allows("x")
    assert Branch("p", (), False, test="none").allows(False)
    assert Branch("m", ("GET",), True).allows(None)  # a non-string against strings: not ruled out


def test_each_conjunct_of_an_and_test_holds_in_its_body_and_none_in_its_else():
    """evalW2's aletheia: `if self.session and save_key: save(...)` never runs on a path passing
    `save_key=None`; the `else` of `a and b` holds neither alone."""
    facts = collect(cst.parse_module(textwrap.dedent("""\
        def f(self, save_key, method, dry_run):
            if self.session and save_key and method == "POST":
                save()
            else:
                skip()
            if save_key and (dry_run or method):
                other()
    """)), "m.py", "m", False)
    found = {site.call.func.text: [(b.name, b.test, b.equals) for b in site.branches] for site in facts.functions["f"].calls}
    assert found["save"] == [("save_key", "truthy", True), ("method", "in", True)]
    assert found["skip"] == []
    assert found["other"] == [("save_key", "truthy", True)]
