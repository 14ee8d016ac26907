"""Premises of the rules that hold only from one release of a framework on, as data.

A `Release` names the distribution whose release changed the behaviour, the first version with the
behaviour siblint's rules assume, and the distributions that bring it in with the first of their
versions that does (a project usually pins `langgraph`, not `langgraph-prebuilt`). Which version a
project runs is read from its pins (`siblint.settings.pins`); a project that pins none of them is
taken to run the newest release, as a fresh install would.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Release:
    distribution: str  # normalised distribution name (PEP 503): `langgraph-prebuilt`
    since: str  # the first version that behaves as the rules assume
    premise: str  # what that version does, as `--show-settings` says it
    before: str  # what earlier versions did
    # (distribution, first version) pairs whose installs resolve to `since` or later: `langgraph`
    # 1.0.0 requires `langgraph-prebuilt>=1.0.0,<1.1.0`, so a fresh install gets 1.0.2 or later.
    brought_by: tuple[tuple[str, str], ...] = ()
    # (distribution, version) pairs that keep `since` out: a pin allowing nothing from that version
    # on. `langchain<0.4` holds `langchain-core` below 1.0.0, which langgraph-prebuilt 1.0.2 requires.
    held_back_by: tuple[tuple[str, str], ...] = ()


# langgraph-prebuilt 1.0.2 replaced ToolNode's default `handle_tool_errors=True` (every exception
# becomes a ToolMessage) with `_default_handle_tool_errors`, which re-raises all but argument errors
# (READ libs/prebuilt/langgraph/prebuilt/tool_node.py at tags prebuilt==1.0.1 and prebuilt==1.0.2;
# langgraph 0.6.x requires prebuilt <0.7, langgraph 1.0.0 requires >=1.0.0,<1.1.0). prebuilt 1.0.2
# requires langchain-core>=1.0.0, which langchain 0.3.x and langchain-openai 0.3.x rule out (their
# METADATA: langchain 0.3.27 `langchain-core<1.0.0,>=0.3.72`, langchain-openai 0.3.35 the same).
TOOL_NODE_RERAISES = Release(
    distribution="langgraph-prebuilt",
    since="1.0.2",
    premise="ToolNode's default handle_tool_errors re-raises every tool error but argument errors",
    before="ToolNode's default handle_tool_errors=True returns every tool error to the model",
    brought_by=(("langgraph", "1.0.0"),),
    held_back_by=(("langchain-core", "1.0.0"), ("langchain", "1.0.0"), ("langchain-openai", "1.0.0")),
)

# openai-agents 0.8.0 moved a sync function tool into `asyncio.to_thread`; before, `function_tool`'s
# wrapper called it inline on the event loop (READ src/agents/tool.py at v0.7.0 and v0.8.0, commit
# 9a1543a "offload sync tool execution to worker threads").
SYNC_TOOLS_IN_THREADS = Release(
    distribution="openai-agents",
    since="0.8.0",
    premise="a sync function tool runs in a worker thread",
    before="a sync function tool runs inline on the event loop",
)

# openai-agents 0.10.4 cancels (and briefly drains) the other calls of a turn when one fails; before,
# the calls ran under a bare `asyncio.gather`, which propagates the first error and leaves the
# others running (READ src/agents/run_internal/tool_execution.py at v0.10.3 and v0.10.4, commit
# 933a3a9 "isolate parallel function tool failures").
SIBLINGS_CANCELLED = Release(
    distribution="openai-agents",
    since="0.10.4",
    premise="a fatal tool failure cancels the other calls of the turn",
    before="a fatal tool failure leaves the other calls of the turn running",
)

# fastmcp 3.0.0 runs a sync tool function through `call_sync_fn_in_threadpool`; 2.14.7 called it
# inline (`result = self.fn(**arguments)`) (READ fastmcp/tools/function_tool.py in the 3.0.0 wheel,
# fastmcp/tools/tool.py in the 2.14.7 wheel).
# agent-framework-core 1.8.0 runs a sync tool with `asyncio.to_thread` (`FunctionTool._invoke_function`);
# 1.7.0, 1.0.0 and the pre-1.0 `AIFunction.invoke` (1.0.0b251001) call it inline (`res =
# self.__call__(**kwargs)`) (READ agent_framework/_tools.py in each wheel).
AGENT_FRAMEWORK_SYNC_TOOLS_IN_THREADS = Release(
    distribution="agent-framework-core",
    since="1.8.0",
    premise="a sync Agent Framework tool runs in a worker thread",
    before="a sync Agent Framework tool (`@ai_function` or `@tool`) runs inline on the event loop",
)

FASTMCP_SYNC_TOOLS_IN_THREADS = Release(
    distribution="fastmcp",
    since="3.0.0",
    premise="a sync FastMCP tool runs in a worker thread",
    before="a sync FastMCP tool runs inline on the event loop",
)
