"""OpenAI Agents SDK for Python (`openai-agents`), as measured at 0.24.0.

Every fatal spelling is a case of tests/rules/test_failure_policy.py; the runtime behaviour behind
them is shown by tests/runtime/scenarios.py (scenario names in the comments below), run with the
real SDK. Positional indexes are 0-based after `self`, and were re-checked with `inspect.signature`
against the installed 0.24.0.
"""

from __future__ import annotations

from .spec import (
    ConcurrencySpec,
    FailureSpec,
    FatalArg,
    Framework,
    GroupMaker,
    GroupSpec,
    ModelRetry,
    Param,
    RetrySpec,
    ToolMaker,
    ToolSpec,
)
from .versions import SIBLINGS_CANCELLED, SYNC_TOOLS_IN_THREADS

FUNCTION_TOOL = "agents.function_tool"
FUNCTION_TOOL_CLASS = "agents.FunctionTool"
LOCAL_SHELL_TOOL = "agents.LocalShellTool"
AGENT = "agents.Agent"
MCP_CONFIG = "agents.agent.MCPConfig"
MCP_SERVER_BASE = "agents.mcp.MCPServer"
MCP_SERVERS = ("agents.mcp.MCPServerStdio", "agents.mcp.MCPServerSse", "agents.mcp.MCPServerStreamableHttp")
MCP_UTIL = ("agents.mcp.MCPUtil.to_function_tool", "agents.mcp.MCPUtil.get_all_function_tools")
MODEL_RETRY_SETTINGS = "agents.ModelRetrySettings"
MODEL_SETTINGS = "agents.ModelSettings"
HTTP_STATUS_POLICY = "agents.retry_policies.http_status"
SET_FAILURE_FUNCTION = "agents.tool.set_function_tool_failure_error_function"
CODEX_TOOL = "agents.extensions.experimental.codex.codex_tool"

# Labels: how messages and FatalReason name each cause; `{fault}` is what the handler does
# ("returns None", "raises").
HANDLER_NONE = "failure handler {fault}"
TIMEOUT_RAISES = 'timeout_behavior="raise_exception"'
TIMEOUT_HANDLER_RAISES = "timeout handler {fault}"
NO_WRAPPER = "FunctionTool without a failure handler"
INVOKER_REPLACED = "on_invoke_tool replaced without a failure handler"


def _failure_handler(position: int | None = None, key: str | None = None, keyword: str = "failure_error_function") -> tuple[FatalArg, ...]:
    """`failure_error_function`: None disables the handler; a handler returning None or raising is fatal
    too (runtime scenarios `handler_returns_none`, `handler_raises`)."""
    label = f'{keyword}["{key}"]=None' if key else f"{keyword}=None"
    return (
        FatalArg("handler_disabled", Param(keyword, position), (None,), label, key=key),
        FatalArg("handler_returns_none", Param(keyword, position), (), HANDLER_NONE, key=key, when=("returns_none", "raises")),
    )


def _timeout(behavior: str, behavior_pos: int | None, handler_pos: int | None) -> tuple[FatalArg, ...]:
    """`timeout_behavior="raise_exception"` (runtime scenario `timeout_raises`) or a
    `timeout_error_function` that raises. A timeout handler returning None is not fatal: the model
    sees "None"."""
    return (
        FatalArg("timeout_raises", Param(behavior, behavior_pos), ("raise_exception",), TIMEOUT_RAISES),
        FatalArg("timeout_raises", Param("timeout_error_function", handler_pos), (), TIMEOUT_HANDLER_RAISES, when=("raises",)),
    )


# The FunctionTool wrapper that applies the failure handler is `on_invoke_tool` itself: a raw
# callable there lets every exception escape (runtime scenarios `function_tool_raises` and
# `function_tool_guarded`), also when replaced after creation.
_RAW_INVOKER = FatalArg("invoker_unguarded", Param("on_invoke_tool", 3), (), NO_WRAPPER, when=("unguarded",))
_INVOKER_REPLACED = FatalArg("invoker_unguarded", Param("on_invoke_tool"), (), INVOKER_REPLACED, when=("unguarded",))

# Private FunctionTool fields: `_use_default_failure_error_function=False` is fatal on its own because
# `_failure_error_function` defaults to None, unless a handler is given with it; the handler is read
# only then. `_failure_error_function = None` alone is not fatal.
_PRIVATE_POLICY = (
    FatalArg("handler_disabled", Param("_use_default_failure_error_function"), (False,), "_use_default_failure_error_function=False",
             unless="_failure_error_function"),
    FatalArg("handler_returns_none", Param("_failure_error_function"), (), HANDLER_NONE, when=("returns_none", "raises"),
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
        "agents.tool.LocalShellTool": LOCAL_SHELL_TOOL,
        "agents.agent.Agent": AGENT,
        "agents.retry.ModelRetrySettings": MODEL_RETRY_SETTINGS,
        "agents.model_settings.ModelSettings": MODEL_SETTINGS,
        "agents.retry.retry_policies.http_status": HTTP_STATUS_POLICY,
        "agents.run_context.RunContextWrapper": "agents.RunContextWrapper",
        "agents.ToolContext": "agents.tool_context.ToolContext",
        "agents.run.Runner": "agents.Runner",
        **{f"agents.run.Runner.{m}": f"agents.Runner.{m}" for m in ("run", "run_sync", "run_streamed")},
        "agents.mcp.server.MCPServer": MCP_SERVER_BASE,
        **{f"agents.mcp.server.{n.rsplit('.', 1)[1]}": n for n in MCP_SERVERS},
        **{f"agents.mcp.util.MCPUtil.{n.rsplit('.', 1)[1]}": n for n in MCP_UTIL},
        "agents.extensions.experimental.codex.codex_tool.codex_tool": CODEX_TOOL,
    },
    tools=ToolSpec(
        makers={
            FUNCTION_TOOL: ToolMaker("decorator", function=Param("func", 0), name=Param("name_override")),
            FUNCTION_TOOL_CLASS: ToolMaker("constructor", function=Param("on_invoke_tool", 3), name=Param("name", 0)),
            # LocalShellTool(executor): `output = executor(request); await output if awaitable` — a sync
            # executor runs inline on the event loop (READ agents/run_internal/tool_actions.py:435, 0.24.0).
            LOCAL_SHELL_TOOL: ToolMaker("constructor", function=Param("executor", 0)),
        },
        methods={(AGENT, "as_tool"): ToolMaker("constructor", name=Param("tool_name", 0))},
        servers=MCP_SERVERS,
        copiers={
            # The copy keeps every field, hence the failure policy; replace() keywords set fields.
            "dataclasses.replace": (Param("obj", 0), True),
            "copy.copy": (Param("x", 0), False),
            # Not run: a deep copy keeps field values all the same.
            "copy.deepcopy": (Param("x", 0), False),
        },
        # A sync function tool runs in `asyncio.to_thread` (runtime scenario `sync_charge`).
        sync_runs_in="thread",
        sync_thread_since=SYNC_TOOLS_IN_THREADS,
        context_attrs={"agents.RunContextWrapper": "context"},
        # function_tool(..., timeout=None) (keyword-only); FunctionTool(..., timeout_seconds) at index 9.
        # Enforced with asyncio.wait_for around the tool (agents/tool.py, 0.24.0).
        budget=(Param("timeout"), Param("timeout_seconds", 9)),
        # ToolContext.tool_call_id: the id the model gave this call (agents/tool_context.py).
        call_ids={"agents.tool_context.ToolContext": "tool_call_id"},
    ),
    groups=GroupSpec(
        # Agent(name, handoff_description, tools, mcp_servers, ...): handoffs are not group members.
        makers={AGENT: GroupMaker(tools=Param("tools", 2), servers=Param("mcp_servers", 3), name=Param("name", 0),
                                  cancels_since=SIBLINGS_CANCELLED)},
        methods={(AGENT, "clone"): GroupMaker(tools=Param("tools"), servers=Param("mcp_servers"),
                                              keeps_receiver_tools=True, cancels_since=SIBLINGS_CANCELLED)},
        tools_attr="tools",
        fix=(
            "cap concurrency with RunConfig(tool_execution=ToolExecutionConfig(max_function_tool_concurrency=1)), "
            "make {victim} async and awaiting, or let {fatal}'s errors reach the model"
        ),
    ),
    failure=FailureSpec(
        args={
            # function_tool's options are keyword-only.
            FUNCTION_TOOL: (*_failure_handler(), *_timeout("timeout_behavior", None, None)),
            # FunctionTool(name, description, params_json_schema, on_invoke_tool, strict_json_schema,
            # is_enabled, tool_input_guardrails, tool_output_guardrails, needs_approval, timeout_seconds,
            # timeout_behavior, timeout_error_function, ...): indexes 3, 10 and 11.
            FUNCTION_TOOL_CLASS: (_RAW_INVOKER, *_timeout("timeout_behavior", 10, 11)),
            # MCP servers: failure_error_function at positional index 10.
            **{n: _failure_handler(10) for n in MCP_SERVERS},
            # Agent(mcp_config={"failure_error_function": None}), or an MCPConfig(...) TypedDict.
            AGENT: _failure_handler(key="failure_error_function", keyword="mcp_config"),
            MCP_CONFIG: _failure_handler(),
            # MCPUtil.to_function_tool / get_all_function_tools: positional index 4 (static methods).
            **{n: _failure_handler(4) for n in MCP_UTIL},
            # codex_tool(failure_error_function=None): keyword-only.
            CODEX_TOOL: _failure_handler(),
        },
        method_args={
            # agent.as_tool(..., failure_error_function=None | handler): keyword or positional index 11.
            (AGENT, "as_tool"): _failure_handler(11),
        },
        fields=(
            *_timeout("timeout_behavior", None, None),
            *_PRIVATE_POLICY,
            _INVOKER_REPLACED,  # `t.on_invoke_tool = <raw callable>` bypasses the wrapper
        ),
        setters={
            # set_function_tool_failure_error_function(tool, None | handler); omitted = default restored.
            SET_FAILURE_FUNCTION: (Param("function_tool", 0), _failure_handler(1)),
        },
        super_init={
            # class S(MCPServer): super().__init__(use_structured_content, require_approval, failure_error_function)
            MCP_SERVER_BASE: _failure_handler(2),
        },
        inherited_by_servers={
            # A server-level failure_error_function overrides the agent-level mcp_config one unless unset.
            AGENT: (_failure_handler(key="failure_error_function", keyword="mcp_config"), "failure_error_function"),
        },
        invoker_attr="on_invoke_tool",
    ),
    concurrency=ConcurrencySpec(
        runners={
            f"agents.Runner.{m}": (Param("starting_agent", 0), Param("run_config"))
            for m in ("run", "run_sync", "run_streamed")
        },
        # RunConfig(tool_execution=ToolExecutionConfig(max_function_tool_concurrency=1)), or dicts
        # (runtime scenarios `sync_charge_serialised_*`).
        cap=("tool_execution", "max_function_tool_concurrency"),
        # ModelSettings(parallel_tool_calls=False) is forwarded to the provider only (runtime
        # scenario `parallel_tool_calls_false`).
        hint=("model_settings", "parallel_tool_calls"),
        hint_note="; parallel_tool_calls=False is only a provider hint: the SDK still runs every returned call concurrently",
    ),
    retries=RetrySpec(
        # ModelRetrySettings(max_retries=None, backoff=None, policy=None): with no policy the runner
        # never retries (agents/run_internal/model_retry.py `_evaluate_retry`), whatever max_retries says.
        model_settings={MODEL_RETRY_SETTINGS: ModelRetry(Param("max_retries", 0), Param("policy", 2))},
        settings_holders={MODEL_SETTINGS: "retry"},  # ModelSettings(retry=ModelRetrySettings(...) | {...})
        settings_mergers=("resolve",),  # base.resolve(override) merges `retry` field by field
        # retry_policies.http_status(statuses): retries exactly the statuses listed, 4xx included.
        status_policies={HTTP_STATUS_POLICY: Param("statuses", 0)},
    ),
)
