"""Runtime truth (issue 4), LangGraph: each SIB301 variant is run with the real langgraph/langchain
and a fake chat model, and must show a charge that lands after the run raised; each fix is run too
and must be safe. The same module text is then linted.

Scenarios are module texts run in one subprocess per framework (`run_scenarios`): each defines
`async def main() -> bool` (True when the run's result records charge_card's output). A local
HTTP server stands in for the payments API and timestamps every POST; after each run the driver
keeps the event loop alive until the scenario's charge has landed (and 0.3 s more) or 2 s have
passed, so orphaned tasks and threads get the chance to land (a fixed 0.8 s was too short for a
shielded task's first httpx client under load 12).
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from functools import lru_cache
from pathlib import Path

import pytest
from siblint.lint.engine import lint_text
from siblint.rule_api.registry import all_codes
from siblint.settings.config import Config

pytestmark = pytest.mark.runtime

DRIVER = '''
import asyncio, importlib.util, json, os, sys, threading, time, traceback
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HITS = []

class Payments(BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get("content-length") or 0))
        HITS.append((self.path, time.monotonic()))
        self.send_response(200); self.send_header("content-length", "2"); self.end_headers(); self.wfile.write(b"ok")
    def log_message(self, *a):
        pass

server = ThreadingHTTPServer(("127.0.0.1", 0), Payments)
threading.Thread(target=server.serve_forever, daemon=True).start()

async def one(path):
    name = os.path.basename(path)[:-3]
    os.environ["PAYMENTS_URL"] = f"http://127.0.0.1:{server.server_port}/charges/{name}"
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
    out = {"name": name, "raised": False, "exc_type": None, "recorded": False}
    try:
        out["recorded"] = bool(await mod.main())
    except Exception as exc:
        out.update(raised=True, exc_type=type(exc).__name__, message=str(exc)[:300])
        out["recorded"] = bool(getattr(mod, "RECORDED", None))  # what the run kept although it raised
    end = time.monotonic()
    await landed(name)  # the loop stays alive: orphaned tasks and threads may land now
    out["after_end"] = [round(t - end, 3) for p, t in HITS if p.endswith("/" + name)]
    return out

async def landed(name, limit=2.0, more=0.3):
    start = time.monotonic()
    while time.monotonic() - start < limit:
        if any(p.endswith("/" + name) for p, _ in HITS):
            await asyncio.sleep(more)
            return
        await asyncio.sleep(0.02)

async def run_all(paths):
    return [await one(p) for p in paths]

print("RESULTS " + json.dumps(asyncio.run(run_all(sys.argv[1:]))))
'''


def run_scenarios(scenarios: dict[str, str], workdir: Path, python: str = sys.executable) -> dict[str, dict]:
    """Run every scenario (name -> module text) in one fresh interpreter (`python`: another venv's,
    for a framework that cannot share the test venv); results by name."""
    driver = workdir / "driver.py"
    driver.write_text(DRIVER, encoding="utf-8")
    paths = []
    for name, source in scenarios.items():
        path = workdir / f"{name}.py"
        path.write_text(source, encoding="utf-8")
        paths.append(str(path))
    env = {"NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost", "PATH": "/usr/bin:/bin",
           "LANGCHAIN_TRACING_V2": "false", "PYTHONWARNINGS": "ignore"}
    proc = subprocess.run([python, str(driver), *paths], cwd=workdir, capture_output=True, text=True,
                          timeout=120, env=env)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULTS ")]
    assert proc.returncode == 0 and lines, f"driver failed ({proc.returncode}):\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}"
    return {r["name"]: r for r in json.loads(lines[-1][len("RESULTS "):])}


def lint_codes(source: str, root: str, name: str) -> set[str]:
    config = Config(root=root, select=tuple(all_codes()))
    return {d.code for d in lint_text(source, path=f"{root}/{name}.py", config=config)}


HEAD = '''\
import asyncio, os, time
import httpx, requests
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.tools import tool

PAYMENTS = os.environ["PAYMENTS_URL"]


class FakeModel(GenericFakeChatModel):
    def bind_tools(self, tools, **kwargs):
        return self


def two_calls(first: str, second: str) -> AIMessage:
    return AIMessage(content="", tool_calls=[
        {"name": first, "args": {"x": 1}, "id": "1", "type": "tool_call"},
        {"name": second, "args": {"x": 1}, "id": "2", "type": "tool_call"}])


def recorded(messages) -> bool:
    return any(isinstance(m, ToolMessage) and m.name == "charge_card" and m.content == "charged" for m in messages)


@tool
async def lookup_tax(x: int) -> str:
    """Tax rate."""
    await asyncio.sleep(0.05)
    raise RuntimeError("tax service down")
'''

SYNC_CHARGE = '''
@tool
def charge_card(x: int) -> str:
    """Charge the card."""
    time.sleep(0.3)
    requests.post(PAYMENTS, json={"amount": x})
    return "charged"
'''

ASYNC_CHARGE = '''
@tool
async def charge_card(x: int) -> str:
    """Charge the card."""
    await asyncio.sleep(0.3)
    async with httpx.AsyncClient() as client:
        await client.post(PAYMENTS, json={"amount": x})
    return "charged"
'''

AGENT = '''
from langchain.agents import create_agent
from langchain.agents.middleware import ToolRetryMiddleware


async def main() -> bool:
    model = FakeModel(messages=iter([two_calls("charge_card", "lookup_tax"), AIMessage(content="done")]))
    agent = create_agent(model, tools=[charge_card, lookup_tax]{middleware})
    result = await agent.ainvoke({{"messages": [("user", "checkout")]}}{config})
    return recorded(result["messages"])
'''

NODE = '''
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode


async def main() -> bool:
    builder = StateGraph(MessagesState)
    builder.add_node("tools", ToolNode([charge_card, lookup_tax]{handler}))
    builder.add_edge(START, "tools")
    builder.add_edge("tools", END)
    graph = builder.compile()
    result = await graph.ainvoke({{"messages": [two_calls("charge_card", "lookup_tax")]}})
    return recorded(result["messages"])
'''

SCENARIOS = {
    # create_agent: each call its own Pregel task; the failure cancels the task of the sync charge,
    # whose thread runs on and charges after the run raised.
    "lg_agent_sync": HEAD + SYNC_CHARGE + AGENT.format(middleware="", config=""),
    # Fix: ToolRetryMiddleware turns lookup_tax's error into a message; the run resolves.
    "lg_agent_sync_retry_mw": HEAD + SYNC_CHARGE + AGENT.format(
        middleware=", middleware=[ToolRetryMiddleware(max_retries=0, initial_delay=0)]", config=""),
    # Fix: max_concurrency=1 runs the calls one after the other: the charge lands before the failure.
    "lg_agent_sync_serial": HEAD + SYNC_CHARGE + AGENT.format(middleware="", config=', config={"max_concurrency": 1}'),
    # A ToolNode used directly as a node: asyncio.gather cancels nothing, so even an awaiting
    # async charge lands after the run raised.
    "lg_node_async": HEAD + ASYNC_CHARGE + NODE.format(handler=""),
    # Fix: handle_tool_errors=True: the error reaches the model, the run resolves with both results.
    "lg_node_async_handled": HEAD + ASYNC_CHARGE + NODE.format(handler=", handle_tool_errors=True"),
    # create_agent with an async awaiting charge: cancelled mid-flight, never lands (not a SIB301 mix).
    "lg_agent_async": HEAD + ASYNC_CHARGE + AGENT.format(middleware="", config=""),
}


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> dict[str, dict]:
    return run_scenarios(SCENARIOS, tmp_path_factory.mktemp("langgraph-runtime"))


@lru_cache(maxsize=None)
def _codes(name: str, root: str) -> frozenset[str]:
    return frozenset(lint_codes(SCENARIOS[name], root, name))


@pytest.fixture(scope="module")
def codes(tmp_path_factory):
    root = str(tmp_path_factory.mktemp("langgraph-lint"))
    return lambda name: _codes(name, root)


def hazard(r: dict) -> bool:
    """The run raised, a charge landed after it, and nothing recorded it."""
    return r["raised"] and bool(r["after_end"]) and all(t > 0 for t in r["after_end"]) and not r["recorded"]


@pytest.mark.parametrize("name", ["lg_agent_sync", "lg_node_async"])
def test_sib301_variant_lands_after_the_run_raised(name, results, codes):
    r = results[name]
    assert r["exc_type"] == "RuntimeError" and "tax service down" in r["message"], r
    assert hazard(r), r
    assert "SIB301" in codes(name)


def test_create_agent_sync_sibling_is_also_sib101(codes):
    assert "SIB101" in codes("lg_agent_sync")


def test_direct_tool_node_async_sibling_is_only_sib301(codes):
    # The charge awaits an async client: no SIB101-SIB105, yet the ToolNode node cancels nothing.
    found = codes("lg_node_async")
    assert "SIB301" in found and not any(c.startswith("SIB10") for c in found), found


def test_tool_retry_middleware_fix_resolves_the_run(results, codes):
    r = results["lg_agent_sync_retry_mw"]
    assert not r["raised"] and r["recorded"], r
    assert len(r["after_end"]) == 1 and r["after_end"][0] <= 0, r
    assert "SIB301" not in codes("lg_agent_sync_retry_mw")


def test_max_concurrency_one_fix_lands_the_charge_before_the_failure(results, codes):
    r = results["lg_agent_sync_serial"]
    # Serialised: the charge ran first and completed before lookup_tax failed; nothing after the raise.
    assert r["raised"] and r["after_end"] and all(t <= 0 for t in r["after_end"]), r
    assert "SIB301" not in codes("lg_agent_sync_serial")


def test_handle_tool_errors_fix_resolves_the_run(results, codes):
    r = results["lg_node_async_handled"]
    assert not r["raised"] and r["recorded"], r
    assert r["after_end"] and all(t <= 0 for t in r["after_end"]), r
    assert "SIB301" not in codes("lg_node_async_handled")


def test_create_agent_cancels_an_awaiting_async_sibling(results, codes):
    r = results["lg_agent_async"]
    assert r["raised"] and r["after_end"] == [], r
    assert "SIB301" not in codes("lg_agent_async")


def test_scenarios_are_plain_modules():
    for name, source in SCENARIOS.items():
        compile(textwrap.dedent(source), name, "exec")
