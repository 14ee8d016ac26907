"""Fixes (issue 26): each rule's declared fix on its INVALID examples and on the smallest shapes.

For every fix: the file still parses, a second pass finds nothing more to fix, every character
outside the edit is kept, and the fixed file has no finding the original did not have.
"""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pytest
from siblint.common.diagnostics import Diagnostic
from siblint.lint.fixes import changed_range, fixes_for, still_parses
from siblint.rule_api.fixes import DISPLAY_ONLY, LEVELS, SAFE, UNSAFE, Edit, Fix, FixSpec, RewriteArgument, applied
from siblint.rule_api.registry import all_codes, all_rules
from siblint.settings.config import Config

from tests.conftest import lint_files

RULES = all_rules()
SPECS = {r.code: r.fix for r in RULES if r.fix is not None}
APPLIED = [r for r in RULES if r.fix is not None and r.fix.action is not None]


def _lint(root: Path, text: str, filename: str = "main.py", files: dict[str, str] | None = None) -> tuple[str, str, list[Diagnostic]]:
    found = lint_files(root, {**(files or {}), filename: text}, filename, Config(root=str(root), select=tuple(all_codes())))
    path = str(root / filename)
    return path, (root / filename).read_text(encoding="utf-8"), [d for d in found if d.path == path]


def _fix(root: Path, text: str, filename: str = "main.py", files: dict[str, str] | None = None) -> tuple[str, list[Fix]]:
    path, text, found = _lint(root, text, filename, files)
    fixes = fixes_for(path, text, found, SPECS)
    return applied(text, [e for f in fixes for e in f.edits])[0], fixes


def _signature(found: list[Diagnostic]) -> Counter[tuple[str, str]]:
    return Counter((d.code, d.message) for d in found)


# ------------------------------------------------------------------------------ the data
@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_every_rule_has_a_fix_or_says_why_not(rule) -> None:
    assert (rule.fix is None) != (not rule.no_fix), f"{rule.code}: a fix, or `no_fix` saying why none is safe"
    section = rule.doc().split("## Fix safety\n", 1)[1]
    if rule.fix is None:
        assert section.startswith("No fix: ") and rule.no_fix in section
    else:
        assert rule.fix.applicability in LEVELS and rule.fix.description in section
        assert section.startswith(rule.fix.applicability.capitalize())


def test_a_display_only_fix_has_no_edit_and_an_applied_one_has_one() -> None:
    with pytest.raises(ValueError):
        FixSpec(DISPLAY_ONLY, "x", RewriteArgument((("a", None),)))
    with pytest.raises(ValueError):
        FixSpec(UNSAFE, "x")
    with pytest.raises(ValueError):
        FixSpec("maybe", "x")


def test_edits_that_overlap_an_earlier_one_are_left_for_the_next_round() -> None:
    text, kept = applied("abcdef", [Edit(3, 5, "X"), Edit(0, 2), Edit(1, 4, "Y")])
    assert text == "cXf" and kept == [Edit(0, 2), Edit(3, 5, "X")]


def test_changed_range_is_the_smallest_edit() -> None:
    assert changed_range("f(a, b=None)", "f(a)") == Edit(3, 11, "")
    assert applied("f(a, b=None)", [changed_range("f(a, b=None)", "f(a)")])[0] == "f(a)"


# ------------------------------------------------------------------------------ every INVALID example
def _invalid_examples():
    for rule in APPLIED:
        for i, ex in enumerate(rule.INVALID):
            yield pytest.param(rule, ex, id=f"{rule.code}-invalid-{i}")


@pytest.mark.parametrize("rule,example", list(_invalid_examples()))
def test_fix_of_each_invalid_example(rule, example, tmp_path: Path) -> None:
    path, text, before = _lint(tmp_path, example.code, example.filename, example.files)
    fixes = fixes_for(path, text, before, SPECS)
    mine = [f for f in fixes if f.code == rule.code]
    for f in fixes:  # each edit alone keeps every character outside it
        for e in f.edits:
            alone = applied(text, [e])[0]
            assert alone[:e.start] == text[:e.start] and alone[e.start + len(e.content):] == text[e.end:]
        assert f.applicability == SPECS[f.code].applicability
    new = applied(text, [e for f in fixes for e in f.edits])[0]
    if not mine:
        return  # a spelling the fix does not edit (a `**{...}` dict, an assignment): covered by the next test
    assert still_parses(new, path)
    (tmp_path / example.filename).write_text(new, encoding="utf-8")
    after_path, after_text, after = _lint(tmp_path, new, example.filename, example.files)
    assert not _signature(after) - _signature(before), "the fix brought a new finding"
    fixed = Counter(f.code for f in fixes)
    assert _signature(before) - _signature(after) and sum(fixed.values()) == sum((_signature(before) - _signature(after)).values())
    assert fixes_for(after_path, after_text, after, SPECS) == [], "a second pass would change the file again"


def test_every_applied_fix_edits_at_least_one_of_its_examples(tmp_path: Path) -> None:
    for rule in APPLIED:
        edited = 0
        for i, ex in enumerate(rule.INVALID):
            root = tmp_path / f"{rule.code}-{i}"
            root.mkdir()
            _, fixes = _fix(root, ex.code, ex.filename, ex.files)
            edited += any(f.code == rule.code for f in fixes)
        assert edited, f"{rule.code} declares an edit that none of its INVALID examples gets"


@pytest.mark.parametrize("rule,example", [
    pytest.param(r, ex, id=f"{r.code}-valid-{i}") for r in APPLIED for i, ex in enumerate(r.VALID)])
def test_valid_examples_get_no_fix(rule, example, tmp_path: Path) -> None:
    path, text, found = _lint(tmp_path, example.code, example.filename, example.files)
    assert [f for f in fixes_for(path, text, found, SPECS) if f.code == rule.code] == []


# ------------------------------------------------------------------------------ the smallest shapes
PY = "from agents import function_tool\n\n"
DEF = "async def f() -> str:\n    return 'x'\n"


@pytest.mark.parametrize("before,after", [
    ("@function_tool(failure_error_function=None)\n" + DEF,
     "@function_tool()\n" + DEF),
    ("@function_tool(name_override='t', failure_error_function=None)\n" + DEF,
     "@function_tool(name_override='t')\n" + DEF),
    ("@function_tool(\n    failure_error_function=None,\n    name_override='t',  # keep me\n)\n" + DEF,
     "@function_tool(\n    name_override='t',  # keep me\n)\n" + DEF),
    ("@function_tool(\n    name_override='t',\n    failure_error_function=None,\n)\n" + DEF,
     "@function_tool(\n    name_override='t',\n)\n" + DEF),
    ("@function_tool(timeout=2, timeout_behavior='raise_exception')\n" + DEF,
     "@function_tool(timeout=2)\n" + DEF),
], ids=["only", "last", "first-multiline", "last-multiline-trailing-comma", "timeout"])
def test_python_argument_dropped(before: str, after: str, tmp_path: Path) -> None:
    new, fixes = _fix(tmp_path, PY + before)
    assert new == PY + after and all(f.applicability == UNSAFE for f in fixes)


def test_langgraph_and_crewai_get_the_value_that_returns_errors(tmp_path: Path) -> None:
    new, _ = _fix(tmp_path, "from langgraph.prebuilt import ToolNode\n\nnode = ToolNode(tools, handle_tool_errors=False)\n")
    assert new.endswith("ToolNode(tools, handle_tool_errors=True)\n")
    new, _ = _fix(tmp_path, "from crewai import Agent\n\nshop = Agent(role='r', tools=tools, tool_failure_policy='raise')\n")
    assert new.endswith("Agent(role='r', tools=tools, tool_failure_policy=\"warn\")\n")


def test_benign_twins_and_other_spellings_get_no_edit(tmp_path: Path) -> None:
    for text in (PY + "@function_tool(failure_error_function=my_handler)\nasync def f() -> str:\n    return 'x'\n",
                 PY + "@function_tool(**{'failure_error_function': None})\nasync def f() -> str:\n    return 'x'\n",
                 "from mylib import function_tool\n\n@function_tool(failure_error_function=None)\nasync def f() -> str:\n    return 'x'\n"):
        assert _fix(tmp_path, text)[1] == []


def test_python_encoding_line_endings_and_comments_are_kept(tmp_path: Path) -> None:
    text = "# -*- coding: latin-1 -*-\r\n# caf\xe9\r\n" + PY.replace("\n", "\r\n") + \
        "@function_tool(failure_error_function=None)  # \xe9\r\nasync def f() -> str:\r\n    return 'x'\r\n"
    (tmp_path / "main.py").write_bytes(text.encode("latin-1"))
    from siblint.interfaces.fixing import Outcome, plan

    (ff,) = plan([d for d in lint_files(tmp_path, {}, "main.py") if d.code == "SIB201"], {str(tmp_path / "main.py")},
                 [str(tmp_path)], True, Outcome())
    assert ff.after == text.replace("(failure_error_function=None)", "()").encode("latin-1")


def test_permanent_statuses_dropped_but_never_the_last(tmp_path: Path) -> None:
    head = "from agents import retry_policies\n\n"
    new, _ = _fix(tmp_path, head + "P = retry_policies.http_status([404, 429, 401])\n")
    assert new == head + "P = retry_policies.http_status([429])\n"
    new, fixes = _fix(tmp_path, head + "P = retry_policies.http_status([404])\n")
    assert fixes == [] and new.endswith("([404])\n")


# ------------------------------------------------------------------------------ TS/JS
TS = "import { tool } from '@openai/agents';\n"


@pytest.mark.parametrize("before,after", [
    ("const t = tool({ name: 'x', execute, errorFunction: null });\n", "const t = tool({ name: 'x', execute });\n"),
    ("const t = tool({ errorFunction: null, name: 'x' });\n", "const t = tool({ name: 'x' });\n"),
    ("const t = tool({\n  name: 'x',\n  errorFunction: null,\n  execute,\n});\n", "const t = tool({\n  name: 'x',\n  execute,\n});\n"),
    ("const t = tool({\n  name: 'x',\n  errorFunction: null,\n});\n", "const t = tool({\n  name: 'x',\n});\n"),
    ("const t = tool({\n  name: 'é☃',\n  timeoutBehavior: 'raise_exception',\n  timeoutMs: 10,\n});\n",
     "const t = tool({\n  name: 'é☃',\n  timeoutMs: 10,\n});\n"),
    ("const t = tool({ name: '☃', errorFunction: null });\n", "const t = tool({ name: '☃' });\n"),
    ("const t = tool({\n  name: 'x',\n  errorFunction: null, // fatal\n  execute,\n});\n",
     "const t = tool({\n  name: 'x',\n  execute,\n});\n"),
], ids=["last", "first", "middle-multiline", "last-multiline", "timeout-non-ascii-line-above", "non-ascii-before",
        "its-comment"])
def test_ts_property_dropped(before: str, after: str, tmp_path: Path) -> None:
    new, fixes = _fix(tmp_path, TS + before, "main.ts")
    assert new == TS + after and fixes and all(f.applicability == UNSAFE for f in fixes)


def test_ts_benign_twin_gets_no_edit(tmp_path: Path) -> None:
    assert _fix(tmp_path, TS + "const t = tool({ name: 'x', errorFunction: (ctx, e) => String(e) });\n", "main.ts")[1] == []


def test_still_parses_rejects_broken_output() -> None:
    assert still_parses("f(a)\n", "m.py") and not still_parses("f(a,,)\n", "m.py")
    assert still_parses("const x = {a: 1};\n", "m.ts") and not still_parses("const x = {a: 1;\n", "m.ts")
    assert ast.parse("x = 1")  # the Python check is CPython's own parser


def test_a_file_that_does_not_parse_gets_no_fix(tmp_path: Path) -> None:
    from siblint.common.diagnostics import Loc

    d = Diagnostic(str(tmp_path / "m.py"), Loc(1, 0, 1, 1), "SIB201", "m")
    assert fixes_for(d.path, "def (:\n", [d], SPECS) == []


# ------------------------------------------------------------------------------ SIB902: stale noqa codes (safe)
@pytest.mark.parametrize("filename,before,after", [
    ("main.py", "x = 1  # noqa: SIB101, E501\n", "x = 1  # noqa: E501\n"),
    ("main.py", "x = 1  # noqa:SIB101,E501\n", "x = 1  # noqa:E501\n"),
    ("main.py", "y = 2  # noqa: SIB101\nz = 3\n", "y = 2\nz = 3\n"),
    ("main.py", "# noqa: SIB101\nz = 3\n", "z = 3\n"),
    ("main.py", "z = 3  # noqa: SIB101 because of x\n", "z = 3  # noqa: SIB101 because of x\n"),  # the reason stays
    ("main.py", "s = '# noqa: SIB101'\n", "s = '# noqa: SIB101'\n"),  # a string, never edited
    ("main.ts", "const a = 1; // noqa: SIB101\n", "const a = 1;\n"),
    ("main.ts", "// siblint-disable-next-line SIB201\nconst b = 2;\n", "const b = 2;\n"),
    ("main.ts", "const s = '// noqa: SIB101';\n", "const s = '// noqa: SIB101';\n"),
], ids=["one-of-two", "no-space", "only-code", "own-line", "with-reason", "string", "ts", "ts-next-line", "ts-string"])
def test_stale_noqa_codes_removed(filename: str, before: str, after: str, tmp_path: Path) -> None:
    head = TS if filename.endswith(".ts") else "from agents import function_tool\n"
    new, fixes = _fix(tmp_path, head + before, filename)
    assert new == head + after
    assert all(f.code == "SIB902" and f.applicability == SAFE for f in fixes) and bool(fixes) == (before != after)


def test_a_used_noqa_code_is_kept(tmp_path: Path) -> None:
    text = PY + "@function_tool(failure_error_function=None)  # noqa: SIB201, SIB101\nasync def f() -> str:\n    return 'x'\n"
    new, fixes = _fix(tmp_path, text)
    assert [f.code for f in fixes] == ["SIB902"] and new == text.replace("SIB201, SIB101", "SIB201")


# ------------------------------------------------------------------------------ SIB409: a bound for an unbounded retry
TOOL = "\n\n@function_tool\nasync def fx() -> str:\n    return await rates()\n"
BODY = "async def rates() -> str:\n    async with httpx.AsyncClient() as c:\n        return (await c.get('https://fx.example.com')).text\n"


@pytest.mark.parametrize("before,after", [
    ("import httpx, tenacity\nfrom agents import function_tool\n\n@tenacity.retry\n",
     "import httpx, tenacity\nfrom agents import function_tool\n\n@tenacity.retry(stop=tenacity.stop_after_delay(60))\n"),
    ("import httpx\nimport tenacity as t\nfrom agents import function_tool\n\n@t.retry()\n",
     "import httpx\nimport tenacity as t\nfrom agents import function_tool\n\n@t.retry(stop=t.stop_after_delay(60))\n"),
    ("import httpx\nfrom tenacity import retry, wait_fixed\nfrom agents import function_tool\n\n@retry(wait=wait_fixed(2))\n",
     "import httpx\nfrom tenacity import retry, wait_fixed, stop_after_delay\nfrom agents import function_tool\n\n"
     "@retry(wait=wait_fixed(2), stop=stop_after_delay(60))\n"),
    ("import httpx\nfrom tenacity import (\n    retry,\n    stop_after_delay,\n)\nfrom agents import function_tool\n\n@retry(\n    reraise=True,\n)\n",
     "import httpx\nfrom tenacity import (\n    retry,\n    stop_after_delay,\n)\nfrom agents import function_tool\n\n"
     "@retry(\n    reraise=True,\n    stop=stop_after_delay(60),\n)\n"),
], ids=["bare-module-decorator", "module-alias", "from-import-added", "one-per-line-already-imported"])
def test_tenacity_gets_a_stop(before: str, after: str, tmp_path: Path) -> None:
    new, fixes = _fix(tmp_path, before + BODY + TOOL)
    assert new == after + BODY + TOOL and [f.code for f in fixes] == ["SIB409"]


def test_backoff_and_stamina_get_their_limit(tmp_path: Path) -> None:
    head = "import backoff, requests\nfrom agents import function_tool\n\n@function_tool\n"
    body = "def fx() -> str:\n    return requests.get('https://fx.example.com').text\n"
    new, _ = _fix(tmp_path, head + "@backoff.on_exception(backoff.expo, requests.RequestException)\n" + body)
    assert new == head + "@backoff.on_exception(backoff.expo, requests.RequestException, max_time=60)\n" + body
    head = "import httpx, stamina\nfrom agents import function_tool\n\n@function_tool\n"
    new, _ = _fix(tmp_path, head + "@stamina.retry(on=httpx.HTTPError, attempts=None, timeout=None)\n" + BODY)
    assert new == head + "@stamina.retry(on=httpx.HTTPError, attempts=None, timeout=60)\n" + BODY


def test_a_retry_of_another_library_or_a_star_import_gets_no_bound(tmp_path: Path) -> None:
    for head in ("import httpx\nfrom tenacity import *\nfrom agents import function_tool\n\n@retry\n",
                 "import httpx\nfrom myretry import retry\nfrom agents import function_tool\n\n@retry\n"):
        assert [f for f in _fix(tmp_path, head + BODY + TOOL)[1] if f.code == "SIB409"] == []


def test_an_edit_that_fails_gives_no_fix_and_no_crash(tmp_path: Path, monkeypatch) -> None:
    import siblint.lint.fixes as engine

    path, text, found = _lint(tmp_path, PY + "@function_tool(failure_error_function=None)\n" + DEF)
    assert fixes_for(path, text, found, SPECS)

    def refuse(self, *args):
        raise RuntimeError("libcst refused")

    monkeypatch.setattr(engine._PyTree, "_replaced", refuse)
    assert fixes_for(path, text, found, SPECS) == []


# ------------------------------------------------------------------------------ SIB301: cap the runs
GROUP = """\
import requests
{imports}


@function_tool
def charge_card(amount: int) -> str:
    requests.post("https://pay.example.com", json={{"amount": amount}})
    return "charged"


@function_tool(failure_error_function=None)
async def lookup_tax(region: str) -> str:
    return "0.2"


agent = {sdk}Agent(name="a", tools=[charge_card, lookup_tax])
"""
CAP = "ToolExecutionConfig(max_function_tool_concurrency=1)"


def _sib301_fixed(root: Path, text: str) -> tuple[str, list[Fix], list[Diagnostic]]:
    path, source, found = _lint(root, text)
    fixes = [f for f in fixes_for(path, source, found, SPECS) if f.code == "SIB301"]
    new = applied(source, [e for f in fixes for e in f.edits])[0]
    return new, fixes, _lint(root, new)[2]


@pytest.mark.parametrize("runs,after", [
    ("Runner.run_sync(agent, 'hi')\n",
     f"Runner.run_sync(agent, 'hi', run_config=RunConfig(tool_execution={CAP}))\n"),
    ("Runner.run_sync(starting_agent=agent, input='hi', run_config=RunConfig(tracing_disabled=True))\n",
     f"Runner.run_sync(starting_agent=agent, input='hi', run_config=RunConfig(tracing_disabled=True, tool_execution={CAP}))\n"),
    ("Runner.run_sync(agent, 'a')\nRunner.run_streamed(\n    agent,\n    'b',\n)\n",
     f"Runner.run_sync(agent, 'a', run_config=RunConfig(tool_execution={CAP}))\nRunner.run_streamed(\n    agent,\n    'b',\n"
     f"    run_config=RunConfig(tool_execution={CAP}),\n)\n"),
], ids=["added", "merged", "every-run"])
def test_sib301_caps_every_run_of_the_agent(runs: str, after: str, tmp_path: Path) -> None:
    head = GROUP.format(imports="from agents import Agent, Runner, function_tool", sdk="")
    new, fixes, left = _sib301_fixed(tmp_path, head + runs)
    assert [f.applicability for f in fixes] == [UNSAFE]
    assert new == head.replace("function_tool\n", "function_tool, RunConfig, ToolExecutionConfig\n", 1) + after
    assert "SIB301" not in {d.code for d in left} and still_parses(new, "main.py")


def test_sib301_spells_the_cap_through_the_module_import(tmp_path: Path) -> None:
    head = GROUP.format(imports="import agents as sdk\nfrom agents import function_tool", sdk="sdk.")
    new, _, left = _sib301_fixed(tmp_path, head + "sdk.Runner.run_sync(agent, 'hi')\n")
    assert new == head + "sdk.Runner.run_sync(agent, 'hi', run_config=sdk.RunConfig(" \
        "tool_execution=sdk.ToolExecutionConfig(max_function_tool_concurrency=1)))\n"
    assert "SIB301" not in {d.code for d in left}


@pytest.mark.parametrize("runs", [
    "",  # run in another module: the cap belongs there
    "CONFIG = RunConfig()\nRunner.run_sync(agent, 'hi', run_config=CONFIG)\n",  # a config built elsewhere
    f"Runner.run_sync(agent, 'hi', run_config=RunConfig(tool_execution={CAP.replace('=1', '=4')}))\n",  # the author's cap
    "Runner.run_sync(other, 'hi')\n",  # another agent's run
], ids=["not-run-here", "config-elsewhere", "cap-of-4", "other-agent"])
def test_sib301_gets_no_edit_where_the_run_is_not_plainly_here(runs: str, tmp_path: Path) -> None:
    head = GROUP.format(imports="from agents import Agent, RunConfig, Runner, ToolExecutionConfig, function_tool", sdk="")
    path, source, found = _lint(tmp_path, head + "other = agent\n" + runs)
    assert "SIB301" in {d.code for d in found}
    assert [f for f in fixes_for(path, source, found, SPECS) if f.code == "SIB301"] == []


def test_sib301_benign_twin_already_capped_has_nothing_to_fix(tmp_path: Path) -> None:
    head = GROUP.format(imports="from agents import Agent, RunConfig, Runner, ToolExecutionConfig, function_tool", sdk="")
    _, _, found = _lint(tmp_path, head + f"Runner.run_sync(agent, 'hi', run_config=RunConfig(tool_execution={CAP}))\n")
    assert "SIB301" not in {d.code for d in found}


# ------------------------------------------------------------------------------ SIB407: add the policy
POLICY = "retry_policies.any(retry_policies.provider_suggested(), retry_policies.network_error())"


@pytest.mark.parametrize("before,after", [
    ("from agents import ModelRetrySettings, ModelSettings\n\nS = ModelSettings(retry=ModelRetrySettings(max_retries=3))\n",
     f"from agents import ModelRetrySettings, ModelSettings, retry_policies\n\n"
     f"S = ModelSettings(retry=ModelRetrySettings(max_retries=3, policy={POLICY}))\n"),
    ("import agents as sdk\n\nS = sdk.ModelSettings(retry=sdk.ModelRetrySettings(max_retries=3, policy=None))\n",
     f"import agents as sdk\n\nS = sdk.ModelSettings(retry=sdk.ModelRetrySettings(max_retries=3, "
     f"policy={POLICY.replace('retry_policies', 'sdk.retry_policies')}))\n"),
], ids=["import-added", "through-the-module"])
def test_sib407_adds_a_policy(before: str, after: str, tmp_path: Path) -> None:
    new, fixes = _fix(tmp_path, before)
    assert new == after and [f.applicability for f in fixes] == [UNSAFE]
    assert "SIB407" not in {d.code for d in _lint(tmp_path, new)[2]}


def test_sib407_dict_settings_and_the_benign_twin_get_no_edit(tmp_path: Path) -> None:
    dict_form = "from agents import ModelSettings\n\nS = ModelSettings(retry={'max_retries': 3})\n"
    path, text, found = _lint(tmp_path, dict_form)
    assert "SIB407" in {d.code for d in found} and fixes_for(path, text, found, SPECS) == []
    twin = f"from agents import ModelRetrySettings, ModelSettings, retry_policies\n\n" \
           f"S = ModelSettings(retry=ModelRetrySettings(max_retries=3, policy={POLICY}))\n"
    assert _fix(tmp_path, twin) == (twin, [])
