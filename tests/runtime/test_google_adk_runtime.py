"""Runtime truth (issue 13), google-adk: each hazard siblint reports for ADK is run with the real
google-adk 2.13.0 (venv `venvs.SHARED`) and an in-process fake `BaseLlm` that asks for every tool of
the agent in one turn; the charge is a POST to the loopback payments sink of `fake_model.py`. An
unstoppable sibling must land after the run raised with no function response in the session; each
fixed twin, and each sibling ADK keeps, must not. The same module text is then linted, so the
rule's claim and the runtime truth are tied.

All scenarios run in one subprocess of the ADK venv, one after another (each is a few tenths of a
second; importing ADK once costs the most).
"""

from __future__ import annotations

import json
import subprocess
from functools import lru_cache

import pytest

from .environments import declare_python
from .test_langgraph_runtime import lint_codes
from .venvs import SHARED

pytestmark = pytest.mark.runtime

ADK = declare_python(*SHARED)  # venvs.GOOGLE_ADK, in the venv it shares with other suites

DRIVER = '''
import asyncio, importlib.util, json, os, sys, warnings
warnings.filterwarnings("ignore")

async def run_all(specs):
    out = {}
    for name, path, payments in specs:
        os.environ["FAKE_PAYMENTS_URL"] = payments
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        out[name] = await mod.main()
    return out

print("RESULTS " + json.dumps(asyncio.run(run_all(json.loads(sys.argv[1])))))
'''

HEAD = '''\
import asyncio, os, time
import httpx, requests
from google.adk.agents import Agent, RunConfig
from google.adk.agents.run_config import ToolThreadPoolConfig
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_response import LlmResponse
from google.adk.plugins.base_plugin import BasePlugin
from google.adk.runners import InMemoryRunner
from google.genai import types

PAYMENTS = os.environ["FAKE_PAYMENTS_URL"]


async def landed(limit: float = 3.0) -> None:
    """Until the sink has the charge (each scenario makes at most one), at most `limit` seconds."""
    start = time.monotonic()
    while time.monotonic() - start < limit:
        log = await asyncio.to_thread(requests.get, PAYMENTS.rsplit("/", 1)[0] + "/log")
        if log.json()["payments"]:
            return
        await asyncio.sleep(0.05)


class FakeLlm(BaseLlm):
    """Calls every tool of the agent once, in one turn; answers once it sees their responses."""

    model: str = "fake"

    async def generate_content_async(self, llm_request, stream=False):
        if any(p.function_response for c in llm_request.contents for p in (c.parts or [])):
            yield LlmResponse(content=types.Content(role="model", parts=[types.Part(text="done")]))
            return
        yield LlmResponse(content=types.Content(role="model", parts=[
            types.Part(function_call=types.FunctionCall(name=n, args={{"x": 1}}, id=f"c{{i}}"))
            for i, n in enumerate(llm_request.tools_dict)]))
{charge}

async def lookup_tax(x: int) -> dict:
    await asyncio.sleep(0.05)
    raise RuntimeError("tax service down")

{extra}
agent = Agent(name="checkout", model=FakeLlm(), tools=[charge_card, lookup_tax]{agent_kw})
runner = InMemoryRunner(agent=agent, app_name="app"{runner_kw})
RUN_CONFIG = {run_config}


async def main() -> dict:
    session = await runner.session_service.create_session(app_name="app", user_id="u")
    out = {{"raised": False}}
    try:
        async for _ in runner.run_async(user_id="u", session_id=session.id, run_config=RUN_CONFIG,
                                        new_message=types.Content(role="user", parts=[types.Part(text="pay")])):
            pass
    except Exception as exc:
        out.update(raised=True, exc_type=type(exc).__name__, message=str(exc)[:300])
    out["end"] = time.monotonic()
    await landed()  # the loop stays alive: orphaned tasks and threads may land now
    done = await runner.session_service.get_session(app_name="app", user_id="u", session_id=session.id)
    out["recorded"] = [p.function_response.name for e in done.events if e.content
                       for p in (e.content.parts or []) if p.function_response]
    return out
'''

SYNC = '''
def charge_card(x: int) -> dict:
    time.sleep(0.3)
    try:
        requests.post(PAYMENTS, json={"amount": x})
    except Exception as exc:  # the charge's own errors reach the model: it cannot fail fatally
        return {"error": str(exc)}
    return {"ok": True}
'''
TO_THREAD = '''
def _post(x: int) -> None:
    time.sleep(0.3)
    requests.post(PAYMENTS, json={"amount": x})


async def charge_card(x: int) -> dict:
    try:
        await asyncio.to_thread(_post, x)
    except Exception as exc:
        return {"error": str(exc)}
    return {"ok": True}
'''
SHIELD = '''
async def _send(x: int) -> None:
    await asyncio.sleep(0.3)
    async with httpx.AsyncClient() as client:
        await client.post(PAYMENTS, json={"amount": x})


async def charge_card(x: int) -> dict:
    try:
        await asyncio.shield(_send(x))
    except Exception as exc:
        return {"error": str(exc)}
    return {"ok": True}
'''
BLOCKING = '''
async def charge_card(x: int) -> dict:
    time.sleep(0.3)
    try:
        requests.post(PAYMENTS, json={"amount": x})
    except Exception as exc:
        return {"error": str(exc)}
    return {"ok": True}
'''
SWALLOW = '''
async def charge_card(x: int) -> dict:
    try:
        await asyncio.sleep(0.3)
    except asyncio.CancelledError:
        pass
    try:
        async with httpx.AsyncClient() as client:
            await client.post(PAYMENTS, json={"amount": x})
    except Exception as exc:
        return {"error": str(exc)}
    return {"ok": True}
'''
AWAITING = '''
async def charge_card(x: int) -> dict:
    await asyncio.sleep(0.3)
    try:
        async with httpx.AsyncClient() as client:
            await client.post(PAYMENTS, json={"amount": x})
    except Exception as exc:
        return {"error": str(exc)}
    return {"ok": True}
'''
DICT_CALLBACK = '''
def on_error(tool, args, tool_context, error):
    return {"error": f"{type(error).__name__}: {error}"}
'''
NONE_CALLBACK = '''
def on_error(tool, args, tool_context, error):
    print("tool failed:", error)
'''
PLUGIN = '''
class ErrorPlugin(BasePlugin):
    async def on_tool_error_callback(self, *, tool, tool_args, tool_context, error):
        return {"error": str(error)}
'''
RAISING_BEFORE = '''
async def guard(tool, args, tool_context):
    if tool.name == "lookup_tax":
        await asyncio.sleep(0.05)  # as lookup_tax itself would: charge_card's thread has started
        raise PermissionError("lookup_tax is not allowed")
'''
POOL = "RunConfig(tool_thread_pool_config=ToolThreadPoolConfig(max_workers=4))"


def scenario(charge: str, run_config: str = "RunConfig()", extra: str = "", agent_kw: str = "", runner_kw: str = "") -> str:
    return HEAD.format(charge=charge, run_config=run_config, extra=extra, agent_kw=agent_kw, runner_kw=runner_kw)


SCENARIOS = {
    # A sync tool on the tool thread pool runs on in its thread after lookup_tax's error ended the run.
    "adk_pool_sync": scenario(SYNC, POOL),
    # Fix: an error callback that returns a dict; the run goes on and both responses are kept.
    "adk_pool_sync_dict_callback": scenario(SYNC, POOL, DICT_CALLBACK, ", on_tool_error_callback=on_error"),
    # Without the pool the sync tool runs inline: it finishes before the raise and is kept (SIB103 only).
    "adk_inline_sync": scenario(SYNC),
    "adk_to_thread": scenario(TO_THREAD),
    "adk_shield": scenario(SHIELD),
    # A callback that returns None leaves the error fatal (SIB202).
    "adk_none_callback": scenario(TO_THREAD, extra=NONE_CALLBACK, agent_kw=", on_tool_error_callback=on_error"),
    # Fix: a plugin's on_tool_error_callback returning a dict.
    "adk_to_thread_plugin": scenario(TO_THREAD, extra=PLUGIN, runner_kw=", plugins=[ErrorPlugin(name='errors')]"),
    # A raising before_tool_callback is fatal even for a tool that cannot fail (SIB202, and SIB301).
    "adk_raising_before": scenario(TO_THREAD, extra=RAISING_BEFORE, agent_kw=", before_tool_callback=guard").replace(
        'raise RuntimeError("tax service down")', 'return {"rate": 0.2}'),
    # Awaited during the drain, so kept: a blocking tool (SIB103) and a swallowing one (SIB104).
    "adk_blocking": scenario(BLOCKING),
    "adk_swallow": scenario(SWALLOW),
    # An awaiting async tool is cancelled: it never lands.
    "adk_awaiting": scenario(AWAITING),
}


@pytest.fixture(scope="module")
def results(fake_server, tmp_path_factory) -> dict[str, dict]:
    python = ADK.python()
    workdir = tmp_path_factory.mktemp("google-adk-runtime")
    (workdir / "driver.py").write_text(DRIVER, encoding="utf-8")
    specs = []
    for name, source in SCENARIOS.items():
        path = workdir / f"{name}.py"
        path.write_text(source, encoding="utf-8")
        specs.append((name, str(path), fake_server.urls(name)["FAKE_PAYMENTS_URL"]))
    env = {"NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost", "PATH": "/usr/bin:/bin",
           "PYTHONWARNINGS": "ignore", "GOOGLE_API_KEY": "unused", "ADK_DISABLE_TELEMETRY": "1"}
    proc = subprocess.run([str(python), str(workdir / "driver.py"), json.dumps(specs)], cwd=workdir,
                          capture_output=True, text=True, timeout=180, env=env)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULTS ")]
    assert proc.returncode == 0 and lines, f"driver failed ({proc.returncode}):\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}"
    out = json.loads(lines[-1][len("RESULTS "):])
    for name, r in out.items():
        r["after_end"] = [round(p["t"] - r["end"], 3) for p in fake_server.log(name)["payments"]]
    return out


@lru_cache(maxsize=None)
def _codes(name: str, root: str) -> frozenset[str]:
    return frozenset(lint_codes(SCENARIOS[name], root, name))


@pytest.fixture(scope="module")
def codes(tmp_path_factory):
    root = str(tmp_path_factory.mktemp("google-adk-lint"))
    return lambda name: _codes(name, root)


def lands_after_the_raise_unrecorded(r: dict, error: str = "RuntimeError") -> None:
    assert r["raised"] and r["exc_type"] == error, r
    assert r["after_end"] and all(t > 0 for t in r["after_end"]), r
    assert "charge_card" not in r["recorded"], r


def lands_before_the_raise_recorded(r: dict) -> None:
    assert r["raised"] and r["exc_type"] == "RuntimeError", r
    assert r["after_end"] and all(t <= 0 for t in r["after_end"]), r
    assert "charge_card" in r["recorded"], r


@pytest.mark.parametrize("name,expected", [
    ("adk_pool_sync", {"SIB101", "SIB301"}),
    ("adk_to_thread", {"SIB102", "SIB301"}),
    ("adk_shield", {"SIB105", "SIB301"}),
    ("adk_none_callback", {"SIB102", "SIB202", "SIB301"}),
])
def test_unstoppable_sibling_lands_after_the_run_raised(results, codes, name, expected):
    lands_after_the_raise_unrecorded(results[name])
    assert expected <= codes(name), codes(name)


def test_raising_before_tool_callback_ends_the_run(results, codes):
    lands_after_the_raise_unrecorded(results["adk_raising_before"], error="PermissionError")
    assert {"SIB102", "SIB202", "SIB301"} <= codes("adk_raising_before")


@pytest.mark.parametrize("name", ["adk_pool_sync_dict_callback", "adk_to_thread_plugin"])
def test_error_callback_fix_keeps_the_run_and_the_record(results, codes, name):
    r = results[name]
    assert not r["raised"] and {"charge_card", "lookup_tax"} <= set(r["recorded"]), r
    assert r["after_end"] and all(t <= 0 for t in r["after_end"]), r
    assert not {"SIB202", "SIB206", "SIB301"} & codes(name), codes(name)


@pytest.mark.parametrize("name,expected", [
    ("adk_inline_sync", "SIB103"),
    ("adk_blocking", "SIB103"),
    ("adk_swallow", "SIB104"),
])
def test_siblings_adk_awaits_are_kept(results, codes, name, expected):
    lands_before_the_raise_recorded(results[name])
    found = codes(name)
    assert expected in found and "SIB301" not in found and "SIB101" not in found, found


def test_awaiting_sibling_is_cancelled(results, codes):
    r = results["adk_awaiting"]
    assert r["raised"] and r["after_end"] == [] and "charge_card" not in r["recorded"], r
    assert not {"SIB101", "SIB102", "SIB103", "SIB104", "SIB105", "SIB301"} & codes("adk_awaiting")
    assert "SIB206" in codes("adk_awaiting")  # the default-fatal group (off by default)
