"""google-adk (issue 13): tool spellings, groups, the default-fatal policy and its callbacks and
plugins, the run-config thread pool, SIB103 for inline sync tools, SIB202, SIB206 and SIB301.

Measured behaviour behind these expectations: tests/runtime/test_google_adk_runtime.py.
"""

from __future__ import annotations

import os

import pytest
from siblint.settings.config import Config
from support import code_lines

ALL = ("SIB101", "SIB102", "SIB103", "SIB104", "SIB105", "SIB201", "SIB202", "SIB206", "SIB301")

HEAD = '''\
import asyncio
import httpx
import requests
from google.adk.agents import Agent, LlmAgent, RunConfig
from google.adk.agents.run_config import ToolThreadPoolConfig
from google.adk.runners import InMemoryRunner, Runner
from google.adk.tools import FunctionTool, LongRunningFunctionTool


def charge_card(amount: int) -> dict:
    """Sync: inline on the loop, or in a worker thread under the tool thread pool."""
    try:
        requests.post("https://payments.example.com/charges", json={"amount": amount})
    except Exception as exc:
        return {"error": str(exc)}
    return {"ok": True}


async def refund(amount: int) -> dict:
    """Hands the effect to a thread: lands after the raise."""
    try:
        await asyncio.to_thread(requests.post, "https://payments.example.com/refunds", json={"amount": amount})
    except Exception as exc:
        return {"error": str(exc)}
    return {"ok": True}


async def notify(to: str) -> dict:
    """Async and awaiting: cancelled with the run."""
    try:
        async with httpx.AsyncClient() as client:
            await client.post("https://notify.example.com", json={"to": to})
    except Exception as exc:
        return {"error": str(exc)}
    return {"ok": True}


async def lookup_tax(region: str) -> dict:
    raise RuntimeError("tax service down")


async def lookup_rate(region: str) -> dict:
    return {"rate": 0.2}
'''
FIRST = HEAD.count("\n") + 1
POOL = "RunConfig(tool_thread_pool_config=ToolThreadPoolConfig(max_workers=4))"
RUN = "\nasync def main(runner):\n    async for _ in runner.run_async(user_id='u', session_id='s', run_config={cfg}):\n        pass\n"


@pytest.fixture
def codes(lint, tmp_path):
    return code_lines(lint, tmp_path, ALL)


def sib(code: str, found: list[tuple[str, int]]) -> list[int]:
    return [line for c, line in found if c == code]


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


# ---- tools and groups -----------------------------------------------------------------------------
@pytest.mark.parametrize("maker", ["Agent", "LlmAgent"])
@pytest.mark.parametrize("tools", [
    "[refund, lookup_tax]",
    "[FunctionTool(refund), FunctionTool(func=lookup_tax)]",
    "[LongRunningFunctionTool(refund), lookup_tax]",
    "TOOLS",
])
def test_agent_tools_in_every_spelling(codes, maker, tools):
    text = HEAD + f"TOOLS = [refund, lookup_tax]\nshop = {maker}(name='shop', model='m', tools={tools})\n"
    assert sib("SIB301", codes(text)) == [FIRST + 1]
    assert ("SIB102", line_of(text, "async def refund")) in codes(text)


@pytest.mark.parametrize("header", [
    "from google.adk import Agent",
    "from google.adk.agents.llm_agent import Agent",
    "from google.adk.agents.llm_agent import LlmAgent as Agent",
    "import google.adk.agents as agents\nAgent = agents.Agent",
])
def test_import_paths_of_the_agent(codes, header):
    text = HEAD + header + "\nshop = Agent(name='shop', tools=[refund, lookup_tax])\n"
    assert len(sib("SIB301", codes(text))) == 1


def test_decorator_form_and_import_path_of_function_tool(codes):
    text = HEAD + ("from google.adk.tools.function_tool import FunctionTool as FT\n\n@FT\nasync def pay(amount: int) -> dict:\n"
                   "    await asyncio.shield(asyncio.to_thread(requests.post, 'https://p.example.com', json={}))\n"
                   "    return {}\n\nshop = Agent(name='shop', tools=[pay, lookup_tax])\n")
    assert sib("SIB301", codes(text)) == [line_of(text, "shop = Agent")]


def test_base_tool_subclass_run_async_is_a_tool(codes):
    text = HEAD + ('''
from google.adk.tools.base_tool import BaseTool


class Charge(BaseTool):
    async def run_async(self, *, args, tool_context):
        await asyncio.to_thread(requests.post, "https://p.example.com", json=args)
        return {"ok": True}


shop = Agent(name="shop", tools=[Charge(name="charge", description="d"), lookup_tax])
''')
    found = codes(text)
    assert ("SIB102", line_of(text, "async def run_async")) in found
    assert sib("SIB301", found) == [line_of(text, "shop = Agent")]


def test_agent_tool_and_mcp_toolset_are_members_without_a_body(codes):
    text = HEAD + ("from google.adk.tools import AgentTool\nfrom google.adk.tools.mcp_tool import McpToolset\n\n"
                   "helper = Agent(name='helper')\n"
                   "shop = Agent(name='shop', tools=[AgentTool(agent=helper), McpToolset(connection_params=p), lookup_tax])\n")
    assert sib("SIB301", codes(text)) == []


def test_tools_and_agent_in_other_modules(codes):
    agent = "from google.adk.agents import Agent\nfrom .tools import refund, lookup_tax\n\nroot_agent = Agent(name='a', tools=[refund, lookup_tax])\n"
    main = "from google.adk.runners import Runner\nfrom .agent import root_agent\n\nrunner = Runner(agent=root_agent, app_name='a')\n"
    files = {"tools.py": HEAD, "agent.py": agent, "__init__.py": ""}
    assert sib("SIB301", codes(agent, {**files})) == [4]
    assert codes(main, files) == []


def test_helper_in_another_module_carries_the_side_effect(codes):
    helper = "import requests\n\ndef post_refund(n):\n    requests.post('https://p.example.com', json={'n': n})\n"
    text = HEAD + ("from .billing import post_refund\n\nasync def pay(n: int) -> dict:\n"
                   "    await asyncio.to_thread(post_refund, n)\n    return {}\n\nshop = Agent(name='shop', tools=[pay, lookup_tax])\n")
    found = codes(text, {"billing.py": helper, "__init__.py": ""})
    assert ("SIB102", line_of(text, "async def pay")) in found
    assert sib("SIB301", found) == [line_of(text, "shop = Agent")]


def test_name_traps(codes):
    # Another library's Agent, and a same-named tool whose body is a stub.
    other = HEAD.replace("from google.adk.agents import Agent, LlmAgent, RunConfig", "from mylib import Agent\nfrom google.adk.agents import LlmAgent, RunConfig")
    assert sib("SIB301", codes(other + "shop = Agent(name='s', tools=[refund, lookup_tax])\n")) == []
    stub = HEAD + ("async def send_refund(amount: int) -> dict:\n    await asyncio.sleep(0.1)\n    return {'status': 'refunded'}\n\n"
                   "shop = Agent(name='s', tools=[send_refund, lookup_tax])\n")
    assert sib("SIB301", codes(stub)) == []
    genai = ("import requests\nfrom google.genai import types\n\ndef charge(n: int) -> dict:\n"
             "    requests.post('https://p.example.com', json={})\n    return {}\n\ncfg = types.Tool(function_declarations=[charge])\n")
    assert codes(genai) == []


# ---- inline sync tools and the tool thread pool ----------------------------------------------------
def test_inline_sync_tool_is_sib103_and_kept(codes):
    text = HEAD + "shop = Agent(name='shop', tools=[charge_card, lookup_tax])\n"
    found = codes(text)
    assert ("SIB103", line_of(text, "def charge_card")) in found
    assert sib("SIB101", found) == []
    # Inline, it finishes before the raise and its response is kept: not a SIB301 victim.
    assert sib("SIB301", found) == []


def test_read_only_sync_tool_is_clean(codes):
    text = HEAD + ("def rates(region: str) -> dict:\n    return requests.get(f'https://rates.example.com/{region}').json()\n\n"
                   "shop = Agent(name='shop', tools=[rates, lookup_tax])\nrunner = Runner(agent=shop, app_name='a')\n"
                   + RUN.format(cfg=POOL))
    assert sib("SIB101", codes(text)) == [] and sib("SIB301", codes(text)) == []


@pytest.mark.parametrize("wrap", [
    "runner = InMemoryRunner(agent=shop, app_name='a')",
    "runner = InMemoryRunner(shop)",
    "runner = Runner(agent=shop, app_name='a', session_service=s)",
    "from google.adk.apps import App\napp = App(name='a', root_agent=shop)\nrunner = Runner(app=app, session_service=s)",
])
@pytest.mark.parametrize("cfg", [POOL, "CFG"])
def test_tool_thread_pool_moves_sync_tools_into_threads(codes, wrap, cfg):
    text = HEAD + (f"CFG = {POOL}\nshop = Agent(name='shop', tools=[charge_card, lookup_tax])\n{wrap}\n"
                   + RUN.format(cfg=cfg))
    found = codes(text)
    assert ("SIB101", line_of(text, "def charge_card")) in found
    assert sib("SIB103", found) == []
    assert sib("SIB301", found) == [line_of(text, "shop = Agent")]


@pytest.mark.parametrize("cfg", ["RunConfig()", "RunConfig(tool_thread_pool_config=None)", "None"])
def test_no_pool_keeps_sync_tools_inline(codes, cfg):
    text = HEAD + ("shop = Agent(name='shop', tools=[charge_card, lookup_tax])\nrunner = InMemoryRunner(agent=shop)\n"
                   + RUN.format(cfg=cfg))
    assert sib("SIB101", codes(text)) == [] and sib("SIB301", codes(text)) == []


def test_one_pool_worker_serialises_sync_tools_only(codes):
    one = "RunConfig(tool_thread_pool_config=ToolThreadPoolConfig(max_workers=1))"
    sync_fatal = HEAD + ("def lookup_sync(region: str) -> dict:\n    raise RuntimeError('down')\n\n"
                         "shop = Agent(name='shop', tools=[charge_card, lookup_sync])\nrunner = InMemoryRunner(agent=shop)\n"
                         + RUN.format(cfg=one))
    assert sib("SIB301", codes(sync_fatal)) == []
    # An async tool still runs beside the one pool thread: its failure orphans the sync tool.
    async_fatal = HEAD + ("shop = Agent(name='shop', tools=[charge_card, lookup_tax])\nrunner = InMemoryRunner(agent=shop)\n"
                          + RUN.format(cfg=one))
    assert sib("SIB301", codes(async_fatal)) == [line_of(async_fatal, "shop = Agent")]


def test_blocking_and_swallowing_async_tools_are_kept(codes):
    text = HEAD + ('''
async def pay_blocking(n: int) -> dict:
    requests.post("https://p.example.com", json={})
    return {}


async def pay_swallowing(n: int) -> dict:
    try:
        await asyncio.sleep(1)
    except asyncio.CancelledError:
        pass
    async with httpx.AsyncClient() as c:
        await c.post("https://p.example.com", json={})
    return {}


shop = Agent(name="shop", tools=[pay_blocking, pay_swallowing, lookup_tax])
''')
    found = codes(text)
    assert ("SIB103", line_of(text, "async def pay_blocking")) in found
    assert ("SIB104", line_of(text, "async def pay_swallowing")) in found
    assert sib("SIB301", found) == []


# ---- what is fatal ----------------------------------------------------------------------------------
def test_default_fatal_group_is_sib206(codes):
    text = HEAD + "shop = Agent(name='shop', tools=[refund, lookup_tax])\n"
    assert sib("SIB206", codes(text)) == [FIRST]
    assert sib("SIB206", codes(HEAD + "shop = Agent(name='shop', tools=[refund, lookup_rate])\n")) == []


@pytest.mark.parametrize("callback", [
    "def on_err(tool, args, tool_context, error):\n    return {'error': str(error)}\n",
    "async def on_err(tool, args, tool_context, error) -> dict:\n    return {'error': str(error)}\n",
    "on_err = lambda tool, args, tool_context, error: {'error': str(error)}\n",
])
def test_error_callback_returning_a_dict_makes_errors_visible(codes, callback):
    text = HEAD + callback + "shop = Agent(name='shop', tools=[refund, lookup_tax], on_tool_error_callback=on_err)\n"
    found = codes(text)
    assert sib("SIB301", found) == [] and sib("SIB206", found) == [] and sib("SIB202", found) == []


def test_error_callback_list_covers_when_one_returns(codes):
    text = HEAD + ("def cb_none(tool, args, tool_context, error):\n    return None\n\n"
                   "def cb_dict(tool, args, tool_context, error):\n    return {'error': str(error)}\n\n"
                   "shop = Agent(name='shop', tools=[refund, lookup_tax], on_tool_error_callback=[cb_none, cb_dict])\n")
    assert sib("SIB301", codes(text)) == []
    only_none = text.replace("[cb_none, cb_dict]", "[cb_none]")
    assert sib("SIB301", codes(only_none)) == [line_of(only_none, "shop = Agent")]


@pytest.mark.parametrize("body", [
    "    print(error)\n",
    "    if isinstance(error, KeyError):\n        return {'error': 'bad key'}\n",
    "    raise RuntimeError(str(error))\n",
])
def test_error_callback_that_can_return_none_or_raises_is_sib202(codes, body):
    text = HEAD + ("def on_err(tool, args, tool_context, error):\n" + body + "\n"
                   "shop = Agent(name='shop', tools=[refund, lookup_tax], on_tool_error_callback=on_err)\n")
    found = codes(text)
    assert sib("SIB202", found) == [line_of(text, "shop = Agent")]
    assert sib("SIB301", found) == [line_of(text, "shop = Agent")]


def test_error_callback_in_another_module(codes):
    cbs = "def on_err(tool, args, tool_context, error):\n    print(error)\n"
    text = HEAD + ("from .callbacks import on_err\n\n"
                   "shop = Agent(name='shop', tools=[refund, lookup_tax], on_tool_error_callback=on_err)\n")
    assert sib("SIB202", codes(text, {"callbacks.py": cbs, "__init__.py": ""})) == [line_of(text, "shop = Agent")]


@pytest.mark.parametrize("keyword", ["before_tool_callback", "after_tool_callback"])
def test_raising_before_or_after_tool_callback_is_sib202(codes, keyword):
    text = HEAD + ("def guard(tool, args, tool_context, *rest):\n    if tool.name == 'refund':\n        raise PermissionError('no')\n\n"
                   f"shop = Agent(name='shop', tools=[refund, lookup_rate], {keyword}=guard)\n")
    assert sib("SIB202", codes(text)) == [line_of(text, "shop = Agent")]
    # It raises whichever member it runs for: every call is fatal, and refund's thread outlives it.
    assert sib("SIB301", codes(text)) == [line_of(text, "shop = Agent")]
    returning = text.replace("raise PermissionError('no')", "return {'error': 'not allowed'}")
    assert sib("SIB202", codes(returning)) == [] and sib("SIB301", codes(returning)) == []


def test_raising_plugin_before_tool_callback_makes_every_call_fatal(codes):
    text = HEAD + ("from google.adk.plugins import BasePlugin\n\n\nclass Guard(BasePlugin):\n"
                   "    async def before_tool_callback(self, *, tool, tool_args, tool_context):\n"
                   "        raise PermissionError('read-only mode')\n\n\n"
                   "shop = Agent(name='shop', tools=[refund, lookup_rate])\n"
                   "runner = InMemoryRunner(agent=shop, plugins=[Guard(name='g')])\n")
    found = codes(text)
    assert sib("SIB202", found) == [line_of(text, "runner = InMemoryRunner")]
    assert sib("SIB301", found) == [line_of(text, "shop = Agent")]


PLUGIN = '''
from google.adk.plugins.base_plugin import BasePlugin


class ErrorPlugin(BasePlugin):
    async def on_tool_error_callback(self, *, tool, tool_args, tool_context, error):
        {body}
'''


@pytest.mark.parametrize("wrap", [
    "runner = InMemoryRunner(agent=shop, plugins=[ErrorPlugin(name='errors')])",
    "runner = Runner(agent=shop, app_name='a', session_service=s, plugins=[ErrorPlugin(name='errors')])",
    "from google.adk.apps import App\napp = App(name='a', root_agent=shop, plugins=[ErrorPlugin(name='errors')])\n"
    "runner = Runner(app=app, session_service=s)",
])
def test_plugin_error_callback_makes_errors_visible(codes, wrap):
    text = HEAD + PLUGIN.format(body="return {'error': str(error)}") + (
        f"\nshop = Agent(name='shop', tools=[refund, lookup_tax])\n{wrap}\n")
    found = codes(text)
    assert sib("SIB301", found) == [] and sib("SIB206", found) == [] and sib("SIB202", found) == []


def test_plugin_error_callback_returning_none_is_sib202(codes):
    text = HEAD + PLUGIN.format(body="print(error)") + (
        "\nshop = Agent(name='shop', tools=[refund, lookup_tax])\n"
        "runner = InMemoryRunner(agent=shop, plugins=[ErrorPlugin(name='errors')])\n")
    found = codes(text)
    assert sib("SIB202", found) == [line_of(text, "runner = InMemoryRunner")]
    assert sib("SIB301", found) == [line_of(text, "shop = Agent")]


def test_plugin_in_another_module(codes):
    plugins = PLUGIN.format(body="return {'error': str(error)}")
    text = HEAD + ("from .plugins import ErrorPlugin\n\nshop = Agent(name='shop', tools=[refund, lookup_tax])\n"
                   "runner = InMemoryRunner(agent=shop, plugins=[ErrorPlugin(name='e')])\n")
    assert sib("SIB301", codes(text, {"plugins.py": plugins, "__init__.py": ""})) == []


def test_fixed_twin_async_awaiting_victim(codes):
    text = HEAD + "shop = Agent(name='shop', tools=[notify, lookup_tax])\n"
    assert sib("SIB301", codes(text)) == []


def test_sib301_message_names_the_adk_fix(lint, tmp_path):
    text = HEAD + "shop = Agent(name='shop', tools=[refund, lookup_tax])\n"
    [d] = lint(text, None, Config(root=str(tmp_path), select=("SIB301",)))
    assert "refund (in a worker thread, POST" in d.message and "lookup_tax's fatal failure (raises RuntimeError)" in d.message
    assert "on_tool_error_callback" in d.message


# ---- a tools module that never names ADK ---------------------------------------------------------
TOOLS_MODULE = '''\
import requests
from google.cloud import bigquery


def charge(n: int) -> dict:
    requests.post("https://p.example.com", json={"n": n})
    return {}


def run_bqml(bqml_code: str) -> str:
    job = bigquery.Client().query(bqml_code)
    return str(job.result())


def top_rows(table: str) -> str:
    return str(bigquery.Client().query(f"SELECT * FROM {table} LIMIT 5").result())


def unlisted(n: int) -> dict:
    requests.post("https://p.example.com", json={"n": n})
    return {}
'''


def _tree(tmp_path, agent: str) -> list[str]:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "tools.py").write_text(TOOLS_MODULE)
    (pkg / "agent.py").write_text(agent)
    return [str(pkg / n) for n in ("__init__.py", "tools.py", "agent.py")]


@pytest.mark.parametrize("imports", ["from .tools import charge, run_bqml, top_rows",
                                     "from pkg.tools import charge, run_bqml, top_rows"])
def test_plain_tools_of_a_module_that_imports_no_framework(tmp_path, imports):
    from siblint.run import runner

    agent = f"from google.adk.agents import Agent\n{imports}\n\nroot_agent = Agent(name='a', tools=[charge, run_bqml, top_rows])\n"
    result = runner.run(_tree(tmp_path, agent), Config(root=str(tmp_path), select=ALL))
    found = sorted((os.path.basename(d.path), d.code, d.loc.line) for d in result.diagnostics)
    # Inline sync tools (SIB103); a BigQuery job whose SQL is model-written may write; a readable
    # SELECT does not; a function no agent lists is not a tool; the agent mixes nothing (no SIB301).
    assert found == [("agent.py", "SIB206", 4), ("tools.py", "SIB103", 5), ("tools.py", "SIB103", 10)], found


def test_module_imported_by_no_agent_is_not_analysed(tmp_path):
    from siblint.run import runner

    result = runner.run(_tree(tmp_path, "import os\n"), Config(root=str(tmp_path), select=ALL))
    assert result.files_passed == 0 and result.diagnostics == []


def test_inline_sync_tool_waiting_on_its_own_threads_is_kept(codes):
    text = HEAD + ('''
import concurrent.futures


def _post(n):
    requests.post("https://p.example.com", json={"n": n})


def pay_all(n: int) -> dict:
    with concurrent.futures.ThreadPoolExecutor() as pool:
        pool.submit(_post, n)
    return {}


shop = Agent(name="shop", tools=[pay_all, lookup_tax])
''')
    found = codes(text)
    # The tool holds the loop until its threads are done: blocking (SIB103), kept, not SIB102/SIB301.
    assert ("SIB103", line_of(text, "def pay_all")) in found
    assert sib("SIB102", found) == [] and sib("SIB301", found) == []
