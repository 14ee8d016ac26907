"""Runtime truth (issue 25), haystack-ai 3.4.1: `Agent(raise_on_tool_invocation_failure=True)` is run
with the real package and its OpenAI chat generator against the loopback fake model. Nothing in
flight is cancelled: the charge lands after the lookup's failure, then the run raises with no
result for it, also with `tool_concurrency_limit=1` (the queued charge still runs). The default
policy records the charge. The same module text is then linted.
"""

from __future__ import annotations

import pytest

from .wave3 import ASYNC_LOOKUP, AWAIT_CHARGE, SYNC_CHARGE, codes_of, run_suite

pytestmark = pytest.mark.runtime

HEAD = '''\
import asyncio, os, time
import httpx, requests
from haystack.components.agents import Agent
from haystack.components.generators.chat import OpenAIChatGenerator
from haystack.dataclasses import ChatMessage
from haystack.tools import tool
from haystack.utils import Secret

PAYMENTS, DOWN, MODEL = os.environ["FAKE_PAYMENTS_URL"], os.environ["FAKE_DOWN_URL"], os.environ["FAKE_MODEL_URL"]
DELAY = 0.5
RECORD = []


@tool
def lookup_customer(customer_id: str) -> str:
    """Look up the customer in the CRM (down: 503)."""
    r = requests.get(DOWN)
    r.raise_for_status()
    return r.text
'''

# run_async's lookup: awaiting, beside the sync one of HEAD.
LOOKUP_ASYNC = ASYNC_LOOKUP.replace("def lookup_customer(", "def lookup_customer_async(")

MAIN = '''

async def main() -> None:
    generator = OpenAIChatGenerator(api_key=Secret.from_token("sk-fake"), api_base_url=MODEL, model="fake/each-tool",
                                    max_retries=0)
    agent = Agent(chat_generator=generator, tools=[{tools}]{options})
    result = {run}
    RECORD[:] = [r.result for m in result["messages"] for r in m.tool_call_results
                 if not r.error and "charged" in str(r.result)]
'''

SYNC_RUN = 'await asyncio.to_thread(agent.run, messages=[ChatMessage.from_user("checkout")])'
ASYNC_RUN = 'await agent.run_async(messages=[ChatMessage.from_user("checkout")])'


def _main(options: str = ", raise_on_tool_invocation_failure=True", tools: str = "lookup_customer, charge_card",
          run: str = SYNC_RUN) -> str:
    return MAIN.format(options=options, tools=tools, run=run)


SCENARIOS = {
    "hs_sync_raise": HEAD + SYNC_CHARGE + _main(),
    "hs_sync_raise_one_worker": HEAD + SYNC_CHARGE + _main(", raise_on_tool_invocation_failure=True, tool_concurrency_limit=1"),
    "hs_async_raise": HEAD + LOOKUP_ASYNC + AWAIT_CHARGE + _main(tools="lookup_customer_async, charge_card", run=ASYNC_RUN),
    "hs_sync_default": HEAD + SYNC_CHARGE + _main(""),
}


@pytest.fixture(scope="module")
def results(fake_server, tmp_path_factory) -> dict[str, dict]:
    return run_suite(fake_server, tmp_path_factory.mktemp("haystack-runtime"), SCENARIOS)


@pytest.fixture(scope="module")
def codes(tmp_path_factory):
    root = str(tmp_path_factory.mktemp("haystack-lint"))
    return lambda name: codes_of(SCENARIOS[name], root, name)


def lands_after_the_failure_unrecorded(r: dict) -> bool:
    """The run raised; the charge landed after the lookup failed, and the run kept no result for it."""
    return (r["raised"] and bool(r["after_failure"]) and all(t > 0 for t in r["after_failure"])
            and not r["recorded"])


@pytest.mark.parametrize("name", ["hs_sync_raise", "hs_sync_raise_one_worker", "hs_async_raise"])
def test_raise_on_failure_loses_the_charge(name, results, codes):
    r = results[name]
    assert r["exc_type"] == "ToolInvocationError" and "503" in r["message"], r
    assert lands_after_the_failure_unrecorded(r), r
    assert {"SIB201", "SIB301"} <= codes(name), codes(name)


def test_the_default_policy_records_the_charge(results, codes):
    r = results["hs_sync_default"]
    assert not r["raised"] and r["recorded"], r
    found = codes("hs_sync_default")
    assert "SIB201" not in found and "SIB301" not in found, found
