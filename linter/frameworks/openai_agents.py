"""OpenAI Agents SDK for Python (`openai-agents`), as measured at 0.24.0.

Source of every fact: ../shared/reference/openai-agents-runtime.md (spellings S0-S28, arms 1-16,
"Static patterns for a linter" section A). Positional indexes are 0-based after `self`, and were
re-checked with `inspect.signature` against the installed 0.24.0.
"""

from __future__ import annotations

from siblint.frameworks.spec import FatalArg, Framework, GroupMaker, Param, ToolMaker

FUNCTION_TOOL = "agents.function_tool"
FUNCTION_TOOL_CLASS = "agents.FunctionTool"
AGENT = "agents.Agent"
MCP_CONFIG = "agents.agent.MCPConfig"
MCP_SERVER_BASE = "agents.mcp.MCPServer"
MCP_SERVERS = ("agents.mcp.MCPServerStdio", "agents.mcp.MCPServerSse", "agents.mcp.MCPServerStreamableHttp")
MCP_UTIL = ("agents.mcp.MCPUtil.to_function_tool", "agents.mcp.MCPUtil.get_all_function_tools")
SET_FAILURE_FUNCTION = "agents.tool.set_function_tool_failure_error_function"
CODEX_TOOL = "agents.extensions.experimental.codex.codex_tool"

# Labels: how messages and FatalReason name each cause; `{fault}` is what the handler does
# ("returns None", "raises").
NO_HANDLER = "failure_error_function=None"
HANDLER_NONE = "failure handler {fault}"
TIMEOUT_RAISES = 'timeout_behavior="raise_exception"'
TIMEOUT_HANDLER_RAISES = "timeout handler {fault}"
NO_WRAPPER = "FunctionTool without a failure handler"
INVOKER_REPLACED = "on_invoke_tool replaced without a failure handler"


def _failure_handler(position: int | None = None, key: str | None = None, keyword: str = "failure_error_function") -> tuple[FatalArg, ...]:
    """`failure_error_function`: None is SIB201 (S1-S3); a handler returning None or raising is SIB202 (S4-S6, arm 9)."""
    label = f'{keyword}["{key}"]=None' if key else f"{keyword}=None"
    return (
        FatalArg("SIB201", Param(keyword, position), (None,), label, key=key),
        FatalArg("SIB202", Param(keyword, position), (), HANDLER_NONE, key=key, when=("returns_none", "raises")),
    )


def _timeout(behavior: str, behavior_pos: int | None, handler_pos: int | None) -> tuple[FatalArg, ...]:
    """`timeout_behavior="raise_exception"` (S8, S17) or a `timeout_error_function` that raises (S24).
    A timeout handler returning None is not fatal: the model sees "None" (S25)."""
    return (
        FatalArg("SIB203", Param(behavior, behavior_pos), ("raise_exception",), TIMEOUT_RAISES),
        FatalArg("SIB203", Param("timeout_error_function", handler_pos), (), TIMEOUT_HANDLER_RAISES, when=("raises",)),
    )


# The FunctionTool wrapper that applies the failure handler is `on_invoke_tool` itself: a raw
# callable there lets every exception escape (S7, arm 14d; replaced after creation: S16).
_RAW_INVOKER = FatalArg("SIB204", Param("on_invoke_tool", 3), (), NO_WRAPPER, when=("unguarded",))
_INVOKER_REPLACED = FatalArg("SIB204", Param("on_invoke_tool"), (), INVOKER_REPLACED, when=("unguarded",))

# Private FunctionTool fields: `_use_default_failure_error_function=False` is fatal on its own because
# `_failure_error_function` defaults to None (S14, S10), unless a handler is given with it; the handler
# is read only then. `_failure_error_function = None` alone is not fatal (S13).
_PRIVATE_POLICY = (
    FatalArg("SIB201", Param("_use_default_failure_error_function"), (False,), "_use_default_failure_error_function=False",
             unless="_failure_error_function"),
    FatalArg("SIB202", Param("_failure_error_function"), (), HANDLER_NONE, when=("returns_none", "raises"),
             only_with=("_use_default_failure_error_function", False)),
)

FRAMEWORK = Framework(
    name="openai-agents",
    import_roots=("agents",),
    aliases={
        "agents.tool.function_tool": FUNCTION_TOOL,
        "agents.decorators.function_tool": FUNCTION_TOOL,
        "agents.decorators.tool": FUNCTION_TOOL,
        "agents.tool.FunctionTool": FUNCTION_TOOL_CLASS,
        "agents.agent.Agent": AGENT,
        "agents.run.Runner": "agents.Runner",
        **{f"agents.run.Runner.{m}": f"agents.Runner.{m}" for m in ("run", "run_sync", "run_streamed")},
        "agents.mcp.server.MCPServer": MCP_SERVER_BASE,
        **{f"agents.mcp.server.{n.rsplit('.', 1)[1]}": n for n in MCP_SERVERS},
        **{f"agents.mcp.util.MCPUtil.{n.rsplit('.', 1)[1]}": n for n in MCP_UTIL},
        "agents.extensions.experimental.codex.codex_tool.codex_tool": CODEX_TOOL,
    },
    fatal_args={
        # function_tool's options are keyword-only (S1-S6, S17, S24).
        FUNCTION_TOOL: (*_failure_handler(), *_timeout("timeout_behavior", None, None)),
        # FunctionTool(name, description, params_json_schema, on_invoke_tool, strict_json_schema,
        # is_enabled, tool_input_guardrails, tool_output_guardrails, needs_approval, timeout_seconds,
        # timeout_behavior, timeout_error_function, ...): indexes 3, 10 and 11 (S7, S8).
        FUNCTION_TOOL_CLASS: (_RAW_INVOKER, *_timeout("timeout_behavior", 10, 11)),
        # MCP servers: failure_error_function at positional index 10 (arm 14f).
        **{n: _failure_handler(10) for n in MCP_SERVERS},
        # Agent(mcp_config={"failure_error_function": None}) (arm 14g), or an MCPConfig(...) TypedDict.
        AGENT: _failure_handler(key="failure_error_function", keyword="mcp_config"),
        MCP_CONFIG: _failure_handler(),
        # MCPUtil.to_function_tool / get_all_function_tools: positional index 4 (static methods).
        **{n: _failure_handler(4) for n in MCP_UTIL},
        # codex_tool(failure_error_function=None): keyword-only.
        CODEX_TOOL: _failure_handler(),
    },
    fatal_fields=(
        *_timeout("timeout_behavior", None, None),  # S18, S19, S20, S22
        *_PRIVATE_POLICY,  # S10, S14
        _INVOKER_REPLACED,  # S16: `t.on_invoke_tool = <raw callable>` bypasses the wrapper
    ),
    tool_setters={
        # set_function_tool_failure_error_function(tool, None | handler) (S15); omitted = default restored.
        SET_FAILURE_FUNCTION: (Param("function_tool", 0), _failure_handler(1)),
    },
    copiers={
        # The copy keeps every field, hence the failure policy (S11, S12); replace() keywords set fields (S10, S20).
        "dataclasses.replace": (Param("obj", 0), True),
        "copy.copy": (Param("x", 0), False),
        # Not run (the reference lists deepcopy as untested); a deep copy keeps field values all the same.
        "copy.deepcopy": (Param("x", 0), False),
    },
    fatal_super_init={
        # class S(MCPServer): super().__init__(use_structured_content, require_approval, failure_error_function)
        MCP_SERVER_BASE: _failure_handler(2),
    },
    inherited_by_servers={
        # A server-level failure_error_function overrides the agent-level mcp_config one unless unset (14g).
        AGENT: (_failure_handler(key="failure_error_function", keyword="mcp_config"), "failure_error_function"),
    },
    tool_makers={
        FUNCTION_TOOL: ToolMaker("decorator", function=Param("func", 0), name=Param("name_override")),
        FUNCTION_TOOL_CLASS: ToolMaker("constructor", function=Param("on_invoke_tool", 3), name=Param("name", 0)),
    },
    tool_methods={(AGENT, "as_tool"): ToolMaker("constructor", name=Param("tool_name", 0))},
    server_makers=MCP_SERVERS,
    # Agent(name, handoff_description, tools, mcp_servers, ...): handoffs are not group members.
    group_makers={AGENT: GroupMaker(tools=Param("tools", 2), servers=Param("mcp_servers", 3), name=Param("name", 0))},
    group_methods={(AGENT, "clone"): GroupMaker(tools=Param("tools"), servers=Param("mcp_servers"), keeps_receiver_tools=True)},
    runners={
        f"agents.Runner.{m}": (Param("starting_agent", 0), Param("run_config"))
        for m in ("run", "run_sync", "run_streamed")
    },
    # RunConfig(tool_execution=ToolExecutionConfig(max_function_tool_concurrency=1)), or dicts (arm 11).
    concurrency_cap=("tool_execution", "max_function_tool_concurrency"),
    # ModelSettings(parallel_tool_calls=False) is forwarded to the provider only (arm 10a).
    parallel_hint=("model_settings", "parallel_tool_calls"),
    group_fix=(
        "cap concurrency with RunConfig(tool_execution=ToolExecutionConfig(max_function_tool_concurrency=1)), "
        "make {victim} async and awaiting, or let {fatal}'s errors reach the model"
    ),
    fatal_method_args={
        # agent.as_tool(..., failure_error_function=None | handler): keyword or positional index 11 (arm 14b).
        (AGENT, "as_tool"): _failure_handler(11),
    },
)
