"""llama-index (issue 13): tool spellings (plain functions, FunctionTool, BaseTool / AsyncBaseTool
subclasses), groups (FunctionAgent, ReActAgent, AgentWorkflow and its from_tools_or_functions), the
run deadline as the one fatal path (SIB301, never SIB203), and the allow_parallel_tool_calls hint.

Measured behaviour behind these expectations: tests/runtime/test_llama_index_runtime.py.
"""

from __future__ import annotations

import pytest
from siblint.settings.config import Config
from support import code_lines

ALL = ("SIB101", "SIB102", "SIB103", "SIB104", "SIB105", "SIB201", "SIB202", "SIB203", "SIB204", "SIB206", "SIB301")

HEAD = '''\
import asyncio
import httpx
import requests
from llama_index.core.agent.workflow import AgentWorkflow, FunctionAgent, ReActAgent
from llama_index.core.tools import AsyncBaseTool, BaseTool, FunctionTool, ToolMetadata, ToolOutput


def charge_card(amount: int) -> str:
    """Sync: runs in loop.run_in_executor."""
    requests.post("https://payments.example.com/charges", json={"amount": amount})
    return "charged"


async def notify(to: str) -> str:
    """Async and awaiting: cancelled with the run."""
    async with httpx.AsyncClient() as client:
        await client.post("https://notify.example.com", json={"to": to})
    return "sent"


async def lookup_rate(region: str) -> str:
    raise RuntimeError("rate service down")  # reaches the model as an error result
'''
FIRST = HEAD.count("\n") + 1


@pytest.fixture
def codes(lint, tmp_path):
    return code_lines(lint, tmp_path, ALL)


def sib301(found: list[tuple[str, int]]) -> list[int]:
    return [line for code, line in found if code == "SIB301"]


# ---- groups and the deadline ----------------------------------------------------------------------
@pytest.mark.parametrize("timeout", ["timeout=120", "timeout=2.5", "timeout=LIMIT", "timeout=settings.limit",
                                     "timeout=timedelta(minutes=2).total_seconds()"])
def test_a_deadline_on_the_agent_makes_the_sync_member_sib301(codes, timeout):
    text = HEAD + ("from datetime import timedelta\nLIMIT = 30\n"
                   f"agent = FunctionAgent(name='checkout', tools=[charge_card, lookup_rate], {timeout})\n")
    assert sib301(codes(text)) == [FIRST + 2]
    assert ("SIB101", 8) in codes(text)


@pytest.mark.parametrize("timeout", ["", ", timeout=None", ", timeout=NONE"])
def test_no_deadline_no_sib301_and_errors_are_never_fatal(codes, timeout):
    # Tool exceptions always reach the model: lookup_rate's RuntimeError is not a fatal failure.
    text = HEAD + f"NONE = None\nagent = FunctionAgent(name='checkout', tools=[charge_card, lookup_rate]{timeout})\n"
    found = codes(text)
    assert sib301(found) == [] and not [c for c, _ in found if c.startswith("SIB2")], found
    assert ("SIB101", 8) in found  # a warning: harmful only beside a fatal failure


def test_a_lone_unstoppable_member_is_enough_under_a_deadline(codes, lint, tmp_path):
    # Its own slow call is the one the deadline catches: no sibling is needed.
    text = HEAD + "agent = FunctionAgent(tools=[charge_card], timeout=60)\n"
    assert sib301(codes(text)) == [FIRST]
    [d] = lint(text, None, Config(root=str(tmp_path), select=("SIB301",)))
    assert "charge_card (sync, POST" in d.message and "the run's deadline (timeout=60)" in d.message
    assert "async and awaiting" in d.message and "timeout=None" in d.message
    assert any("timeout=60: the run raises" in r.message for r in d.related)


def test_awaiting_members_are_cancelled_by_the_deadline(codes):
    text = HEAD + "agent = FunctionAgent(tools=[notify, lookup_rate], timeout=60)\n"
    assert codes(text) == []


@pytest.mark.parametrize("tools", [
    "[FunctionTool.from_defaults(charge_card), lookup_rate]",
    "[FunctionTool.from_defaults(fn=charge_card, name='charge'), lookup_rate]",
    "[FunctionTool.from_defaults(async_fn=notify, fn=charge_card), lookup_rate]",
    "[FunctionTool(charge_card, ToolMetadata(name='charge', description='d')), lookup_rate]",
    "TOOLS",
    "[*TOOLS]",
    "[CHARGE, lookup_rate]",
])
def test_tool_spellings_in_a_deadline_group(codes, tools):
    text = HEAD + ("CHARGE = FunctionTool.from_defaults(fn=charge_card)\nTOOLS = [charge_card, lookup_rate]\n"
                   f"agent = FunctionAgent(name='checkout', tools={tools}, timeout=30)\n")
    expected = [] if "async_fn=notify" in tools else [FIRST + 2]
    assert sib301(codes(text)) == expected


def test_async_fn_is_what_runs(codes):
    # FunctionTool.from_defaults(async_fn=notify, fn=charge_card): acall awaits notify; no SIB101 for it.
    text = HEAD + "t = FunctionTool.from_defaults(fn=charge_card, async_fn=notify)\n"
    assert ("SIB101", FIRST) not in codes(text)


def test_a_bound_method_of_an_instance_is_what_runs(lint, tmp_path):
    """A blind set's e-commerce agent: `FunctionTool.from_defaults(fn=notes_manager.add_note)` of
    `notes_manager = EcommerceNotes()`. A class of this module: reported at the method's `def`; an
    instance or a class from another module: at the call that makes the tool."""
    notes = ("class Notes:\n    def __init__(self, path: str = 'notes.txt'):\n        self.path = path\n\n"
             "    def add_note(self, content: str) -> str:\n        with open(self.path, 'a') as f:\n"
             "            f.write(content)\n        return 'ok'\n\n"
             "    def recent(self) -> str:\n        with open(self.path) as f:\n            return f.read()\n\n\n"
             "notes = Notes()\n")
    tools = "from llama_index.core.tools import FunctionTool\n"
    local = notes + tools + ("add = FunctionTool.from_defaults(fn=notes.add_note)\n"
                             "recent = FunctionTool.from_defaults(fn=notes.recent)\n")
    found = lint(local, None, Config(root=str(tmp_path), select=("SIB101",)))
    assert [d.loc.line for d in found] == [5]
    imported = tools + ("from notes import notes, Notes\n\nmine = Notes()\n"
                        "add = FunctionTool.from_defaults(fn=notes.add_note)\n"
                        "add2 = FunctionTool.from_defaults(fn=mine.add_note)\n"
                        "recent = FunctionTool.from_defaults(fn=notes.recent)\n")
    found = lint(imported, {"notes.py": notes}, Config(root=str(tmp_path), select=("SIB101",)))
    assert [d.loc.line for d in found] == [5, 6]


def test_base_tool_subclasses(codes):
    text = HEAD + '''
class Charge(BaseTool):
    @property
    def metadata(self) -> ToolMetadata:
        return ToolMetadata(name="charge", description="d")

    def __call__(self, input: dict) -> ToolOutput:
        return self.call(input)

    def call(self, input: dict) -> ToolOutput:
        requests.post("https://payments.example.com/charges", json=input)
        return ToolOutput(content="ok", tool_name="charge", raw_input=input, raw_output="ok")


class Notify(AsyncBaseTool):
    def call(self, input: dict) -> ToolOutput:
        requests.post("https://notify.example.com", json=input)
        return ToolOutput(content="ok", tool_name="n", raw_input=input, raw_output="ok")

    async def acall(self, input: dict) -> ToolOutput:
        async with httpx.AsyncClient() as client:
            await client.post("https://notify.example.com", json=input)
        return ToolOutput(content="ok", tool_name="n", raw_input=input, raw_output="ok")


agent = FunctionAgent(tools=[Charge(), lookup_rate], timeout=30)
other = FunctionAgent(tools=[Notify(), lookup_rate], timeout=30)
'''
    found = codes(text)
    # A sync BaseTool's `call` runs in asyncio.to_thread; an AsyncBaseTool's awaited `acall` is cancelled.
    assert sib301(found) == [FIRST + 25] and ("SIB101", FIRST + 9) in found
    assert not [line for code, line in found if line > FIRST + 12 and code != "SIB301"], found


def test_react_agent_runs_one_call_per_step(codes):
    text = HEAD + "agent = ReActAgent(name='r', tools=[charge_card, lookup_rate], timeout=30)\n"
    found = codes(text)
    assert sib301(found) == [] and ("SIB101", 8) in found


def test_from_tools_or_functions(codes):
    text = HEAD + ("flow = AgentWorkflow.from_tools_or_functions([charge_card, lookup_rate], timeout=30)\n"
                   "calm = AgentWorkflow.from_tools_or_functions(tools_or_functions=[charge_card, lookup_rate])\n")
    assert sib301(codes(text)) == [FIRST]


def test_agent_workflow_deadline_applies_to_its_agents(codes):
    text = HEAD + ("shop = FunctionAgent(name='shop', tools=[charge_card, lookup_rate])\n"
                   "mail = FunctionAgent(name='mail', tools=[notify, lookup_rate])\n"
                   "flow = AgentWorkflow(agents=[shop, mail, FunctionAgent(name='x', tools=[charge_card])], timeout=60)\n")
    assert sib301(codes(text)) == [FIRST, FIRST + 2]
    no_deadline = text.replace(", timeout=60", "")
    assert sib301(codes(no_deadline)) == []
    assert sib301(codes(text.replace("timeout=60", "timeout=None"))) == []


def test_across_modules(codes):
    # Tools in one module, a helper doing the charge in another, the agent in a third, the workflow here.
    helpers = "import requests\n\ndef post_charge(n: int) -> None:\n    requests.post('https://p.example.com', json={'n': n})\n"
    tools = ("from .helpers import post_charge\n\ndef charge_card(n: int) -> str:\n    post_charge(n)\n    return 'ok'\n\n"
             "async def lookup(region: str) -> str:\n    return 'eu'\n")
    agents = ("from llama_index.core.agent.workflow import FunctionAgent\nfrom .tools import charge_card, lookup\n\n"
              "shop = FunctionAgent(name='shop', tools=[charge_card, lookup])\n"
              "timed = FunctionAgent(name='timed', tools=[charge_card, lookup], timeout=5)\n")
    main = ("from llama_index.core.agent.workflow import AgentWorkflow\nfrom .agents import shop\n\n"
            "flow = AgentWorkflow(agents=[shop], timeout=60)\n")
    files = {"__init__.py": "", "helpers.py": helpers, "tools.py": tools, "agents.py": agents}
    assert sib301(codes(main, files)) == [4]
    # The agent's own deadline is reported where the agent is made.
    assert sib301(codes(agents, {"__init__.py": "", "helpers.py": helpers, "tools.py": tools})) == [5]


def test_allow_parallel_tool_calls_is_only_a_hint(lint, tmp_path):
    text = HEAD + "agent = FunctionAgent(tools=[charge_card, lookup_rate], timeout=30, allow_parallel_tool_calls=False)\n"
    [d] = lint(text, None, Config(root=str(tmp_path), select=("SIB301",)))
    assert "allow_parallel_tool_calls=False serialises only with LLM integrations that enforce it" in d.message


# ---- negatives ------------------------------------------------------------------------------------
def test_read_only_sync_member_is_not_a_victim(codes):
    text = HEAD + ("def rates(region: str) -> str:\n    return requests.get(f'https://rates.example.com/{region}').text\n\n"
                   "agent = FunctionAgent(tools=[rates, lookup_rate], timeout=30)\n")
    assert codes(text) == []  # charge_card is listed nowhere: not a tool


def test_fixed_twin_async_awaiting_charge(codes):
    text = HEAD.replace("def charge_card(amount: int) -> str:\n    \"\"\"Sync: runs in loop.run_in_executor.\"\"\"\n"
                        "    requests.post(\"https://payments.example.com/charges\", json={\"amount\": amount})",
                        "async def charge_card(amount: int) -> str:\n    async with httpx.AsyncClient() as c:\n"
                        "        await c.post(\"https://payments.example.com/charges\", json={\"amount\": amount})")
    text += "agent = FunctionAgent(tools=[charge_card, lookup_rate], timeout=30)\n"
    assert codes(text) == []


@pytest.mark.parametrize("imports", [
    "from mylib import FunctionAgent, FunctionTool",
    "from autogen_agentchat.agents import AssistantAgent as FunctionAgent\nfrom mylib import FunctionTool",
])
def test_name_traps(codes, imports):
    text = HEAD.replace("from llama_index.core.agent.workflow import AgentWorkflow, FunctionAgent, ReActAgent\n", "")
    text = text.replace("from llama_index.core.tools import AsyncBaseTool, BaseTool, FunctionTool, ToolMetadata, ToolOutput\n",
                        imports + "\n")
    text += ("agent = FunctionAgent(tools=[charge_card, lookup_rate], timeout=30)\n"
             "t = FunctionTool.from_defaults(fn=charge_card)\n")
    assert codes(text) == []


def test_stub_tool_body_is_not_a_victim(codes):
    text = HEAD + ("def refund(order: str) -> str:\n    \"\"\"Refund (stub).\"\"\"\n    ...\n\n"
                   "agent = FunctionAgent(tools=[refund, lookup_rate], timeout=30)\n")
    assert sib301(codes(text)) == []


SPEC = '''\
import requests
from llama_index.core.tools.tool_spec.base import BaseToolSpec


class Shop(BaseToolSpec):
    spec_functions = ["charge", ("lookup", "alookup")]

    def charge(self, amount: int) -> str:
        requests.post("https://payments.example.com", json={"a": amount})
        return "ok"

    def lookup(self, q: str) -> str:
        requests.post("https://audit.example.com", json={"q": q})
        return "x"

    async def alookup(self, q: str) -> str:
        return "x"

    def helper(self) -> None:
        requests.post("https://payments.example.com", json={})
'''


@pytest.mark.parametrize("tools", ["Shop().to_tool_list()", "[*shop.to_tool_list()]", "listed"])
def test_tool_spec_methods_listed_in_spec_functions_are_tools(codes, tools):
    text = SPEC + ("from llama_index.core.agent.workflow import FunctionAgent\n\nshop = Shop()\nlisted = shop.to_tool_list()\n"
                   f"agent = FunctionAgent(tools={tools}, timeout=30)\n")
    found = codes(text)
    # `charge` runs in a thread; of the (lookup, alookup) pair the async one runs; `helper` is not listed.
    assert sib301(found) == [25] and [line for code, line in found if code == "SIB101"] == [8], found


def test_tool_spec_from_another_module(codes):
    main = ("from llama_index.core.agent.workflow import FunctionAgent\nfrom .shop import Shop\n\n"
            "agent = FunctionAgent(tools=Shop().to_tool_list(), timeout=30)\n")
    assert sib301(codes(main, {"__init__.py": "", "shop.py": SPEC})) == [4]
    assert sib301(codes(main.replace(", timeout=30", ""), {"__init__.py": "", "shop.py": SPEC})) == []
