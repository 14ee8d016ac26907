"""The semantic model on the shapes real projects use to reach their tools and effects.

Each case is written the way real agent code writes it (factories, builders, protocols, closures,
copies of lists), and checked through the whole engine: the finding must appear where the hazard is,
and a fixed twin must stay silent.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import lint_files
from siblint.settings.config import Config

TOOLS = '''\
import requests
from agents import function_tool


@function_tool
def charge_card(amount_cents: int) -> str:
    requests.post("https://payments.example.com/charges", json={"amount": amount_cents}, timeout=10)
    return "charged"


@function_tool(failure_error_function=None)
async def lookup_tax(region: str) -> str:
    return "0.2"


@function_tool
async def lookup_rate(region: str) -> str:
    return "0.2"
'''


def _codes(tmp_path: Path, files: dict[str, str], target: str, select: tuple[str, ...] = ("SIB301",)) -> list[tuple[str, int]]:
    files = {"app/__init__.py": "", "app/tools.py": TOOLS, **files}
    found = lint_files(tmp_path, files, target, Config(root=str(tmp_path), select=select))
    return sorted((d.code, d.loc.line) for d in found)


# ---- tools lists -------------------------------------------------------------------------------
LIST_SHAPES = {
    "closure": (
        "from agents import Agent\nfrom app.tools import charge_card, lookup_tax\n\n"
        "def make_agent():\n    tools = [charge_card, lookup_tax]\n\n"
        "    def build():\n        return Agent(name='nested', tools=tools)\n\n    return build()\n",
        8,
    ),
    "list_copy": (
        "from agents import Agent\nfrom app.tools import charge_card, lookup_tax\n\n"
        "ALL_TOOLS = [charge_card, lookup_tax]\n\nagent = Agent(name='a', tools=list(ALL_TOOLS))\n",
        6,
    ),
    "tuple_of_spread": (
        "from agents import Agent\nfrom app.tools import charge_card, lookup_tax\n\n"
        "BASE = (charge_card,)\n\nagent = Agent(name='a', tools=[*tuple(BASE), lookup_tax])\n",
        6,
    ),
    "base_plus": (
        "from agents import Agent\nfrom app.tools import charge_card, lookup_tax\n\n"
        "BASE_TOOLS = [lookup_tax]\n\nagent = Agent(name='a', tools=BASE_TOOLS + [charge_card])\n",
        6,
    ),
    "dot_copy": (
        "from agents import Agent\nfrom app.tools import charge_card, lookup_tax\n\n"
        "BASE_TOOLS = [lookup_tax, charge_card]\n\nagent = Agent(name='a', tools=BASE_TOOLS.copy())\n",
        6,
    ),
    "comprehension": (
        "from agents import Agent\nfrom app.tools import charge_card, lookup_tax\n\n"
        "ENABLED = {'charge_card', 'lookup_tax'}\nALL = [charge_card, lookup_tax]\n\n"
        "agent = Agent(name='a', tools=[t for t in ALL if t.name in ENABLED])\n",
        7,
    ),
    "append_after": (
        "from agents import Agent\nfrom app.tools import charge_card, lookup_tax\n\n"
        "def make_agent(strict: bool):\n    tools = [charge_card]\n    if strict:\n        tools.append(lookup_tax)\n"
        "    return Agent(name='a', tools=tools)\n",
        8,
    ),
    "extend_after": (
        "from agents import Agent\nfrom app.tools import charge_card, lookup_tax\n\n"
        "TOOLS = [charge_card]\nTOOLS.extend([lookup_tax])\n\nagent = Agent(name='a', tools=TOOLS)\n",
        7,
    ),
    "factory_return": (
        "from agents import Agent\nfrom app.tools import charge_card, lookup_tax\n\n"
        "def default_tools():\n    return [charge_card, lookup_tax]\n\nagent = Agent(name='a', tools=default_tools())\n",
        7,
    ),
    "factory_in_other_module": (
        "from agents import Agent\nfrom app.registry import build_tools\n\n"
        "agent = Agent(name='a', tools=build_tools(strict=True))\n",
        4,
    ),
    # Reported where the builder is called with the mix: each call builds its own agent.
    "builder_parameter": (
        "from agents import Agent\nfrom app.tools import charge_card, lookup_tax\n\n"
        "def build(name, tools):\n    return Agent(name=name, tools=tools)\n\n"
        "checkout = build('checkout', [charge_card, lookup_tax])\nbilling = build('billing', [charge_card])\n",
        7,
    ),
}
REGISTRY = (
    "from app.tools import charge_card, lookup_tax\n\n"
    "def build_tools(strict: bool = False):\n    tools = [charge_card]\n    if strict:\n        tools += [lookup_tax]\n"
    "    return tools\n"
)


@pytest.mark.parametrize("shape", sorted(LIST_SHAPES))
def test_tools_list_shapes_give_sib301(tmp_path: Path, shape: str) -> None:
    text, line = LIST_SHAPES[shape]
    assert _codes(tmp_path, {"app/agent.py": text, "app/registry.py": REGISTRY}, "app/agent.py") == [("SIB301", line)]


@pytest.mark.parametrize("shape", sorted(LIST_SHAPES))
def test_the_same_shapes_with_a_safe_sibling_stay_silent(tmp_path: Path, shape: str) -> None:
    text, _ = LIST_SHAPES[shape]
    registry = REGISTRY.replace("lookup_tax", "lookup_rate")
    assert _codes(tmp_path, {"app/agent.py": text.replace("lookup_tax", "lookup_rate"), "app/registry.py": registry},
                  "app/agent.py") == []


def test_langgraph_builder_function_parameter(tmp_path: Path) -> None:
    tools = (
        "import requests\nfrom langchain_core.tools import tool\n\n"
        "@tool\ndef refund(order: str) -> str:\n    \"\"\"Refund.\"\"\"\n"
        "    try:\n        requests.post('https://pay.example.com/refunds', json={'o': order})\n"
        "    except Exception as exc:\n        return f'failed: {exc}'\n    return 'ok'\n\n"
        "@tool\nasync def lookup(order: str) -> str:\n    \"\"\"Look up.\"\"\"\n    raise RuntimeError('down')\n"
    )
    agent = (
        "from langgraph.prebuilt import create_react_agent\nfrom app.lg_tools import lookup, refund\n\n"
        "def build(model, tools):\n    return create_react_agent(model, tools)\n\n"
        "graph = build('openai:gpt-4o', [refund, lookup])\n"
    )
    assert _codes(tmp_path, {"app/lg_tools.py": tools, "app/agent.py": agent}, "app/agent.py") == [("SIB301", 7)]


@pytest.mark.parametrize("imported", ["from app import builder", "import app.builder as builder"])
def test_a_builder_called_as_a_modules_attribute_copying_its_tools(tmp_path: Path, imported: str) -> None:
    """A blind set's CRM agent: `new_react.create_react_executor(model=..., tools=[crm_tools.create_lead, ...])`
    in `workflow.py`, over `tool_list = list(tools); ToolNode(tool_list)` in the builder's module:
    the group is the builder's, anchored at its ToolNode's tools, with the tools each call passes."""
    tools = (
        "import requests\nfrom agents import function_tool\n\n"
        "@function_tool\ndef charge_card(amount: int) -> str:\n"
        "    requests.post('https://pay.example.com/charges', json={'a': amount})\n    return 'ok'\n\n"
        "@function_tool(failure_error_function=None)\nasync def lookup_tax(region: str) -> str:\n    raise RuntimeError('down')\n"
    )
    builder = (
        "from agents import Agent\n\n"
        "def build(name, tools):\n    tool_list = list(tools)\n    return Agent(name=name, tools=tool_list)\n"
    )
    agent = f"{imported}\nfrom app import tools as t\n\ncheckout = builder.build('checkout', tools=[t.charge_card, t.lookup_tax])\n"
    files = {"app/__init__.py": "", "app/tools.py": tools, "app/builder.py": builder, "app/agent.py": agent}
    assert [c for c in _codes(tmp_path, files, "app/builder.py") if c[0] == "SIB301"] == [("SIB301", 5)]


def test_builder_calls_with_separate_tools_do_not_mix(tmp_path: Path) -> None:
    text = (
        "from agents import Agent\nfrom app.tools import charge_card, lookup_tax\n\n"
        "def build(name, tools):\n    return Agent(name=name, tools=tools)\n\n"
        "payments = build('payments', [charge_card])\ntax = build('tax', [lookup_tax])\n"
    )
    assert _codes(tmp_path, {"app/agent.py": text}, "app/agent.py") == []


# ---- effects behind objects -----------------------------------------------------------------------
GATEWAY = '''\
from typing import Protocol


class PaymentGateway(Protocol):
    def charge(self, amount_cents: int) -> str: ...
'''
STRIPE_GATEWAY = '''\
import requests


class HttpGateway:
    def __init__(self, base_url: str) -> None:
        self.base_url = base_url

    def charge(self, amount_cents: int) -> str:
        requests.post(f"{self.base_url}/v1/charges", json={"amount": amount_cents}, timeout=10)
        return "charged"
'''
GATEWAY_TOOLS = '''\
from agents import Agent, function_tool

from app.gateway import PaymentGateway


def make_agent(gateway: PaymentGateway) -> Agent:
    @function_tool
    def charge_card(amount_cents: int) -> str:
        return gateway.charge(amount_cents)

    @function_tool(failure_error_function=None)
    async def lookup_tax(region: str) -> str:
        return "0.2"

    return Agent(name="checkout", tools=[charge_card, lookup_tax])
'''


def test_effect_behind_a_protocol_typed_parameter(tmp_path: Path) -> None:
    files = {"app/gateway.py": GATEWAY, "app/http_gateway.py": STRIPE_GATEWAY, "app/agent.py": GATEWAY_TOOLS}
    assert _codes(tmp_path, files, "app/agent.py", ("SIB101", "SIB301")) == [("SIB101", 8), ("SIB301", 15)]


def test_protocol_without_an_effectful_implementation_stays_silent(tmp_path: Path) -> None:
    quiet = STRIPE_GATEWAY.replace('requests.post(f"{self.base_url}/v1/charges", json={"amount": amount_cents}, timeout=10)',
                                   "pass")
    files = {"app/gateway.py": GATEWAY, "app/http_gateway.py": quiet, "app/agent.py": GATEWAY_TOOLS}
    assert _codes(tmp_path, files, "app/agent.py", ("SIB101", "SIB301")) == []


def test_a_sync_method_does_not_implement_an_async_protocol_method(tmp_path: Path) -> None:
    """evalW7's Super_SOL: `await runner.run(inv)` of `class Runner(Protocol): async def run(...)`;
    a class of another protocol with a sync `def run` that runs a subprocess is not an implementation
    (an awaited call could not run it), the async one that awaits its process is."""
    protocol = "from typing import Protocol\n\nclass Runner(Protocol):\n    async def run(self, argv: list[str]) -> str: ...\n"
    sync_impl = ("import subprocess\n\nclass CodexRunner:\n    def run(self, argv: list[str]) -> str:\n"
                 "        return subprocess.run(argv, capture_output=True, text=True).stdout\n")
    async_impl = ("import asyncio\n\nclass DockerRunner:\n    async def run(self, argv: list[str]) -> str:\n"
                  "        proc = await asyncio.create_subprocess_exec(*argv)\n        await proc.wait()\n        return 'ok'\n")
    tools = ("from agents import function_tool\nfrom app.runner import Runner\n\n"
             "def make(runner: Runner):\n    @function_tool(failure_error_function=None)\n"
             "    async def verify() -> str:\n        return await runner.run(['docker', 'run', 'img'])\n    return verify\n")
    files = {"app/runner.py": protocol, "app/codex.py": sync_impl, "app/docker.py": async_impl, "app/agent.py": tools}
    assert _codes(tmp_path, files, "app/agent.py", ("SIB101", "SIB102", "SIB103")) == []
    files["app/codex.py"] = sync_impl.replace("def run", "async def run")  # now it implements it: and blocks
    assert _codes(tmp_path, files, "app/agent.py", ("SIB101", "SIB102", "SIB103")) == [("SIB103", 6)]


def test_effect_behind_an_abc_and_a_subclass_in_another_module(tmp_path: Path) -> None:
    base = "import abc\n\nclass Store(abc.ABC):\n    @abc.abstractmethod\n    def save(self, row: dict) -> None: ...\n"
    impl = ("import sqlite3\nfrom app.store import Store\n\nclass SqliteStore(Store):\n    def save(self, row: dict) -> None:\n"
            "        conn = sqlite3.connect('db')\n        conn.execute('INSERT INTO rows VALUES (?)', (row['id'],))\n")
    tools = ("from agents import function_tool\nfrom app.store import Store\n\nclass Tools:\n"
             "    def __init__(self, store: Store) -> None:\n        self.store = store\n\n"
             "    def register(self):\n        @function_tool\n        def save_row(row_id: str) -> str:\n"
             "            self.store.save({'id': row_id})\n            return 'saved'\n        return save_row\n")
    files = {"app/store.py": base, "app/sqlite_store.py": impl, "app/agent.py": tools}
    assert _codes(tmp_path, files, "app/agent.py", ("SIB101",)) == [("SIB101", 10)]


def test_effect_behind_a_factory_return_value(tmp_path: Path) -> None:
    clients = ("import httpx\n\nclass Mailer:\n    def send(self, to: str) -> None:\n"
               "        httpx.post('https://mail.example.com/send', json={'to': to})\n\n"
               "def make_mailer() -> Mailer:\n    return Mailer()\n")
    tools = ("from agents import function_tool\nfrom app.clients import make_mailer\n\nmailer = make_mailer()\n\n"
             "@function_tool\ndef notify(to: str) -> str:\n    mailer.send(to)\n    return 'sent'\n")
    files = {"app/clients.py": clients, "app/agent.py": tools}
    assert _codes(tmp_path, files, "app/agent.py", ("SIB101",)) == [("SIB101", 7)]


def test_effect_behind_an_annotated_class_attribute(tmp_path: Path) -> None:
    repo = ("import psycopg\n\nclass OrderRepo:\n    def cancel(self, order_id: str) -> None:\n"
            "        with psycopg.connect('') as conn:\n            conn.execute('UPDATE orders SET state = %s', ('cancelled',))\n")
    tools = ("from agents import function_tool\nfrom app.repo import OrderRepo\n\nclass Service:\n    repo: OrderRepo\n\n"
             "    def tools(self):\n        @function_tool\n        def cancel_order(order_id: str) -> str:\n"
             "            self.repo.cancel(order_id)\n            return 'cancelled'\n        return [cancel_order]\n")
    files = {"app/repo.py": repo, "app/agent.py": tools}
    assert _codes(tmp_path, files, "app/agent.py", ("SIB101",)) == [("SIB101", 9)]


def test_callable_passed_to_a_thread_helper(tmp_path: Path) -> None:
    text = (
        "import asyncio\nimport sqlite3\nfrom agents import function_tool\n\nDB = 'app.db'\n\n"
        "async def in_thread(work):\n    return await asyncio.to_thread(lambda: work(sqlite3.connect(DB)))\n\n"
        "def insert(conn):\n    conn.execute('INSERT INTO bookings VALUES (1)')\n    conn.commit()\n\n"
        "@function_tool\nasync def book() -> str:\n    await in_thread(insert)\n    return 'booked'\n"
    )
    assert _codes(tmp_path, {"app/agent.py": text}, "app/agent.py", ("SIB102",)) == [("SIB102", 15)]


def test_callable_passed_to_a_thread_helper_that_reads_stays_silent(tmp_path: Path) -> None:
    text = (
        "import asyncio\nimport sqlite3\nfrom agents import function_tool\n\nDB = 'app.db'\n\n"
        "async def in_thread(work):\n    return await asyncio.to_thread(lambda: work(sqlite3.connect(DB)))\n\n"
        "def select(conn):\n    return conn.execute('SELECT * FROM bookings').fetchall()\n\n"
        "@function_tool\nasync def bookings() -> str:\n    return str(await in_thread(select))\n"
    )
    assert _codes(tmp_path, {"app/agent.py": text}, "app/agent.py", ("SIB102",)) == []


def test_a_parameter_hides_a_module_level_name(tmp_path: Path) -> None:
    text = (
        "from agents import Agent\nfrom app.tools import charge_card, lookup_tax, lookup_rate\n\n"
        "tools = [charge_card, lookup_tax]\n\ndef build(tools):\n    return Agent(name='a', tools=tools)\n\n"
        "safe = build([lookup_rate, lookup_tax])\n"
    )
    assert _codes(tmp_path, {"app/agent.py": text}, "app/agent.py") == []


def test_effect_behind_the_run_context(tmp_path: Path) -> None:
    """MaxiCare's shape: the calendar is reached through the run context's typed attribute."""
    cal = ("import requests\n\nclass Calendar:\n    def create_event(self, when: str) -> None:\n"
           "        requests.post('https://calendar.example.com/events', json={'when': when})\n")
    ctx = "from dataclasses import dataclass\nfrom app.calendar import Calendar\n\n@dataclass\nclass AppCtx:\n    calendar: Calendar\n"
    tools = ("import asyncio\nfrom agents import RunContextWrapper, function_tool\nfrom app.ctx import AppCtx\n\n"
             "@function_tool\nasync def book(ctx: RunContextWrapper[AppCtx], when: str) -> str:\n"
             "    await asyncio.to_thread(ctx.context.calendar.create_event, when)\n    return 'booked'\n")
    files = {"app/calendar.py": cal, "app/ctx.py": ctx, "app/agent.py": tools}
    assert _codes(tmp_path, files, "app/agent.py", ("SIB102",)) == [("SIB102", 6)]


def test_effect_behind_a_context_var(tmp_path: Path) -> None:
    repo = ("import sqlite3\n\nclass Repo:\n    def delete(self, key: str) -> None:\n"
            "        sqlite3.connect('db').execute('DELETE FROM rows WHERE k = ?', (key,))\n")
    tools = ("from contextvars import ContextVar\nfrom agents import function_tool\nfrom app.repo import Repo\n\n"
             "current_repo: ContextVar[Repo] = ContextVar('current_repo')\n\n"
             "@function_tool\ndef forget(key: str) -> str:\n    current_repo.get().delete(key)\n    return 'ok'\n")
    files = {"app/repo.py": repo, "app/agent.py": tools}
    assert _codes(tmp_path, files, "app/agent.py", ("SIB101",)) == [("SIB101", 8)]



# ---- a method called on a loop variable --------------------------------------------------------
GRAPH = ("class Graph:\n    def __init__(self, name: str) -> None:\n        self.name = name\n\n"
         "    def save(self, path: str) -> None:\n        with open(path, 'w') as f:\n            f.write(self.name)\n\n"
         "    def size(self) -> int:\n        return len(self.name)\n")
LOOPS = {
    "annotated_attribute": ("class Store:\n    def __init__(self) -> None:\n        self.graphs: list[Graph] = []\n\n"
                            "STORE = Store()\n\n@function_tool\ndef save_all() -> str:\n"
                            "    for g in STORE.graphs:\n        g.{method}('/data/' + g.name)\n    return 'ok'\n"),
    "method_over_typed_attribute": ("from typing import List\n\nclass Store:\n    graphs: List[Graph]\n\n"
                                    "    def save_all(self) -> None:\n        for g in self.graphs:\n"
                                    "            g.{method}('/data/' + g.name)\n\nSTORE = Store()\n\n"
                                    "@function_tool\ndef save_all() -> str:\n    STORE.save_all()\n    return 'ok'\n"),
    "annotated_local": ("@function_tool\ndef save_all(names: list[str]) -> str:\n"
                        "    graphs: list[Graph] = [Graph(n) for n in names]\n"
                        "    for g in graphs:\n        g.{method}('/data/' + g.name)\n    return 'ok'\n"),
    "comprehension": ("@function_tool\ndef save_all(names: list[str]) -> str:\n"
                      "    for g in [Graph(n) for n in names]:\n        g.{method}('/data/' + g.name)\n    return 'ok'\n"),
    "list_display": ("@function_tool\ndef save_all() -> str:\n"
                     "    for g in [Graph('a'), Graph('b')]:\n        g.{method}('/data/' + g.name)\n    return 'ok'\n"),
    "dict_values": ("GRAPHS: dict[str, Graph] = {}\n\n@function_tool\ndef save_all() -> str:\n"
                    "    for g in GRAPHS.values():\n        g.{method}('/data/' + g.name)\n    return 'ok'\n"),
    "returned_list": ("def load() -> list[Graph]:\n    return []\n\n@function_tool\ndef save_all() -> str:\n"
                      "    for g in load():\n        g.{method}('/data/' + g.name)\n    return 'ok'\n"),
}


@pytest.mark.parametrize("shape", sorted(LOOPS))
def test_a_method_called_on_a_loop_variable_is_the_element_class_method(tmp_path: Path, shape: str) -> None:
    """`for g in self.graphs: g.save(...)`: the element class is what the container's items or its
    annotation name; its read-only twin (`g.size()`) stays silent."""
    head = "from agents import function_tool\nfrom app.graph import Graph\n\n"
    for method, expected in (("save", ["SIB101"]), ("size", [])):
        files = {"app/graph.py": GRAPH, "app/agent.py": head + LOOPS[shape].replace("{method}", method)}
        assert [code for code, _ in _codes(tmp_path, files, "app/agent.py", ("SIB101",))] == expected, method


def test_a_callable_handed_down_through_helpers_is_the_one_given(tmp_path: Path) -> None:
    """DefectDojo's shape: the tool's nested `_post` goes through `execute(name, func)` to
    `with_retry(func)`, which calls it: four functions below the tool."""
    retry = ("def with_retry(func, *args, attempts=3, **kwargs):\n    for _ in range(attempts):\n"
             "        try:\n            return func(*args, **kwargs)\n        except Exception:\n            pass\n\n\n"
             "def execute(name, func, *args, retryable=None, **kwargs):\n    return with_retry(func, *args, **kwargs)\n")
    tools = ("import httpx\nfrom agents import function_tool\nfrom app.retry import execute\n\n\n"
             "def post_order(url: str):\n    def _post():\n        return httpx.{verb}(url)\n"
             "    return execute('orders', _post, retryable=(ValueError,))\n\n\n"
             "@function_tool\ndef order(url: str) -> str:\n    post_order(url)\n    return 'ok'\n")
    for verb, expected in (("post", [("SIB101", 13)]), ("get", [])):
        files = {"app/retry.py": retry, "app/agent.py": tools.replace("{verb}", verb)}
        assert _codes(tmp_path, files, "app/agent.py", ("SIB101",)) == expected, verb


def test_a_bound_method_registered_as_a_tool_is_that_method(tmp_path: Path) -> None:
    """ksinistr's plugins: `agent.tool_plain(self.create_event)` in a plugin's `register` makes the
    class's method a tool; its read-only sibling stays silent."""
    plugin = ("import requests\nfrom pydantic_ai import Agent\n\n\nclass CalendarPlugin:\n"
              "    def register(self, agent: Agent[None, str]) -> None:\n"
              "        agent.tool_plain(self.list_events)\n        agent.tool_plain(self.create_event)\n\n"
              "    def list_events(self) -> str:\n        return requests.get('https://cal.example.com/events').text\n\n"
              "    def create_event(self, title: str) -> str:\n"
              "        return requests.post('https://cal.example.com/events', json={'title': title}).text\n")
    assert _codes(tmp_path, {"app/plugin.py": plugin}, "app/plugin.py", ("SIB101",)) == [("SIB101", 13)]
