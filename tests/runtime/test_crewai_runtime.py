"""Runtime truth (issue 13), crewai: every spelling siblint reports for crewai is run with the real
crewai 1.15.30 (its own venv: its pins conflict with the test extras) and an in-process fake
`BaseLLM` that asks for `lookup_tax` and `charge_card` in one turn. The charge is a POST to the
payments sink of the session's loopback `fake_server`, which timestamps it (`time.monotonic()`,
system-wide, so it compares with the scenario's own clock).

crewai cancels nothing in flight: when `lookup_tax` fails fatally, the charge still running in its
pool thread finishes, *then* `kickoff()` raises. So the charge lands after the failure and before
the raise surfaces, and neither the crew's output nor the exception records it. Each fix is run
too: the crew returns with the charge in the model's view, or nothing lands after the failure.
The same module text is linted, so the codes siblint reports are tied to what ran.
"""

from __future__ import annotations

import json
import subprocess
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from pathlib import Path

import pytest

from .environments import declare_python
from .test_langgraph_runtime import lint_codes
from .venvs import CREWAI as CREWAI_VENV

pytestmark = pytest.mark.runtime

# The version frameworks-wave2.md section 3 measured.
CREWAI = declare_python(*CREWAI_VENV)

HEAD = '''\
import asyncio, json, os, time
from types import SimpleNamespace as NS

import httpx
import requests
from crewai import Agent, Crew, Task
from crewai.llms.base_llm import BaseLLM
from crewai.tools import BaseTool, ToolFailurePolicy, tool

PAYMENTS = os.environ["PAYMENTS_URL"]
FAILED_AT = []  # when the fatal failure happened (time.monotonic())


class FakeLLM(BaseLLM):
    """Asks for both tools in one turn, then answers with the tool outputs it saw."""

    def call(self, messages, tools=None, callbacks=None, available_functions=None, **kw):
        seen = [m.get("content") for m in messages if isinstance(m, dict) and m.get("role") == "tool"]
        if not seen:
            return [NS(id=f"c{i}", function=NS(name=n, arguments=json.dumps({"x": 1})))
                    for i, n in enumerate(["lookup_tax", "charge_card"])]
        return "Final Answer: " + json.dumps(seen)

    def supports_function_calling(self):
        return True

    def supports_stop_words(self):
        return False

    def get_context_window_size(self):
        return 8000
'''

LOOKUP_TAX = '''

@tool("lookup_tax")
def lookup_tax(x: int) -> str:
    """Tax rate."""
    time.sleep(0.05)
    FAILED_AT.append(time.monotonic())
    raise RuntimeError("tax service down")
'''

SYNC_CHARGE = '''

@tool{options}
def charge_card(x: int) -> str:
    """Charge the card."""
    time.sleep(0.3)
    try:
        requests.post(PAYMENTS, json={{"amount": x}}, timeout=5)
    except Exception as exc:  # the charge's own errors reach the model: it cannot fail fatally
        return f"charge failed: {{exc}}"
    return "charged"
'''

ASYNC_CHARGE = '''

@tool("charge_card")
async def charge_card(x: int) -> str:
    """Charge the card (async, awaiting: crewai runs it with asyncio.run in its pool thread)."""
    await asyncio.sleep(0.3)
    try:
        async with httpx.AsyncClient() as client:
            await client.post(PAYMENTS, json={"amount": x}, timeout=5)
    except Exception as exc:
        return f"charge failed: {exc}"
    return "charged"
'''

# The charge as a method of a class: `PayTools.charge_card` (a class attribute) is the tool, as crewAI's
# examples list their tools.
CLASS_CHARGE = '''

class PayTools:
    @tool("charge_card")
    def charge_card(x: int) -> str:
        """Charge the card."""
        time.sleep(0.3)
        try:
            requests.post(PAYMENTS, json={"amount": x}, timeout=5)
        except Exception as exc:
            return f"charge failed: {exc}"
        return "charged"
'''

STRICT_TAX = '''

class StrictTax(BaseTool):
    name: str = "lookup_tax"
    description: str = "Tax rate."
    tool_failure_policy: ToolFailurePolicy = ToolFailurePolicy.RAISE

    def _run(self, x: int) -> str:
        time.sleep(0.05)
        FAILED_AT.append(time.monotonic())
        raise RuntimeError("tax service down")
'''

# A lookup that succeeds: the hook after it is what fails.
QUIET_TAX = '''

@tool("lookup_tax")
def lookup_tax(x: int) -> str:
    """Tax rate."""
    time.sleep(0.05)
    return "0.2"
'''

HOOK = '''
from crewai.hooks import HookAborted, InterceptionPoint, after_tool_call, on


{decorator}
def guard(ctx):
    if ctx.tool_name == "lookup_tax":
        FAILED_AT.append(time.monotonic())
        raise HookAborted("tax result rejected")
    return None
'''


def crew(tools: str = "[lookup_tax, charge_card]", agent: str = "", task: str = "", crew_kw: str = "") -> str:
    return f'''

def main():
    shop = Agent(role="cashier", goal="check out", backstory="b", llm=FakeLLM(model="fake"), tools={tools},
                 max_iter=3, verbose=False{agent})
    job = Task(description="check out", expected_output="a receipt", agent=shop{task})
    return str(Crew(agents=[shop], tasks=[job], verbose=False{crew_kw}).kickoff())
'''


SCENARIOS: dict[str, str] = {
    # Fatal: Agent(tool_failure_policy="raise"); the sync charge finishes in its pool thread.
    "agent_raise": HEAD + LOOKUP_TAX + SYNC_CHARGE.format(options='("charge_card")')
    + crew(agent=', tool_failure_policy="raise"'),
    # Fatal: Task(tool_failure_policy="raise").
    "task_raise": HEAD + LOOKUP_TAX + SYNC_CHARGE.format(options='("charge_card")')
    + crew(task=', tool_failure_policy="raise"'),
    # Fatal: Crew(tool_failure_policy=ToolFailurePolicy.RAISE); an awaiting async charge is not cancelled.
    "crew_raise_async": HEAD + LOOKUP_TAX + ASYNC_CHARGE + crew(crew_kw=", tool_failure_policy=ToolFailurePolicy.RAISE"),
    # Fatal: a BaseTool subclass with the class attribute.
    "class_raise": HEAD + STRICT_TAX + SYNC_CHARGE.format(options='("charge_card")')
    + crew(tools="[StrictTax(), charge_card]"),
    # Fatal: Agent(tool_failure_policy="raise") with the charge listed through its class.
    "class_method_raise": HEAD + LOOKUP_TAX + CLASS_CHARGE
    + crew(tools="[lookup_tax, PayTools.charge_card]", agent=', tool_failure_policy="raise"'),
    # Fatal: the policy assigned to a @tool tool after creation.
    "assigned_raise": HEAD + LOOKUP_TAX + '\nlookup_tax.tool_failure_policy = "raise"\n'
    + SYNC_CHARGE.format(options='("charge_card")') + crew(),
    # Fatal: HookAborted raised in an after-tool hook, @on(POST_TOOL_CALL) and @after_tool_call.
    "post_hook_aborted": HEAD + QUIET_TAX + SYNC_CHARGE.format(options='("charge_card")')
    + HOOK.format(decorator="@on(InterceptionPoint.POST_TOOL_CALL)") + crew(),
    "after_tool_call_aborted": HEAD + QUIET_TAX + SYNC_CHARGE.format(options='("charge_card")')
    + HOOK.format(decorator="@after_tool_call") + crew(),
    # Fix: the default policy ("warn"): the model sees the error and the charge.
    "default_policy": HEAD + LOOKUP_TAX + SYNC_CHARGE.format(options='("charge_card")') + crew(),
    # Fix: a more specific level wins: Crew raise, Agent warn.
    "crew_raise_agent_warn": HEAD + LOOKUP_TAX + SYNC_CHARGE.format(options='("charge_card")')
    + crew(agent=', tool_failure_policy="warn"', crew_kw=', tool_failure_policy="raise"'),
    # Fix: max_usage_count on the charge runs the turn's calls one by one: the lookup fails first and the
    # charge never starts.
    "serialised_charge": HEAD + LOOKUP_TAX + SYNC_CHARGE.format(options="(max_usage_count=5)")
    + crew(agent=', tool_failure_policy="raise"'),
    # Fix: HookAborted before the tool call only blocks the call; the model is told so.
    "pre_hook_blocks": HEAD + QUIET_TAX + SYNC_CHARGE.format(options='("charge_card")')
    + HOOK.format(decorator="@on(InterceptionPoint.PRE_TOOL_CALL)") + crew(),
}

# Hooks are process-wide: those scenarios run in a worker of their own, one after the other.
HOOKED = ("post_hook_aborted", "after_tool_call_aborted", "pre_hook_blocks")

DRIVER = '''
import importlib.util, json, os, sys, time
from crewai.hooks import clear_all_global_hooks

out = []
for path, url in json.loads(sys.argv[1]):
    os.environ["PAYMENTS_URL"] = url
    name = os.path.basename(path)[:-3]
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    r = {"name": name, "raised": None, "output": None}
    try:
        r["output"] = mod.main()
    except Exception as exc:
        r["raised"] = {"type": type(exc).__name__, "message": str(exc)[:300], "at": time.monotonic()}
    r["failed_at"] = mod.FAILED_AT[:1]
    clear_all_global_hooks()
    time.sleep(0.5)  # anything still running gets the chance to land
    out.append(r)
print("RESULTS " + json.dumps(out))
'''

ENV = {"PATH": "/usr/bin:/bin", "NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost",
       "CREWAI_DISABLE_TELEMETRY": "true", "OTEL_SDK_DISABLED": "true", "CREWAI_TRACING_ENABLED": "false",
       "PYTHONWARNINGS": "ignore"}


def _run_worker(python: Path, workdir: Path, batch: list[tuple[str, str]], home: Path) -> list[dict]:
    driver = workdir / "driver.py"
    proc = subprocess.run([str(python), str(driver), json.dumps(batch)], cwd=workdir, capture_output=True,
                          text=True, timeout=300, env={**ENV, "HOME": str(home)})
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULTS ")]
    assert proc.returncode == 0 and lines, f"driver failed ({proc.returncode}):\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}"
    return json.loads(lines[-1][len("RESULTS "):])


@pytest.fixture(scope="module")
def results(fake_server, tmp_path_factory) -> dict[str, dict]:
    workdir = tmp_path_factory.mktemp("crewai-runtime")
    (workdir / "driver.py").write_text(DRIVER, encoding="utf-8")
    batches: list[list[tuple[str, str]]] = [[], []]
    for name, source in SCENARIOS.items():
        path = workdir / f"{name}.py"
        path.write_text(source, encoding="utf-8")
        batches[name in HOOKED].append((str(path), fake_server.urls(f"crewai-{name}")["FAKE_PAYMENTS_URL"]))
    python = CREWAI.python()
    # A HOME each: crewai creates its credential key there on import, and two first imports racing on
    # one HOME can each find the other's half-written key ("Failed to create or read encryption key").
    homes = [workdir / f"home-{i}" for i in range(len(batches))]
    for home in homes:
        home.mkdir()
    with ThreadPoolExecutor(2) as pool:  # the two workers overlap: two cores
        done = [r for rs in pool.map(lambda job: _run_worker(python, workdir, *job), zip(batches, homes)) for r in rs]
    for r in done:
        r["payments"] = [p["t"] for p in fake_server.log(f"crewai-{r['name']}")["payments"]]
    return {r["name"]: r for r in done}


@lru_cache(maxsize=None)
def _codes(name: str, root: str) -> frozenset[str]:
    return frozenset(lint_codes(SCENARIOS[name], root, name))


@pytest.fixture(scope="module")
def codes(tmp_path_factory):
    root = str(tmp_path_factory.mktemp("crewai-lint"))
    return lambda name: _codes(name, root)


def assert_landed_unrecorded(r: dict) -> None:
    """The crew raised; the charge landed after the fatal failure (and before the raise surfaced:
    crewai waits for every call in flight); the exception does not mention it."""
    assert r["raised"] is not None and r["output"] is None, r
    assert r["failed_at"] and len(r["payments"]) == 1, r
    failed, landed, raised = r["failed_at"][0], r["payments"][0], r["raised"]["at"]
    assert failed < landed <= raised, r
    assert "charged" not in r["raised"]["message"], r


@pytest.mark.parametrize("name,setting", [
    ("agent_raise", "ToolExecutionFailedError"),
    ("task_raise", "ToolExecutionFailedError"),
    ("crew_raise_async", "ToolExecutionFailedError"),
    ("class_raise", "ToolExecutionFailedError"),
    ("class_method_raise", "ToolExecutionFailedError"),
    ("assigned_raise", "ToolExecutionFailedError"),
])
def test_raise_policy_lands_the_charge_unrecorded(results, codes, name, setting):
    r = results[name]
    assert_landed_unrecorded(r)
    assert r["raised"]["type"] == setting and "tax service down" in r["raised"]["message"], r
    found = codes(name)
    assert {"SIB201", "SIB301"} <= found, found
    # SIB101 for the sync charge only: the async one is reported by SIB301 alone.
    assert ("SIB101" in found) is (name != "crew_raise_async"), found


@pytest.mark.parametrize("name", ["post_hook_aborted", "after_tool_call_aborted"])
def test_after_tool_hook_aborting_lands_the_charge_unrecorded(results, codes, name):
    r = results[name]
    assert_landed_unrecorded(r)
    assert r["raised"]["type"] == "HookAborted", r
    assert {"SIB202", "SIB301"} <= codes(name)


def test_default_policy_returns_with_the_charge_seen(results, codes):
    r = results["default_policy"]
    assert r["raised"] is None and "charged" in r["output"] and "tax service down" in r["output"], r
    assert len(r["payments"]) == 1, r
    found = codes("default_policy")
    assert "SIB301" not in found and "SIB201" not in found, found


def test_more_specific_warn_wins(results, codes):
    r = results["crew_raise_agent_warn"]
    assert r["raised"] is None and "charged" in r["output"], r
    found = codes("crew_raise_agent_warn")
    assert "SIB301" not in found and "SIB201" not in found, found


def test_serialised_turn_never_starts_the_charge(results, codes):
    r = results["serialised_charge"]
    assert r["raised"] is not None and r["raised"]["type"] == "ToolExecutionFailedError", r
    assert r["payments"] == [], r
    assert "SIB301" not in codes("serialised_charge")


def test_before_tool_hook_only_blocks_the_call(results, codes):
    r = results["pre_hook_blocks"]
    assert r["raised"] is None and "charged" in r["output"] and "blocked by hook" in r["output"], r
    found = codes("pre_hook_blocks")
    assert "SIB202" not in found and "SIB301" not in found, found

