"""The official MCP Python SDK's servers (`mcp`): sources of tools, not of groups, as fastmcp's.

A server's tools run when a client agent calls them; the client decides what runs beside what and
cancels a call with `notifications/cancelled`, which cancels the handler's task. Two majors, two
classes, so two entries (a module imports one or the other, never both):

- mcp 1.x, `mcp.server.fastmcp.FastMCP` (also `mcp.server.FastMCP`): a sync tool is called inline
  on the server's event loop (`return fn(**arguments_parsed_dict)`, READ
  mcp/server/fastmcp/utilities/func_metadata.py in the 1.30.0 wheel), so a cancellation is not even
  read until its effect has landed. mcp 2.x removed the module (importing it raises), so code that
  spells it runs 1.x.
- mcp 2.x, `mcp.server.mcpserver.MCPServer` (also `mcp.server.MCPServer`): a sync tool runs in a
  worker thread (`anyio.to_thread.run_sync`, func_metadata.py at 2.3.0), which cancelling the call
  leaves running.

`@server.tool()` needs its parentheses in both (a bare `@server.tool` raises a TypeError at import in
1.x); `server.add_tool(fn)` registers a function. A tool's exception is always an `isError` result
(frameworks.md section 6.3): nothing here is fatal on the server side.
tests/runtime/test_mcp_sdk_runtime.py runs both against a cancelling client.
"""

from __future__ import annotations

from .spec import Framework, Param, ToolMaker, ToolSpec

FASTMCP_V1 = "mcp.server.fastmcp.FastMCP"
MCPSERVER = "mcp.server.mcpserver.MCPServer"

_ROOTS = ("mcp.server",)


def _makers(server: str) -> dict[tuple[str, str], ToolMaker]:
    # tool(self, name=None, ...) returns the decorator; add_tool(self, fn, name=None, ...).
    return {(server, "tool"): ToolMaker("decorator", name=Param("name", 0)),
            (server, "add_tool"): ToolMaker("decorator", function=Param("fn", 0), name=Param("name", 1))}


def _aliases(server: str, *spellings: str) -> dict[str, str]:
    # The canonical spelling too: two entries share the root, and the one spelling a name claims it.
    return dict.fromkeys((server, *spellings), server)


V1 = Framework(
    name="mcp-fastmcp",
    import_roots=_ROOTS,
    aliases=_aliases(FASTMCP_V1, "mcp.server.FastMCP", "mcp.server.fastmcp.server.FastMCP"),
    # No rule examples in this spelling: they show sync tools in worker threads, which 1.x never uses.
    tools=ToolSpec(methods=_makers(FASTMCP_V1), sync_runs_in="loop"),
)

V2 = Framework(
    name="mcp-server",
    import_roots=_ROOTS,
    aliases=_aliases(MCPSERVER, "mcp.server.MCPServer", "mcp.server.mcpserver.server.MCPServer"),
    tools=ToolSpec(methods=_makers(MCPSERVER), sync_runs_in="thread"),
    example=("from mcp.server.mcpserver import MCPServer; server = MCPServer('shop')", "@server.tool()"),
)
