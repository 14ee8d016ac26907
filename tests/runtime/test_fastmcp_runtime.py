"""Runtime truth, fastmcp 4.1.1: a client cancels its call of a FastMCP server's tool (as a client
agent does when a sibling call fails fatally: `notifications/cancelled` cancels the handler's task).
A sync tool runs in a worker thread and its charge lands after the cancellation, with no result for
the caller; the awaiting twin is cancelled before its charge. The same module text is then linted:
SIB101 at the sync tool, nothing at the twin.
"""

from __future__ import annotations

import pytest

from .environments import declare_python
from .venvs import FASTMCP
from .wave3 import AWAIT_CHARGE, SYNC_CHARGE, codes_of, run_suite

pytestmark = pytest.mark.runtime

ENV = declare_python(*FASTMCP)

HEAD = '''\
import asyncio, os, time
import httpx, requests
from fastmcp import Client, FastMCP

PAYMENTS = os.environ["FAKE_PAYMENTS_URL"]
DELAY = 0.5
RECORD = []
ENDED = None

mcp = FastMCP("shop")
'''

# wave3's charges, served by the FastMCP server: the sync one in fastmcp's worker thread.
MCP_SYNC_CHARGE = SYNC_CHARGE.replace("@tool", "@mcp.tool")
MCP_AWAIT_CHARGE = AWAIT_CHARGE.replace("@tool", "@mcp.tool()")

MAIN = '''

async def main() -> None:
    global ENDED
    async with Client(mcp) as client:
        call = asyncio.create_task(client.call_tool("charge_card", {"customer_id": "c1", "amount_cents": 500}))
        await asyncio.sleep(0.1)
        call.cancel()  # the caller gives up on the call: a sibling of its turn failed
        try:
            RECORD.append(str(await call))
        except asyncio.CancelledError:
            pass
        ENDED = time.monotonic()
        await asyncio.sleep(2 * DELAY)  # the server stays up while a worker thread finishes
'''

SCENARIOS = {"fm_sync_cancelled": HEAD + MCP_SYNC_CHARGE + MAIN, "fm_await_cancelled": HEAD + MCP_AWAIT_CHARGE + MAIN}


@pytest.fixture(scope="module")
def results(fake_server, tmp_path_factory) -> dict[str, dict]:
    return run_suite(fake_server, tmp_path_factory.mktemp("fastmcp-runtime"), SCENARIOS, venv=ENV)


@pytest.fixture(scope="module")
def codes(tmp_path_factory):
    root = str(tmp_path_factory.mktemp("fastmcp-lint"))
    return lambda name: codes_of(SCENARIOS[name], root, name)


def test_a_sync_tool_charges_after_its_call_was_cancelled(results, codes):
    r = results["fm_sync_cancelled"]
    assert not r["raised"] and not r["recorded"], r  # the caller got no result
    assert len(r["after_end"]) == 1 and r["after_end"][0] > 0, r  # the charge landed after the cancellation
    assert "SIB101" in codes("fm_sync_cancelled")


def test_an_awaiting_tool_is_cancelled_before_its_charge(results, codes):
    r = results["fm_await_cancelled"]
    assert not r["raised"] and not r["recorded"] and r["after_end"] == [], r
    assert not {c for c in codes("fm_await_cancelled") if c.startswith("SIB1")}
