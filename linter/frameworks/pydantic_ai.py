"""pydantic-ai (`pydantic-ai-slim` 2.68.0), as measured with that version.

The runtime behaviour is shown by tests/runtime/test_pydantic_ai_runtime.py, run with that version.
Signatures re-checked with `inspect.signature`.

Any exception a tool raises other than `ModelRetry`, `ToolFailed`, `CallDeferred` or
`ApprovalRequired` ends the run, with no switch. The calls of one response run as concurrent tasks;
a fatal failure cancels async siblings (`cancel_and_drain`), while a sync tool keeps running in its
anyio worker thread. Tool timeouts reach the model as a retry, so they are not fatal.
"""

from __future__ import annotations

from .spec import (
    ConcurrencySpec,
    ErrorPolicy,
    FailureSpec,
    Framework,
    GroupMaker,
    GroupSpec,
    Param,
    ToolMaker,
    ToolSpec,
)

AGENT = "pydantic_ai.Agent"
TOOL = "pydantic_ai.Tool"
FUNCTION_TOOLSET = "pydantic_ai.FunctionToolset"
ABSTRACT_TOOLSET = "pydantic_ai.toolsets.AbstractToolset"
VISIBLE = ("ModelRetry", "ToolFailed", "CallDeferred", "ApprovalRequired")

# @agent.tool / @agent.tool_plain (func=None, /, *, name=None, ..., sequential=False, timeout=None)
_DECORATOR = ToolMaker("decorator", function=Param("func", 0), name=Param("name"))

FRAMEWORK = Framework(
    name="pydantic-ai",
    import_roots=("pydantic_ai",),
    aliases={
        "pydantic_ai.agent.Agent": AGENT,
        "pydantic_ai.tools.Tool": TOOL,
        "pydantic_ai.tools.RunContext": "pydantic_ai.RunContext",
        "pydantic_ai.toolsets.FunctionToolset": FUNCTION_TOOLSET,
        "pydantic_ai.toolsets.function.FunctionToolset": FUNCTION_TOOLSET,
        "pydantic_ai.AbstractToolset": ABSTRACT_TOOLSET,
        "pydantic_ai.toolsets.abstract.AbstractToolset": ABSTRACT_TOOLSET,
        **{f"pydantic_ai.exceptions.{e}": f"pydantic_ai.{e}" for e in VISIBLE},
        "pydantic_ai.agent.Agent.parallel_tool_call_execution_mode": f"{AGENT}.parallel_tool_call_execution_mode",
    },
    tools=ToolSpec(
        makers={
            # Tool(function, *, takes_ctx=None, max_retries=None, name=None, ..., sequential=False, timeout=None)
            TOOL: ToolMaker("decorator", function=Param("function", 0), name=Param("name")),
        },
        methods={
            **{(AGENT, m): _DECORATOR for m in ("tool", "tool_plain")},
            **{(FUNCTION_TOOLSET, m): _DECORATOR for m in ("tool", "tool_plain")},
        },
        # FunctionToolset(tools=[], *, ..., sequential=False, timeout=None) joins Agent(toolsets=[...]).
        toolsets={FUNCTION_TOOLSET: Param("tools", 0)},
        # A toolset of its own (`class Files(AbstractToolset)` in `Agent(toolsets=[Files()])`): the
        # agent awaits its `call_tool` for each of its tools' calls.
        base_classes={ABSTRACT_TOOLSET: ("", "call_tool")},
        # A sync tool runs in an anyio worker thread.
        sync_runs_in="thread",
        context_attrs={"pydantic_ai.RunContext": "deps"},
        # Tool(..., timeout=None), @agent.tool(timeout=...), @toolset.tool(timeout=...): the per-tool
        # timeout, which takes precedence over the toolset's and the agent's tool_timeout.
        budget=(Param("timeout"),),
        call_ids={"pydantic_ai.RunContext": "tool_call_id"},
    ),
    groups=GroupSpec(
        makers={
            # Agent(model=None, *, ..., name=None, model_settings=None, tools=(), toolsets=None, tool_timeout=None)
            AGENT: GroupMaker(tools=Param("tools"), toolsets=Param("toolsets"), name=Param("name"),
                              plain_functions_are_tools=True,
                              # passed on as the agent's own toolset timeout; a tool's own timeout wins
                              tool_budget=Param("tool_timeout"),
                              policy=ErrorPolicy(fatal_by_default=True, fix=(
                                  "raise ModelRetry or ToolFailed from {tool}, or catch Exception there and return a message"))),
        },
        fix=(
            "raise ModelRetry or ToolFailed from {fatal} (or catch Exception there and return a message), "
            "declare {victim} with sequential=True, make {victim} async and awaiting, or run the agent under "
            "Agent.parallel_tool_call_execution_mode(\"sequential\")"
        ),
    ),
    failure=FailureSpec(visible_exceptions=tuple(f"pydantic_ai.{e}" for e in VISIBLE)),
    concurrency=ConcurrencySpec(
        # A sequential tool is a barrier: it runs alone, so it neither orphans nor is orphaned.
        tool_serial=("sequential", True),
        run_methods={m: Param("model_settings") for m in ("run", "run_sync", "run_stream", "run_stream_events", "iter")},
        # `with Agent.parallel_tool_call_execution_mode("sequential"):` around every run serialises all calls.
        serial_contexts={f"{AGENT}.parallel_tool_call_execution_mode": (Param("mode", 0), "sequential"),
                         "parallel_tool_call_execution_mode": (Param("mode", 0), "sequential")},
        # Agent(model_settings=ModelSettings(parallel_tool_calls=False)) is forwarded to the provider only.
        hint=("model_settings", "parallel_tool_calls"),
        hint_note="; parallel_tool_calls=False is only a provider hint: the SDK still runs every returned call concurrently",
    ),
    example=("from pydantic_ai import Agent; agent = Agent('test')", "@agent.tool_plain"),
)
