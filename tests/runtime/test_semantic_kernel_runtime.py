"""Runtime truth (issue 25), semantic-kernel 1.45.0: a `ChatCompletionAgent` whose kernel has a raising
AUTO_FUNCTION_INVOCATION filter is run with the real package and its OpenAI connector against the
loopback fake model. Nothing is cancelled: the charge, awaiting or in a thread, lands after the
run raised and the thread keeps no result for it. `context.terminate = True` keeps every result.
The same module text is then linted.
"""

from __future__ import annotations

import pytest

from .wave3 import codes_of, lands_after_the_raise, run_suite

pytestmark = pytest.mark.runtime

HEAD = '''\
import asyncio, os, time
import httpx, requests
from openai import AsyncOpenAI
from semantic_kernel import Kernel
from semantic_kernel.agents import ChatCompletionAgent, ChatHistoryAgentThread
from semantic_kernel.connectors.ai.open_ai import OpenAIChatCompletion
from semantic_kernel.filters import AutoFunctionInvocationContext, FilterTypes
from semantic_kernel.functions import kernel_function

PAYMENTS, DOWN, MODEL = os.environ["FAKE_PAYMENTS_URL"], os.environ["FAKE_DOWN_URL"], os.environ["FAKE_MODEL_URL"]
DELAY = 1.0
RECORD = []


class Crm:
    @kernel_function(description="Look up the customer in the CRM (down: 503).")
    async def lookup_customer(self, customer_id: str) -> str:
        async with httpx.AsyncClient() as c:
            r = await c.get(DOWN)
            r.raise_for_status()
            return r.text
'''

AWAIT_CHARGE = '''

class Billing:
    @kernel_function(description="Charge the card.")
    async def charge_card(self, customer_id: str, amount_cents: int) -> str:
        await asyncio.sleep(DELAY)
        async with httpx.AsyncClient() as c:
            await c.post(PAYMENTS, json={"customer": customer_id, "amount": amount_cents})
        return "charged"
'''

THREAD_CHARGE = '''

def _post(customer_id, amount_cents):
    time.sleep(DELAY)
    requests.post(PAYMENTS, json={"customer": customer_id, "amount": amount_cents})


class Billing:
    @kernel_function(description="Charge the card.")
    async def charge_card(self, customer_id: str, amount_cents: int) -> str:
        await asyncio.to_thread(_post, customer_id, amount_cents)
        return "charged"
'''

ABORT = '''

async def abort_on_error(context: AutoFunctionInvocationContext, next):
    await next(context)
    if "error occurred" in str(context.function_result.value):
        raise RuntimeError(f"{context.function.name} failed: aborting")
'''

TERMINATE = ABORT.replace('        raise RuntimeError(f"{context.function.name} failed: aborting")',
                          "        context.terminate = True")

MAIN = '''

async def main() -> None:
    kernel = Kernel()
    kernel.add_filter(FilterTypes.AUTO_FUNCTION_INVOCATION, abort_on_error)
    service = OpenAIChatCompletion(ai_model_id="fake/each-tool",
                                   async_client=AsyncOpenAI(base_url=MODEL, api_key="sk-fake", max_retries=0))
    agent = ChatCompletionAgent(service=service, kernel=kernel, name="checkout", plugins=[Crm(), Billing()])
    thread = ChatHistoryAgentThread()
    try:
        await agent.get_response(messages="checkout", thread=thread)
    finally:
        RECORD[:] = [str(item.result) for m in thread._chat_history.messages for item in m.items
                     if type(item).__name__ == "FunctionResultContent" and "charged" in str(item.result)]
'''

# The same filter registered by decorator on a module-level kernel (`@kernel.filter(...)`).
DECORATED = "\n\nkernel = Kernel()\n\n\n@kernel.filter(FilterTypes.AUTO_FUNCTION_INVOCATION)" + ABORT.lstrip("\n").replace(
    "async def abort_on_error", "\nasync def abort_on_error", 1)
MAIN_DECORATED = MAIN.replace("    kernel = Kernel()\n    kernel.add_filter(FilterTypes.AUTO_FUNCTION_INVOCATION, abort_on_error)\n", "")

SCENARIOS = {
    "sk_await_decorated_filter": HEAD + AWAIT_CHARGE + DECORATED + MAIN_DECORATED,
    "sk_await_decorated_terminate": HEAD + AWAIT_CHARGE + DECORATED.replace(
        '        raise RuntimeError(f"{context.function.name} failed: aborting")', "        context.terminate = True")
    + MAIN_DECORATED,
    "sk_await_filter": HEAD + AWAIT_CHARGE + ABORT + MAIN,
    "sk_thread_filter": HEAD + THREAD_CHARGE + ABORT + MAIN,
    "sk_await_terminate": HEAD + AWAIT_CHARGE + TERMINATE + MAIN,
}


@pytest.fixture(scope="module")
def results(fake_server, tmp_path_factory) -> dict[str, dict]:
    return run_suite(fake_server, tmp_path_factory.mktemp("sk-runtime"), SCENARIOS)


@pytest.fixture(scope="module")
def codes(tmp_path_factory):
    root = str(tmp_path_factory.mktemp("sk-lint"))
    return lambda name: codes_of(SCENARIOS[name], root, name)


@pytest.mark.parametrize("name", ["sk_await_filter", "sk_thread_filter", "sk_await_decorated_filter"])
def test_raising_filter_lands_the_charge_after_the_raise(name, results, codes):
    r = results[name]
    assert r["exc_type"] is not None and "aborting" in r["message"], r
    assert lands_after_the_raise(r), r
    assert {"SIB202", "SIB301"} <= codes(name), codes(name)


def test_awaiting_charge_is_a_victim_without_a_sib1xx(codes):
    found = codes("sk_await_filter")
    assert not any(c.startswith("SIB10") for c in found), found


def test_terminate_keeps_every_result(results, codes):
    r = results["sk_await_terminate"]
    assert not r["raised"] and r["recorded"] and all(t <= 0 for t in r["after_end"]), r
    found = codes("sk_await_terminate")
    assert "SIB202" not in found and "SIB301" not in found, found


def test_decorated_terminate_keeps_every_result(results, codes):
    r = results["sk_await_decorated_terminate"]
    assert not r["raised"] and r["recorded"] and all(t <= 0 for t in r["after_end"]), r
    found = codes("sk_await_decorated_terminate")
    assert "SIB202" not in found and "SIB301" not in found, found
