"""fastmcp (`fastmcp`, as measured at 4.1.1): a source of tools, not of groups.

A FastMCP server's tools run when a client agent calls them; that client decides what runs beside
what, and cancels a call by sending `notifications/cancelled`, which cancels the handler's task
(frameworks.md section 6.6). From 3.0.0 on, fastmcp hands a sync tool function to a worker thread
(`run_in_thread=True` by default, fastmcp/tools/function_tool.py): cancelling the call leaves the
thread running, and its effect lands with no result for the caller
(tests/runtime/test_fastmcp_runtime.py). Before 3.0.0 it called it inline on the event loop
(`result = self.fn(**arguments)` in fastmcp/tools/tool.py at 2.14.7). A tool's exception is always
an `isError` result the client's model sees (section 6.3): nothing here is fatal on the server side.
"""

from __future__ import annotations

from .spec import Framework, Param, ToolMaker, ToolSpec
from .versions import FASTMCP_SYNC_TOOLS_IN_THREADS

FASTMCP = "fastmcp.FastMCP"

FRAMEWORK = Framework(
    name="fastmcp",
    import_roots=("fastmcp",),
    aliases={"fastmcp.server.FastMCP": FASTMCP, "fastmcp.server.server.FastMCP": FASTMCP},
    tools=ToolSpec(
        # FastMCP.tool(name_or_fn=None, *, name=None, ..., timeout=None, run_in_thread=True):
        # `@mcp.tool`, `@mcp.tool()`, `@mcp.tool("name")`, `mcp.tool(fn)`.
        methods={(FASTMCP, "tool"): ToolMaker("decorator", function=Param("name_or_fn", 0),
                                              name=Param("name_or_fn", 0))},
        sync_runs_in="thread",
        sync_thread_since=FASTMCP_SYNC_TOOLS_IN_THREADS,
    ),
    example=("from fastmcp import FastMCP; mcp = FastMCP('shop')", "@mcp.tool"),
)
