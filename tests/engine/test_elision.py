"""Issue 24: the statements of a pytest test function that no rule reads are blanked before libcst
parses a test module (`siblint.syntax.elision`). Blanking keeps every other line and column, keeps
what a tool, group or setting needs, and never changes a finding: every rule example, moved into a
test function, reports the same with and without it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from siblint.frameworks import data_words, vocabulary
from siblint.rule_api.registry import all_rules
from siblint.settings.config import Config
from siblint.syntax import elision

SNAPSHOT = '    assert result == snapshot({"parts": [1, 2, 3],\n                               "usage": {"n": 4}})\n'


def thin(text: str) -> str:
    out = elision.thinned(text, ast.parse(text))
    kept = [(a, b) for a, b in zip(text.splitlines(), out.splitlines()) if a != b]
    assert len(out.splitlines()) == len(text.splitlines())
    assert all(b.strip() in ("pass", "") for _, b in kept), kept  # only whole statements change
    return out


def blanked(text: str) -> list[str]:
    """The original lines of `text` that thinning changed, stripped."""
    return [a.strip() for a, b in zip(text.splitlines(), thin(text).splitlines()) if a != b]


def test_data_words_extend_the_vocabulary_with_keywords_and_attributes() -> None:
    assert vocabulary() <= data_words()
    assert {"failure_error_function", "timeout_behavior", "tools", "append", "run"} <= data_words()


def test_a_snapshot_assertion_is_blanked_and_the_agent_kept() -> None:
    text = ("from agents import Agent\n\ndef test_run(snapshot):\n    agent = Agent(name='a')\n"
            "    result = agent.run_sync('hi')\n" + SNAPSHOT)
    assert blanked(text) == ['assert result == snapshot({"parts": [1, 2, 3],', '"usage": {"n": 4}})']


def test_an_assertion_is_anchored_only_by_a_framework_name() -> None:
    text = ("def test_parts(snapshot):\n    assert parts == snapshot([Part(tool_name='a', args={}, context=1)])\n"
            "    assert made == FunctionTool(name='a')\n    seen = Part(tool_name='a')\n")
    assert blanked(text) == ["assert parts == snapshot([Part(tool_name='a', args={}, context=1)])"]


def test_what_a_kept_statement_reads_is_kept_through_a_chain() -> None:
    text = ("def test_group():\n    base = [charge]\n    tools = base + [refund]\n    unrelated = [1]\n"
            "    agent = Agent(name='a', tools=tools)\n    assert unrelated\n")
    assert blanked(text) == ["unrelated = [1]", "assert unrelated"]


def test_a_store_into_a_live_name_is_kept() -> None:
    text = ("def test_config():\n    cfg = Settings()\n    cfg.limit = 1\n    cfg['x'] = 2\n"
            "    agent = Agent(name='a', model_settings=cfg)\n    other = Settings()\n    other.limit = 3\n")
    assert blanked(text) == ["other = Settings()", "other.limit = 3"]


def test_framework_words_defs_and_imports_anchor_a_statement() -> None:
    text = ("def test_shapes():\n    t.failure_error_function = None\n    agent.tools.append(t)\n"
            "    x = make(timeout_behavior='raise_exception')\n    def helper():\n        return 1\n"
            "    f = lambda: 1\n    import os\n    plain = 1\n")
    assert blanked(text) == ["plain = 1"]


def test_compound_statements_are_thinned_inside_and_their_headers_kept() -> None:
    text = ("def test_loop(items):\n    for item in items:\n        assert item\n    with open('f') as fh:\n"
            "        data = fh.read()\n    try:\n        check()\n    except ValueError as exc:\n        assert exc\n")
    assert blanked(text) == ["assert item", "data = fh.read()", "check()", "assert exc"]


def test_statements_sharing_a_line_are_kept() -> None:
    text = "def test_line():\n    a = 1; b = 2\n    if a: b = 3\n    c = 4  # a comment may follow\n"
    assert blanked(text) == ["c = 4  # a comment may follow"]


def test_only_pytest_test_functions_of_test_modules_are_thinned() -> None:
    text = ("def test_a():\n    q = 1\n\ndef helper():\n    y = 2\n\nclass TestB:\n    def test_m(self):\n"
            "        z = 3\n    def setup_method(self):\n        w = 4\n\nclass Other:\n    def test_n(self):\n        v = 5\n")
    assert blanked(text) == ["q = 1", "z = 3"]


@pytest.mark.parametrize("name,thinned", [("test_mod.py", True), ("mod_test.py", True), ("helpers.py", False),
                                          ("tests/_helpers.py", False)])
def test_only_test_modules_are_thinned(name: str, thinned: bool) -> None:
    from siblint.lint import engine

    facts = engine.facts_from_text("def test_a():\n    send()\n", name)
    assert [site.call.callee for site in facts.functions["test_a"].calls] == ([] if thinned else ["send"])


def test_a_test_function_named_elsewhere_or_decorated_as_a_tool_is_left_whole() -> None:
    listed = "def test_tool():\n    q = 1\n\nagent = Agent(tools=[test_tool])\n"
    assert blanked(listed) == []
    decorated = "@function_tool\ndef test_tool():\n    q = 1\n"
    assert blanked(decorated) == []
    marked = "@pytest.mark.parametrize('n', [1])\ndef test_param(n):\n    q = 1\n"
    assert blanked(marked) == ["q = 1"]


def test_line_ends_and_wide_characters_are_kept() -> None:
    text = "def test_crlf():\r\n    s = 'é€'; t = 1\r\n    u = 'ü' + \\\r\n        'x'\r\n    v = 2\r\n"
    out = thin(text)
    assert out == "def test_crlf():\r\n    s = 'é€'; t = 1\r\n    pass\r\n\r\n    pass\r\n"


def _in_a_test(code: str) -> str:
    """The example's imports at the top, everything else in the body of a test function that ends
    with a snapshot assertion (which thinning blanks)."""
    top = [line for line in code.splitlines() if line.startswith(("import ", "from "))]
    rest = [line for line in code.splitlines() if not line.startswith(("import ", "from "))]
    body = "".join(f"    {line}\n" if line.strip() else "\n" for line in rest)
    return "\n".join(top) + "\n\n\ndef test_example(snapshot):\n    result = None\n" + body + SNAPSHOT


def _fits(code: str) -> bool:
    try:
        ast.parse(_in_a_test(code))
    except SyntaxError:  # e.g. `from __future__` after a docstring
        return False
    return True


PY_EXAMPLES = [pytest.param(rule, ex, id=f"{rule.code}-{kind.lower()}-{i}")
               for rule in all_rules() for kind in ("VALID", "INVALID") for i, ex in enumerate(getattr(rule, kind))
               if ex.filename.endswith(".py")]
EXAMPLES = [param for param in PY_EXAMPLES if _fits(param.values[1].code)]


@pytest.mark.parametrize("rule,example", EXAMPLES)
def test_every_rule_example_reports_the_same_inside_a_test_with_and_without_thinning(
        rule, example, lint, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = _in_a_test(example.code)
    assert thin(text) != text  # the snapshot assertion at least
    config = Config(root=str(tmp_path), select=("SIB",))

    def report(name: str) -> list[tuple[str, int, int, str]]:
        found = lint(text, example.files, config, name)
        return sorted((d.code, d.loc.line, d.loc.col, d.message) for d in found if d.path.endswith(name))

    thinned = report("test_main.py")
    monkeypatch.setattr(elision, "thinned", lambda text, tree: text)
    assert thinned == report("test_main.py")


def test_most_rule_examples_fit_in_a_test() -> None:
    assert len(EXAMPLES) >= 0.9 * len(PY_EXAMPLES) > 100


def test_a_tree_of_other_bytes_costs_thinning_not_the_facts() -> None:
    # A caller's CPython tree (flake8's) of other text than the one parsed: the thinned text does
    # not parse, and the facts come from the file's own text.
    from siblint.lint import engine

    text = "def test_a():\n    if ready:\n        send()\n"
    other = ast.parse("def test_a():\n    q = 1234567\n    z = 2\n")  # `q = ...` spans `if ready:`
    assert elision.thinned(text, other) != text
    facts = engine.facts_from_text(text, "test_a.py", other, guarded=True)
    assert [site.call.callee for site in facts.functions["test_a"].calls] == ["send"]


REAL = sorted((Path(__file__).resolve().parents[1] / "rules").glob("test_*.py"))[:12]  # this project's own tests


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.name)
def test_real_test_modules_thin_to_code_libcst_parses_with_every_other_function_unchanged(
        path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from siblint.lint import engine

    text = path.read_text(encoding="utf-8")
    assert thin(text) != text
    thinned = engine.facts_from_text(text, str(path))
    monkeypatch.setattr(elision, "thinned", lambda text, tree: text)
    whole = engine.facts_from_text(text, str(path))
    assert thinned.functions.keys() == whole.functions.keys()
    others = [name for name in whole.functions if not name.split(".")[-1].startswith("test")]
    assert [thinned.functions[n] for n in others] == [whole.functions[n] for n in others]
    for field in ("imports", "classes", "module_calls", "star_imports"):
        assert getattr(thinned, field) == getattr(whole, field)


def test_a_long_chain_of_bindings_is_kept_whole() -> None:
    # Each statement feeds the one before it in the list of live names: the worklist keeps them all.
    n = 500
    text = ("def test_chain():\n    v0 = 1\n" + "".join(f"    v{i} = v{i - 1}\n" for i in range(1, n))
            + f"    agent = Agent(tools=v{n - 1})\n    spare = 2\n")
    assert blanked(text) == ["spare = 2"]
