"""Runtime truth for SIB404, SIB405, SIB407, SIB408 and SIB409: each INVALID shape is run and must
cause its harm (a charge repeated, a retry that never came, a request spent on an answer that cannot
change), each fixed twin is run and must not; then the same module text is linted.

Scenarios are module texts run in one subprocess (`run_scenarios`), each defining
`async def main() -> dict`. Two loopback fakes stand in for the world:

* payments (`PAYMENTS_URL`): records each charge when the request arrives (the server has acted),
  then waits `delay` seconds before answering, so a client with a shorter timeout never hears the
  outcome; a repeated `Idempotency-Key` creates nothing new;
* a Chat Completions model (`MODEL_URL`): a model named `fail-<status>-<n>` answers that status to
  its first n requests, then a plain answer.

Retry-library scenarios call the retried helper once ("charge order-1 once"), as the tool would;
the tool is in the module so the lint sees the path from a tool to the wrapper.
Versions: tenacity 9.2.1, backoff 2.2.1, stamina 26.1.0, langgraph 1.2.24, langchain 1.5.2,
openai-agents 0.24.0 (the test extra).
"""

from __future__ import annotations

import json
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import pytest
from siblint.lint.engine import lint_text
from siblint.rule_api.registry import all_codes
from siblint.settings.config import Config

pytestmark = pytest.mark.runtime

DRIVER = r'''
import asyncio, importlib.util, json, os, sys, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOCK = threading.Lock()
CHARGES, POSTS, KEYS, MODEL = {}, {}, {}, {}


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass

    def send_json(self, status, payload):
        data = json.dumps(payload).encode()
        try:
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up: the server acted all the same

    def do_POST(self):
        self.rfile.read(int(self.headers.get("content-length") or 0))
        _, name, kind, *rest = self.path.split("/")
        if kind == "charges":
            key = self.headers.get("Idempotency-Key")
            with LOCK:
                POSTS[name] = POSTS.get(name, 0) + 1
                seen = KEYS.setdefault(name, set())
                if key is None or key not in seen:
                    CHARGES[name] = CHARGES.get(name, 0) + 1
                if key is not None:
                    seen.add(key)
            time.sleep(float(rest[0]) if rest else 0.0)  # /<name>/charges/<delay>
            self.send_json(200, {"id": f"ch_{CHARGES.get(name, 0)}"})
            return
        with LOCK:  # /<name>/v1/chat/completions
            MODEL[name] = n = MODEL.get(name, 0) + 1
        body_model = name.split("__")[-1]
        _, status, failures = body_model.split("-")
        if n <= int(failures):
            self.send_json(int(status), {"error": {"message": "scripted failure", "type": "server_error"}})
            return
        self.send_json(200, {"id": "c", "object": "chat.completion", "created": 0, "model": "m",
                             "choices": [{"index": 0, "finish_reason": "stop", "logprobs": None,
                                          "message": {"role": "assistant", "content": "ok"}}],
                             "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}})


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
threading.Thread(target=server.serve_forever, daemon=True).start()
BASE = f"http://127.0.0.1:{server.server_port}"


async def one(path):
    name = os.path.basename(path)[:-3]
    os.environ["PAYMENTS_URL"] = f"{BASE}/{name}/charges"
    os.environ["MODEL_URL"] = f"{BASE}/{name}/v1"
    out = {"name": name, "raised": None}
    t0 = time.monotonic()
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        out.update(await asyncio.wait_for(mod.main(), 20))
    except BaseException as exc:  # report whatever the scenario raised, and go on
        out["raised"] = type(exc).__name__
    out["seconds"] = round(time.monotonic() - t0, 2)
    await asyncio.sleep(0.1)  # charges count on arrival; this only lets the last request reach the server
    with LOCK:
        out.update(charges=CHARGES.get(name, 0), posts=POSTS.get(name, 0), model_requests=MODEL.get(name, 0))
    return out


async def run_all(paths):
    return [await one(p) for p in paths]

print("RESULTS " + json.dumps(asyncio.run(run_all(sys.argv[1:]))))
'''


def run_scenarios(scenarios: dict[str, str], workdir: Path) -> dict[str, dict]:
    driver = workdir / "driver.py"
    driver.write_text(DRIVER, encoding="utf-8")
    paths = []
    for name, source in scenarios.items():
        path = workdir / f"{name}.py"
        path.write_text(source, encoding="utf-8")
        paths.append(str(path))
    env = {"NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost", "PATH": "/usr/bin:/bin",
           "LANGCHAIN_TRACING_V2": "false", "OPENAI_AGENTS_DISABLE_TRACING": "1", "PYTHONWARNINGS": "ignore",
           "OPENAI_API_KEY": "sk-fake"}
    proc = subprocess.run([sys.executable, str(driver), *paths], cwd=workdir, capture_output=True, text=True,
                          timeout=180, env=env)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULTS ")]
    assert proc.returncode == 0 and lines, f"driver failed ({proc.returncode}):\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}"
    return {r["name"]: r for r in json.loads(lines[-1][len("RESULTS "):])}


# ---- retry libraries around a POST whose answer never comes in time (SIB404, SIB409) ----------
LIB_HEAD = '''\
import asyncio, os
import backoff, httpx, stamina, tenacity
from agents import function_tool

PAYMENTS = os.environ["PAYMENTS_URL"] + "/0.5"  # the server acts at once, answers after 0.5 s


async def post(order: str) -> str:
    async with httpx.AsyncClient(timeout=0.2) as http:
        r = await http.post(PAYMENTS, json={"order": order, "amount": 1000})
    return r.text


async def post_with_key(order: str) -> str:
    async with httpx.AsyncClient(timeout=0.2) as http:
        r = await http.post(PAYMENTS, json={"order": order, "amount": 1000}, headers={"Idempotency-Key": f"charge:{order}"})
    return r.text
'''
LIB_TAIL = '''

@function_tool
async def charge(order: str) -> str:
    return await _charge(order)


async def main() -> dict:
    try:
        await asyncio.wait_for(_charge("order-1"), {bound})
    except Exception as exc:
        return {{"raised": type(exc).__name__}}
    return {{}}
'''


def lib(decorator: str, key: bool = False, bound: float = 10.0) -> str:
    body = f'\n\n{decorator}\nasync def _charge(order: str) -> str:\n    return await {"post_with_key" if key else "post"}(order)\n'
    return LIB_HEAD + body + LIB_TAIL.format(bound=bound)


STOP3 = "stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_fixed(0.01)"
SCENARIOS = {
    # F1: three attempts, three charges for one order.
    "f1_tenacity": lib(f"@tenacity.retry({STOP3})"),
    # F2 (fix): only connect errors are retried; the read timeout surfaces after one charge.
    "f2_tenacity_connect_only": lib(f"@tenacity.retry({STOP3}, retry=tenacity.retry_if_exception_type(httpx.ConnectError))"),
    # F3 (fix): a stable key: three POSTs, one charge.
    "f3_tenacity_stable_key": lib(f"@tenacity.retry({STOP3})", key=True),
    # F4, F5: backoff and stamina, bounded, still three charges.
    "f4_backoff": lib("@backoff.on_exception(backoff.expo, httpx.HTTPError, max_tries=3, factor=0.01)"),
    "f5_stamina": lib("@stamina.retry(on=httpx.HTTPError, attempts=3, wait_initial=0.01, wait_max=0.05)"),
    # F6: bare @retry never stops; only the outer 1.2 s timeout ends it.
    "f6_tenacity_unbounded": lib("@tenacity.retry", bound=1.2),
    # F6 fixed: a stop ends it on its own, well inside the same outer timeout.
    "f6_tenacity_bounded": lib("@tenacity.retry(stop=tenacity.stop_after_attempt(2))", bound=1.2),
}

# ---- ToolRetryMiddleware around the same POST (SIB404) ----------------------------------------
MIDDLEWARE = '''\
import os
import httpx
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langchain_core.tools import tool
from langchain.agents import create_agent
from langchain.agents.middleware import ToolRetryMiddleware

PAYMENTS = os.environ["PAYMENTS_URL"] + "/0.5"


class FakeModel(GenericFakeChatModel):
    def bind_tools(self, tools, **kwargs):
        return self


@tool
async def charge_card(order: str) -> str:
    """Charge the card for an order."""
    async with httpx.AsyncClient(timeout=0.2) as http:
        r = await http.post(PAYMENTS, json={{"order": order}})
    return r.text


async def main() -> dict:
    model = FakeModel(messages=iter([
        AIMessage(content="", tool_calls=[{{"name": "charge_card", "args": {{"order": "order-1"}}, "id": "1",
                                            "type": "tool_call"}}]),
        AIMessage(content="done")]))
    agent = create_agent(model, tools=[charge_card], middleware=[ToolRetryMiddleware({args})])
    await agent.ainvoke({{"messages": [("user", "charge order-1")]}})
    return {{}}
'''
SCENARIOS |= {
    "mw_tool_retry": MIDDLEWARE.format(args="max_retries=2, initial_delay=0.01, jitter=False"),
    "mw_tool_retry_connect_only": MIDDLEWARE.format(
        args="max_retries=2, initial_delay=0.01, jitter=False, retry_on=(httpx.ConnectError,)"),
}

# ---- a retry policy on the ToolNode node (SIB405) ---------------------------------------------
GRAPH = '''\
import os
import httpx
from langchain_core.messages import AIMessage
from langchain_core.tools import tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode
from langgraph.types import RetryPolicy

PAYMENTS = os.environ["PAYMENTS_URL"]
POLICY = RetryPolicy(max_attempts=3, initial_interval=0.01, jitter=False)


@tool
async def charge_card(order: str) -> str:
    """Charge the card for an order."""
    async with httpx.AsyncClient(timeout=2) as http:
        r = await http.post(PAYMENTS, json={{"order": order}})
    return r.text


@tool
def lookup_tax(order: str) -> str:
    """Look up the tax for an order."""
    raise ConnectionError("tax service unreachable")


async def main() -> dict:
{build}
    turn = AIMessage(content="", tool_calls=[
        {{"name": "charge_card", "args": {{"order": "order-1"}}, "id": "c1", "type": "tool_call"}},
        {{"name": "lookup_tax", "args": {{"order": "order-1"}}, "id": "c2", "type": "tool_call"}}])
    await graph.ainvoke({{"messages": [turn]}})
    return {{}}
'''
SCENARIOS |= {
    # C1: the failing sibling makes the node run again: every attempt charges again.
    "c1_node_policy": GRAPH.format(build='''\
    builder = StateGraph(MessagesState)
    builder.add_node("tools", ToolNode([charge_card, lookup_tax]), retry_policy=POLICY)
    builder.add_edge(START, "tools")
    builder.add_edge("tools", END)
    graph = builder.compile()'''),
    # C5, in one chain of builder calls: the graph-wide default does the same.
    "c5_node_defaults_chained": GRAPH.format(build='''\
    graph = (StateGraph(MessagesState).set_node_defaults(retry_policy=POLICY)
             .add_node("tools", ToolNode([charge_card, lookup_tax]))
             .add_edge(START, "tools").add_edge("tools", END).compile())'''),
    # C3 (fix): the failure becomes a ToolMessage; nothing raises past the node, nothing repeats.
    "c3_node_policy_handled": GRAPH.format(build='''\
    builder = StateGraph(MessagesState)
    builder.add_node("tools", ToolNode([charge_card, lookup_tax], handle_tool_errors=True), retry_policy=POLICY)
    builder.add_edge(START, "tools")
    builder.add_edge("tools", END)
    graph = builder.compile()'''),
}

# ---- model retry settings (SIB407, SIB408) ----------------------------------------------------
MODEL = '''\
import os
from openai import AsyncOpenAI
from agents import Agent, ModelRetrySettings, ModelSettings, OpenAIChatCompletionsModel, Runner, retry_policies

BACKOFF = {{"initial_delay": 0.01, "max_delay": 0.02}}


async def main() -> dict:
    client = AsyncOpenAI(base_url=os.environ["MODEL_URL"], api_key="sk-fake", max_retries=0)
    agent = Agent(name="support", model=OpenAIChatCompletionsModel(model="m", openai_client=client),
                  model_settings=ModelSettings(retry={settings}))
    await Runner.run(agent, "hello")
    return {{}}
'''
# The model's script is the part of the name after "__": `fail-<status>-<count>`.
SCENARIOS |= {
    # D1: max_retries without a policy: one 503 ends the run after one request.
    "d1_no_policy__fail-503-1": MODEL.format(settings="ModelRetrySettings(max_retries=3, backoff=BACKOFF)"),
    # D2 (fix): a policy: the 503 is retried and the run succeeds.
    "d2_policy__fail-503-1": MODEL.format(
        settings="ModelRetrySettings(max_retries=3, backoff=BACKOFF, policy=retry_policies.http_status([503]))"),
    # D6: 400 listed: two 400s are retried (three requests where one answer was final).
    "d6_permanent_status__fail-400-2": MODEL.format(
        settings="ModelRetrySettings(max_retries=3, backoff=BACKOFF, policy=retry_policies.http_status([400, 503]))"),
    # D6 fixed: only transient statuses: the 400 is final after one request.
    "d6_transient_only__fail-400-2": MODEL.format(
        settings="ModelRetrySettings(max_retries=3, backoff=BACKOFF, policy=retry_policies.http_status([429, 503]))"),
}


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> dict[str, dict]:
    return run_scenarios(SCENARIOS, tmp_path_factory.mktemp("retries-runtime"))


@lru_cache(maxsize=None)
def _codes(name: str, root: str) -> frozenset[str]:
    config = Config(root=root, select=tuple(all_codes()))
    return frozenset(d.code for d in lint_text(SCENARIOS[name], path=f"{root}/{name}.py", config=config))


@pytest.fixture(scope="module")
def codes(tmp_path_factory):
    root = str(tmp_path_factory.mktemp("retries-lint"))
    return lambda name: _codes(name, root)


@pytest.mark.parametrize("name", ["f1_tenacity", "f4_backoff", "f5_stamina"])
def test_sib404_retry_library_charges_once_per_attempt(name, results, codes):
    r = results[name]
    assert r["raised"] in ("RetryError", "ReadTimeout"), r
    assert r["posts"] == 3 and r["charges"] == 3, r
    assert "SIB404" in codes(name) and "SIB409" not in codes(name)


def test_sib404_fix_connect_only_charges_once(results, codes):
    r = results["f2_tenacity_connect_only"]
    assert r["raised"] == "ReadTimeout" and r["posts"] == 1 and r["charges"] == 1, r
    assert not {"SIB404", "SIB409"} & codes("f2_tenacity_connect_only")


def test_sib404_fix_stable_key_charges_once(results, codes):
    r = results["f3_tenacity_stable_key"]
    assert r["posts"] == 3 and r["charges"] == 1, r
    assert not {"SIB404", "SIB409"} & codes("f3_tenacity_stable_key")


def test_sib409_unbounded_retry_runs_until_cut_off(results, codes):
    r = results["f6_tenacity_unbounded"]
    # Only the outer wait_for ends it: at 0.2 s per attempt, about six charges in 1.2 s.
    assert r["raised"] == "TimeoutError" and r["charges"] >= 4, r
    assert {"SIB404", "SIB409"} <= codes("f6_tenacity_unbounded")


def test_sib409_fix_bounded_retry_ends_on_its_own(results, codes):
    r = results["f6_tenacity_bounded"]
    assert r["raised"] == "RetryError" and r["charges"] == 2 and r["seconds"] < 1.2, r
    assert "SIB409" not in codes("f6_tenacity_bounded") and "SIB404" in codes("f6_tenacity_bounded")


def test_sib404_tool_retry_middleware_charges_once_per_attempt(results, codes):
    r = results["mw_tool_retry"]
    assert r["posts"] == 3 and r["charges"] == 3, r
    assert "SIB404" in codes("mw_tool_retry")


def test_sib404_fix_tool_retry_middleware_connect_only(results, codes):
    r = results["mw_tool_retry_connect_only"]
    assert r["posts"] == 1 and r["charges"] == 1, r
    assert "SIB404" not in codes("mw_tool_retry_connect_only")


@pytest.mark.parametrize("name", ["c1_node_policy", "c5_node_defaults_chained"])
def test_sib405_node_retry_repeats_the_charge(name, results, codes):
    r = results[name]
    assert r["raised"] == "ConnectionError" and r["charges"] == 3, r
    assert "SIB405" in codes(name)


def test_sib405_fix_handled_tool_errors_charge_once(results, codes):
    r = results["c3_node_policy_handled"]
    assert r["raised"] is None and r["charges"] == 1, r
    assert "SIB405" not in codes("c3_node_policy_handled")


def test_sib407_no_policy_means_no_retry(results, codes):
    r = results["d1_no_policy__fail-503-1"]
    assert r["raised"] == "InternalServerError" and r["model_requests"] == 1, r
    assert "SIB407" in codes("d1_no_policy__fail-503-1")


def test_sib407_fix_policy_retries(results, codes):
    r = results["d2_policy__fail-503-1"]
    assert r["raised"] is None and r["model_requests"] == 2, r
    assert "SIB407" not in codes("d2_policy__fail-503-1")


def test_sib408_permanent_status_is_retried(results, codes):
    r = results["d6_permanent_status__fail-400-2"]
    # The two 400s were retried: three requests for an answer that was final at the first.
    assert r["raised"] is None and r["model_requests"] == 3, r
    assert "SIB408" in codes("d6_permanent_status__fail-400-2")


def test_sib408_fix_transient_statuses_only(results, codes):
    r = results["d6_transient_only__fail-400-2"]
    assert r["raised"] == "BadRequestError" and r["model_requests"] == 1, r
    assert "SIB408" not in codes("d6_transient_only__fail-400-2")
