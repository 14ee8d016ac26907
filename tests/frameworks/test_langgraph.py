"""LangChain / LangGraph (issue 4): tool spellings, groups, default-fatal policies, SIB201, SIB206, SIB301.

Measured behaviour behind these expectations: tests/runtime/test_langgraph_runtime.py.
"""

from __future__ import annotations

import pytest
from siblint.settings.config import Config

ALL = ("SIB101", "SIB102", "SIB103", "SIB104", "SIB105", "SIB201", "SIB206", "SIB301")

TOOLS = '''\
import asyncio
import httpx
import requests
from langchain_core.tools import tool


# The victims report their own failures to the model: they cannot fail fatally themselves.
@tool
def charge_card(amount: int) -> str:
    """Charge the card."""
    try:
        requests.post("https://payments.example.com/charges", json={"amount": amount})
    except Exception as exc:
        return f"charge failed: {exc}"
    return "charged"


@tool
async def notify(to: str) -> str:
    """Send a notification."""
    try:
        async with httpx.AsyncClient() as client:
            await client.post("https://notify.example.com", json={"to": to})
    except Exception as exc:
        return f"notify failed: {exc}"
    return "sent"


@tool
def charge_unguarded(amount: int) -> str:
    """Charge the card; a network error escapes."""
    requests.post("https://payments.example.com/charges", json={"amount": amount})
    return "charged"


@tool
async def lookup_tax(region: str) -> str:
    """Tax rate."""
    raise RuntimeError("tax service down")


@tool
def add(a: int, b: int) -> int:
    """Add."""
    return a + b
'''
HEAD = TOOLS + '''
from deepagents import create_deep_agent
from langchain.agents import create_agent
from langchain.agents.middleware import ToolErrorMiddleware, ToolRetryMiddleware
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, create_react_agent
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


# ---- tools ----------------------------------------------------------------------------------
@pytest.mark.parametrize("deco", ["@tool", '@tool("charge")', "@tool(parse_docstring=True)", "@lt.tool"])
def test_tool_decorator_spellings_are_tools(codes, deco):
    text = ("import requests\nimport langchain.tools as lt\nfrom langchain_core.tools import tool\n\n"
            f"{deco}\ndef charge(amount: int) -> str:\n    requests.post('https://p.example.com', json={{}})\n    return 'ok'\n")
    assert codes(text) == [("SIB101", 6)]


@pytest.mark.parametrize("spelling", ["from langchain.agents import Tool", "from langchain.agents import tool"])
def test_langchain_0x_agents_reexports_are_tools(codes, spelling):
    """evalS2's call center: `from langchain.agents import Tool` (langchain 0.x re-exports `Tool` and
    `tool` from its agents package), `Tool(name=..., func=book)`."""
    made = "Tool(name='book', func=book, description='Book.')" if spelling.endswith("Tool") else "tool(book)"
    text = (f"import requests\n{spelling}\n\ndef book(slot: str) -> str:\n"
            f"    return requests.post('https://clinic.example.com/book', json={{'s': slot}}).text\n\nbook_tool = {made}\n")
    assert codes(text) == [("SIB101", 4)]


def test_call_forms_and_constructors_are_tools(codes):
    text = '''\
import requests
from langchain_core.tools import StructuredTool, Tool, tool

def pay(amount: int) -> str:
    requests.post("https://p.example.com", json={})
    return "ok"

async def apay(amount: int) -> str:
    return "ok"

def refund(amount: int) -> str:
    requests.post("https://p.example.com/refunds", json={})
    return "ok"

def void(amount: int) -> str:
    requests.delete("https://p.example.com/charges/1")
    return "ok"

T1 = tool(pay)
T2 = StructuredTool.from_function(func=pay, coroutine=apay, name="pay2")
T3 = Tool("refund", refund, "Refund.")
T4 = Tool.from_function(void, "void", "Void.")
'''
    # pay: one SIB101 at its def (T1); T2 runs the async coroutine (nothing to report); refund, void.
    assert codes(text) == [("SIB101", 4), ("SIB101", 11), ("SIB101", 15)]


@pytest.mark.parametrize("call", ["send.invoke({'to': to})", "send.func(to)", "send.run(to)", "SEND.invoke({'to': to})",
                                  "await send.ainvoke({'to': to})"])
def test_a_tool_running_another_tool_does_its_effect(codes, call):
    """`send.invoke(...)` in another tool runs `send`'s function: its POST is that tool's effect too.
    `.invoke` of something that is no project tool (`chain.invoke`) is not followed."""
    text = f'''\
import requests
from langchain_core.tools import StructuredTool, tool

def _send(to: str) -> str:
    requests.post("https://mail.example.com/send", json={{"to": to}})
    return "sent"

@tool
def send(to: str) -> str:
    """Send."""
    return _send(to)

SEND = StructuredTool.from_function(func=_send, name="send_mail")

@tool
async def notify_all(to: str, chain) -> str:
    """Notify."""
    chain.invoke({{"to": to}})
    return str({call})
'''
    assert codes(text, select=("SIB103",)) == [("SIB103", 16)]
    assert codes(text.replace(call, "chain.invoke({'to': to})"), select=("SIB103",)) == []


def test_base_tool_subclass_sync_run_is_sib101_and_arun_is_async(codes):
    text = '''\
import requests
from langchain_core.tools import BaseTool

class Charge(BaseTool):
    name: str = "charge"
    description: str = "Charge."

    def _run(self, amount: int) -> str:
        requests.post("https://p.example.com", json={})
        return "ok"

class AsyncCharge(BaseTool):
    name: str = "acharge"
    description: str = "Charge."

    def _run(self, amount: int) -> str:
        raise NotImplementedError

    async def _arun(self, amount: int) -> str:
        return "ok"
'''
    assert codes(text) == [("SIB101", 8)]


@pytest.mark.parametrize("arun, line", [
    # `_arun` that only hands the call to `_run`: what runs blocks the loop; reported where the effect is
    ("    async def _arun(self, amount: int) -> str:\n        return self._run(amount)\n", 7),
    ("    async def _arun(self, amount: int) -> str:\n        return await asyncio.to_thread(self._run, amount)\n", 7),
    ("    async def _arun(self, amount: int) -> str:\n"
     "        return await asyncio.get_running_loop().run_in_executor(None, self._run, amount)\n", 7),
    # `_arun` with code of its own is reported itself
    ("    async def _arun(self, amount: int) -> str:\n        print(amount)\n        return self._run(amount)\n", 11),
])
def test_an_arun_handing_the_call_to_run_is_reported_at_run(codes, arun, line):
    text = ("import asyncio\nimport requests\nfrom langchain_core.tools import BaseTool\n\n"
            "class Charge(BaseTool):\n    name: str = 'charge'\n"
            "    def _run(self, amount: int) -> str:\n        requests.post('https://p.example.com', json={})\n"
            "        return 'ok'\n\n" + arun)
    assert [line for _, line in codes(text)] == [line]


def test_plain_function_in_a_tools_list_is_a_tool(codes):
    text = ("import requests\nfrom langgraph.prebuilt import ToolNode\n\n"
            "def charge(amount: int) -> str:\n    requests.post('https://p.example.com', json={})\n    return 'ok'\n\n"
            "node = ToolNode([charge])\n")
    assert ("SIB101", 4) in codes(text)


def test_look_alikes_are_not_tools(codes):
    text = ("import requests\nfrom mylib import tool, ToolNode\n\n@tool\n"
            "def charge(amount: int) -> str:\n    requests.post('https://p.example.com', json={})\n    return 'ok'\n\n"
            "node = ToolNode([charge])\n")
    assert codes(text) == []


# ---- create_agent / create_react_agent: one task per call, awaiting async siblings cancelled ----
@pytest.mark.parametrize("call", [
    "create_agent('m', tools=[charge_card, lookup_tax])",
    "create_agent('m', [charge_card, lookup_tax])",
    "create_react_agent('m', [charge_card, lookup_tax])",
    "create_react_agent('m', tools=[charge_card, lookup_tax], version='v2')",
    # deepagents: create_agent under it, and none of its middleware catches a tool's error.
    "create_deep_agent('m', [charge_card, lookup_tax])",
    "create_deep_agent(tools=[charge_card, lookup_tax], system_prompt='...')",
])
def test_agent_with_sync_victim_and_raising_sibling(codes, call):
    assert sib301(codes(HEAD + f"agent = {call}\n")) == [FIRST]


def test_message_names_both_tools_and_the_framework_fix(lint, tmp_path):
    found = [d for d in lint(HEAD + "agent = create_agent('m', tools=[charge_card, lookup_tax])\n", None,
                             Config(root=str(tmp_path), select=("SIB301",)))]
    [d] = found
    assert "charge_card" in d.message and "lookup_tax" in d.message and "raises RuntimeError" in d.message
    assert "ToolRetryMiddleware" in d.message and "max_concurrency" in d.message
    assert d.loc.line == FIRST and d.loc.col == len("agent = create_agent('m', tools=")


def test_agent_cancels_an_awaiting_async_victim(codes):
    assert sib301(codes(HEAD + "agent = create_agent('m', tools=[notify, lookup_tax])\n")) == []


def test_deep_agent_middleware_makes_failures_model_visible(codes):
    text = HEAD + "agent = create_deep_agent(tools=[charge_card, lookup_tax], middleware=[ToolErrorMiddleware()])\n"
    assert sib301(codes(text)) == []


def test_a_deep_agents_own_task_tool_is_the_fatal_sibling(lint, tmp_path, codes):
    """Every deep agent has a `task` tool that runs a sub-agent outside any try (evalY2's advisor):
    the same guarded tools that cannot fail under create_agent are orphaned under create_deep_agent."""
    assert sib301(codes(HEAD + "agent = create_agent('m', tools=[charge_card, add])\n")) == []
    assert sib301(codes(HEAD + "agent = create_deep_agent(tools=[charge_card, add], system_prompt='...')\n")) == [FIRST]
    [d] = lint(HEAD + "agent = create_deep_agent(tools=[charge_card, add])\n", None,
               Config(root=str(tmp_path), select=("SIB301",)))
    assert "task's fatal failure (runs a sub-agent" in d.message and "deep agent's middleware" in d.message
    assert "raise ToolException from task" not in d.message  # the project cannot change deepagents' tool
    # middleware covering every tool covers `task`; awaiting tools are cancelled; no victim, no finding
    for tools, extra in (("charge_card, add", ", middleware=[ToolErrorMiddleware()]"), ("notify, add", ""), ("add", "")):
        assert sib301(codes(HEAD + f"agent = create_deep_agent(tools=[{tools}]{extra})\n")) == [], tools


def test_pure_and_guarded_tools_cannot_fail(codes):
    assert sib301(codes(HEAD + "agent = create_agent('m', tools=[charge_card, add])\n")) == []


NARROW = '''
def _add_row(key: str) -> None:
    if not key:
        raise ValueError("empty key")


@tool
def add_row(key: str) -> str:
    """Add a row; the helper's ValueError is {caught}."""
    try:
        _add_row(key)
    except {handler}:
        return "refused"
    return "added"

agent = create_agent('m', tools=[charge_card, add_row])
'''


@pytest.mark.parametrize("handler, reported", [("ValueError", False), ("(KeyError, ValueError)", False),
                                               ("KeyError", True)])
def test_a_raise_caught_by_name_on_the_call_path_cannot_fail(codes, handler, reported):
    text = HEAD + NARROW.format(caught="caught" if not reported else "not caught", handler=handler)
    assert bool(sib301(codes(text))) is reported


def test_a_sync_tool_whose_own_io_can_raise_is_its_own_sibling(codes, lint, tmp_path):
    text = HEAD + "agent = create_agent('m', tools=[charge_unguarded, add])\n"
    assert sib301(codes(text)) == [FIRST]
    [d] = lint(text, None, Config(root=str(tmp_path), select=("SIB301",)))
    assert d.message.startswith("charge_unguarded (sync, POST") and "its own fatal failure (POST" in d.message
    assert "called twice in one turn" in d.message


@pytest.mark.parametrize("middleware,reported", [
    ("[ToolRetryMiddleware()]", False),
    ("[ToolRetryMiddleware(max_retries=0, on_failure='continue')]", False),
    ("[ToolErrorMiddleware()]", False),
    ("[ToolRetryMiddleware(on_failure='error')]", True),
    ("[ToolRetryMiddleware(on_failure='raise')]", True),
    ("[ToolRetryMiddleware(retry_on=(ValueError,))]", True),
    ("[ToolRetryMiddleware(retry_on=(RuntimeError,))]", False),
    ("[ToolRetryMiddleware(retry_on=(Exception,))]", False),
    ("[ToolRetryMiddleware(tools=['charge_card'])]", True),
    ("[ToolRetryMiddleware(tools=[lookup_tax, charge_card])]", False),
    ("[ToolErrorMiddleware(tools=['charge_card'])]", True),
    ("MIDDLEWARE", False),
])
def test_middleware_makes_failures_model_visible(codes, middleware, reported):
    text = HEAD + f"MIDDLEWARE = [ToolRetryMiddleware()]\nagent = create_agent('m', tools=[charge_card, lookup_tax], middleware={middleware})\n"
    assert bool(sib301(codes(text))) is reported


def test_tool_exception_reaches_the_model_only_with_handle_tool_error(codes):
    text = '''\
import requests
from langchain_core.tools import StructuredTool, ToolException
from langchain.agents import create_agent

def charge(amount: int) -> str:
    requests.post("https://p.example.com", json={})
    return "ok"

async def lookup(region: str) -> str:
    raise ToolException("unknown region")

async def refuse(region: str) -> str:
    raise ToolException("unknown region")

SAFE_CHARGE = StructuredTool.from_function(func=charge, name="charge")
LOOKUP = StructuredTool.from_function(coroutine=lookup, name="lookup", handle_tool_error=True)
REFUSE = StructuredTool.from_function(coroutine=refuse, name="refuse")
'''
    text = text.replace('    requests.post("https://p.example.com", json={})\n',
                        '    try:\n        requests.post("https://p.example.com", json={})\n    except Exception:\n        return "failed"\n')
    n = text.count("\n") + 1
    assert sib301(codes(text + "a = create_agent('m', tools=[SAFE_CHARGE, LOOKUP])\n")) == []
    assert sib301(codes(text + "a = create_agent('m', tools=[SAFE_CHARGE, REFUSE])\n")) == [n]


# ---- a ToolNode used directly as a node: asyncio.gather cancels nothing -------------------------
GRAPH = '''
builder = StateGraph(MessagesState)
builder.add_node("tools", ToolNode([notify, lookup_tax]{opts}))
builder.add_edge(START, "tools")
graph = builder.compile()
'''


def test_tool_node_node_leaves_even_awaiting_async_victims_running(codes):
    found = codes(HEAD + GRAPH.format(opts=""), select=("SIB102", "SIB103", "SIB104", "SIB105", "SIB301"))
    assert found == [("SIB301", FIRST + 2)]  # notify awaits an async client: no SIB1xx


def test_react_agent_v1_runs_one_tool_node(codes):
    assert sib301(codes(HEAD + "agent = create_react_agent('m', [notify, lookup_tax], version='v1')\n")) == [FIRST]
    assert sib301(codes(HEAD + "agent = create_react_agent('m', [notify, lookup_tax])\n")) == []


@pytest.mark.parametrize("opts,reported", [
    (", handle_tool_errors=True", False),
    (", handle_tool_errors='Try again.'", False),
    (", handle_tool_errors=(RuntimeError, ValueError)", False),
    (", handle_tool_errors=(ValueError,)", True),
    (", handle_tool_errors=ValueError", True),
    (", handle_tool_errors=on_error", False),  # unannotated: every Exception
    (", handle_tool_errors=on_runtime_error", False),
    (", handle_tool_errors=on_value_error", True),
    (", handle_tool_errors=lambda e: str(e)", False),
    (", handle_tool_errors=False", True),
])
def test_handle_tool_errors(codes, opts, reported):
    handlers = ("def on_error(e):\n    return str(e)\n\ndef on_runtime_error(e: RuntimeError) -> str:\n    return str(e)\n\n"
                "def on_value_error(e: ValueError | KeyError) -> str:\n    return str(e)\n")
    text = HEAD + handlers + GRAPH.format(opts=opts)
    assert bool(sib301(codes(text))) is reported


def test_handle_tool_errors_false_is_sib201_at_the_argument(codes):
    found = codes(HEAD + GRAPH.format(opts=", handle_tool_errors=False"))
    assert ("SIB201", FIRST + 2) in found


@pytest.mark.parametrize("run,reported", [
    ('graph.invoke({"messages": []}, config={"max_concurrency": 1})', False),
    ('graph.invoke({"messages": []}, {"max_concurrency": 1})', False),
    ('await graph.ainvoke({"messages": []}, config=RunnableConfig(max_concurrency=1))', False),
    ('graph.invoke({"messages": []}, config={"max_concurrency": 4})', True),
    ('graph.invoke({"messages": []})', True),
])
def test_max_concurrency_one_where_the_graph_is_invoked(codes, run, reported):
    text = HEAD + "from langchain_core.runnables import RunnableConfig\n" + GRAPH.format(opts="") + f"\nasync def main():\n    {run}\n"
    assert bool(sib301(codes(text))) is reported


def test_one_uncapped_invoke_keeps_the_group_concurrent(codes):
    text = HEAD + GRAPH.format(opts="") + ('\nasync def main():\n    graph.invoke({}, config={"max_concurrency": 1})\n'
                                           '    await graph.ainvoke({})\n')
    assert sib301(codes(text))


def test_tool_node_given_to_react_agent_is_a_member_list(codes):
    text = HEAD + "agent = create_react_agent('m', ToolNode([charge_card, lookup_tax]))\n"
    assert sib301(codes(text)) == [FIRST]


# ---- across modules ---------------------------------------------------------------------------
def test_tools_and_plain_functions_imported_from_another_module(codes):
    helpers = ("import requests\n\ndef charge(amount: int) -> str:\n"
               "    requests.post('https://p.example.com', json={})\n    return 'ok'\n")
    main = ("from langchain.agents import create_agent\nfrom .tools import lookup_tax\nfrom .helpers import charge\n\n"
            "agent = create_agent('m', tools=[charge, lookup_tax])\n")
    assert sib301(codes(main, {"tools.py": TOOLS, "helpers.py": helpers, "__init__.py": ""})) == [5]


def test_base_tool_subclass_from_another_module(codes):
    tools = ("import requests\nfrom langchain_core.tools import BaseTool\n\nclass Charge(BaseTool):\n"
             "    name: str = 'charge'\n    description: str = 'd'\n\n    def _run(self, amount: int) -> str:\n"
             "        requests.post('https://p.example.com', json={})\n        return 'ok'\n")
    main = ("from langgraph.prebuilt import ToolNode\nfrom .classes import Charge\nfrom .tools import lookup_tax\n\n"
            "node = ToolNode([Charge(), lookup_tax])\n")
    assert sib301(codes(main, {"classes.py": tools, "tools.py": TOOLS, "__init__.py": ""})) == [5]


@pytest.mark.parametrize("marker", ["InjectedToolArg()", "InjectedState", "InjectedStore()"])
def test_a_function_whose_parameter_the_framework_fills_is_reported_at_its_def(tmp_path, marker):
    """A blind set's to-do agent: `user_id: Annotated[str, InjectedToolArg()]` in the module of plain
    functions that `get_tools()` elsewhere wraps with `StructuredTool.from_function`. The marker makes
    no tool, so the finding goes to the `def`, as it does without it."""
    from conftest import lint_files

    name = marker.rstrip("()")
    source = "langchain_core.tools" if name == "InjectedToolArg" else "langgraph.prebuilt"
    tasks = (f"import sqlite3\nfrom typing import Annotated\nfrom {source} import {name}\n\n"
             f"def add_task(task: str, user_id: Annotated[str, {marker}]) -> str:\n"
             "    sqlite3.connect('t.db').execute('INSERT INTO t VALUES (?)', (task,))\n    return 'ok'\n")
    settings = ("def get_tools():\n    from langchain_core.tools import StructuredTool\n"
                "    from tools.tasks import add_task\n"
                "    return [StructuredTool.from_function(func=add_task, name='add_task')]\n")
    files = {"tools/__init__.py": "", "tools/tasks.py": tasks, "settings.py": settings}
    config = Config(root=str(tmp_path), select=("SIB101",))
    assert [(d.path.rpartition("/")[2], d.loc.line) for d in lint_files(tmp_path, files, "tools/tasks.py", config)] \
        == [("tasks.py", 5)]
    assert lint_files(tmp_path, files, "settings.py", config) == []


def test_a_lambda_that_forwards_to_a_function_runs_that_function(tmp_path):
    """A blind set's clinic agent: `StructuredTool.from_function(func=lambda phone: create_patient_tool(
    phone=phone, db=db))` over the session its builder is given; the function, defined in another
    module with `db: Session`, commits. Reported at its `def`."""
    from conftest import lint_files

    tools = ("from sqlalchemy.orm import Session\n\n"
             "def create_patient_tool(phone: str, db: Session) -> str:\n"
             "    db.add(object())\n    db.commit()\n    return 'ok'\n\n"
             "def lookup_patient_tool(phone: str, db: Session) -> str:\n    return str(db.get(object, phone))\n")
    builder = ("from langchain.tools import StructuredTool\nfrom app.agent_tools import create_patient_tool, lookup_patient_tool\n\n"
               "def get_tools(db):\n    return [\n"
               "        StructuredTool.from_function(name='create_patient', description='d',\n"
               "                                     func=lambda phone: create_patient_tool(phone=phone, db=db)),\n"
               "        StructuredTool.from_function(name='lookup_patient', description='d',\n"
               "                                     func=lambda phone: lookup_patient_tool(phone=phone, db=db)),\n    ]\n")
    files = {"app/__init__.py": "", "app/agent_tools.py": tools, "app/builder.py": builder}
    config = Config(root=str(tmp_path), select=("SIB101",))
    assert [d.loc.line for d in lint_files(tmp_path, files, "app/agent_tools.py", config)] == [3]
    assert lint_files(tmp_path, files, "app/builder.py", config) == []


# ---- SIB206 (off by default) ----------------------------------------------------------------------
def test_sib206_is_off_by_default_and_reported_at_the_group(lint, tmp_path, codes):
    text = HEAD + "agent = create_agent('m', tools=[add, lookup_tax])\n"
    assert "SIB206" not in [d.code for d in lint(text, None, Config(root=str(tmp_path)))]
    only = ("SIB206",)
    assert codes(text, select=only) == [("SIB206", FIRST)]
    text = HEAD + "agent = create_agent('m', tools=[add, lookup_tax], middleware=[ToolErrorMiddleware()])\n"
    assert codes(text, select=only) == []
    assert codes(HEAD + "agent = create_agent('m', tools=[add, charge_card])\n", select=only) == []


def test_raise_caught_in_the_tool_is_not_fatal(codes):
    text = '''\
from langgraph.prebuilt import ToolNode
from langchain_core.tools import tool

@tool
def parse(x: str) -> str:
    """Parse."""
    try:
        raise ValueError(x)
    except ValueError:
        return "bad input"

@tool
def reraise(x: str) -> str:
    """Parse."""
    try:
        return str(int(x))
    except ValueError:
        raise

node = ToolNode([parse])
node2 = ToolNode([reraise])
'''
    assert codes(text) == [("SIB206", 21)]


@pytest.mark.parametrize("caught, fatal", [("Exception", False), ("ValueError", True)])
def test_a_project_decorator_guarding_the_tool_makes_it_unable_to_fail(codes, caught, fatal):
    # nick-youngblut/arc-reactor: `@tool @tool_error_handler async def ...`, the decorator (another
    # module) returning a wrapper whose `except Exception` hands the error back as the result.
    base = f'''\
from functools import wraps


def tool_error_handler(func):
    @wraps(func)
    async def _wrapper(*args, **kwargs):
        try:
            return await func(*args, **kwargs)
        except {caught} as exc:
            return f"Error: {{exc}}"

    return _wrapper
'''
    main = ("import httpx\nfrom langgraph.prebuilt import ToolNode\nfrom langchain_core.tools import tool\n"
            "from .base import tool_error_handler\n\n\n@tool\n@tool_error_handler\nasync def lookup(q: str) -> str:\n"
            "    \"\"\"Look up.\"\"\"\n    async with httpx.AsyncClient() as c:\n"
            "        return (await c.get(f'https://x.example/{q}')).text\n\n\nnode = ToolNode([lookup])\n")
    files = {"base.py": base, "__init__.py": ""}
    assert codes(main, files, select=("SIB206",)) == ([("SIB206", 15)] if fatal else [])


@pytest.mark.parametrize("handler, fatal", [("requests.RequestException", False), ("requests.exceptions.RequestException", False),
                                             ("requests.ConnectionError", True), ("ValueError", True)])
def test_io_under_its_librarys_base_exception_is_not_fatal(codes, handler, fatal):
    # evalT1's GitHub agent: every requests call and the response's `.json()` sit under
    # `except requests.RequestException`, which catches all they raise (a JSON error and
    # raise_for_status's HTTPError included): the tool answers the model; a narrower handler does not.
    text = f'''\
import requests
from langgraph.prebuilt import ToolNode
from langchain_core.tools import tool

@tool
def open_pull_request(repo: str) -> dict:
    """Open a pull request."""
    try:
        r = requests.post(f"https://api.github.com/repos/{{repo}}/pulls", json={{}})
        r.raise_for_status()
        return r.json()
    except {handler} as exc:
        return {{"error": str(exc)}}

@tool
def list_branches(repo: str) -> dict:
    """List branches."""
    try:
        r = requests.get(f"https://api.github.com/repos/{{repo}}/branches")
        return {{"branches": [b["name"] for b in r.json()]}}
    except {handler} as exc:
        return {{"error": str(exc)}}

node = ToolNode([open_pull_request, list_branches])
'''
    assert sib301(codes(text)) == ([24] if fatal else [])


def test_methods_of_project_objects_are_followed(codes):
    store = ('import pymongo\n\nclass Store:\n    def __init__(self):\n        self.orders = pymongo.MongoClient()["shop"]["orders"]\n\n'
             '    def create(self, order):\n        return self.orders.insert_one(order)\n\n'
             '    def safe_create(self, order):\n        try:\n            return self.orders.insert_one(order)\n'
             '        except Exception:\n            return None\n')
    main = ("from langchain.agents import create_agent\nfrom langchain.tools import tool\nfrom .store import Store\n\n\n"
            "def make(db: Store):\n    @tool\n    def place(order: dict) -> str:\n        \"\"\"Place.\"\"\"\n"
            "        return str(db.{method}(order))\n\n    return create_agent('m', tools=[place])\n")
    files = {"store.py": store, "__init__.py": ""}
    assert codes(main.format(method="create"), files, select=("SIB206",)) == [("SIB206", 12)]
    assert codes(main.format(method="safe_create"), files, select=("SIB206",)) == []


def test_sync_tool_writing_through_an_annotated_project_object_is_sib101(codes):
    store = ('import pymongo\n\nclass Store:\n    def __init__(self):\n        self.orders = pymongo.MongoClient()["shop"]["orders"]\n\n'
             '    def create(self, order):\n        return self.orders.insert_one(order)\n')
    main = ("from langchain.agents import create_agent\nfrom langchain.tools import tool\nfrom .store import Store\n\n\n"
            "def make(db: Store):\n    @tool\n    def place(order: dict) -> str:\n        \"\"\"Place.\"\"\"\n"
            "        return str(db.create(order))\n\n    return create_agent('m', tools=[place])\n")
    assert codes(main, {"store.py": store, "__init__.py": ""}, select=("SIB101", "SIB301")) == [("SIB101", 8), ("SIB301", 12)]


def test_a_chat_model_call_makes_a_member_able_to_fail(codes):
    """A LangChain chat-model call is I/O that can raise: in a default-fatal group it ends the run,
    and a sync sibling that swallows its own errors still lands its effect (SIB301)."""
    text = (
        "import os\nfrom langchain.agents import create_agent\nfrom langchain_core.tools import tool\n"
        "from langchain_openai import ChatOpenAI\n\n@tool\ndef summarise(text: str) -> str:\n    \"\"\"Summarise.\"\"\"\n"
        "    return ChatOpenAI(model='gpt-4o').invoke(text).content\n\n@tool\ndef delete_upload(path: str) -> str:\n"
        "    \"\"\"Delete.\"\"\"\n    try:\n        os.remove(path)\n    except Exception:\n        return 'gone'\n"
        "    return 'deleted'\n\nagent = create_agent('openai:gpt-4o', tools=[summarise, delete_upload])\n"
    )
    assert codes(text, select=("SIB206", "SIB301")) == [("SIB206", 20), ("SIB301", 20)]
    guarded = text.replace("    return ChatOpenAI(model='gpt-4o').invoke(text).content\n",
                           "    try:\n        return ChatOpenAI(model='gpt-4o').invoke(text).content\n"
                           "    except Exception as exc:\n        return f'failed: {exc}'\n")
    assert codes(guarded, select=("SIB206", "SIB301")) == []

