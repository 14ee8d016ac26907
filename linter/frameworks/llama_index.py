"""LlamaIndex agents (`llama-index-core` 0.14.25, `llama-index-workflows` 2.26.1), as measured with
those versions.

The runtime behaviour is shown by tests/runtime/test_llama_index_runtime.py, run with those versions.
Signatures re-checked with `inspect.signature`.

`FunctionAgent` / `AgentWorkflow` run each tool call of a turn as its own workflow step, concurrently;
a sync function runs in `loop.run_in_executor` (a FunctionTool wraps it with `sync_to_async`), a sync
`BaseTool` in `asyncio.to_thread`. Every `Exception` a tool raises (and an unknown tool name) reaches
the model as `ToolOutput(is_error=True)`, with no switch, so no tool is fatal on its own. The one
fatal path is a run deadline: `timeout=` on the agent or on the `AgentWorkflow` that runs it raises
`WorkflowTimeoutError` and cancels the steps in flight, and a sync, thread-bound or shielded call
lands after the raise with no `ToolCallResult`. The deadline defaults to None for these classes.
(A `BaseException` raised by a tool is fatal too; it is not modelled.)
"""

from __future__ import annotations

from .spec import (
    ConcurrencySpec,
    Deadline,
    Framework,
    GroupMaker,
    GroupSpec,
    Param,
    ToolMaker,
    ToolSpec,
    WorkflowMaker,
)

WORKFLOW_AGENTS = "llama_index.core.agent.workflow"
FUNCTION_AGENT = f"{WORKFLOW_AGENTS}.FunctionAgent"
REACT_AGENT = f"{WORKFLOW_AGENTS}.ReActAgent"
AGENT_WORKFLOW = f"{WORKFLOW_AGENTS}.AgentWorkflow"
FROM_TOOLS = f"{AGENT_WORKFLOW}.from_tools_or_functions"
FUNCTION_TOOL = "llama_index.core.tools.FunctionTool"
BASE_TOOL = "llama_index.core.tools.BaseTool"
ASYNC_BASE_TOOL = "llama_index.core.tools.AsyncBaseTool"
TOOL_SPEC = "llama_index.core.tools.tool_spec.base.BaseToolSpec"


def _spellings(canonical: str, *modules: str) -> dict[str, str]:
    head, _, leaf = canonical.rpartition(".")
    return {f"{m}.{leaf}": canonical for m in modules}


# FunctionAgent / ReActAgent (BaseWorkflowAgent.__init__): name, description, system_prompt, tools,
# tool_retriever, can_handoff_to, llm, initial_state, state_prompt, output_cls, structured_output_fn,
# streaming, early_stopping_method, timeout=None, verbose, **kwargs (allow_parallel_tool_calls=True).
_AGENT_DEADLINE = Deadline(Param("timeout", 13))
_FIX = (
    "make {victim} async and awaiting, so that the deadline cancels it, or run without the run deadline "
    "(timeout=None) and bound each slow call inside its tool"
)

FRAMEWORK = Framework(
    name="llama-index",
    import_roots=("llama_index",),
    aliases={
        **_spellings(FUNCTION_AGENT, "llama_index.core.agent", f"{WORKFLOW_AGENTS}.function_agent"),
        **_spellings(REACT_AGENT, "llama_index.core.agent", f"{WORKFLOW_AGENTS}.react_agent"),
        **_spellings(AGENT_WORKFLOW, "llama_index.core.agent", f"{WORKFLOW_AGENTS}.multi_agent_workflow"),
        **{f"{m}.AgentWorkflow.from_tools_or_functions": FROM_TOOLS
           for m in ("llama_index.core.agent", f"{WORKFLOW_AGENTS}.multi_agent_workflow")},
        **_spellings(FUNCTION_TOOL, "llama_index.core.tools.function_tool"),
        f"{FUNCTION_TOOL}.from_defaults": f"{FUNCTION_TOOL}.from_defaults",
        "llama_index.core.tools.function_tool.FunctionTool.from_defaults": f"{FUNCTION_TOOL}.from_defaults",
        **_spellings(BASE_TOOL, "llama_index.core.tools.types"),
        **_spellings(ASYNC_BASE_TOOL, "llama_index.core.tools.types"),
    },
    tools=ToolSpec(
        makers={
            # FunctionTool.from_defaults(fn=None, name=None, description=None, return_direct=False,
            # fn_schema=None, async_fn=None, ...): an async_fn is what acall awaits.
            f"{FUNCTION_TOOL}.from_defaults": ToolMaker("decorator", function=Param("fn", 0), name=Param("name", 1),
                                                        async_function=Param("async_fn", 5)),
            # FunctionTool(fn=None, metadata=None, async_fn=None, ...): the name sits in the metadata.
            FUNCTION_TOOL: ToolMaker("decorator", function=Param("fn", 0), async_function=Param("async_fn", 2)),
        },
        # A sync BaseTool runs `call` in asyncio.to_thread (BaseToolAsyncAdapter; its own acall is never
        # used); an AsyncBaseTool's `acall` is awaited.
        base_classes={BASE_TOOL: ("call", "call"), ASYNC_BASE_TOOL: ("call", "acall")},
        # BaseToolSpec.to_tool_list(): FunctionTool.from_defaults(fn=sync, async_fn=async) per listed method.
        method_toolsets={TOOL_SPEC: ("spec_functions", "to_tool_list")},
        # A plain sync function runs in loop.run_in_executor (function_tool.sync_to_async).
        sync_runs_in="thread",
        runners=("call", "acall", "fn", "async_fn"),
    ),
    groups=GroupSpec(
        makers={
            FUNCTION_AGENT: GroupMaker(tools=Param("tools", 3), name=Param("name", 0), plain_functions_are_tools=True,
                                       deadline=_AGENT_DEADLINE),
            # One tool call per reasoning step: no siblings (react_agent.py).
            REACT_AGENT: GroupMaker(tools=Param("tools", 3), name=Param("name", 0), plain_functions_are_tools=True,
                                    deadline=_AGENT_DEADLINE, one_call_per_turn=True),
            # from_tools_or_functions(tools_or_functions, llm, system_prompt, state_prompt, initial_state,
            # output_cls, structured_output_fn, timeout=None, verbose): one FunctionAgent with those tools.
            FROM_TOOLS: GroupMaker(tools=Param("tools_or_functions", 0), plain_functions_are_tools=True,
                                   deadline=Deadline(Param("timeout", 7))),
        },
        # AgentWorkflow(agents, initial_state, root_agent, handoff_prompt, handoff_output_prompt,
        # state_prompt, timeout=None, ...): it runs the agents' steps itself, under its own deadline.
        workflows={AGENT_WORKFLOW: WorkflowMaker(Param("agents", 0), Deadline(Param("timeout", 6)))},
        fix=_FIX,
    ),
    concurrency=ConcurrencySpec(
        # FunctionAgent(allow_parallel_tool_calls=False) is handed to the LLM: llama-index-llms-openai sends
        # parallel_tool_calls=False and keeps the first call; an LLM that ignores it still gets every call run.
        hint=("allow_parallel_tool_calls",),
        hint_note=("; allow_parallel_tool_calls=False serialises only with LLM integrations that enforce it "
                   "(OpenAI's does; others still run every returned call concurrently), and a lone slow call "
                   "still outlives the deadline"),
    ),
    # A plain function becomes a tool where an agent lists it.
    example=("from llama_index.core.agent.workflow import FunctionAgent", ""),
    example_group="agent = FunctionAgent(name='a', tools=[{tools}])",
)
