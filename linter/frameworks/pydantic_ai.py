"""pydantic-ai (`pydantic-ai-slim` 2.68.0), as measured with that version.

Sources: ../shared/reference/frameworks.md section 2 and harness/exp_pydantic_ai.py, re-run here, and
tests/runtime/test_pydantic_ai_runtime.py. Signatures re-checked with `inspect.signature`.

Any exception a tool raises other than `ModelRetry`, `ToolFailed`, `CallDeferred` or
`ApprovalRequired` ends the run, with no switch. The calls of one response run as concurrent tasks;
a fatal failure cancels async siblings (`cancel_and_drain`), while a sync tool keeps running in its
anyio worker thread. Tool timeouts reach the model as a retry, so they are not fatal.
"""

from __future__ import annotations

from siblint.frameworks.spec import ErrorPolicy, Framework, GroupMaker, Param, ToolMaker

AGENT = "pydantic_ai.Agent"
TOOL = "pydantic_ai.Tool"
FUNCTION_TOOLSET = "pydantic_ai.FunctionToolset"
VISIBLE = ("ModelRetry", "ToolFailed", "CallDeferred", "ApprovalRequired")

# @agent.tool / @agent.tool_plain (func=None, /, *, name=None, ..., sequential=False, timeout=None)
_DECORATOR = ToolMaker("decorator", function=Param("func", 0), name=Param("name"))

FRAMEWORK = Framework(
    name="pydantic-ai",
    import_roots=("pydantic_ai",),
    aliases={
        "pydantic_ai.agent.Agent": AGENT,
        "pydantic_ai.tools.Tool": TOOL,
        "pydantic_ai.toolsets.FunctionToolset": FUNCTION_TOOLSET,
        "pydantic_ai.toolsets.function.FunctionToolset": FUNCTION_TOOLSET,
        **{f"pydantic_ai.exceptions.{e}": f"pydantic_ai.{e}" for e in VISIBLE},
        "pydantic_ai.agent.Agent.parallel_tool_call_execution_mode": f"{AGENT}.parallel_tool_call_execution_mode",
    },
    tool_makers={
        # Tool(function, *, takes_ctx=None, max_retries=None, name=None, ..., sequential=False, timeout=None)
        TOOL: ToolMaker("decorator", function=Param("function", 0), name=Param("name")),
    },
    tool_methods={
        **{(AGENT, m): _DECORATOR for m in ("tool", "tool_plain")},
        **{(FUNCTION_TOOLSET, m): _DECORATOR for m in ("tool", "tool_plain")},
    },
    # FunctionToolset(tools=[], *, ..., sequential=False, timeout=None) joins Agent(toolsets=[...]).
    toolset_makers={FUNCTION_TOOLSET: Param("tools", 0)},
    group_makers={
        # Agent(model=None, *, ..., name=None, model_settings=None, tools=(), toolsets=None, tool_timeout=None)
        AGENT: GroupMaker(tools=Param("tools"), toolsets=Param("toolsets"), name=Param("name"),
                          plain_functions_are_tools=True,
                          policy=ErrorPolicy(fatal_by_default=True, fix=(
                              "raise ModelRetry or ToolFailed from {tool}, or catch Exception there and return a message"))),
    },
    visible_exceptions=tuple(f"pydantic_ai.{e}" for e in VISIBLE),
    # A sequential tool is a barrier: it runs alone, so it neither orphans nor is orphaned (2.2).
    tool_serial=("sequential", True),
    run_methods={m: Param("model_settings") for m in ("run", "run_sync", "run_stream", "run_stream_events", "iter")},
    # `with Agent.parallel_tool_call_execution_mode("sequential"):` around every run serialises all calls.
    serial_contexts={f"{AGENT}.parallel_tool_call_execution_mode": (Param("mode", 0), "sequential"),
                     "parallel_tool_call_execution_mode": (Param("mode", 0), "sequential")},
    # Agent(model_settings=ModelSettings(parallel_tool_calls=False)) is forwarded to the provider only.
    parallel_hint=("model_settings", "parallel_tool_calls"),
    group_tools_attr="",
    group_fix=(
        "raise ModelRetry or ToolFailed from {fatal} (or catch Exception there and return a message), "
        "declare {victim} with sequential=True, make {victim} async and awaiting, or run the agent under "
        "Agent.parallel_tool_call_execution_mode(\"sequential\")"
    ),
)
