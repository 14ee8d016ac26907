"""claude-agent-sdk (`claude-agent-sdk`), as measured at 0.2.189 (bundling the Claude Code CLI 2.1.332).

The runtime behaviour is shown by tests/runtime/test_claude_agent_sdk_runtime.py, run with that version
and the CLI against the loopback fake Messages API (and by `frameworks-wave3.md` section 1).
Signatures re-checked with `inspect.signature`.

In-process tools are `@tool(...)` handlers served by `create_sdk_mcp_server(...)`, given to
`ClaudeAgentOptions(mcp_servers={...})`. The CLI decides concurrency: it runs the calls of one turn
together only for tools annotated `readOnlyHint=True`; any other tool runs alone. A handler's
exception is an error result the model sees. The run ends when the options' `can_use_tool`
permission callback answers `PermissionResultDeny(..., interrupt=True)`: the SDK cancels the
handler tasks in flight, and a handler that offloaded its effect to a thread or shielded it lands
after the `ResultMessage`, recorded as refused.
"""

from __future__ import annotations

from .spec import (
    ConcurrencySpec,
    Framework,
    GroupMaker,
    GroupSpec,
    HookSpec,
    Param,
    ToolMaker,
    ToolSpec,
)

TOOL = "claude_agent_sdk.tool"
SDK_TOOL = "claude_agent_sdk.SdkMcpTool"
SERVER = "claude_agent_sdk.create_sdk_mcp_server"
OPTIONS = "claude_agent_sdk.ClaudeAgentOptions"
DENY = "claude_agent_sdk.PermissionResultDeny"
CLIENT = "claude_agent_sdk.ClaudeSDKClient"

FRAMEWORK = Framework(
    name="claude-agent-sdk",
    import_roots=("claude_agent_sdk",),
    aliases={
        "claude_agent_sdk.types.ClaudeAgentOptions": OPTIONS,
        "claude_agent_sdk.types.PermissionResultDeny": DENY,
        "claude_agent_sdk.client.ClaudeSDKClient": CLIENT,
    },
    tools=ToolSpec(
        makers={
            # tool(name, description, input_schema, annotations=None): always `@tool(...)`.
            TOOL: ToolMaker("decorator", name=Param("name", 0)),
            # SdkMcpTool(name, description, input_schema, handler, annotations=None)
            SDK_TOOL: ToolMaker("decorator", function=Param("handler", 3), name=Param("name", 0)),
        },
        # create_sdk_mcp_server(name, version="1.0.0", tools=None): its tools join the options it is given to.
        toolsets={SERVER: Param("tools", 2)},
    ),
    groups=GroupSpec(
        # ClaudeAgentOptions(mcp_servers={"billing": server}, can_use_tool=guard, ...): the servers'
        # tools are offered together.
        makers={OPTIONS: GroupMaker(toolsets=Param("mcp_servers"))},
        # ClaudeSDKClient(options=None, transport=None): `await client.interrupt()` ends the run as a
        # PermissionResultDeny(interrupt=True) does (terminal_reason=aborted_tools, exp_claude.py (c)).
        stoppers={CLIENT: (Param("options", 0), ("interrupt",),
                           "drop readOnlyHint=True from {victim}'s annotations (it writes: the CLI then runs it alone) "
                           "or make it await its effect, so the interrupt cancels it; a thread or a shield lands after "
                           "the ResultMessage, recorded as refused")},
        fix=(
            "drop readOnlyHint=True from {victim}'s annotations (it writes: the CLI then runs it alone), make it "
            "await its effect, or deny without interrupt=True so {fatal}'s refusal reaches the model"
        ),
    ),
    hooks=HookSpec(
        # ClaudeAgentOptions(can_use_tool=cb): answering PermissionResultDeny(interrupt=True) ends the run
        # and cancels the handlers in flight (types.py:308-313, _internal/query.py:474-479).
        group=Param("can_use_tool"),
        group_event="before",
        fatal_return=(DENY, "interrupt", True),
        noun="permission callback",
        fix=("return PermissionResultDeny without interrupt=True: the model sees the refusal, and the other calls "
             "of the turn keep their results"),
    ),
    concurrency=ConcurrencySpec(
        # The CLI: `isConcurrencySafe(){return ie.mayOverlap||(se.annotations?.readOnlyHint??!1)}`.
        concurrent_when=(("annotations", "readOnlyHint"), ("annotations", "read_only_hint")),
    ),
)
