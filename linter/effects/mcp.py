"""Tools of an MCP server called from a tool's code: `client.callTool({ name: 'API-post-page', ... })`.

What the call does is what the remote tool does, and its name is all the source says of it: a name
with a word that writes (`API-patch-block-children`, `create_issue`) and none that reads is a write;
one that reads (`API-post-search`, `get_file_contents`) or that siblint cannot read is not, as SQL it
cannot read is not (`check="mcp_tool"`). The name is read where the call gives it: the first argument
(Python's `call_tool(name, args)`), the `name` of the options object (`callTool({ name })`), or the
`params.name` of a raw `tools/call` request (`client.request({ method: 'tools/call', params }, schema)`).
"""

from __future__ import annotations

from .readonly import camel_words
from .rows import Row, methods

_JS_CLIENTS = " ".join(f"@modelcontextprotocol/sdk/client/{m}.Client" for m in ("index.js", "index"))

ROWS: tuple[Row, ...] = (
    *methods(f"{_JS_CLIENTS} @modelcontextprotocol/sdk/client.Client", "callTool request",
             "{name} (MCP tool {tool})", False, "mcp", "mcp_tool"),
    *methods("mcp.ClientSession mcp.client.session.ClientSession fastmcp.Client fastmcp.client.Client",
             "call_tool", "{name} (MCP tool {tool})", False, "mcp", "mcp_tool"),
    # strands' MCPClient: `call_tool_sync(tool_use_id, name, arguments)` blocks until the server answers.
    *methods("strands.tools.mcp.MCPClient strands.tools.mcp.mcp_client.MCPClient", "call_tool_sync",
             "{name} (MCP tool {tool})", True, "mcp", "mcp_tool"),
    *methods("strands.tools.mcp.MCPClient strands.tools.mcp.mcp_client.MCPClient", "call_tool_async",
             "{name} (MCP tool {tool})", False, "mcp", "mcp_tool"),
)

# Where each client method takes the tool's name (keyword `name` first): strands' put a tool-use id before it.
NAME_AT = {"call_tool_sync": 1, "call_tool_async": 1}

READS = frozenset({"get", "list", "search", "query", "find", "read", "retrieve", "fetch", "lookup", "describe",
                   "count", "view", "show", "check", "validate", "preview", "export", "download", "browse", "inspect",
                   "status", "info", "explain", "analyze", "summarize"})
WRITES = frozenset({"create", "post", "put", "patch", "update", "delete", "remove", "append", "insert", "add", "send",
                    "write", "set", "upload", "move", "archive", "publish", "comment", "merge", "close", "assign",
                    "edit", "modify", "replace", "upsert", "push", "commit", "cancel", "book", "pay", "charge",
                    "refund", "transfer", "invite", "schedule", "submit", "reply", "forward", "restore", "trash",
                    # devices and jobs acted on (`control_device`, `turn_on_light`, `restart_service`)
                    "control", "toggle", "turn", "switch", "enable", "disable", "activate", "deactivate", "start",
                    "stop", "restart", "reboot", "launch", "deploy", "trigger", "execute", "lock", "unlock"})


def writes(tool: str) -> bool:
    """Does the MCP tool named `tool` write, as its name says?"""
    words = camel_words(tool)
    return bool(words & WRITES) and not words & READS
