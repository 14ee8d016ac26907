"""OpenAI Agents SDK for Python (`openai-agents`), as measured at 0.24.0.

Source of every fact: ../shared/reference/openai-agents-runtime.md (spellings S0-S28, arms 1-16).
"""

from __future__ import annotations

from siblint.frameworks.spec import FatalArg, Framework, GroupMaker, Param, ToolMaker

FUNCTION_TOOL = "agents.function_tool"
FUNCTION_TOOL_CLASS = "agents.FunctionTool"
AGENT = "agents.Agent"
MCP_SERVERS = ("agents.mcp.MCPServerStdio", "agents.mcp.MCPServerSse", "agents.mcp.MCPServerStreamableHttp")

_NO_HANDLER = FatalArg("SIB201", Param("failure_error_function"), (None,), "failure_error_function=None")
_TIMEOUT_RAISES = FatalArg("SIB203", Param("timeout_behavior"), ("raise_exception",), 'timeout_behavior="raise_exception"')

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
        **{f"agents.mcp.server.{n.rsplit('.', 1)[1]}": n for n in MCP_SERVERS},
    },
    fatal_args={
        # function_tool's options are keyword-only (S1-S3, S17).
        FUNCTION_TOOL: (_NO_HANDLER, _TIMEOUT_RAISES),
        # FunctionTool(name, description, params_json_schema, on_invoke_tool, strict_json_schema,
        # is_enabled, tool_input_guardrails, tool_output_guardrails, needs_approval,
        # timeout_seconds, timeout_behavior, ...): timeout_behavior is index 10 (S8).
        FUNCTION_TOOL_CLASS: (FatalArg("SIB203", Param("timeout_behavior", 10), ("raise_exception",), 'timeout_behavior="raise_exception"'),),
        # MCP servers: failure_error_function at positional index 10 (arm 14f).
        **{n: (FatalArg("SIB201", Param("failure_error_function", 10), (None,), "failure_error_function=None"),) for n in MCP_SERVERS},
        # Agent(mcp_config={"failure_error_function": None}) (arm 14g).
        AGENT: (FatalArg("SIB201", Param("mcp_config"), (None,), 'mcp_config["failure_error_function"]=None', key="failure_error_function"),),
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
        # agent.as_tool(..., failure_error_function=None): keyword or positional index 11 (arm 14b).
        (AGENT, "as_tool"): (FatalArg("SIB201", Param("failure_error_function", 11), (None,), "failure_error_function=None"),),
    },
)
