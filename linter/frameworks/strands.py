"""Strands Agents (`strands-agents`), as measured at 1.62.0.

The runtime behaviour is shown by tests/runtime/test_strands_runtime.py, run with that version
(and by `frameworks-wave2.md` section 2). Signatures re-checked with `inspect.signature`.

A tool's exception becomes an error result the model sees; the run ends only when a hook the agent
runs around each tool call raises: an `AfterToolCallEvent` callback (re-raising `event.exception`),
a `BeforeToolCallEvent` callback, or an intervention handler (default `on_error="throw"`). The
default `ConcurrentToolExecutor` runs each call as its own task, and a sync tool in
`asyncio.to_thread`; on a fatal failure every task is cancelled, and every result of the turn is
dropped from `agent.messages`. `tool_executor=SequentialToolExecutor()` runs the calls one by one.
"""

from __future__ import annotations

from .spec import (
    ConcurrencySpec,
    Framework,
    GroupMaker,
    GroupSpec,
    HookSpec,
    Param,
    ToolMaker,
    ToolSpec,
)

TOOL = "strands.tool"
AGENT = "strands.Agent"
AGENT_TOOL = "strands.types.tools.AgentTool"
PYTHON_AGENT_TOOL = "strands.tools.PythonAgentTool"
PLUGIN = "strands.plugins.Plugin"
HOOK = "strands.plugins.hook"
HANDLER = "strands.interventions.InterventionHandler"
BEFORE = "strands.hooks.BeforeToolCallEvent"
AFTER = "strands.hooks.AfterToolCallEvent"
SEQUENTIAL = "strands.tools.executors.SequentialToolExecutor"

FRAMEWORK = Framework(
    name="strands",
    import_roots=("strands",),
    aliases={
        **{f"{m}.tool": TOOL for m in ("strands.tools.decorator", "strands.tools")},
        **{f"{m}.Agent": AGENT for m in ("strands.agent", "strands.agent.agent")},
        "strands.tools.tools.PythonAgentTool": PYTHON_AGENT_TOOL,
        "strands.Plugin": PLUGIN,
        "strands.plugins.plugin.Plugin": PLUGIN,
        "strands.plugins.decorator.hook": HOOK,
        "strands.InterventionHandler": HANDLER,
        "strands.interventions.handler.InterventionHandler": HANDLER,
        # The events module, and the experimental names that still re-export them.
        "strands.hooks.events.BeforeToolCallEvent": BEFORE,
        "strands.hooks.events.AfterToolCallEvent": AFTER,
        **{f"{m}.BeforeToolInvocationEvent": BEFORE for m in ("strands.experimental.hooks", "strands.experimental.hooks.events")},
        **{f"{m}.AfterToolInvocationEvent": AFTER for m in ("strands.experimental.hooks", "strands.experimental.hooks.events")},
        "strands.tools.executors.sequential.SequentialToolExecutor": SEQUENTIAL,
    },
    tools=ToolSpec(
        makers={
            # tool(func=None, description=None, inputSchema=None, name=None, context=False):
            # `@tool`, `@tool(...)`, `tool(fn)`.
            TOOL: ToolMaker("decorator", function=Param("func", 0), name=Param("name", 3)),
            # PythonAgentTool(tool_name, tool_spec, tool_func): a sync tool_func runs in asyncio.to_thread.
            PYTHON_AGENT_TOOL: ToolMaker("decorator", function=Param("tool_func", 2), name=Param("tool_name", 0)),
        },
        # `class T(AgentTool)`: its `stream` (an async generator) runs the call.
        base_classes={AGENT_TOOL: ("stream", "stream")},
        # A module tool: `TOOL_SPEC = {"name": ...}` beside the function of that name (the loader's
        # PythonAgentTool runs a sync one in asyncio.to_thread).
        module_spec="TOOL_SPEC",
        # A `Plugin` instance in `plugins=[...]` brings its `@tool` methods (strands/plugins/plugin.py).
        member_classes=(PLUGIN,),
        # DecoratedFunctionTool.stream: `await asyncio.to_thread(self._tool_func, ...)` for a sync function.
        sync_runs_in="thread",
    ),
    groups=GroupSpec(
        # Agent(model=None, messages=None, tools=None, ..., *, name=None, plugins=None, hooks=None,
        # interventions=None, tool_executor=None, ...)
        makers={AGENT: GroupMaker(tools=Param("tools", 2), name=Param("name"), toolsets=Param("plugins"))},
        fix=(
            "pass tool_executor=SequentialToolExecutor() to the Agent, make {victim} async and awaiting, or let "
            "{fatal}'s failure reach the model (set event.cancel_tool, or return Deny(...) from an intervention, "
            "instead of raising)"
        ),
    ),
    hooks=HookSpec(
        events={BEFORE: "before", AFTER: "after"},
        # Agent(hooks=[HookProvider() | callable]), Agent(plugins=[Plugin()]), Agent(interventions=[Handler()])
        group=Param("hooks"),
        objects=(Param("plugins"), Param("interventions")),
        # agent.add_hook(callback, event_type=None); HookRegistry.add_callback(event_type, callback),
        # on `agent.hooks` or on the registry a provider's register_hooks(self, registry) is given.
        register={"add_hook": (Param("callback", 0), Param("event_type", 1)),
                  "add_callback": (Param("callback", 1), Param("event_type", 0))},
        registries=("hooks",),
        provider_method="register_hooks",
        decorators=(HOOK,),
        # InterventionHandler.before_tool_call / after_tool_call: a raise (or returning None: TypeError)
        # ends the run unless `on_error` is "proceed" or "deny" (interventions/registry.py).
        handlers={HANDLER: {"before_tool_call": "before", "after_tool_call": "after"}},
        handler_safe=("on_error", ("proceed", "deny")),
        fix=("set event.cancel_tool to a message (in an intervention: return Deny(...) or set on_error=\"deny\") "
             "so the model sees the failure instead; every result of the turn is dropped as well"),
    ),
    concurrency=ConcurrencySpec(
        # Agent(tool_executor=SequentialToolExecutor()) runs the calls of a turn one after the other.
        serial_options={"tool_executor": SEQUENTIAL},
    ),
    example=("from strands import tool", "@tool"),
)
