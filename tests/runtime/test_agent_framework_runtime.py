"""Runtime truth (issue 25), Microsoft Agent Framework (`agent-framework-core` 1.23.0): each INVALID
spelling siblint reports is run with the real package and its OpenAI chat client against the
loopback fake model, and must land its charge after the run raised `MiddlewareFailure`, with no
result kept; each fixed twin must not. The same module text is then linted.
"""

from __future__ import annotations

import pytest

from .wave3 import ASYNC_LOOKUP, AWAIT_CHARGE, SYNC_CHARGE, codes_of, lands_after_the_raise, run_suite

pytestmark = pytest.mark.runtime

HEAD = '''\
import asyncio, os, time
import httpx, requests
from agent_framework import Agent, FunctionMiddleware, MiddlewareFailure, function_middleware, tool
from agent_framework.openai import OpenAIChatCompletionClient

PAYMENTS, DOWN, MODEL = os.environ["FAKE_PAYMENTS_URL"], os.environ["FAKE_DOWN_URL"], os.environ["FAKE_MODEL_URL"]
DELAY = 1.5  # the lookup's 503 comes well before: the charge lands after the raise
RECORD = []
''' + ASYNC_LOOKUP

THREAD_CHARGE = '''

def _post(customer_id, amount_cents):
    time.sleep(DELAY)
    requests.post(PAYMENTS, json={"customer": customer_id, "amount": amount_cents})


@tool
async def charge_card(customer_id: str, amount_cents: int) -> str:
    """Charge the card."""
    await asyncio.to_thread(_post, customer_id, amount_cents)
    return "charged"
'''

FAIL_CLOSED = '''

@function_middleware
async def fail_closed(context, call_next):
    """A guardrail: any tool error aborts the run."""
    try:
        await call_next()
    except Exception as e:
        raise MiddlewareFailure(f"{context.function.name} failed") from e
    if context.result is not None and getattr(context.result, "exception", None):
        raise MiddlewareFailure(f"{context.function.name} failed")
'''

FAIL_CLOSED_CLASS = '''

class FailClosed(FunctionMiddleware):
    async def process(self, context, call_next):
        if context.function.name == "lookup_customer":  # a policy check, before the call
            await asyncio.sleep(0.2)
            raise MiddlewareFailure("the CRM is down: aborting")
        await call_next()
'''

RUNTIME_ERROR = FAIL_CLOSED.replace("raise MiddlewareFailure(", "raise RuntimeError(")

MAIN = '''

async def main() -> None:
    client = OpenAIChatCompletionClient(model="fake/each-tool", api_key="sk-fake", base_url=MODEL{config})
    agent = Agent(client=client, tools=[lookup_customer, charge_card], middleware=[{middleware}])
    response = await agent.run("checkout")
    RECORD[:] = [str(c.result) for m in response.messages for c in m.contents
                 if c.type == "function_result" and c.exception is None and "charged" in str(c.result)]
'''


def _main(middleware: str = "fail_closed", config: str = "") -> str:
    return MAIN.format(middleware=middleware, config=config)


SERIAL = ', function_invocation_configuration={"allow_concurrent_invocation": False}'

# No middleware: the lookup raises MiddlewareFailure itself on a 503 (or, the fix, a plain error).
HEAD_OWN_RAISE = HEAD.replace(ASYNC_LOOKUP, '''

@tool
async def lookup_customer(customer_id: str) -> str:
    """Look up the customer in the CRM (down: 503)."""
    async with httpx.AsyncClient() as c:
        r = await c.get(DOWN)
    if r.status_code >= 500:
        raise MiddlewareFailure("the CRM is down: aborting")
    return r.text
''')
# The serialiser set by key on the client's configuration dict.
KEYED_SERIAL = _main().replace(
    "    agent = Agent(", '    client.function_invocation_configuration["allow_concurrent_invocation"] = False\n    agent = Agent(', 1)

# The agent made by the client's own as_agent(), the client its receiver.
def _as_agent(main: str) -> str:
    return main.replace("agent = Agent(client=client, ", "agent = client.as_agent(", 1)


SCENARIOS = {
    "maf_sync_tool_raises": HEAD_OWN_RAISE + SYNC_CHARGE + _main(""),
    "maf_sync_tool_raises_plain": HEAD_OWN_RAISE.replace("raise MiddlewareFailure(", "raise RuntimeError(") + SYNC_CHARGE
    + _main(""),
    "maf_sync_keyed_serial": HEAD + SYNC_CHARGE + FAIL_CLOSED + KEYED_SERIAL,
    "maf_sync_middleware": HEAD + SYNC_CHARGE + FAIL_CLOSED + _main(),
    "maf_thread_middleware": HEAD + THREAD_CHARGE + FAIL_CLOSED + _main(),
    "maf_sync_middleware_class": HEAD + SYNC_CHARGE + FAIL_CLOSED_CLASS + _main("FailClosed()"),
    "maf_as_agent_middleware": HEAD + SYNC_CHARGE + FAIL_CLOSED + _as_agent(_main()),
    # Fixes: allow_concurrent_invocation=False; an awaiting charge; a middleware raising a plain error.
    "maf_sync_serial": HEAD + SYNC_CHARGE + FAIL_CLOSED + _main(config=SERIAL),
    "maf_as_agent_serial": HEAD + SYNC_CHARGE + FAIL_CLOSED + _as_agent(_main(config=SERIAL)),
    "maf_await_middleware": HEAD + AWAIT_CHARGE + FAIL_CLOSED + _main(),
    "maf_sync_runtime_error": HEAD + SYNC_CHARGE + RUNTIME_ERROR + _main(),
}


@pytest.fixture(scope="module")
def results(fake_server, tmp_path_factory) -> dict[str, dict]:
    return run_suite(fake_server, tmp_path_factory.mktemp("maf-runtime"), SCENARIOS)


@pytest.fixture(scope="module")
def codes(tmp_path_factory):
    root = str(tmp_path_factory.mktemp("maf-lint"))
    return lambda name: codes_of(SCENARIOS[name], root, name)


@pytest.mark.parametrize("name, code", [("maf_sync_middleware", "SIB101"), ("maf_thread_middleware", "SIB102"),
                                        ("maf_sync_middleware_class", "SIB101"), ("maf_as_agent_middleware", "SIB101")])
def test_middleware_failure_lands_the_charge_after_the_raise(name, code, results, codes):
    r = results[name]
    assert r["exc_type"] == "MiddlewareFailure", r
    assert lands_after_the_raise(r), r
    assert {code, "SIB202", "SIB301"} <= codes(name), codes(name)


@pytest.mark.parametrize("name", ["maf_sync_serial", "maf_as_agent_serial"])
def test_allow_concurrent_invocation_false_lands_nothing_after_the_raise(name, results, codes):
    r = results[name]
    # One call at a time: the failing lookup comes first and the charge never starts.
    assert r["exc_type"] == "MiddlewareFailure" and all(t <= 0 for t in r["after_end"]), r
    found = codes(name)
    assert "SIB301" not in found and "SIB202" in found, found


def test_awaiting_charge_is_cancelled(results, codes):
    r = results["maf_await_middleware"]
    assert r["exc_type"] == "MiddlewareFailure" and r["after_end"] == [], r
    found = codes("maf_await_middleware")
    assert "SIB301" not in found and not any(c.startswith("SIB10") for c in found), found


def test_a_plain_exception_from_middleware_reaches_the_model(results, codes):
    r = results["maf_sync_runtime_error"]
    assert not r["raised"] and r["recorded"] and all(t <= 0 for t in r["after_end"]), r
    found = codes("maf_sync_runtime_error")
    assert "SIB202" not in found and "SIB301" not in found, found


def test_a_tool_raising_middleware_failure_lands_the_charge_after_the_raise(results, codes):
    r = results["maf_sync_tool_raises"]
    assert r["exc_type"] == "MiddlewareFailure", r
    assert lands_after_the_raise(r), str(r)
    assert {"SIB101", "SIB202", "SIB301"} <= codes("maf_sync_tool_raises"), codes("maf_sync_tool_raises")


def test_a_tool_raising_a_plain_error_reaches_the_model(results, codes):
    r = results["maf_sync_tool_raises_plain"]
    assert not r["raised"] and r["recorded"] and all(t <= 0 for t in r["after_end"]), r
    found = codes("maf_sync_tool_raises_plain")
    assert "SIB202" not in found and "SIB301" not in found, found


def test_allow_concurrent_invocation_set_by_key_serialises(results, codes):
    r = results["maf_sync_keyed_serial"]
    assert r["exc_type"] == "MiddlewareFailure" and all(t <= 0 for t in r["after_end"]), r
    found = codes("maf_sync_keyed_serial")
    assert "SIB301" not in found and "SIB202" in found, found
