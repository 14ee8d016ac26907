"""LangChain.js `createAgent` (`langchain` 1.5.14) and LangGraph.js `ToolNode` / `createReactAgent`
(`@langchain/langgraph` 1.7.3), on `@langchain/core` 1.4.0, as measured by
/work/shared/reference/frameworks-wave3.md section 9 and its correction (dist file:line there), and
by tests/runtime/js/test_langchain_js.py.

The calls of one turn run together: `createAgent` sends one Pregel task per call, `ToolNode` runs
them under `Promise.all`. By default a tool's error reaches the model (`createAgent`'s default
handler, `handleToolErrors = true`). It ends the run when middleware passes it on (a `wrapToolCall`
that does not catch `handler`'s rejection, `toolRetryMiddleware` with `onFailure: 'error'` or for a
tool its `tools` list leaves out, a `toolErrorMiddleware` whose `onError` can return undefined) or
under `new ToolNode(tools, { handleToolErrors: false })`. Pregel then aborts every sibling's
`config.signal` and `invoke` rejects at once; a sibling that never observes that signal lands its
effect ~0.3 s later, and no tool message records it.

`{ maxConcurrency: 1 }` on `createAgent` is not a serialiser (it drops the second call and every
result), so no concurrency cap is declared here.

The package `langchain` shares its name with the Python one: every JS name is spelled in `aliases`
so that `siblint.model.semantic.canonical` gives it to this framework.
"""

from __future__ import annotations

from .spec import (
    ErrorPolicy,
    FailureSpec,
    FatalArg,
    Framework,
    GroupMaker,
    GroupSpec,
    Param,
    ToolMaker,
    ToolMiddleware,
    ToolSpec,
)

LC = "langchain"
CORE_TOOLS = "@langchain/core/tools"
PREBUILT = "@langchain/langgraph/prebuilt"
COMMUNITY_DYNAMIC = "@langchain/community/tools/dynamic"  # 0.0.x's home of the dynamic tools

TOOL = f"{LC}.tool"
DYNAMIC_STRUCTURED = f"{LC}.DynamicStructuredTool"
DYNAMIC = f"{LC}.DynamicTool"
STRUCTURED_TOOL = f"{LC}.StructuredTool"
TOOL_CLASS = f"{LC}.Tool"
CREATE_AGENT = f"{LC}.createAgent"
CREATE_MIDDLEWARE = f"{LC}.createMiddleware"
TOOL_RETRY = f"{LC}.toolRetryMiddleware"
TOOL_ERROR = f"{LC}.toolErrorMiddleware"
TOOL_NODE = f"{PREBUILT}.ToolNode"
CREATE_REACT_AGENT = f"{PREBUILT}.createReactAgent"

_CORE_NAMES = (TOOL, DYNAMIC_STRUCTURED, DYNAMIC, STRUCTURED_TOOL, TOOL_CLASS)
_LC_NAMES = (*_CORE_NAMES, CREATE_AGENT, CREATE_MIDDLEWARE, TOOL_RETRY, TOOL_ERROR)

# `handler(request)` rejects with the tool's error (the correction: a pass-through wrapper is fatal).
_HANDLER = Param("handler", 1)

_FIX = ("let {fatal}'s errors reach the model (a wrapToolCall that catches handler's rejection and returns a "
        "ToolMessage, toolErrorMiddleware whose onError always returns, or drop the setting that passes them on), "
        "or make {victim} observe config.signal (pass it to fetch); maxConcurrency: 1 is no fix: it drops calls")

FRAMEWORK = Framework(
    name="langchain-js",
    language="js",
    import_roots=(LC, f"{LC}/tools", CORE_TOOLS, COMMUNITY_DYNAMIC, PREBUILT),
    aliases={
        **{name: name for name in _LC_NAMES},
        **{f"{CORE_TOOLS}.{n.rpartition('.')[2]}": n for n in _CORE_NAMES},
        # langchain 0.x's legacy entry point re-exports the core tools (`from "langchain/tools"`).
        **{f"{LC}/tools.{n.rpartition('.')[2]}": n for n in _CORE_NAMES},
        **{f"{COMMUNITY_DYNAMIC}.{n.rpartition('.')[2]}": n for n in (DYNAMIC_STRUCTURED, DYNAMIC)},
        TOOL_NODE: TOOL_NODE,
        CREATE_REACT_AGENT: CREATE_REACT_AGENT,
    },
    tools=ToolSpec(
        makers={
            # tool(func, { name, description, schema }): func(input, config) (tools/index.cjs:281, 315).
            TOOL: ToolMaker("constructor", function=Param("func", 0), name=Param("name")),
            # new DynamicStructuredTool({ name, description, schema, func }), the same for DynamicTool.
            DYNAMIC_STRUCTURED: ToolMaker("constructor", function=Param("func"), name=Param("name")),
            DYNAMIC: ToolMaker("constructor", function=Param("func"), name=Param("name")),
        },
        # class Charge extends StructuredTool { async _call(arg, runManager, parentConfig) {...} }
        base_classes={STRUCTURED_TOOL: ("_call", "_call"), TOOL_CLASS: ("_call", "_call")},
        sync_runs_in="loop",
        # Pregel aborts config.signal of every sibling on a task's failure (pregel/runner.cjs:51-73).
        signal=Param("config", 1),
        signal_attr="signal",
        # Dynamic tools and `_call` get it third: func(input, runManager, parentConfig) (tools/index.cjs:215, 257).
        signal_by_maker={DYNAMIC_STRUCTURED: Param("config", 2), DYNAMIC: Param("config", 2),
                         STRUCTURED_TOOL: Param("parentConfig", 2), TOOL_CLASS: Param("parentConfig", 2)},
        runners=("invoke", "func"),  # `sendEmail.invoke({...})` or `.func(...)` from another tool
    ),
    groups=GroupSpec(
        makers={
            # createAgent({ model, tools, middleware }): one Send per call (ReactAgent.cjs:394).
            CREATE_AGENT: GroupMaker(tools=Param("tools"), name=Param("name"),
                                     policy=ErrorPolicy(middleware=Param("middleware"))),
            # createReactAgent({ llm, tools }): one ToolNode, its calls under Promise.all.
            CREATE_REACT_AGENT: GroupMaker(tools=Param("tools"), name=Param("name")),
            # new ToolNode(tools, { handleToolErrors }): handleToolErrors defaults to true (tool_node.cjs:179).
            TOOL_NODE: GroupMaker(tools=Param("tools", 0), nested_in_groups=True, policy=ErrorPolicy(
                fatal_by_default=True, handler=Param("handleToolErrors"), visible_values=(True,), fatal_values=(False,),
                handler_default=True,
                fix="leave handleToolErrors at its default (true) so {tool}'s errors reach the model")),
        },
        fix=_FIX,
    ),
    failure=FailureSpec(
        args={TOOL_NODE: (FatalArg("handler_disabled", Param("handleToolErrors"), (False,), "handleToolErrors: false"),)},
        tool_middlewares={
            # createMiddleware({ name, wrapToolCall: async (request, handler) => ... }).
            CREATE_MIDDLEWARE: ToolMiddleware(wrapper=Param("wrapToolCall"), calls=_HANDLER, label="wrapToolCall",
                                               fix="wrap handler(request) in try/catch and return a ToolMessage "
                                                   "(status: 'error') from the catch"),
            # toolRetryMiddleware({ maxRetries, tools, onFailure = 'continue' }): 'error' (and the deprecated
            # 'raise') rethrow (toolRetry.cjs:149, 193); a `tools` list leaves the others' errors to bubble.
            TOOL_RETRY: ToolMiddleware(fatal=(FatalArg("handler_returns_none", Param("onFailure"), ("error", "raise"),
                                                       "toolRetryMiddleware onFailure: 'error'"),),
                                       tools=Param("tools"), unlisted_fatal=True, label="toolRetryMiddleware",
                                       fix="leave onFailure at 'continue' and list every tool of the agent (or none)"),
            # toolErrorMiddleware({ onError, tools }): an onError that returns undefined rethrows (toolError.cjs:51-53).
            TOOL_ERROR: ToolMiddleware(fatal=(FatalArg("handler_returns_none", Param("onError"), (),
                                                       "toolErrorMiddleware onError {fault}", when=("returns_none",)),),
                                       tools=Param("tools"), label="toolErrorMiddleware",
                                       fix="return a message from onError on every path"),
        },
    ),
)
