"""pydantic-ai (issue 4): tool spellings, groups (agent tools + toolsets), the default-fatal
policy, serialisers, SIB206 and SIB301.

Measured behaviour behind these expectations: tests/runtime/test_pydantic_ai_runtime.py.
"""

from __future__ import annotations

import pytest
from siblint.settings.config import Config

ALL = ("SIB101", "SIB102", "SIB103", "SIB104", "SIB105", "SIB201", "SIB206", "SIB301")

HEAD = '''\
import asyncio
import httpx
import requests
from pydantic_ai import Agent, FunctionToolset, ModelRetry, RunContext, Tool, ToolFailed
from pydantic_ai.settings import ModelSettings

agent = Agent("test", name="checkout")


def charge_card(amount: int) -> str:
    """Sync: runs in a worker thread. Its own errors reach the model."""
    try:
        requests.post("https://payments.example.com/charges", json={"amount": amount})
    except Exception as exc:
        return f"charge failed: {exc}"
    return "charged"


async def notify(to: str) -> str:
    """Async and awaiting: cancelled with the run."""
    try:
        async with httpx.AsyncClient() as client:
            await client.post("https://notify.example.com", json={"to": to})
    except Exception as exc:
        return f"notify failed: {exc}"
    return "sent"


async def lookup_tax(region: str) -> str:
    raise RuntimeError("tax service down")


async def lookup_rate(region: str) -> str:
    if region not in ("eu", "us"):
        raise ModelRetry(f"unknown region {region}")
    return "0.2"
'''
FIRST = HEAD.count("\n") + 1


@pytest.fixture
def codes(lint, tmp_path):
    def run(text: str, files: dict[str, str] | None = None, select: tuple[str, ...] = ALL) -> list[tuple[str, int]]:
        found = lint(text, files, Config(root=str(tmp_path), select=select))
        return sorted((d.code, d.loc.line) for d in found)

    return run


def sib301(found: list[tuple[str, int]]) -> list[int]:
    return [line for code, line in found if code == "SIB301"]


# ---- tools and groups -----------------------------------------------------------------------------
@pytest.mark.parametrize("deco", ["@agent.tool_plain", "@agent.tool_plain()", "@agent.tool_plain(retries=2)",
                                  "@agent.tool", "@agent.tool(name='pay')"])
def test_agent_method_decorators_are_tools_of_that_agent(codes, deco):
    text = (HEAD + f"\n{deco}\ndef pay(amount: int) -> str:\n"
            "    requests.post('https://p.example.com', json={})\n    return 'ok'\n\n"
            "@agent.tool_plain\nasync def lookup(region: str) -> str:\n    raise KeyError(region)\n")
    # The group is reported at the Agent(...) call; the sync tool is SIB101 at its def.
    assert sib301(codes(text)) == [7]
    assert ("SIB101", FIRST + 2) in codes(text)


def test_generic_agent_class_and_call_form_registration(codes):
    text = HEAD + ("\nshop = Agent[None, str]('test')\nshop.tool_plain(charge_card)\nshop.tool_plain(lookup_tax)\n")
    assert sib301(codes(text)) == [FIRST + 1]


@pytest.mark.parametrize("tools", [
    "[charge_card, lookup_tax]",
    "[Tool(charge_card), Tool(lookup_tax, name='tax')]",
    "TOOLS",
])
def test_agent_tools_list_reported_at_the_tools_argument(codes, tools):
    text = HEAD + f"TOOLS = [charge_card, lookup_tax]\nshop = Agent('test', tools={tools})\n"
    assert sib301(codes(text)) == [FIRST + 1]


def test_tools_of_one_agent_are_not_another_agents(codes):
    text = HEAD + ("\nother = Agent('test')\n\n@other.tool_plain\nasync def boom() -> str:\n    raise KeyError('x')\n\n"
                   "shop = Agent('test', tools=[charge_card])\n")
    assert sib301(codes(text)) == []


def test_function_toolset_joins_the_agent_group(codes):
    text = HEAD + ("\nts = FunctionToolset([charge_card])\n\n@ts.tool_plain\nasync def boom() -> str:\n"
                   "    raise ValueError('x')\n\nshop = Agent('test', toolsets=[ts])\n")
    assert sib301(codes(text)) == [FIRST + 7]
    text = HEAD + "shop = Agent('test', tools=[charge_card], toolsets=[FunctionToolset(tools=[lookup_tax])])\n"
    assert sib301(codes(text)) == [FIRST]


TOOLSET_CLASS = """\
from pathlib import Path
from typing import Any
from pydantic_ai import Agent
from pydantic_ai.toolsets import {base}


class Files({base}{generic}):
    async def call_tool(self, name: str, tool_args: dict, ctx: Any, tool: Any) -> Any:
        Path(tool_args["path"]).write_text(tool_args["content"])
        return "written"


agent = Agent("test", toolsets=[Files()])
"""


@pytest.mark.parametrize("base, generic, found", [("AbstractToolset", "[Any]", [("SIB103", 8)]),
                                                  ("AbstractToolset", "", [("SIB103", 8)]),
                                                  ("FunctionToolset", "", [])])
def test_a_toolset_class_of_its_own_runs_call_tool(codes, base, generic, found):
    # The agent awaits `call_tool` for each call of the toolset's tools: a blocking write there holds the loop.
    assert codes(TOOLSET_CLASS.format(base=base, generic=generic)) == found


def test_toolset_and_tools_from_other_modules(codes):
    tools = HEAD + "\nts = FunctionToolset()\n\n@ts.tool_plain\nasync def boom() -> str:\n    raise ValueError('x')\n"
    main = ("from pydantic_ai import Agent\nfrom .tools import charge_card, ts\n\n"
            "shop = Agent('test', tools=[charge_card], toolsets=[ts])\n")
    assert sib301(codes(main, {"tools.py": tools, "__init__.py": ""})) == [4]


def test_look_alikes_are_not_groups(codes):
    text = ("import requests\nfrom mylib import Agent\n\nagent = Agent('x')\n\n@agent.tool_plain\ndef pay() -> str:\n"
            "    requests.post('https://p.example.com', json={})\n    return 'ok'\n\n@agent.tool_plain\n"
            "async def boom() -> str:\n    raise KeyError('x')\n")
    assert codes(text) == []
    fastmcp = text.replace("from mylib import Agent", "from fastmcp import FastMCP as Agent")
    assert codes(fastmcp) == []


# ---- what can fail fatally ------------------------------------------------------------------------
def test_sync_victim_beside_a_raising_sibling(codes, lint, tmp_path):
    text = HEAD + "shop = Agent('test', tools=[charge_card, lookup_tax])\n"
    assert sib301(codes(text)) == [FIRST]
    [d] = lint(text, None, Config(root=str(tmp_path), select=("SIB301",)))
    assert "charge_card (sync, POST" in d.message and "lookup_tax's fatal failure (raises RuntimeError)" in d.message
    assert "ModelRetry" in d.message and "sequential=True" in d.message


@pytest.mark.parametrize("body", [
    "raise ModelRetry('again')",
    "raise ToolFailed('no')",
    "raise pydantic_ai.exceptions.CallDeferred()",
    "raise Retry('again')",
    "return str(1 + 2)",
    "try:\n        return requests.get('https://rates.example.com').text\n    except Exception as exc:\n        raise ModelRetry(str(exc))",
    "try:\n        await asyncio.sleep(1)\n    except asyncio.CancelledError:\n        raise",
])
def test_model_visible_exceptions_and_pure_code_are_not_fatal(codes, body):
    text = HEAD + ("import pydantic_ai.exceptions\n\nclass Retry(ModelRetry):\n    pass\n\n"
                   f"async def safe(region: str) -> str:\n    {body}\n\n"
                   "shop = Agent('test', tools=[charge_card, safe])\n")
    assert sib301(codes(text)) == []


@pytest.mark.parametrize("body", [
    "raise KeyError(region)",
    "return requests.get('https://rates.example.com').text",
    "return open('/etc/rates').read()",
    "resp = await client.get('https://rates.example.com')\n    resp.raise_for_status()\n    return resp.text",
    "return fetch_rate(region)",
    "try:\n        return int(region)\n    except ValueError:\n        raise",
])
def test_raises_and_unguarded_io_are_fatal(codes, body):
    text = HEAD + ("\nclient = httpx.AsyncClient()\n\ndef fetch_rate(region):\n"
                   "    return requests.get(f'https://rates.example.com/{region}').text\n\n"
                   f"async def risky(region: str) -> str:\n    {body}\n\n"
                   "shop = Agent('test', tools=[charge_card, risky])\n")
    assert sib301(codes(text)), body


def test_awaiting_async_victim_is_cancelled(codes):
    assert sib301(codes(HEAD + "shop = Agent('test', tools=[notify, lookup_tax])\n")) == []


def test_a_sync_tool_whose_own_io_can_raise_is_its_own_sibling(codes):
    text = HEAD + ("\ndef pay(amount: int) -> str:\n    requests.post('https://p.example.com', json={})\n    return 'ok'\n\n"
                   "shop = Agent('test', tools=[pay, lookup_rate])\n")
    assert sib301(codes(text)) == [text.count("\n")]


# ---- serialisers and hints ----------------------------------------------------------------------
@pytest.mark.parametrize("tools", [
    "[Tool(charge_card, sequential=True), lookup_tax]",
    "[charge_card, Tool(lookup_tax, sequential=True)]",
])
def test_sequential_tools_neither_orphan_nor_are_orphaned(codes, tools):
    assert sib301(codes(HEAD + f"shop = Agent('test', tools={tools})\n")) == []
    assert sib301(codes(HEAD + "shop = Agent('test', tools=[Tool(charge_card, sequential=False), lookup_tax])\n"))


def test_sequential_decorator(codes):
    text = HEAD + ("\n@agent.tool_plain(sequential=True)\ndef pay(amount: int) -> str:\n"
                   "    requests.post('https://p.example.com', json={})\n    return 'ok'\n\nagent.tool_plain(lookup_tax)\n")
    assert sib301(codes(text)) == []


@pytest.mark.parametrize("run,reported", [
    ("with Agent.parallel_tool_call_execution_mode('sequential'):\n        await shop.run('hi')", False),
    ("with shop.parallel_tool_call_execution_mode('sequential'):\n        shop.run_sync('hi')", False),
    ("with Agent.parallel_tool_call_execution_mode('parallel'):\n        await shop.run('hi')", True),
    ("await shop.run('hi')", True),
    ("with Agent.parallel_tool_call_execution_mode('sequential'):\n        await shop.run('hi')\n    await shop.run('again')", True),
])
def test_sequential_execution_mode_around_every_run(codes, run, reported):
    text = HEAD + f"shop = Agent('test', tools=[charge_card, lookup_tax])\n\nasync def main():\n    {run}\n"
    assert bool(sib301(codes(text))) is reported


def test_parallel_tool_calls_false_is_only_a_hint(lint, tmp_path):
    text = HEAD + ("shop = Agent('test', tools=[charge_card, lookup_tax], "
                   "model_settings=ModelSettings(parallel_tool_calls=False))\n")
    [d] = lint(text, None, Config(root=str(tmp_path), select=("SIB301",)))
    assert "only a provider hint" in d.message


# ---- SIB206 and SIB201 ----------------------------------------------------------------------------
def test_sib206_at_the_agent_call(codes, lint, tmp_path):
    text = HEAD + "shop = Agent('test', tools=[lookup_rate, lookup_tax])\n"
    assert codes(text, select=("SIB206",)) == [("SIB206", FIRST)]
    assert "SIB206" not in [d.code for d in lint(text, None, Config(root=str(tmp_path)))]
    assert codes(HEAD + "shop = Agent('test', tools=[lookup_rate, charge_card])\n", select=("SIB206",)) == []


def test_no_sib201_spelling_in_pydantic_ai(codes):
    assert codes(HEAD + "shop = Agent('test', tools=[lookup_rate], tool_timeout=1)\n", select=("SIB201", "SIB203")) == []


def test_decorator_on_a_parameter_annotated_as_an_agent(codes):
    text = ("import requests\nfrom pydantic_ai import Agent\n\n\ndef register(agent: Agent[None, str]) -> None:\n"
            "    @agent.tool_plain\n    def pay(amount: int) -> str:\n"
            "        requests.post('https://p.example.com', json={})\n        return 'ok'\n")
    assert codes(text) == [("SIB101", 7)]
    assert codes(text.replace("agent: Agent[None, str]", "agent")) == []
