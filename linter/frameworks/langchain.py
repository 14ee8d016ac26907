"""LangChain core + LangGraph (`langchain-core` 1.8.3, `langchain` 1.5.2, `langgraph` 1.2.24,
`langgraph-prebuilt` 1.1.3), as measured with those versions.

The runtime behaviour is shown by tests/runtime/test_langgraph_runtime.py, run with those versions.
Signatures re-checked with `inspect.signature`.

What differs from the OpenAI Agents SDK: a tool's exception ends the run *by default*. ToolNode's
default `handle_tool_errors` only turns argument-validation errors into a message; `False` re-raises
those too. `create_agent` / `create_react_agent` build a ToolNode with that default. Each call of a
turn is its own Pregel task there (a failure cancels awaiting async siblings; threads run on). A
ToolNode used directly as a graph node (and `create_react_agent(version="v1")`) runs the calls with
`asyncio.gather` and cancels nothing.
"""

from __future__ import annotations

from .spec import (
    BuiltinTool,
    ConcurrencySpec,
    ErrorPolicy,
    FailureSpec,
    FatalArg,
    Framework,
    GroupMaker,
    GroupSpec,
    Middleware,
    NodeBudget,
    NodeRetry,
    Param,
    RetryPolicyClass,
    RetrySpec,
    ToolMaker,
    ToolRetry,
    ToolSpec,
)
from .versions import TOOL_NODE_RERAISES

TOOL = "langchain_core.tools.tool"
TOOL_CLASS = "langchain_core.tools.Tool"
STRUCTURED_TOOL = "langchain_core.tools.StructuredTool"
BASE_TOOL = "langchain_core.tools.BaseTool"
TOOL_EXCEPTION = "langchain_core.tools.ToolException"
TOOL_NODE = "langgraph.prebuilt.ToolNode"
CREATE_AGENT = "langchain.agents.create_agent"
# deepagents builds its agent with create_agent, and none of its middleware catches a tool's error
# (FilesystemMiddleware.wrap_tool_call: "Tool-execution exceptions ... propagate ... by design").
CREATE_DEEP_AGENT = "deepagents.create_deep_agent"
CREATE_REACT_AGENT = "langgraph.prebuilt.create_react_agent"
TOOL_RETRY = "langchain.agents.middleware.ToolRetryMiddleware"
TOOL_ERROR = "langchain.agents.middleware.ToolErrorMiddleware"
STATE_GRAPH = "langgraph.graph.StateGraph"
RETRY_POLICY = "langgraph.types.RetryPolicy"
TOOL_RUNTIME = "langgraph.prebuilt.ToolRuntime"
INJECTED_CALL_ID = "langchain_core.tools.InjectedToolCallId"
INJECTED_ARG = "langchain_core.tools.InjectedToolArg"
INJECTED_STATE = "langgraph.prebuilt.InjectedState"
INJECTED_STORE = "langgraph.prebuilt.InjectedStore"
TIMEOUT_POLICY = "langgraph.types.TimeoutPolicy"


def _spellings(canonical: str, *modules: str) -> dict[str, str]:
    leaf = canonical.rsplit(".", 1)[1]
    return {f"{m}.{leaf}": canonical for m in modules}


# handle_tool_errors: True or any string -> every exception reaches the model; a callable -> the types
# its annotation names; an exception type / tuple -> those; False or left out -> fatal.
_TOOL_NODE_POLICY = ErrorPolicy(
    fatal_by_default=True,
    handler=Param("handle_tool_errors"),
    visible_values=(True,),
    any_string=True,
    fatal_values=(False,),
    fatal_since=TOOL_NODE_RERAISES,
    fix="pass handle_tool_errors=True (or a handler covering its exceptions) to the ToolNode, or catch Exception in {tool} and return a message",
)
# create_agent has no handle_tool_errors: only middleware changes its ToolNode's default.
_AGENT_POLICY = ErrorPolicy(
    fatal_by_default=True, middleware=Param("middleware"),
    fix="add ToolRetryMiddleware() or ToolErrorMiddleware() to middleware=[...], or catch Exception in {tool} and return a message",
)
_REACT_POLICY = ErrorPolicy(
    fatal_by_default=True,
    fatal_since=TOOL_NODE_RERAISES,  # the ToolNode it builds
    fix="pass a ToolNode(tools, handle_tool_errors=True) as tools, or catch Exception in {tool} and return a message",
)

# Every deep agent has a `task` tool (the general-purpose sub-agent is added unless disabled): it runs
# `subagent.invoke(...)` outside any try (deepagents/middleware/subagents.py `task`, at 23b83ad), so a
# sub-agent's model or tool error leaves the parent's tool call as it would any tool's.
_TASK_TOOL = BuiltinTool(
    "task", "runs a sub-agent and lets its errors out",
    "add ToolRetryMiddleware(on_failure=\"continue\") or ToolErrorMiddleware to the deep agent's middleware so "
    "the task tool's errors reach the model, make {victim} async and awaiting, or invoke with "
    "config={{\"max_concurrency\": 1}}")

_FIX_AGENT = (
    "add ToolRetryMiddleware(on_failure=\"continue\") or ToolErrorMiddleware to the agent's middleware so "
    "{fatal}'s errors reach the model, raise ToolException from {fatal} with handle_tool_error=True, "
    "make {victim} async and awaiting, or invoke with config={{\"max_concurrency\": 1}}"
)
_FIX_TOOL_NODE = (
    "pass handle_tool_errors=True (or a handler) to the ToolNode so {fatal}'s errors reach the model, "
    "or invoke the graph with config={{\"max_concurrency\": 1}}: a ToolNode node cancels nothing, so even "
    "an awaiting {victim} lands after the run raised"
)

FRAMEWORK = Framework(
    name="langgraph",
    import_roots=("langchain", "langchain_core", "langgraph", "deepagents"),
    aliases={
        # langchain 0.x re-exports both from `langchain.agents` (its __init__.py: `from
        # langchain_core.tools import Tool`, `from langchain_core.tools.convert import tool`).
        **_spellings(TOOL, "langchain.tools", "langchain_core.tools.convert", "langchain.agents"),
        **_spellings(TOOL_CLASS, "langchain_core.tools.simple", "langchain.tools", "langchain.agents"),
        **_spellings(STRUCTURED_TOOL, "langchain_core.tools.structured", "langchain.tools"),
        **{f"{m}.StructuredTool.from_function": f"{STRUCTURED_TOOL}.from_function"
           for m in ("langchain_core.tools.structured", "langchain.tools")},
        **{f"{m}.Tool.from_function": f"{TOOL_CLASS}.from_function" for m in ("langchain_core.tools.simple", "langchain.tools")},
        **_spellings(BASE_TOOL, "langchain_core.tools.base", "langchain.tools"),
        **_spellings(TOOL_EXCEPTION, "langchain_core.tools.base", "langchain.tools"),
        # ToolNode is re-exported from langchain.tools (and its tool_node module) as well.
        **_spellings(TOOL_NODE, "langgraph.prebuilt.tool_node", "langchain.tools", "langchain.tools.tool_node"),
        **_spellings(CREATE_AGENT, "langchain.agents.factory"),
        **_spellings(CREATE_DEEP_AGENT, "deepagents.graph"),
        **_spellings(CREATE_REACT_AGENT, "langgraph.prebuilt.chat_agent_executor"),
        **_spellings(TOOL_RETRY, "langchain.agents.middleware.tool_retry"),
        **_spellings(TOOL_ERROR, "langchain.agents.middleware.tool_error"),
        **_spellings(STATE_GRAPH, "langgraph.graph.state"),
        **_spellings(RETRY_POLICY, "langgraph.pregel", "langgraph.pregel.types"),
        **_spellings(TOOL_RUNTIME, "langgraph.prebuilt.tool_node", "langchain.tools", "langchain.tools.tool_node"),
        **_spellings(INJECTED_CALL_ID, "langchain_core.tools.base", "langchain.tools"),
        **_spellings(INJECTED_ARG, "langchain_core.tools.base", "langchain.tools"),
        **_spellings(INJECTED_STATE, "langgraph.prebuilt.tool_node", "langchain.tools"),
        **_spellings(INJECTED_STORE, "langgraph.prebuilt.tool_node", "langchain.tools"),
    },
    tools=ToolSpec(
        makers={
            # tool(name_or_callable=None, runnable=None, *, ...): `@tool`, `@tool("name")`, `@tool(...)`, `tool(fn)`.
            TOOL: ToolMaker("decorator", function=Param("name_or_callable", 0), name=Param("name_or_callable", 0)),
            # StructuredTool.from_function(func=None, coroutine=None, name=None, ...)
            f"{STRUCTURED_TOOL}.from_function": ToolMaker("decorator", function=Param("func", 0), name=Param("name", 2),
                                                          async_function=Param("coroutine", 1)),
            # StructuredTool(name=..., description=..., args_schema=..., func=None, coroutine=None): a pydantic
            # model, so keywords only.
            STRUCTURED_TOOL: ToolMaker("decorator", function=Param("func"), name=Param("name"),
                                       async_function=Param("coroutine")),
            # Tool(name, func, description, **kw) and Tool.from_function(func, name, description, ..., coroutine=)
            TOOL_CLASS: ToolMaker("decorator", function=Param("func", 1), name=Param("name", 0),
                                  async_function=Param("coroutine")),
            f"{TOOL_CLASS}.from_function": ToolMaker("decorator", function=Param("func", 0), name=Param("name", 1),
                                                     async_function=Param("coroutine", 5)),
        },
        # `_run` runs in a worker thread; `_arun` when overridden runs on the loop under ainvoke.
        base_classes={BASE_TOOL: ("_run", "_arun")},
        sync_runs_in="thread",
        runners=("invoke", "ainvoke", "run", "arun", "func", "coroutine"),
        # `runtime: ToolRuntime` carries the call's id; `tool_call_id: Annotated[str, InjectedToolCallId]` is it.
        call_ids={TOOL_RUNTIME: "tool_call_id", INJECTED_CALL_ID: ""},
        injected=(INJECTED_ARG, INJECTED_STATE, INJECTED_STORE),
    ),
    groups=GroupSpec(
        makers={
            # ToolNode(tools, *, name, tags, handle_tool_errors, ...): used directly as a graph node it runs
            # the calls of one message with asyncio.gather and cancels nothing.
            TOOL_NODE: GroupMaker(tools=Param("tools", 0), plain_functions_are_tools=True, policy=_TOOL_NODE_POLICY,
                                  cancels_siblings=False, nested_in_groups=True, fix=_FIX_TOOL_NODE,
                                  # add_node(node, action, *, ..., timeout: float | timedelta | TimeoutPolicy):
                                  # the node is cancelled after run_timeout (NodeTimeoutError, measured on 1.2.24).
                                  node_budget=NodeBudget("add_node", Param("action", 1), Param("timeout"),
                                                         {TIMEOUT_POLICY: Param("run_timeout")})),
            # create_agent(model, tools=None, *, middleware=(), name=None, ...): one Pregel task per call.
            CREATE_AGENT: GroupMaker(tools=Param("tools", 1), name=Param("name"), plain_functions_are_tools=True,
                                     policy=_AGENT_POLICY, fix=_FIX_AGENT),
            # create_deep_agent(model=None, tools=None, *, system_prompt=None, middleware=(), ..., name=None)
            CREATE_DEEP_AGENT: GroupMaker(tools=Param("tools", 1), name=Param("name"), plain_functions_are_tools=True,
                                          policy=_AGENT_POLICY, fix=_FIX_AGENT, builtin=_TASK_TOOL),
            # create_react_agent(model, tools, *, version="v2", name=None): v1 runs one ToolNode task.
            CREATE_REACT_AGENT: GroupMaker(tools=Param("tools", 1), name=Param("name"), plain_functions_are_tools=True,
                                           policy=_REACT_POLICY, no_cancel_when=(("version", "v1"),), fix=_FIX_AGENT),
        },
        fix=_FIX_AGENT,
    ),
    failure=FailureSpec(
        args={
            # handle_tool_errors=False: even argument errors end the run.
            TOOL_NODE: (FatalArg("handler_disabled", Param("handle_tool_errors"), (False,), "handle_tool_errors=False"),),
        },
        # BaseTool.handle_tool_error covers ToolException only.
        visible_when={"handle_tool_error": (TOOL_EXCEPTION,)},
        middlewares={
            # ToolRetryMiddleware(*, max_retries, tools=None, retry_on=<every Exception>, on_failure="continue"):
            # "error" (and the deprecated "raise") re-raise once retries are exhausted.
            TOOL_RETRY: Middleware(exceptions=Param("retry_on"), tools=Param("tools"),
                                   fatal_when=(Param("on_failure"), ("error", "raise"))),
            # ToolErrorMiddleware(on_error=None, *, aon_error=None, tools=None)
            TOOL_ERROR: Middleware(tools=Param("tools")),
        },
    ),
    concurrency=ConcurrencySpec(
        # graph.invoke(input, config=None, ...): config={"max_concurrency": 1} bounds the thread pool and
        # Pregel's task concurrency.
        run_methods={m: Param("config", 1) for m in ("invoke", "ainvoke", "stream", "astream", "batch", "abatch")},
        cap=("max_concurrency",),
        derive_methods=("compile", "with_config"),
        graph_builders=("add_node",),
    ),
    example=("from langchain_core.tools import tool", "@tool"),
    retries=RetrySpec(
        builders=(STATE_GRAPH,),
        # These StateGraph methods return the builder (`-> Self`), so calls chain.
        chain_methods=("add_node", "add_edge", "add_conditional_edges", "add_sequence", "set_entry_point",
                       "set_conditional_entry_point", "set_finish_point", "set_node_defaults", "validate"),
        # add_node(node, action=None, *, retry_policy=None, ..., **kwargs): `retry=` is the deprecated spelling,
        # still honoured (DeprecatedKwargs).
        node_methods={"add_node": NodeRetry((Param("action", 1), Param("node", 0)), ("retry_policy", "retry"))},
        # set_node_defaults(*, retry_policy=None, ...): the policy of every node that has none of its own.
        default_methods={"set_node_defaults": ("retry_policy",)},
        # RetryPolicy(initial_interval, backoff_factor, max_interval, max_attempts=3, jitter, retry_on=default_retry_on)
        policies={RETRY_POLICY: RetryPolicyClass(Param("max_attempts", 3), Param("retry_on", 5), default_attempts=3)},
        # ToolRetryMiddleware(*, max_retries=2, tools=None, retry_on=<every Exception>, ...)
        tool_middlewares={TOOL_RETRY: ToolRetry(Param("retry_on"), Param("tools"), Param("max_retries"), default_retries=2)},
    ),
)
