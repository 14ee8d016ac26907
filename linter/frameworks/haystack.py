"""haystack (`haystack-ai`), as measured at 3.4.1.

The runtime behaviour is shown by tests/runtime/test_haystack_runtime.py, run with that version
(and by `frameworks-wave3.md` section 6). Signatures re-checked with `inspect.signature`.

`Agent.run` submits every call of a turn to a thread pool of `tool_concurrency_limit` workers
(default 4), `run_async` gathers them (a sync tool in `asyncio.to_thread`). A tool's exception is a
result the model sees, unless the agent sets `raise_on_tool_invocation_failure=True`: then nothing
in flight is cancelled, every running *and queued* call finishes after the failure, and the run
raises with none of their results. `tool_concurrency_limit=1` runs the calls one by one but is no
fix: a call queued behind the failing one still runs before the raise.
"""

from __future__ import annotations

from .spec import (
    FailureSpec,
    Framework,
    GroupMaker,
    GroupSpec,
    LayeredPolicy,
    Param,
    PolicyLevel,
    ToolMaker,
    ToolSpec,
)

AGENT = "haystack.components.agents.Agent"
TOOL = "haystack.tools.tool"
TOOL_CLASS = "haystack.tools.Tool"
COMPONENT_TOOL = "haystack.tools.ComponentTool"
FROM_FUNCTION = "haystack.tools.create_tool_from_function"
TOOLSET = "haystack.tools.Toolset"
PIPELINE_TOOL = "haystack.tools.PipelineTool"
AGENT_TOOL = "haystack.tools.AgentTool"

FRAMEWORK = Framework(
    name="haystack",
    import_roots=("haystack",),
    aliases={
        "haystack.components.agents.agent.Agent": AGENT,
        "haystack.tools.from_function.tool": TOOL,
        "haystack.tools.from_function.create_tool_from_function": FROM_FUNCTION,
        "haystack.tools.tool.Tool": TOOL_CLASS,
        "haystack.dataclasses.Tool": TOOL_CLASS,  # 2.x re-export
        "haystack.tools.component_tool.ComponentTool": COMPONENT_TOOL,
        "haystack.tools.toolset.Toolset": TOOLSET,
        "haystack.tools.pipeline_tool.PipelineTool": PIPELINE_TOOL,
        "haystack.tools.agent_tool.AgentTool": AGENT_TOOL,
    },
    tools=ToolSpec(
        makers={
            # tool(function=None, *, name=None, description=None, inputs_from_state=None, ...):
            # `@tool`, `@tool(...)`, `tool(fn)`; create_tool_from_function has the same signature.
            TOOL: ToolMaker("decorator", function=Param("function", 0), name=Param("name")),
            FROM_FUNCTION: ToolMaker("decorator", function=Param("function", 0), name=Param("name")),
            # Tool(name, description, parameters, function=None, ..., async_function=None): run_async
            # awaits async_function when given.
            TOOL_CLASS: ToolMaker("decorator", function=Param("function", 3), name=Param("name", 0),
                                  async_function=Param("async_function", 7)),
            # ComponentTool(component, name=None, ...): the component's `run` runs the call.
            COMPONENT_TOOL: ToolMaker("decorator", function=Param("component", 0), name=Param("name", 1),
                                      method="run"),
            # PipelineTool(pipeline, *, name, description, ...) runs `pipeline.run`; AgentTool(agent, *, name,
            # description, ...) runs the agent. Members with no body siblint walks (as `agent.as_tool()`).
            PIPELINE_TOOL: ToolMaker("constructor", name=Param("name")),
            AGENT_TOOL: ToolMaker("constructor", name=Param("name")),
        },
        # Toolset(tools=[...]) joins the agent it is given to.
        toolsets={TOOLSET: Param("tools", 0)},
        # Agent.run: ThreadPoolExecutor; run_async: asyncio.to_thread (tools/tool.py:298-318).
        sync_runs_in="thread",
        sync_fix=("haystack cancels nothing in flight, so an async tool would land all the same: keep "
                  "raise_on_tool_invocation_failure at its default False on every agent that lists it"),
    ),
    groups=GroupSpec(
        # Agent(*, chat_generator, tools=None, ..., raise_on_tool_invocation_failure=False,
        # tool_concurrency_limit=4, ...). Nothing in flight is cancelled, queued calls run too.
        makers={AGENT: GroupMaker(tools=Param("tools"), toolsets=Param("tools"), cancels_siblings=False)},
        fix=(
            "keep raise_on_tool_invocation_failure=False so {fatal}'s failure reaches the model; haystack cancels "
            "nothing in flight and runs queued calls too (tool_concurrency_limit=1 does not help), so {victim} "
            "finishes after the failure and its result is lost when the run raises"
        ),
    ),
    failure=FailureSpec(
        # agent.py:432, tool_calling.py:133, 507-508.
        layered=LayeredPolicy(
            param=Param("raise_on_tool_invocation_failure"),
            fatal_literals=(True,),
            fatal_members=(),
            levels=(PolicyLevel(AGENT),),
            label="raise_on_tool_invocation_failure=True",
            fix=("any tool's failure then ends the run once every call in flight and queued has finished, and their "
                 "results are in neither the output nor the exception; keep the default False (the model sees "
                 "the error)"),
        ),
    ),
    example=("from haystack.tools import tool", "@tool"),
)
