"""Microsoft Agent Framework (`agent-framework-core`), as measured at 1.23.0.

The runtime behaviour is shown by tests/runtime/test_agent_framework_runtime.py, run with that version
(and by `frameworks-wave3.md` section 4). Signatures re-checked with `inspect.signature`.

The calls of one response run as one task each under `asyncio.gather`, a sync tool in
`asyncio.to_thread` (from 1.8.0; before it inline on the loop, as the pre-1.0 `@ai_function` also
ran it). A tool's `Exception` becomes a function result the model sees; the run ends
when a function middleware (or the tool itself) raises `MiddlewareFailure`: the batch is cancelled,
a tool already running in a worker thread lands anyway, and the session keeps nothing of the turn.
The chat client's `function_invocation_configuration={"allow_concurrent_invocation": False}` (or
`.update(...)` of it) runs the calls one by one; the subscript assignment of the same key is not
read (the syntax facts keep no subscript targets).
"""

from __future__ import annotations

from dataclasses import replace

from .spec import (
    ConcurrencySpec,
    FailureSpec,
    Framework,
    GroupMaker,
    GroupSpec,
    HookSpec,
    Param,
    ToolMaker,
    ToolSpec,
)
from .versions import AGENT_FRAMEWORK_SYNC_TOOLS_IN_THREADS

TOOL = "agent_framework.tool"
FUNCTION_TOOL = "agent_framework.FunctionTool"
AGENT = "agent_framework.Agent"
CHAT_AGENT = "agent_framework.ChatAgent"  # Agent's name before 1.0 (`ChatAgent(chat_client, ...)`)
# Every chat client's `as_agent(...)` (`create_agent(...)` before 1.0) makes an Agent with itself as
# the client: `BaseChatClient.as_agent(*, id=None, name=None, ..., tools=None, ...)` (_clients.py:575).
CLIENTS = "agent_framework.*Client"
CONTEXT = "agent_framework.FunctionInvocationContext"
FUNCTION_MIDDLEWARE = "agent_framework.function_middleware"
MIDDLEWARE_CLASS = "agent_framework.FunctionMiddleware"
FAILURE = "agent_framework.MiddlewareFailure"
MCP = tuple(f"agent_framework.{c}" for c in ("MCPStdioTool", "MCPStreamableHTTPTool", "MCPWebsocketTool"))

AGENT_MAKER = GroupMaker(tools=Param("tools"), name=Param("name"), plain_functions_are_tools=True)

FRAMEWORK = Framework(
    name="agent-framework",
    import_roots=("agent_framework",),
    aliases={
        "agent_framework._tools.tool": TOOL,
        "agent_framework._tools.FunctionTool": FUNCTION_TOOL,
        # The pre-1.0 names (1.0.0b releases): `@ai_function` and `AIFunction(func=...)`.
        **{f"agent_framework{m}.ai_function": TOOL for m in ("", "._tools")},
        **{f"agent_framework{m}.AIFunction": FUNCTION_TOOL for m in ("", "._tools")},
        "agent_framework._agents.Agent": AGENT,
        "agent_framework._agents.ChatAgent": CHAT_AGENT,
        "agent_framework._middleware.FunctionInvocationContext": CONTEXT,
        "agent_framework._middleware.function_middleware": FUNCTION_MIDDLEWARE,
        "agent_framework._middleware.FunctionMiddleware": MIDDLEWARE_CLASS,
        "agent_framework._middleware.MiddlewareFailure": FAILURE,
        **{f"agent_framework._mcp.{c.rpartition('.')[2]}": c for c in MCP},
    },
    tools=ToolSpec(
        makers={
            # tool(func=None, *, name=None, description=None, schema=None, approval_mode=None, ...):
            # `@tool`, `@tool(...)`, `tool(fn)`.
            TOOL: ToolMaker("decorator", function=Param("func", 0), name=Param("name")),
            # FunctionTool(*, name, description="", ..., func=None, ...)
            FUNCTION_TOOL: ToolMaker("decorator", function=Param("func"), name=Param("name")),
        },
        servers=MCP,
        # FunctionTool.invoke: `await asyncio.to_thread(self.func, ...)` for a sync function (_tools.py:910-917).
        sync_runs_in="thread",
        sync_thread_since=AGENT_FRAMEWORK_SYNC_TOOLS_IN_THREADS,
    ),
    groups=GroupSpec(
        # Agent(client, instructions=None, *, id=None, name=None, description=None, tools=None, ...,
        # middleware=None, ...); a plain callable in tools=[...] becomes a FunctionTool.
        makers={AGENT: AGENT_MAKER, CHAT_AGENT: AGENT_MAKER},
        methods={(CLIENTS, method): replace(AGENT_MAKER, receiver_as="client") for method in ("as_agent", "create_agent")},
        fix=(
            "build the chat client with function_invocation_configuration={{\"allow_concurrent_invocation\": False}}, "
            "make {victim} async and awaiting, or let {fatal}'s failure reach the model (raise "
            "MiddlewareTermination, or set context.result, instead of raising MiddlewareFailure)"
        ),
    ),
    hooks=HookSpec(
        # A function middleware runs around every call of the agent: `async def m(context:
        # FunctionInvocationContext, call_next)`, decorated `@function_middleware` or annotated, or a
        # `FunctionMiddleware` subclass's `process`; given in Agent(middleware=[...]). Raising
        # MiddlewareFailure there (before or after `call_next`) cancels the batch (_tools.py:2313-2316,
        # 2669-2683); any other exception is the call's own error, which the model sees.
        events={CONTEXT: "before"},
        decorator_events={FUNCTION_MIDDLEWARE: "before"},
        group=Param("middleware"),
        objects=(Param("middleware"),),
        handlers={MIDDLEWARE_CLASS: {"process": "before"}},
        handler_none_fatal=False,
        exceptions=(FAILURE,),
        noun="function middleware",
        fix=("raise MiddlewareTermination, or set context.result to an error message, so the model sees the failure; "
             "MiddlewareFailure cancels the other calls of the turn and the session keeps none of their results"),
    ),
    failure=FailureSpec(
        # A tool may raise MiddlewareFailure itself: re-raised past the per-call `except Exception`
        # (_tools.py:2313-2316, 2449-2453), it cancels the batch as a middleware's does (exp_maf.py (b)).
        fatal_exceptions=(FAILURE,),
        fatal_exceptions_fix=("raise an ordinary exception (the model sees \"Error: Function failed.\") or return an "
                              "error message; MiddlewareFailure cancels the other calls of the turn and the session "
                              "keeps none of their results"),
    ),
    concurrency=ConcurrencySpec(
        # FunctionInvocationConfiguration.allow_concurrent_invocation (default True; _tools.py:1904-1906, 2665-2685).
        serial_settings={(client, "function_invocation_configuration", "allow_concurrent_invocation"): False
                         for client in ("client", "chat_client")},  # ChatAgent(chat_client=...) before 1.0
    ),
    example=("from agent_framework import tool", "@tool"),
)
