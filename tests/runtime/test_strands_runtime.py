"""Runtime truth (issue 13), strands-agents 1.62.0: every INVALID spelling siblint reports for
strands is run with the real SDK, in a venv apart from the test extras, against an in-process fake `Model` that calls
every advertised tool in one turn. Each must land its charge (a POST to the driver's loopback
payments server) with nothing in `agent.messages`; each fixed twin must not. The same module text
is then linted, so the rule's claim and the runtime truth are tied.

Scenarios share `run_scenarios` (one interpreter per chunk, chunks in parallel) with the LangGraph
suite. A scenario's `main()` fills `RECORDED` with the charge results `agent.messages` kept, also
when the run raised; a 3 s guard turns a hung run into `TimeoutError`.
"""

from __future__ import annotations

import textwrap
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache

import pytest

from .environments import declare_python
from .test_langgraph_runtime import lint_codes, run_scenarios
from .venvs import SHARED

pytestmark = pytest.mark.runtime

# The version frameworks-wave2.md measured (venvs.STRANDS), in the venv it shares with other suites.
STRANDS = declare_python(*SHARED)

HEAD = '''\
import asyncio, json, os, time
import httpx, requests
from strands import Agent, tool
from strands.hooks import AfterToolCallEvent, BeforeToolCallEvent
from strands.models.model import Model

PAYMENTS = os.environ["PAYMENTS_URL"]
RECORDED = []


class FakeModel(Model):
    """Calls every advertised tool once in the first turn, then answers."""

    def update_config(self, **kw):
        pass

    def get_config(self):
        return {}

    async def structured_output(self, *a, **k):
        raise NotImplementedError
        yield

    async def stream(self, messages, tool_specs=None, system_prompt=None, **kw):
        yield {"messageStart": {"role": "assistant"}}
        if not any("toolResult" in c for m in messages for c in m["content"]):
            for i, spec in enumerate(tool_specs or []):
                yield {"contentBlockStart": {"start": {"toolUse": {"toolUseId": f"t{i}", "name": spec["name"]}}}}
                yield {"contentBlockDelta": {"delta": {"toolUse": {"input": json.dumps({"x": 1})}}}}
                yield {"contentBlockStop": {}}
            yield {"messageStop": {"stopReason": "tool_use"}}
        else:
            yield {"contentBlockDelta": {"delta": {"text": "done"}}}
            yield {"contentBlockStop": {}}
            yield {"messageStop": {"stopReason": "end_turn"}}


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
    try:
        requests.post(PAYMENTS, json={"amount": x})
    except Exception as exc:  # the charge's own errors reach the model
        return f"charge failed: {exc}"
    return "charged"
'''

THREAD_CHARGE = '''

def _post(x):
    time.sleep(0.3)
    requests.post(PAYMENTS, json={"amount": x})


@tool
async def charge_card(x: int) -> str:
    """Charge the card."""
    try:
        await asyncio.to_thread(_post, x)
    except Exception as exc:
        return f"charge failed: {exc}"
    return "charged"
'''

BLOCKING_CHARGE = '''

@tool
async def charge_card(x: int) -> str:
    """Charge the card."""
    time.sleep(0.3)
    try:
        requests.post(PAYMENTS, json={"amount": x})
    except Exception as exc:
        return f"charge failed: {exc}"
    return "charged"
'''

SWALLOW_CHARGE = '''

@tool
async def charge_card(x: int) -> str:
    """Charge the card."""
    try:
        await asyncio.sleep(0.3)
    except asyncio.CancelledError:
        pass
    try:
        async with httpx.AsyncClient() as client:
            await client.post(PAYMENTS, json={"amount": x})
    except Exception as exc:
        return f"charge failed: {exc}"
    return "charged"
'''

SHIELD_CHARGE = '''

async def _post(x):
    await asyncio.sleep(0.3)
    async with httpx.AsyncClient() as client:
        await client.post(PAYMENTS, json={"amount": x})


@tool
async def charge_card(x: int) -> str:
    """Charge the card."""
    try:
        await asyncio.shield(_post(x))
    except Exception as exc:
        return f"charge failed: {exc}"
    return "charged"
'''

AWAITING_CHARGE = '''

@tool
async def charge_card(x: int) -> str:
    """Charge the card."""
    await asyncio.sleep(0.3)
    try:
        async with httpx.AsyncClient() as client:
            await client.post(PAYMENTS, json={"amount": x})
    except Exception as exc:
        return f"charge failed: {exc}"
    return "charged"
'''

RERAISE = '''

def reraise(event: AfterToolCallEvent) -> None:
    """Fail fast: a tool's error ends the run."""
    if event.exception is not None:
        raise event.exception
'''

LOG_ONLY = '''

def reraise(event: AfterToolCallEvent) -> None:
    """Only logs: the error stays a result the model sees."""
    if event.exception is not None:
        print("tool failed:", event.exception)
'''

PROVIDER = '''

class FailFast:
    def register_hooks(self, registry, **kwargs):
        registry.add_callback(AfterToolCallEvent, self.on_after)

    def on_after(self, event: AfterToolCallEvent) -> None:
        if event.exception is not None:
            raise event.exception
'''

PLUGIN = '''
from strands.plugins import Plugin, hook


class FailFast(Plugin):
    name = "fail-fast"

    @hook
    def on_after(self, event: AfterToolCallEvent) -> None:
        if event.exception is not None:
            raise event.exception
'''

BEFORE = '''

def policy(event: BeforeToolCallEvent) -> None:
    """The policy service is down for lookups: refuse by raising."""
    if event.tool_use["name"] == "lookup_tax":
        time.sleep(0.05)
        raise PermissionError("policy service down")
'''

INTERVENTION = '''
from strands.interventions import InterventionHandler, Proceed


class Auth(InterventionHandler):
    name = "auth"{on_error}

    def before_tool_call(self, event):
        if event.tool_use["name"] == "lookup_tax":
            time.sleep(0.05)
            raise ConnectionError("authz service down")
        return Proceed()
'''

MAIN = '''

async def main() -> bool:
    agent = Agent(model=FakeModel(), tools=[charge_card, lookup_tax], callback_handler=None{options})
{register}    try:
        await asyncio.wait_for(agent.invoke_async("checkout"), 3)
    finally:
        RECORDED[:] = [c["toolResult"] for m in agent.messages for c in m["content"]
                       if "toolResult" in c and c["toolResult"]["content"][0].get("text") == "charged"]
    return bool(RECORDED)
'''


def _main(options: str = "", register: str = "") -> str:
    return MAIN.format(options=options, register=textwrap.indent(register, "    ") + "\n" if register else "")


SEQUENTIAL = '''
from strands.tools.executors import SequentialToolExecutor
'''

SCENARIOS = {
    # hooks=[callable]: the after-call hook re-raises lookup_tax's error; the sync charge runs on in
    # its worker thread (asyncio.to_thread) and lands after the run raised.
    "st_sync_hook": HEAD + SYNC_CHARGE + RERAISE + _main(", hooks=[reraise]"),
    # The same callback through agent.add_hook(cb) and agent.hooks.add_callback(Event, cb).
    "st_sync_add_hook": HEAD + SYNC_CHARGE + RERAISE + _main(register="agent.add_hook(reraise)"),
    "st_sync_add_callback": HEAD + SYNC_CHARGE + RERAISE + _main(
        register="agent.hooks.add_callback(AfterToolCallEvent, reraise)"),
    # A HookProvider whose register_hooks adds the re-raising callback.
    "st_sync_provider": HEAD + SYNC_CHARGE + PROVIDER + _main(", hooks=[FailFast()]"),
    # A Plugin with a re-raising @hook method.
    "st_sync_plugin": HEAD + PLUGIN + SYNC_CHARGE + _main(", plugins=[FailFast()]"),
    # A before-call hook that raises for lookup_tax: fatal before the tool runs.
    "st_sync_before_hook": HEAD + SYNC_CHARGE + BEFORE + _main(", hooks=[policy]"),
    # An intervention whose before_tool_call raises (default on_error="throw").
    "st_sync_intervention": HEAD + INTERVENTION.format(on_error="") + SYNC_CHARGE + _main(", interventions=[Auth()]"),
    # The other unstoppable siblings beside the re-raising hook.
    "st_thread_hook": HEAD + THREAD_CHARGE + RERAISE + _main(", hooks=[reraise]"),
    "st_shield_hook": HEAD + SHIELD_CHARGE + RERAISE + _main(", hooks=[reraise]"),
    "st_blocking_hook": HEAD + BLOCKING_CHARGE + RERAISE + _main(", hooks=[reraise]"),
    "st_swallow_hook": HEAD + SWALLOW_CHARGE + RERAISE + _main(", hooks=[reraise]"),
    # Fixes: the hook only logs; SequentialToolExecutor; on_error="deny"; an awaiting async charge.
    "st_sync_log_hook": HEAD + SYNC_CHARGE + LOG_ONLY + _main(", hooks=[reraise]"),
    "st_sync_sequential": HEAD + SEQUENTIAL + SYNC_CHARGE + RERAISE + _main(
        ", hooks=[reraise], tool_executor=SequentialToolExecutor()"),
    # An intervention whose before_tool_call can fall off its end: None makes the SDK raise TypeError.
    "st_sync_intervention_none": HEAD + INTERVENTION.format(on_error="").replace(
        '            raise ConnectionError("authz service down")\n        return Proceed()',
        '            return None  # no decision for lookups\n        return Proceed()') + SYNC_CHARGE
    + _main(", interventions=[Auth()]"),
    "st_sync_intervention_deny": HEAD + INTERVENTION.format(on_error='\n    on_error = "deny"') + SYNC_CHARGE
    + _main(", interventions=[Auth()]"),
    "st_async_hook": HEAD + AWAITING_CHARGE + RERAISE + _main(", hooks=[reraise]"),
}


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> dict[str, dict]:
    python = str(STRANDS.python())
    names = sorted(SCENARIOS)
    chunks = [names[0::2], names[1::2]]  # two interpreters side by side
    with ThreadPoolExecutor(max_workers=len(chunks)) as pool:
        parts = pool.map(lambda chunk: run_scenarios({n: SCENARIOS[n] for n in chunk},
                                                     tmp_path_factory.mktemp("strands-runtime"), python=python), chunks)
        return {name: r for part in parts for name, r in part.items()}


@lru_cache(maxsize=None)
def _codes(name: str, root: str) -> frozenset[str]:
    return frozenset(lint_codes(SCENARIOS[name], root, name))


@pytest.fixture(scope="module")
def codes(tmp_path_factory):
    root = str(tmp_path_factory.mktemp("strands-lint"))
    return lambda name: _codes(name, root)


def lands_after_the_raise(r: dict) -> bool:
    """The run raised, the charge landed after it, and `agent.messages` kept no charge result."""
    return r["raised"] and bool(r["after_end"]) and all(t > 0 for t in r["after_end"]) and not r["recorded"]


@pytest.mark.parametrize("name", ["st_sync_hook", "st_sync_add_hook", "st_sync_add_callback", "st_sync_provider",
                                  "st_sync_plugin"])
def test_raising_after_call_hook_lands_the_sync_charge_after_the_raise(name, results, codes):
    r = results[name]
    assert r["exc_type"] == "EventLoopException" and "tax service down" in r["message"], r
    assert lands_after_the_raise(r), r
    assert {"SIB101", "SIB202", "SIB301"} <= codes(name)


@pytest.mark.parametrize("name, message", [("st_sync_before_hook", "policy service down"),
                                           ("st_sync_intervention", "authz service down")])
def test_raising_before_call_hook_and_intervention_are_fatal_too(name, message, results, codes):
    r = results[name]
    assert r["exc_type"] == "EventLoopException" and message in r["message"], r
    assert lands_after_the_raise(r), r
    assert {"SIB101", "SIB202", "SIB301"} <= codes(name)


def test_intervention_returning_none_is_fatal(results, codes):
    r = results["st_sync_intervention_none"]
    assert r["exc_type"] == "EventLoopException" and "returned None" in r["message"], r
    assert lands_after_the_raise(r), r
    assert {"SIB101", "SIB202", "SIB301"} <= codes("st_sync_intervention_none")


@pytest.mark.parametrize("name, code", [("st_thread_hook", "SIB102"), ("st_shield_hook", "SIB105")])
def test_thread_and_shielded_siblings_land_after_the_raise(name, code, results, codes):
    r = results[name]
    assert lands_after_the_raise(r), r
    assert {code, "SIB301"} <= codes(name)


def test_blocking_sibling_lands_before_the_raise_but_unrecorded(results, codes):
    r = results["st_blocking_hook"]
    # The blocking call holds the loop, so the raise waits for it; the result is dropped all the same.
    assert r["raised"] and r["after_end"] and all(t <= 0 for t in r["after_end"]) and not r["recorded"], r
    assert {"SIB103", "SIB301"} <= codes("st_blocking_hook")


def test_swallowing_sibling_hangs_the_run(results, codes):
    r = results["st_swallow_hook"]
    # The fatal failure never surfaces: the 3 s guard fires, and the swallowed charge landed unrecorded.
    assert r["exc_type"] == "TimeoutError" and r["after_end"] and not r["recorded"], r
    assert {"SIB104", "SIB301"} <= codes("st_swallow_hook")


def test_hook_that_only_logs_keeps_the_run(results, codes):
    r = results["st_sync_log_hook"]
    assert not r["raised"] and r["recorded"] and all(t <= 0 for t in r["after_end"]), r
    found = codes("st_sync_log_hook")
    assert "SIB202" not in found and "SIB301" not in found, found


def test_sequential_executor_lands_nothing_after_the_raise(results, codes):
    r = results["st_sync_sequential"]
    # Serialised: the charge completes before lookup_tax fails. (The turn's results are still dropped.)
    assert r["raised"] and r["after_end"] and all(t <= 0 for t in r["after_end"]), r
    found = codes("st_sync_sequential")
    assert "SIB301" not in found and "SIB202" in found, found


def test_intervention_on_error_deny_is_not_fatal(results, codes):
    r = results["st_sync_intervention_deny"]
    assert not r["raised"] and r["recorded"], r
    found = codes("st_sync_intervention_deny")
    assert "SIB202" not in found and "SIB301" not in found, found


def test_awaiting_async_sibling_is_cancelled(results, codes):
    r = results["st_async_hook"]
    assert r["raised"] and r["after_end"] == [] and not r["recorded"], r
    found = codes("st_async_hook")
    assert "SIB301" not in found and not any(c.startswith("SIB10") for c in found), found
