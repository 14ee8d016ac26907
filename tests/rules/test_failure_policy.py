"""SIB201-SIB204 on every statically visible spelling of the reference (S1-S24), and the
`fatal_reasons` API the group rule uses (copies, MCP servers with agent-level config, as_tool).

Each source marks the lines that must be reported with a trailing `# SIBnnn` comment; every other
line must stay silent for that code.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest
from siblint.analyses.fatality import FatalReason, fatal_reasons, module_reasons
from siblint.lint.engine import facts_from_text, new_project
from siblint.model.tools import Tool, copies_in, tools_in
from siblint.rule_api.registry import all_rules
from siblint.settings.config import Config
from siblint.syntax.facts import Call

CODES = ("SIB201", "SIB202", "SIB203", "SIB204")


@pytest.fixture
def check(lint, tmp_path):
    """check(text, files) asserts the SIB2xx findings are exactly the lines marked `# SIBnnn`."""

    def run(text: str, files: dict[str, str] | None = None) -> list[tuple[str, int]]:
        text = textwrap.dedent(text)
        found = sorted((d.code, d.loc.line) for d in lint(text, files, Config(root=str(tmp_path), select=CODES))
                       if d.code in CODES)
        expected = sorted((code, i) for i, line in enumerate(text.splitlines(), 1)
                          for code in re.findall(r"#.*?\b(SIB20[1-4])\b", line))
        assert found == expected
        return found

    return run


def _project(tmp_path: Path, files: dict[str, str], target: str = "main.py"):
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(textwrap.dedent(text), encoding="utf-8")
    project = new_project(Config(root=str(tmp_path)))
    path = tmp_path / target
    facts = facts_from_text(path.read_text(encoding="utf-8"), str(path))
    project.add(facts)
    return facts, project


def _tool(facts, binding: str) -> Tool:
    found = [t for t in tools_in(facts) if t.binding == binding]
    assert len(found) == 1, [(t.binding, t.kind) for t in tools_in(facts)]
    return found[0]


# The rule that reports each cause: analyses give causes, rules own the codes.
CODE = {rule.cause: rule.code for rule in all_rules() if hasattr(rule, "cause")}


def _summary(reasons: list[FatalReason]) -> list[tuple[str, str, int]]:
    return sorted((CODE[r.cause], r.label, r.loc.line) for r in reasons)


# ---- SIB201: failure handler disabled ----------------------------------------------------------
def test_s1_s2_s3_decorator_call_form_and_dict_literal(check):
    check("""\
        from agents import function_tool

        @function_tool(failure_error_function=None)  # SIB201 (S1)
        async def a() -> str:
            return "x"

        async def b() -> str:
            return "x"

        B = function_tool(b, failure_error_function=None)  # SIB201 (S2)
        C = function_tool(**{"failure_error_function": None})(b)  # SIB201 (S3)
        OPTS = {"name_override": "d", "failure_error_function": None}
        D = function_tool(b, **OPTS)  # SIB201 (S3 through a bound dict: reported where it is used)
        E = function_tool(b, failure_error_function=None if False else None)
        """)


def test_a_shared_options_dict_is_reported_at_each_tool_with_the_dict_as_related(lint, tmp_path):
    text = (
        "from agents import function_tool\n\nSTRICT = {\"failure_error_function\": None}\n\n"
        "@function_tool(**STRICT)\nasync def a() -> str:\n    return 'a'\n\n"
        "@function_tool(**STRICT)\nasync def b() -> str:\n    return 'b'\n"
    )
    found = [d for d in lint(text, config=Config(root=str(tmp_path), select=("SIB201",)))]
    assert [(d.code, d.loc.line) for d in found] == [("SIB201", 5), ("SIB201", 9)]
    assert all([(r.loc.line, r.message) for r in d.related] == [(3, "the fatal value, in the shared options")]
               for d in found)


@pytest.mark.parametrize("header,decorator", [
    ("from agents import function_tool as ft", "ft"),
    ("import agents", "agents.function_tool"),
    ("from agents.decorators import tool", "tool"),
    ("import agents.tool", "agents.tool.function_tool"),
    ("from agents import tool as tool_module", "tool_module.function_tool"),
])
def test_every_alias_of_function_tool(check, header, decorator):
    check(f"""\
        {header}

        @{decorator}(failure_error_function=None)  # SIB201
        async def a() -> str:
            return "x"
        """)


def test_look_alike_function_tool_of_another_library_is_silent(check):
    check("""\
        import mylib
        from otherlib import function_tool, FunctionTool

        @mylib.function_tool(failure_error_function=None)
        async def a() -> str:
            return "x"

        @function_tool(failure_error_function=None, timeout_behavior="raise_exception")
        async def b() -> str:
            return "x"

        T = FunctionTool("t", "d", {}, b, True, True, None, None, False, 1, "raise_exception")
        """)


def test_as_tool_keyword_and_positional_index_11(check):
    check("""\
        from agents import Agent

        inner = Agent(name="inner")
        a = inner.as_tool("a", "d", failure_error_function=None)  # SIB201
        b = inner.as_tool("b", "d", None, True, None, None, 10, None, None, None, None, None)  # SIB201
        c = inner.as_tool("c", "d", None, True, None, None, 10, None, None, None, None)
        d = inner.clone(name="x").as_tool("d", "d", failure_error_function=None)
        """)


@pytest.mark.parametrize("server", ["MCPServerStdio", "MCPServerSse", "MCPServerStreamableHttp"])
def test_mcp_servers_keyword_and_positional_index_10(check, server):
    check(f"""\
        from agents.mcp import {server}
        from agents.mcp.server import {server} as Aliased

        a = {server}(params={{}}, failure_error_function=None)  # SIB201
        b = Aliased({{}}, True, "n", 5, None, False, 0, 1.0, None, None, None)  # SIB201
        c = {server}({{}}, True, "n", 5, None, False, 0, 1.0, None, None)
        """)


def test_custom_mcp_server_super_init_index_2(check):
    check("""\
        from agents.mcp import MCPServer

        class Mine(MCPServer):
            def __init__(self):
                super().__init__(False, None, None)  # SIB201

        class Fine(MCPServer):
            def __init__(self):
                super().__init__(False, None)

        class NotMcp(dict):
            def __init__(self):
                super().__init__(False, None, None)
        """)


def test_agent_mcp_config_dict_typed_dict_and_bound_name(check):
    check("""\
        from agents import Agent
        from agents.agent import MCPConfig

        a = Agent(name="a", mcp_config={"failure_error_function": None})  # SIB201
        b = Agent(name="b", mcp_config=MCPConfig(failure_error_function=None))  # SIB201
        CFG = {"convert_schemas_to_strict": True, "failure_error_function": None}  # SIB201
        c = Agent(name="c", mcp_config=CFG)
        d = Agent(name="d", mcp_config={"convert_schemas_to_strict": True})
        """)


def test_mcp_util_and_codex_tool(check):
    check("""\
        from agents.mcp import MCPUtil
        from agents.extensions.experimental.codex import codex_tool

        MCPUtil.to_function_tool(t, server, True, agent, None)  # SIB201
        MCPUtil.get_all_function_tools(servers, True, ctx, agent, failure_error_function=None)  # SIB201
        MCPUtil.get_all_function_tools(servers, True, ctx, agent)
        codex = codex_tool(name="codex", failure_error_function=None)  # SIB201
        """)


def test_s10_s13_s14_s15_private_fields_and_setter(check):
    check("""\
        import dataclasses
        import agents.tool
        from agents import function_tool
        from agents.tool import set_function_tool_failure_error_function as set_handler

        @function_tool
        async def a() -> str:
            return "x"

        def good(ctx, e) -> str:
            return str(e)

        a._failure_error_function = None
        a._use_default_failure_error_function = False  # SIB201 (S14)
        A2 = dataclasses.replace(a, _failure_error_function=None, _use_default_failure_error_function=False)  # SIB201 (S10)
        A3 = dataclasses.replace(a, _failure_error_function=good, _use_default_failure_error_function=False)
        agents.tool.set_function_tool_failure_error_function(a, None)  # SIB201 (S15)
        set_handler(a, failure_error_function=None)  # SIB201
        set_handler(a)
        set_handler(a, good)
        setattr(a, "_use_default_failure_error_function", False)  # SIB201
        """)


def test_mutating_the_plain_function_behind_a_call_form_tool_is_silent(check):
    check("""\
        import functools
        from agents import function_tool

        @functools.cache
        async def f() -> str:
            return "x"

        T = function_tool(f)
        f.timeout_behavior = "raise_exception"
        T.timeout_behavior = "raise_exception"  # SIB203
        """)


def test_s13_failure_function_none_alone_is_not_fatal(check):
    check("""\
        from agents import function_tool

        @function_tool
        async def a() -> str:
            return "x"

        a._failure_error_function = None
        """)


def test_look_alike_objects_with_the_same_fields_are_silent(check):
    check("""\
        import dataclasses

        class Job:
            timeout_behavior = "error_as_result"

        job = Job()
        job.timeout_behavior = "raise_exception"
        job._use_default_failure_error_function = False
        job.on_invoke_tool = print
        setattr(job, "timeout_behavior", "raise_exception")
        j2 = dataclasses.replace(job, timeout_behavior="raise_exception")
        """)


# ---- SIB202: handler returns None or raises ------------------------------------------------
def test_s4_s5_s6_handlers_returning_none_or_raising(check):
    check("""\
        from agents import function_tool

        def falls_off(ctx, e):
            print(e)

        async def async_none(ctx, e) -> None:
            return

        def explicit_none(ctx, e):
            if e:
                return "x"
            return None

        def reraises(ctx, e):
            raise e

        def fine(ctx, e) -> str:
            return f"failed: {e}"

        @function_tool(failure_error_function=falls_off)  # SIB202 (S4)
        async def a() -> str:
            return "x"

        @function_tool(failure_error_function=async_none)  # SIB202 (S5)
        async def b() -> str:
            return "x"

        @function_tool(failure_error_function=explicit_none)  # SIB202
        async def c() -> str:
            return "x"

        @function_tool(failure_error_function=reraises)  # SIB202 (S6)
        async def d() -> str:
            return "x"

        @function_tool(failure_error_function=fine)
        async def e() -> str:
            return "x"
        """)


def test_lambda_handlers_and_names_bound_to_lambdas(check):
    check("""\
        from agents import function_tool

        SILENT = lambda ctx, e: None
        LOUD = lambda ctx, e: str(e)

        async def f() -> str:
            return "x"

        a = function_tool(f, failure_error_function=lambda ctx, e: None)  # SIB202
        b = function_tool(f, failure_error_function=lambda ctx, e: str(e))
        c = function_tool(f, failure_error_function=SILENT)  # SIB202
        d = function_tool(f, failure_error_function=LOUD)
        """)


def test_handler_in_another_module_and_unknown_handlers(check):
    check("""\
        from agents import function_tool, default_tool_error_function
        from pkg.handlers import swallow, describe
        import pkg.handlers as h

        async def f() -> str:
            return "x"

        a = function_tool(f, failure_error_function=swallow)  # SIB202
        b = function_tool(f, failure_error_function=describe)
        c = function_tool(f, failure_error_function=h.swallow)  # SIB202
        d = function_tool(f, failure_error_function=default_tool_error_function)
        e = function_tool(f, failure_error_function=unknown_name)
        """, files={"pkg/__init__.py": "", "pkg/handlers.py": """\
        def swallow(ctx, error):
            pass

        def describe(ctx, error) -> str:
            return str(error)
        """})


def test_handler_spellings_on_as_tool_mcp_setter_config_and_private_field(check):
    check("""\
        import dataclasses
        from agents import Agent, function_tool
        from agents.mcp import MCPServerSse
        from agents.tool import set_function_tool_failure_error_function

        def swallow(ctx, e):
            return

        @function_tool
        async def t() -> str:
            return "x"

        inner = Agent(name="inner")
        a = inner.as_tool("a", "d", None, True, None, None, 10, None, None, None, None, swallow)  # SIB202
        s = MCPServerSse(params={}, failure_error_function=swallow)  # SIB202
        g = Agent(name="g", mcp_config={"failure_error_function": swallow})  # SIB202
        set_function_tool_failure_error_function(t, swallow)  # SIB202
        t2 = dataclasses.replace(t, _failure_error_function=swallow, _use_default_failure_error_function=False)  # SIB202
        t3 = dataclasses.replace(t, _failure_error_function=swallow)
        """)


def test_handler_defined_in_the_enclosing_function(check):
    check("""\
        from agents import function_tool

        def swallow(ctx, e) -> str:
            return "module level, fine"

        def build():
            def swallow(ctx, e):
                pass

            @function_tool(failure_error_function=swallow)  # SIB202
            async def inner() -> str:
                return "x"

            return inner
        """)


SIGNALS = {"pkg/__init__.py": "", "pkg/errors.py": """\
    class ControlSignal(Exception):
        pass

    class SuspendRun(ControlSignal):
        pass

    def suspend():
        raise SuspendRun("ask the user")
    """}


def test_a_handler_passing_on_only_some_errors_is_fatal_only_for_tools_raising_them(check, tmp_path):
    """`if isinstance(error, ControlSignal): raise error` (Clause-Craft's shape): the handler raises
    only control signals. A tool that can let one out (directly, through a helper, a subclass or an
    unknown raised value) ends the run; a tool raising only other errors gets its message."""
    text = """\
        from agents import function_tool
        from pkg.errors import ControlSignal, SuspendRun, suspend

        def format_error(ctx, error):
            if isinstance(error, ControlSignal):
                raise error
            return f"failed: {error}"

        def format_library(ctx, error):
            if isinstance(error, (KeyError, ControlSignal)):
                raise error
            return "failed"

        @function_tool(failure_error_function=format_error)
        async def lookup(q: str) -> str:
            if not q:
                raise ValueError("empty query")
            return q

        @function_tool(failure_error_function=format_error)  # SIB202
        async def ask(q: str) -> str:
            suspend()
            return q

        @function_tool(failure_error_function=format_error)  # SIB202
        async def pause(q: str) -> str:
            raise SuspendRun(q)

        @function_tool(failure_error_function=format_error)  # SIB202
        async def passes_on(q: str, error: Exception) -> str:
            raise error

        @function_tool(failure_error_function=format_error)
        async def caught(q: str) -> str:
            try:
                suspend()
            except Exception:
                return "no"
            return q

        @function_tool(failure_error_function=format_library)  # SIB202
        async def lookup_library(q: str) -> str:
            return q
        """
    check(text, files=SIGNALS)
    facts, project = _project(tmp_path, {**SIGNALS, "main.py": text})
    assert {t.binding: bool(fatal_reasons(t, facts, project)) for t in tools_in(facts)} == {
        "lookup": False, "ask": True, "pause": True, "passes_on": True, "caught": False, "lookup_library": True}


def test_sib202_points_at_the_handler(lint, tmp_path):
    text = "from agents import function_tool\n\ndef h(ctx, e):\n    raise e\n\nT = function_tool(f, failure_error_function=h)\n"
    found = [d for d in lint(text, None, Config(root=str(tmp_path), select=("SIB202",)))]
    assert [d.loc.line for d in found] == [6]
    assert "failure handler raises" in found[0].message
    assert [r.loc.line for r in found[0].related] == [4]


# ---- SIB203: timeout raises ----------------------------------------------------------------
def test_s17_s18_s19_s20_s22_timeout_raise_spellings(check):
    check("""\
        import copy
        import dataclasses
        from agents import function_tool

        @function_tool(timeout=0.05, timeout_behavior="raise_exception")  # SIB203 (S17)
        async def a() -> str:
            return "x"

        @function_tool(timeout=0.05)
        async def b() -> str:
            return "x"

        @function_tool
        def sync_tool() -> str:
            return "x"

        b.timeout_behavior = "raise_exception"  # SIB203 (S18)
        sync_tool.timeout_seconds = 0.05
        sync_tool.timeout_behavior = "raise_exception"  # SIB203 (S19, S22)
        B2 = dataclasses.replace(b, timeout_seconds=0.05, timeout_behavior="raise_exception")  # SIB203 (S20)
        B3 = copy.copy(b)
        B3.timeout_behavior = "raise_exception"  # SIB203 (a copy is a tool too)
        b.timeout_behavior = "error_as_result"

        def harden():
            b.timeout_behavior = "raise_exception"  # SIB203

        def unrelated(b):
            b.timeout_behavior = "raise_exception"
        """)


def test_s8_s9_function_tool_positional_and_keyword_timeouts(check):
    check("""\
        from agents import FunctionTool

        async def invoke(ctx, args: str) -> str:
            try:
                return await run(args)
            except Exception as exc:
                return str(exc)

        def th(ctx, e):
            raise RuntimeError("formatter exploded")

        S8 = FunctionTool("t", "d", {}, invoke, True, True, None, None, False, 0.05, "raise_exception")  # SIB203 (S8)
        S9 = FunctionTool(name="t", description="d", params_json_schema={}, on_invoke_tool=invoke, timeout_seconds=0.05)
        K = FunctionTool(name="t", description="d", params_json_schema={}, on_invoke_tool=invoke, timeout_behavior="raise_exception")  # SIB203
        P = FunctionTool("t", "d", {}, invoke, True, True, None, None, False, 0.05, "error_as_result", th)  # SIB203 (index 11)
        """)


def test_s24_s25_timeout_handlers(check):
    check("""\
        from agents import function_tool

        def explodes(ctx, e):
            raise ValueError("timeout formatter exploded")

        def says_none(ctx, e):
            return None

        @function_tool(timeout=0.05, timeout_error_function=explodes)  # SIB203 (S24)
        async def a() -> str:
            return "x"

        @function_tool(timeout=0.05, timeout_error_function=says_none)
        async def b() -> str:
            return "x"

        b.timeout_error_function = explodes  # SIB203
        """)


# ---- SIB204: FunctionTool without a failure handler -----------------------------------------
def test_s7_s16_function_tool_invokers(check):
    check("""\
        import dataclasses
        from agents import FunctionTool, function_tool

        async def raw(ctx, args: str) -> str:
            return await run(args)

        async def guarded(ctx, args: str) -> str:
            try:
                return await run(args)
            except BaseException:
                return "failed"

        async def narrow(ctx, args: str) -> str:
            try:
                return await run(args)
            except ValueError:
                return "failed"

        async def logs_only(ctx, args: str) -> str:
            try:
                return await run(args)
            except Exception:
                log("failed")
                raise

        S7 = FunctionTool(name="t", description="d", params_json_schema={}, on_invoke_tool=raw)  # SIB204 (S7)
        G = FunctionTool(name="t", description="d", params_json_schema={}, on_invoke_tool=guarded)
        N = FunctionTool("t", "d", {}, narrow)  # SIB204
        L = FunctionTool("t", "d", {}, logs_only)  # SIB204
        X = FunctionTool("t", "d", {}, from_elsewhere)  # SIB204

        @function_tool
        async def t() -> str:
            return "x"

        R = FunctionTool("t", "d", {}, t.on_invoke_tool)
        t.on_invoke_tool = raw  # SIB204 (S16)
        t.on_invoke_tool = guarded
        T2 = dataclasses.replace(t, on_invoke_tool=raw)  # SIB204
        """)


def test_an_invoker_that_cannot_raise_needs_no_handler(check):
    check("""\
        import json
        from agents import FunctionTool

        async def stub(ctx, args: str) -> str:
            return json.dumps({"ok": True})

        async def parses(ctx, args: str) -> str:
            return json.dumps({"ok": json.loads(args)["id"]})

        S = FunctionTool("t", "d", {}, stub)
        P = FunctionTool("t", "d", {}, parses)  # SIB204
        """)


def test_invoker_guarded_in_another_module(check):
    check("""\
        from agents import FunctionTool
        from invokers import safe, unsafe

        A = FunctionTool("a", "d", {}, safe)
        B = FunctionTool("b", "d", {}, unsafe)  # SIB204
        """, files={"invokers.py": """\
        async def safe(ctx, args):
            try:
                return await go(args)
            except Exception as exc:
                return f"failed: {exc}"

        async def unsafe(ctx, args):
            return await go(args)
        """})


def test_an_invoker_guarded_after_statements_that_cannot_raise(check):
    """`import time; start = time.time()` before the `try` cannot fail; a parse or a project
    import before it can, so that invoker is still unguarded."""
    check("""\
        import json
        from agents import FunctionTool

        async def timed(ctx, args: str) -> str:
            import math
            import time
            start_time = time.time()
            retries: int = 3
            try:
                return str(math.fsum(json.loads(args)["numbers"]))
            except Exception as e:
                return f"failed: {e}"

        async def parses_first(ctx, args: str) -> str:
            import time
            data = json.loads(args)
            try:
                return str(data["numbers"])
            except Exception as e:
                return f"failed: {e}"

        async def imports_project(ctx, args: str) -> str:
            from calc import engine
            try:
                return engine.run(args)
            except Exception as e:
                return f"failed: {e}"

        T = FunctionTool("t", "d", {}, timed)
        P = FunctionTool("p", "d", {}, parses_first)  # SIB204
        I = FunctionTool("i", "d", {}, imports_project)  # SIB204
        """)


def test_an_invoker_guarded_before_a_return_that_cannot_raise(check):
    """evalW19's freight agent: `try: ... except Exception: return ...` then `return "ok"` or `return
    result`; a call after the `try` can still raise."""
    check("""\
        from agents import FunctionTool

        async def returns_after(ctx, args: str) -> str:
            result = None
            try:
                result = await run(args)
            except Exception as e:
                return f"failed: {e}"
            return result

        async def literal_after(ctx, args: str) -> str:
            try:
                await run(args)
            except Exception as e:
                return f"failed: {e}"
            return "ok"

        async def calls_after(ctx, args: str) -> str:
            try:
                result = await run(args)
            except Exception as e:
                return f"failed: {e}"
            return str(result)

        R = FunctionTool("r", "d", {}, returns_after)
        L = FunctionTool("l", "d", {}, literal_after)
        C = FunctionTool("c", "d", {}, calls_after)  # SIB204
        """)


# ---- fatal_reasons: the API of the group rule ------------------------------------------------
TOOLS = """\
import copy
import dataclasses
from agents import function_tool

@function_tool(failure_error_function=None)
async def fatal() -> str:
    return "x"

@function_tool
async def fine() -> str:
    return "x"

REPLACED = dataclasses.replace(fatal, description="x")
COPIED = copy.copy(fatal)
DEEP = copy.deepcopy(REPLACED)
FINE_COPY = copy.copy(fine)
HARDENED = dataclasses.replace(fine, timeout_behavior="raise_exception")
"""


def test_copies_are_tools_and_keep_the_policy(tmp_path):
    facts, project = _project(tmp_path, {"main.py": TOOLS})
    assert {t.binding: t.kind for t in tools_in(facts)} == {
        "fatal": "function", "fine": "function", "REPLACED": "copy", "COPIED": "copy", "DEEP": "copy",
        "FINE_COPY": "copy", "HARDENED": "copy",
    }
    original = [("SIB201", "failure_error_function=None", 5)]
    assert _summary(fatal_reasons(_tool(facts, "fatal"), facts, project)) == original
    for copy_name in ("REPLACED", "COPIED", "DEEP"):
        reasons = fatal_reasons(_tool(facts, copy_name), facts, project)
        assert _summary(reasons) == original, copy_name
        assert reasons[0].via == "copy of fatal"
    assert fatal_reasons(_tool(facts, "FINE_COPY"), facts, project) == []
    assert fatal_reasons(_tool(facts, "fine"), facts, project) == []
    assert _summary(fatal_reasons(_tool(facts, "HARDENED"), facts, project)) == [
        ("SIB203", 'timeout_behavior="raise_exception"', 17)]
    # No new SIB2xx at the copies: module_reasons lists each cause once, where it is written.
    assert _summary(module_reasons(facts, project)) == [
        ("SIB201", "failure_error_function=None", 5), ("SIB203", 'timeout_behavior="raise_exception"', 17)]


def test_copy_of_an_imported_tool(tmp_path):
    facts, project = _project(tmp_path, {
        "tools.py": TOOLS,
        "main.py": "import copy\nfrom tools import fatal, fine\n\nMINE = copy.copy(fatal)\nOK = copy.copy(fine)\n",
    })
    copies = {t.binding: t for t in copies_in(facts, project)}
    assert set(copies) == {"MINE", "OK"} and copies["MINE"].kind == "copy"
    reasons = fatal_reasons(copies["MINE"], facts, project)
    assert [(CODE[r.cause], r.path.endswith("tools.py"), r.loc.line) for r in reasons] == [("SIB201", True, 5)]
    assert fatal_reasons(copies["OK"], facts, project) == []


def test_mutations_and_setters_count_for_the_tool(tmp_path):
    facts, project = _project(tmp_path, {"main.py": """\
        from agents import function_tool
        from agents.tool import set_function_tool_failure_error_function

        @function_tool(timeout=1)
        async def a() -> str:
            return "x"

        async def f() -> str:
            return "x"

        B = function_tool(f)

        def configure():
            a.timeout_behavior = "raise_exception"
            set_function_tool_failure_error_function(B, None)

        def make():
            local = function_tool(f)
            local._use_default_failure_error_function = False
            return local
        """})
    assert _summary(fatal_reasons(_tool(facts, "a"), facts, project)) == [("SIB203", 'timeout_behavior="raise_exception"', 14)]
    assert _summary(fatal_reasons(_tool(facts, "B"), facts, project)) == [("SIB201", "failure_error_function=None", 15)]
    local = [t for t in tools_in(facts) if t.scope == "make"]
    assert _summary(fatal_reasons(local[0], facts, project)) == [
        ("SIB201", "_use_default_failure_error_function=False", 19)]


def test_importer_mutations_count_when_given(tmp_path):
    _, project = _project(tmp_path, {"tools.py": TOOLS, "main.py": "from tools import fine as f\nf.timeout_behavior = 'raise_exception'\n"})
    main = facts_from_text((tmp_path / "main.py").read_text(), str(tmp_path / "main.py"))
    project.add(main)
    tools_facts = project.module("tools")
    assert tools_facts is not None
    fine = _tool(tools_facts, "fine")
    assert fatal_reasons(fine, tools_facts, project) == []
    reasons = fatal_reasons(fine, tools_facts, project, importer=main)
    assert [(CODE[r.cause], r.path.endswith("main.py"), r.loc.line) for r in reasons] == [("SIB203", True, 2)]
    # The importing module reports it too (SIB203 at the assignment).
    assert [(CODE[r.cause], r.loc.line) for r in module_reasons(main, project)] == [("SIB203", 2)]


def test_function_tool_built_directly_and_as_tool(tmp_path):
    facts, project = _project(tmp_path, {"main.py": """\
        from agents import Agent, FunctionTool

        async def raw(ctx, args):
            return await run(args)

        T = FunctionTool("t", "d", {}, raw, True, True, None, None, False, 0.05, "raise_exception")
        inner = Agent(name="inner")
        A = inner.as_tool("a", "d", failure_error_function=None)
        OK = inner.as_tool("ok", "d")
        """})
    assert _summary(fatal_reasons(_tool(facts, "T"), facts, project)) == [
        ("SIB203", 'timeout_behavior="raise_exception"', 6), ("SIB204", "FunctionTool without a failure handler", 6)]
    assert _tool(facts, "A").kind == "agent"
    assert _summary(fatal_reasons(_tool(facts, "A"), facts, project)) == [("SIB201", "failure_error_function=None", 8)]
    assert fatal_reasons(_tool(facts, "OK"), facts, project) == []


def test_mcp_server_inherits_agent_mcp_config_unless_set_at_server_level(tmp_path):
    facts, project = _project(tmp_path, {"main.py": """\
        from agents import Agent
        from agents.mcp import MCPServerStdio

        def fmt(ctx, e) -> str:
            return str(e)

        plain = MCPServerStdio(params={})
        own = MCPServerStdio(params={}, failure_error_function=fmt)
        fatal = MCPServerStdio(params={}, failure_error_function=None)
        agent = Agent(name="a", mcp_servers=[plain, own, fatal], mcp_config={"failure_error_function": None})
        calm = Agent(name="c", mcp_servers=[plain])
        """})
    agent = next(c for _, c in facts.all_calls() if isinstance(c, Call) and c.loc.line == 10)
    calm = next(c for _, c in facts.all_calls() if isinstance(c, Call) and c.loc.line == 11)
    plain, own, fatal = (_tool(facts, n) for n in ("plain", "own", "fatal"))
    assert plain.kind == "server"
    assert fatal_reasons(plain, facts, project) == []
    inherited = fatal_reasons(plain, facts, project, agent=agent)
    assert _summary(inherited) == [("SIB201", 'mcp_config["failure_error_function"]=None', 10)]
    assert inherited[0].via == "mcp_config of the agent"
    assert fatal_reasons(own, facts, project, agent=agent) == []  # the server-level handler wins
    assert _summary(fatal_reasons(fatal, facts, project, agent=calm)) == [("SIB201", "failure_error_function=None", 9)]
    assert fatal_reasons(plain, facts, project, agent=calm) == []


def test_a_group_of_many_fatal_tools_lists_its_members_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each fatal setting names its tool and group (related locations) from an index made once per
    module: a group of 800 fatal tools went through every member for each setting (seconds)."""
    from siblint.model import groups as groups_mod

    from tests.conftest import lint_files

    n = 60
    text = "from agents import Agent, function_tool\n\n" + "".join(
        f"@function_tool(failure_error_function=None)\nasync def f{i}(x: str) -> str:\n    return ''\n\n" for i in range(n)
    ) + "agent = Agent(name='a', tools=[" + ", ".join(f"f{i}" for i in range(n)) + "])\n"
    listed: list[int] = []
    real = groups_mod.Group.members

    def counting(self: groups_mod.Group) -> list:
        listed.append(1)
        return real(self)

    monkeypatch.setattr(groups_mod.Group, "members", counting)
    found = [d for d in lint_files(tmp_path, {"main.py": text}, "main.py") if d.code == "SIB201"]
    assert len(found) == n
    assert all(any("its other tool calls are cancelled" in r.message for r in d.related) for d in found)
    assert len(listed) < n  # not once (or twice) per setting
