"""Runtime truth, the official MCP Python SDK's servers: a client cancels its call of a server's tool
(as a client agent does when a sibling call of its turn fails fatally) and sends
`notifications/cancelled`, which cancels the handler's task.

- mcp 1.30.0, `mcp.server.fastmcp.FastMCP` over stdio (a server process of its own, as deployed): a
  sync tool runs inline on the server's event loop, so the cancellation is read only after its
  charge has landed; the caller has no result. Linted: SIB103 (blocking) at the tool.
- mcp 2.3.0, `mcp.server.mcpserver.MCPServer` in process: a sync tool runs in a worker thread that
  the cancellation leaves running. Linted: SIB101.
- In both, the awaiting twin is cancelled before its charge, and nothing is reported at it.
"""

from __future__ import annotations

import pytest

from . import test_fastmcp_runtime as fastmcp_runtime
from .environments import declare_python
from .venvs import FASTMCP, MCP_V1
from .wave3 import AWAIT_CHARGE, SYNC_CHARGE, codes_of, run_suite

pytestmark = pytest.mark.runtime

V1_ENV = declare_python(*MCP_V1)
V2_ENV = declare_python(*FASTMCP)

# `@server.tool()`: both majors require the call.
SYNC = SYNC_CHARGE.replace("@tool", "@mcp.tool()")
AWAIT = AWAIT_CHARGE.replace("@tool", "@mcp.tool()")

V1_HEAD = '''\
import asyncio, os, sys, time
import httpx, requests
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.server.fastmcp import FastMCP
from mcp.types import CancelledNotification, CancelledNotificationParams, ClientNotification

PAYMENTS = os.environ.get("FAKE_PAYMENTS_URL", "")
DELAY = 0.5
RECORD = []
ENDED = None

mcp = FastMCP("shop")
'''

# The driver imports the module and runs main(), which starts the same file as the stdio server.
V1_MAIN = '''

async def main() -> None:
    global ENDED
    # This module's URL, read at import: the driver sets the environment of each scenario in turn.
    server = StdioServerParameters(command=sys.executable, args=[__file__],
                                   env=dict(os.environ, FAKE_PAYMENTS_URL=PAYMENTS))
    async with stdio_client(server) as (read, write), ClientSession(read, write) as client:
        await client.initialize()
        request_id = client._request_id  # the id the next request gets
        call = asyncio.create_task(client.call_tool("charge_card", {"customer_id": "c1", "amount_cents": 500}))
        await asyncio.sleep(0.1)
        call.cancel()  # the caller gives up on the call: a sibling of its turn failed
        await client.send_notification(ClientNotification(CancelledNotification(
            method="notifications/cancelled", params=CancelledNotificationParams(requestId=request_id))))
        try:
            RECORD.append(str(await call))
        except asyncio.CancelledError:
            pass
        ENDED = time.monotonic()
        await asyncio.sleep(3 * DELAY)  # the server stays up while a blocked tool finishes


if __name__ == "__main__":
    mcp.run()
'''

# 2.x's in-process client and server, in test_fastmcp_runtime's scenario: its client sends
# `notifications/cancelled` itself when the awaiting task is cancelled.
V2_HEAD = fastmcp_runtime.HEAD.replace("from fastmcp import Client, FastMCP",
                                       "from mcp import Client\nfrom mcp.server.mcpserver import MCPServer") \
    .replace('mcp = FastMCP("shop")', 'mcp = MCPServer("shop")')
V2_MAIN = fastmcp_runtime.MAIN

V1 = {"mcp1_sync_cancelled": V1_HEAD + SYNC + V1_MAIN, "mcp1_await_cancelled": V1_HEAD + AWAIT + V1_MAIN}
V2 = {"mcp2_sync_cancelled": V2_HEAD + SYNC + V2_MAIN, "mcp2_await_cancelled": V2_HEAD + AWAIT + V2_MAIN}
SCENARIOS = {**V1, **V2}


@pytest.fixture(scope="module")
def results(fake_server, tmp_path_factory) -> dict[str, dict]:
    return {**run_suite(fake_server, tmp_path_factory.mktemp("mcp1-runtime"), V1, venv=V1_ENV),
            **run_suite(fake_server, tmp_path_factory.mktemp("mcp2-runtime"), V2, venv=V2_ENV)}


@pytest.fixture(scope="module")
def codes(tmp_path_factory):
    root = str(tmp_path_factory.mktemp("mcp-sdk-lint"))
    return lambda name: codes_of(SCENARIOS[name], root, name)


@pytest.mark.parametrize(("name", "code"), [("mcp1_sync_cancelled", "SIB103"), ("mcp2_sync_cancelled", "SIB101")])
def test_a_sync_tool_charges_after_its_call_was_cancelled(results, codes, name, code):
    r = results[name]
    assert not r["raised"] and not r["recorded"], r  # the caller got no result
    assert len(r["after_end"]) == 1 and r["after_end"][0] > 0, r  # the charge landed after the cancellation
    assert code in codes(name)


@pytest.mark.parametrize("name", ["mcp1_await_cancelled", "mcp2_await_cancelled"])
def test_an_awaiting_tool_is_cancelled_before_its_charge(results, codes, name):
    r = results[name]
    assert not r["raised"] and not r["recorded"] and r["after_end"] == [], r
    assert not {c for c in codes(name) if c.startswith("SIB1")}
