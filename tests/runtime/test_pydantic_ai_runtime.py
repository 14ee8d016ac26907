"""Runtime truth (issue 4), pydantic-ai: the SIB301 variant (a sync sibling beside a tool whose
exception ends the run) is run with the real pydantic-ai and a `FunctionModel`, and must show a
charge that lands after the run raised; each fix is run too and must be safe. The same module text
is then linted. The driver is shared with the LangGraph suite.
"""

from __future__ import annotations

from functools import lru_cache

import pytest

from .test_langgraph_runtime import lint_codes, run_scenarios

pytestmark = pytest.mark.runtime

HEAD = '''\
import asyncio, os, time
import requests
from pydantic_ai import Agent, ModelRetry
from pydantic_ai.messages import ModelRequest, ModelResponse, TextPart, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import FunctionModel

PAYMENTS = os.environ["PAYMENTS_URL"]


def model_fn(messages, info):
    if len(messages) == 1:
        return ModelResponse(parts=[ToolCallPart("charge_card", {{"x": 1}}), ToolCallPart("lookup_tax", {{"x": 1}})])
    return ModelResponse(parts=[TextPart("done")])


agent = Agent(FunctionModel(model_fn))


@agent.tool_plain{charge_options}
def charge_card(x: int) -> str:
    time.sleep(0.3)
    try:
        requests.post(PAYMENTS, json={{"amount": x}})
    except Exception as exc:  # the charge's own errors reach the model: it cannot fail fatally
        return f"charge failed: {{exc}}"
    return "charged"


@agent.tool_plain
async def lookup_tax(x: int) -> str:
    await asyncio.sleep(0.05)
    raise {error}("tax service down")


async def main() -> bool:
    result = await agent.run("checkout")
    return any(isinstance(p, ToolReturnPart) and p.tool_name == "charge_card" and p.content == "charged"
               for m in result.all_messages() if isinstance(m, ModelRequest) for p in m.parts)
'''

SCENARIOS = {
    # A plain RuntimeError ends the run; the sync charge runs on in its worker thread.
    "pa_sync": HEAD.format(charge_options="", error="RuntimeError"),
    # Fix: ModelRetry reaches the model; the run resolves with the charge recorded.
    "pa_sync_model_retry": HEAD.format(charge_options="", error="ModelRetry"),
    # Fix: sequential=True makes the charge a barrier: it runs alone, before lookup_tax starts.
    "pa_sync_sequential": HEAD.format(charge_options="(sequential=True)", error="RuntimeError"),
    # An awaiting async charge is cancelled by pydantic-ai (cancel_and_drain): never lands.
    "pa_async": HEAD.format(charge_options="", error="RuntimeError").replace(
        "def charge_card(x: int) -> str:\n    time.sleep(0.3)\n    try:\n        requests.post(PAYMENTS, json={\"amount\": x})",
        "async def charge_card(x: int) -> str:\n    await asyncio.sleep(0.3)\n"
        "    import httpx\n    try:\n        async with httpx.AsyncClient() as client:\n"
        "            await client.post(PAYMENTS, json={\"amount\": x})"),
}


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> dict[str, dict]:
    return run_scenarios(SCENARIOS, tmp_path_factory.mktemp("pydantic-ai-runtime"))


@lru_cache(maxsize=None)
def _codes(name: str, root: str) -> frozenset[str]:
    return frozenset(lint_codes(SCENARIOS[name], root, name))


@pytest.fixture(scope="module")
def codes(tmp_path_factory):
    root = str(tmp_path_factory.mktemp("pydantic-ai-lint"))
    return lambda name: _codes(name, root)


def test_sync_sibling_lands_after_the_run_raised(results, codes):
    r = results["pa_sync"]
    assert r["raised"] and r["exc_type"] == "RuntimeError" and "tax service down" in r["message"], r
    assert r["after_end"] and all(t > 0 for t in r["after_end"]) and not r["recorded"], r
    assert {"SIB301", "SIB101"} <= codes("pa_sync")


def test_model_retry_fix_resolves_the_run(results, codes):
    r = results["pa_sync_model_retry"]
    assert not r["raised"] and r["recorded"], r
    assert r["after_end"] and all(t <= 0 for t in r["after_end"]), r
    assert "SIB301" not in codes("pa_sync_model_retry")


def test_sequential_fix_runs_the_charge_alone(results, codes):
    r = results["pa_sync_sequential"]
    # The barrier: the charge completes before lookup_tax starts; nothing lands after the raise.
    assert r["raised"] and r["after_end"] and all(t <= 0 for t in r["after_end"]), r
    assert "SIB301" not in codes("pa_sync_sequential")


def test_async_sibling_is_cancelled(results, codes):
    r = results["pa_async"]
    assert r["raised"] and r["after_end"] == [], r
    found = codes("pa_async")
    assert "SIB301" not in found and "SIB101" not in found, found
