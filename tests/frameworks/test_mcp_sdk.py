"""The official MCP SDK's servers (evalW4's ServiceNow server, `mcp.server.fastmcp`): sources of tools
with no group. A sync tool with a side effect is SIB103 on 1.x's `FastMCP` (inline on the server's
event loop) and SIB101 on 2.x's `MCPServer` (a worker thread), in each spelling of `tool()` and
`add_tool`; a read-only or awaiting tool is quiet (tests/runtime/test_mcp_sdk_runtime.py)."""

from __future__ import annotations

import pytest
from support import code_lines

from tests.frameworks import test_fastmcp

# test_fastmcp's server in each spelling of the SDK's class (`FastMCP` and `Server` both name it).
SERVER = test_fastmcp.SERVER.replace("from fastmcp import FastMCP\nfrom fastmcp.server import FastMCP as Server\n",
                                     "{imports}\nServer = FastMCP\n")
CHARGE = test_fastmcp.CHARGE
V1 = ["from mcp.server.fastmcp import FastMCP", "from mcp.server import FastMCP",
      "from mcp.server.fastmcp.server import FastMCP"]
V2 = ["from mcp.server.mcpserver import MCPServer as FastMCP", "from mcp.server import MCPServer as FastMCP"]


@pytest.fixture
def found(lint, tmp_path):
    return code_lines(lint, tmp_path, ("SIB101", "SIB103"))


@pytest.mark.parametrize(("imports", "code"), [*((i, "SIB103") for i in V1), *((i, "SIB101") for i in V2)])
@pytest.mark.parametrize("deco", ["@mcp.tool()", '@mcp.tool("charge_card")', "@mcp.tool(name='charge_card')"])
def test_a_sync_server_tool_runs_on_the_loop_in_1x_and_in_a_thread_in_2x(found, imports, code, deco):
    assert found(SERVER.format(imports=imports, deco=deco)) == [(code, CHARGE)]


@pytest.mark.parametrize(("imports", "code"), [(V1[0], "SIB103"), (V2[0], "SIB101")])
def test_add_tool_registers_a_plain_function(found, imports, code):
    text = SERVER.format(imports=imports, deco="") + "\n\nmcp.add_tool(charge, name='charge_card')\n"
    assert found(text) == [(code, CHARGE)]


@pytest.mark.parametrize("imports", [V1[0], V2[0]])
def test_a_function_no_server_registers_is_no_tool(found, imports):
    assert found(SERVER.format(imports=imports, deco="")) == []


def test_the_low_level_server_makes_no_tool_of_a_decorated_function(found):
    """`mcp.server.lowlevel.Server`'s `call_tool()` decorates one dispatcher, not a tool."""
    text = SERVER.format(imports="from mcp.server.lowlevel import Server as FastMCP", deco="@mcp.call_tool()")
    assert found(text) == []
