"""Runtime truth (issue 13), llama-index: every SIB301 variant siblint reports for a FunctionAgent /
AgentWorkflow run under a deadline (`timeout=`) is run with the real llama-index-core, and must show
a charge that lands after the run raised `WorkflowTimeoutError`, with no `ToolCallResult` for it;
each fix is run too and must be safe. The same module text is then linted.

llama-index's pins conflict with the test extras, so the scenarios run in a venv apart
(`declare_python`), all at once in one interpreter (`asyncio.gather`): each module defines `main()`,
which runs its agent and streams its events into `RECORD`. The fake model is llama-index's own
`MockFunctionCallingLLM` asking for every tool of `PLAN` in one turn, or, for the OpenAI integration,
the loopback Chat Completions fake; the charges go to the loopback payments sink (`FakeServer`),
which timestamps them on the same monotonic clock the driver stamps the raise with.
"""

from __future__ import annotations

import json
import subprocess
from functools import lru_cache

import pytest

from .environments import declare_python
from .runner import base_env
from .test_langgraph_runtime import lint_codes
from .venvs import SHARED

pytestmark = pytest.mark.runtime

LLAMA = declare_python(*SHARED)  # venvs.LLAMA_INDEX, in the venv it shares with other suites

WAIT_AFTER = 4.0  # the loop stays alive this long after the run ends (> DELAY): orphaned threads and tasks land then

DRIVER = '''
import asyncio, importlib.util, json, os, sys, time
from concurrent.futures import ThreadPoolExecutor

async def one(name, mod):
    out = {"name": name, "raised": False, "exc_type": None}
    try:
        await mod.main()
    except Exception as exc:
        out.update(raised=True, exc_type=type(exc).__name__, message=str(exc)[:300])
    out["end"] = time.monotonic()
    out["recorded"] = list(mod.RECORD)
    await asyncio.sleep(WAIT_AFTER)
    return out

async def warm_up():
    # The first run of a process loads lazily (~0.5 s): done once, so the deadlines measure the tools.
    from llama_index.core.agent.workflow import FunctionAgent
    from llama_index.core.llms.mock import MockFunctionCallingLLM
    await FunctionAgent(name="warm", tools=[], llm=MockFunctionCallingLLM(), streaming=False).run(user_msg="hi")

async def run_all(jobs):
    # Every scenario's sync charge gets a worker thread at once (the default pool has cpu_count + 4).
    asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(max_workers=4 * len(jobs)))
    await warm_up()
    mods = []
    for job in jobs:  # imported one by one: each module reads its own URLs at import
        os.environ["PAYMENTS_URL"], os.environ["MODEL_URL"] = job["payments"], job["model"]
        spec = importlib.util.spec_from_file_location(job["name"], job["path"])
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        mods.append((job["name"], mod))
    return await asyncio.gather(*(one(name, mod) for name, mod in mods))

print("RESULTS " + json.dumps(asyncio.run(run_all(json.loads(sys.argv[1])))))
'''.replace("WAIT_AFTER", repr(WAIT_AFTER))

HEAD = '''\
import asyncio, os, time
import httpx, requests
from llama_index.core.agent.workflow import AgentWorkflow, FunctionAgent, ToolCallResult
from llama_index.core.base.llms.types import ChatMessage, ChatResponse, MessageRole, ToolCallBlock
from llama_index.core.llms.mock import MockFunctionCallingLLM
from llama_index.core.tools import FunctionTool

PAYMENTS = os.environ["PAYMENTS_URL"]
PLAN = ["charge_card", "lookup_rate"]
DEADLINE = 3.0  # the run's timeout=: generous, so that every run reaches its tool calls on a loaded machine
DELAY = 3.6  # the charge's own wait: it lands DELAY - DEADLINE s after the raise
SLOWEST = 5.0  # lookup_rate's: still running when the deadline fires
RECORD = []


class Fake(MockFunctionCallingLLM):
    """One turn calling every tool of PLAN, then a final answer."""

    async def achat(self, messages, **kw):
        if not any(m.role == MessageRole.TOOL for m in messages):
            return ChatResponse(message=ChatMessage(role="assistant", blocks=[
                ToolCallBlock(tool_call_id=str(i), tool_name=n, tool_kwargs={"x": 1}) for i, n in enumerate(PLAN)]))
        return ChatResponse(message=ChatMessage(role="assistant", content="done"))

    async def achat_with_tools(self, tools, user_msg=None, chat_history=None, **kw):
        return await self.achat(chat_history or [])

    async def astream_chat_with_tools(self, tools, user_msg=None, chat_history=None, **kw):
        # from_tools_or_functions builds a streaming FunctionAgent.
        response = await self.achat(chat_history or [])

        async def one():
            yield response
        return one()


async def lookup_rate(x: int) -> str:
    """The slowest call: still running when the deadline fires."""
    await asyncio.sleep(SLOWEST)
    return "0.2"


async def run(runner) -> None:
    handler = runner.run(user_msg="checkout")

    async def consume():
        async for ev in handler.stream_events():
            if isinstance(ev, ToolCallResult):
                RECORD.append(ev.tool_name)

    consumer = asyncio.ensure_future(consume())
    try:
        await handler
    finally:
        await asyncio.sleep(0.01)
        consumer.cancel()
'''

SYNC_CHARGE = '''

def charge_card(x: int) -> str:
    """Sync: llama-index runs it in loop.run_in_executor."""
    time.sleep(DELAY)
    requests.post(PAYMENTS, json={"amount": x})
    return "charged"
'''

THREAD_CHARGE = '''

def _post(x: int) -> None:
    time.sleep(DELAY)
    requests.post(PAYMENTS, json={"amount": x})


async def charge_card(x: int) -> str:
    """Async, but the charge runs in a worker thread."""
    await asyncio.to_thread(_post, x)
    return "charged"
'''

SHIELD_CHARGE = '''

async def _post(x: int) -> None:
    await asyncio.sleep(DELAY)
    async with httpx.AsyncClient() as client:
        await client.post(PAYMENTS, json={"amount": x})


async def charge_card(x: int) -> str:
    """Async, the charge shielded from cancellation."""
    await asyncio.shield(_post(x))
    return "charged"
'''

AWAIT_CHARGE = '''

async def charge_card(x: int) -> str:
    """Async and awaiting: the deadline cancels it before the charge."""
    await asyncio.sleep(DELAY)
    async with httpx.AsyncClient() as client:
        await client.post(PAYMENTS, json={"amount": x})
    return "charged"
'''

# The openai SDK imports its resources lazily on the first request (seconds on a loaded machine):
# imported up front, so that the deadline measures the tools.
OPENAI_HEAD = HEAD.replace("from llama_index.core.tools import FunctionTool\n",
                           "from llama_index.core.tools import FunctionTool\nfrom llama_index.llms.openai import OpenAI\n"
                           "import openai.resources\n")


def _agent(tools: str, options: str = ", timeout=DEADLINE") -> str:
    return f'''

agent = FunctionAgent(name="checkout", tools={tools}, llm=Fake(), streaming=False{options})


async def main() -> None:
    await run(agent)
'''


SCENARIOS = {
    # timeout= on the agent: the deadline fires while lookup_rate runs; the sync charge runs on.
    "fa_sync_deadline": HEAD + SYNC_CHARGE + _agent("[charge_card, lookup_rate]"),
    # The same charge through FunctionTool.from_defaults(fn=...), under an AgentWorkflow's deadline.
    "wf_sync_deadline": HEAD + SYNC_CHARGE + '''

agent = FunctionAgent(name="checkout", tools=[FunctionTool.from_defaults(fn=charge_card), lookup_rate], llm=Fake(),
                      streaming=False)
workflow = AgentWorkflow(agents=[agent], timeout=DEADLINE)


async def main() -> None:
    await run(workflow)
''',
    # AgentWorkflow.from_tools_or_functions(..., timeout=): a FunctionAgent with those tools.
    "from_tools_sync_deadline": HEAD + SYNC_CHARGE + '''

workflow = AgentWorkflow.from_tools_or_functions([charge_card, lookup_rate], llm=Fake(), timeout=DEADLINE)


async def main() -> None:
    await run(workflow)
''',
    # A BaseToolSpec whose listed sync method charges: to_tool_list() makes it a FunctionTool.
    "spec_sync_deadline": HEAD + """
from llama_index.core.tools.tool_spec.base import BaseToolSpec


class Shop(BaseToolSpec):
    spec_functions = ["charge_card"]

    def charge_card(self, x: int) -> str:
        \"\"\"Sync: llama-index runs it in loop.run_in_executor.\"\"\"
        time.sleep(DELAY)
        requests.post(PAYMENTS, json={"amount": x})
        return "charged"
""" + _agent("[*Shop().to_tool_list(), lookup_rate]"),
    "fa_to_thread_deadline": HEAD + THREAD_CHARGE + _agent("[charge_card, lookup_rate]"),
    "fa_shield_deadline": HEAD + SHIELD_CHARGE + _agent("[charge_card, lookup_rate]"),
    # The OpenAI integration enforces allow_parallel_tool_calls=False (one call kept): the charge runs
    # alone, and is itself the call the deadline catches.
    "openai_one_call_deadline": OPENAI_HEAD + SYNC_CHARGE + '''

llm = OpenAI(model="gpt-4o-mini", api_base=os.environ["MODEL_URL"], api_key="sk-fake", max_retries=0)
agent = FunctionAgent(name="checkout", tools=[charge_card, lookup_rate], llm=llm, streaming=False, timeout=DEADLINE,
                      allow_parallel_tool_calls=False)


async def main() -> None:
    await run(agent)
''',
    # Fix: no deadline. Tool errors reach the model, so nothing ends the run: the charge is recorded.
    "fa_sync_no_deadline": HEAD + SYNC_CHARGE + _agent("[charge_card, lookup_rate]", ""),
    # Fix: the workflow's deadline explicitly off.
    "wf_sync_timeout_none": HEAD + SYNC_CHARGE + '''

agent = FunctionAgent(name="checkout", tools=[charge_card, lookup_rate], llm=Fake(), streaming=False)
workflow = AgentWorkflow(agents=[agent], timeout=None)


async def main() -> None:
    await run(workflow)
''',
    # Fix: an async, awaiting charge is cancelled by the deadline and never lands.
    "fa_await_deadline": HEAD + AWAIT_CHARGE + _agent("[charge_card, lookup_rate]"),
}

HAZARDS = ("fa_sync_deadline", "wf_sync_deadline", "from_tools_sync_deadline", "spec_sync_deadline", "fa_to_thread_deadline",
           "fa_shield_deadline", "openai_one_call_deadline")


@pytest.fixture(scope="module")
def results(fake_server, tmp_path_factory) -> dict[str, dict]:
    workdir = tmp_path_factory.mktemp("llama-index-runtime")
    driver = workdir / "driver.py"
    driver.write_text(DRIVER, encoding="utf-8")
    jobs = []
    for name, source in SCENARIOS.items():
        path = workdir / f"{name}.py"
        path.write_text(source, encoding="utf-8")
        urls = fake_server.urls(name)
        jobs.append({"name": name, "path": str(path), "payments": urls["FAKE_PAYMENTS_URL"], "model": urls["FAKE_MODEL_URL"]})
    proc = subprocess.run([str(LLAMA.python()), str(driver), json.dumps(jobs)], cwd=workdir, capture_output=True,
                          text=True, timeout=120, env=base_env())
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULTS ")]
    assert proc.returncode == 0 and lines, f"driver failed ({proc.returncode}):\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}"
    out = {}
    for r in json.loads(lines[-1][len("RESULTS "):]):
        log = fake_server.log(r["name"])
        r["after_end"] = [round(p["t"] - r["end"], 3) for p in log["payments"]]
        r["model_requests"] = log["model_requests"]
        out[r["name"]] = r
    return out


@lru_cache(maxsize=None)
def _codes(name: str, root: str) -> frozenset[str]:
    return frozenset(lint_codes(SCENARIOS[name], root, name))


@pytest.fixture(scope="module")
def codes(tmp_path_factory):
    root = str(tmp_path_factory.mktemp("llama-index-lint"))
    return lambda name: _codes(name, root)


def _timed_out(r: dict) -> bool:
    return r["raised"] and r["exc_type"] == "WorkflowTimeoutError"


@pytest.mark.parametrize("name", HAZARDS)
def test_deadline_variant_lands_after_the_run_raised(name, results, codes):
    r = results[name]
    assert _timed_out(r), r
    # The charge arrived after the raise, and the run recorded no result for it.
    assert r["after_end"] and all(t > 0 for t in r["after_end"]) and "charge_card" not in r["recorded"], r
    assert "SIB301" in codes(name), codes(name)


@pytest.mark.parametrize("name, code", [
    ("fa_sync_deadline", "SIB101"), ("wf_sync_deadline", "SIB101"), ("from_tools_sync_deadline", "SIB101"),
    ("spec_sync_deadline", "SIB101"),
    ("fa_to_thread_deadline", "SIB102"), ("fa_shield_deadline", "SIB105"),
])
def test_the_victim_is_reported_for_its_own_reason(name, code, codes):
    assert code in codes(name), codes(name)


def test_enforced_one_call_hint_still_loses_the_charge(results):
    r = results["openai_one_call_deadline"]
    # llama-index-llms-openai sent parallel_tool_calls=False and kept one call: only the charge ran.
    first = r["model_requests"][0]
    assert first["parallel_tool_calls"] is False and first["tool_calls"] == 2, r
    assert len(r["after_end"]) == 1, r


@pytest.mark.parametrize("name", ["fa_sync_no_deadline", "wf_sync_timeout_none"])
def test_without_a_deadline_the_run_returns_with_the_charge_recorded(name, results, codes):
    r = results[name]
    assert not r["raised"] and "charge_card" in r["recorded"], r
    assert r["after_end"] and all(t <= 0 for t in r["after_end"]), r
    found = codes(name)
    assert "SIB301" not in found and "SIB203" not in found, found


def test_an_awaiting_charge_is_cancelled_by_the_deadline(results, codes):
    r = results["fa_await_deadline"]
    assert _timed_out(r) and r["after_end"] == [], r
    found = codes("fa_await_deadline")
    assert not found & {"SIB101", "SIB102", "SIB105", "SIB301"}, found


def test_a_deadline_is_not_reported_as_a_tool_timeout(codes):
    for name in HAZARDS:
        assert "SIB203" not in codes(name), name
