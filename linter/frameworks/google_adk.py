"""Google Agent Development Kit (`google-adk` 2.13.0, `google-genai` 2.34.0), as measured with those versions.

The runtime behaviour is shown by tests/runtime/test_google_adk_runtime.py, run with those versions.
Signatures re-checked with `inspect.signature`; the references (`_batch_executor.py:...`) are to the
installed 2.13.0 under `google/adk/`.

Any exception a tool raises ends the run unless an `on_tool_error_callback` (the agent's, or a
plugin's given to the Runner or App) returns a dict for it. The function calls of one response run
as one task each (`flows/llm_flows/tools/_batch_executor.py`); on a fatal failure the unfinished
ones are cancelled, then awaited, then the error is raised. Siblings that finished before that are
kept in the session, so an inline sync tool, a blocking async tool and a tool that swallows
`CancelledError` (each finishes during the drain) lose nothing. A sync tool runs inline on the
event loop unless the run's `RunConfig(tool_thread_pool_config=...)` moves it into a worker thread
(`utils/_sync_runner.py`): then, like an async tool's `to_thread` or `shield`, it lands after the
raise with no function response in the session.
"""

from __future__ import annotations

from .spec import (
    ConcurrencySpec,
    ErrorPolicy,
    FailureSpec,
    FatalArg,
    Framework,
    GroupMaker,
    GroupSpec,
    Param,
    ToolMaker,
    ToolSpec,
    Wrapper,
)

AGENT = "google.adk.agents.LlmAgent"
FUNCTION_TOOL = "google.adk.tools.FunctionTool"
LONG_RUNNING_TOOL = "google.adk.tools.LongRunningFunctionTool"
AGENT_TOOL = "google.adk.tools.AgentTool"
BASE_TOOL = "google.adk.tools.BaseTool"
MCP_TOOLSET = "google.adk.tools.McpToolset"
RUNNER = "google.adk.runners.Runner"
IN_MEMORY_RUNNER = "google.adk.runners.InMemoryRunner"
APP = "google.adk.apps.App"
TOOL_CONTEXT = "google.adk.tools.ToolContext"
ERROR_CALLBACK = "on_tool_error_callback"


# A callback that can return None leaves the error fatal (RUN "returns None"); one that raises
# replaces it. A raising before_tool_callback is fatal even beside an error callback (RUN b5), and so
# is a raising after_tool_callback (it runs outside the try, `_caller.py:597-619`).
_CALLBACKS = (
    FatalArg("handler_returns_none", Param(ERROR_CALLBACK), (), f"{ERROR_CALLBACK} {{fault}}",
             when=("returns_none", "raises")),
    FatalArg("handler_returns_none", Param("before_tool_callback"), (), "before_tool_callback {fault}", when=("raises",)),
    FatalArg("handler_returns_none", Param("after_tool_callback"), (), "after_tool_callback {fault}", when=("raises",)),
)
# The same three, as methods of a BasePlugin subclass given in plugins=[...] (consulted first).
_PLUGIN_CALLBACKS = tuple(
    FatalArg("handler_returns_none", Param("plugins"), (), f"plugin {m} {{fault}}", when=when, method=m)
    for m, when in ((ERROR_CALLBACK, ("returns_none", "raises")), ("before_tool_callback", ("raises",)),
                    ("after_tool_callback", ("raises",)))
)

_FIX = (
    "give the agent (or a plugin) an on_tool_error_callback that returns a dict on every path so {fatal}'s "
    "errors reach the model, or make {victim} async and awaiting (with no to_thread, shield or tool thread pool)"
)

FRAMEWORK = Framework(
    name="google-adk",
    import_roots=("google.adk",),
    aliases={
        **dict.fromkeys(("google.adk.Agent", "google.adk.agents.Agent", "google.adk.agents.llm_agent.Agent",
                         "google.adk.agents.llm_agent.LlmAgent"), AGENT),
        "google.adk.tools.function_tool.FunctionTool": FUNCTION_TOOL,
        "google.adk.tools.long_running_tool.LongRunningFunctionTool": LONG_RUNNING_TOOL,
        "google.adk.tools.agent_tool.AgentTool": AGENT_TOOL,
        "google.adk.tools.base_tool.BaseTool": BASE_TOOL,
        **dict.fromkeys(("google.adk.tools.MCPToolset", "google.adk.tools.mcp_tool.McpToolset",
                         "google.adk.tools.mcp_tool.MCPToolset", "google.adk.tools.mcp_tool.mcp_toolset.McpToolset",
                         "google.adk.tools.mcp_tool.mcp_toolset.MCPToolset"), MCP_TOOLSET),
        "google.adk.Runner": RUNNER,
        "google.adk.apps.app.App": APP,
        **dict.fromkeys(("google.adk.tools.tool_context.ToolContext", "google.adk.Context",
                         "google.adk.agents.Context", "google.adk.agents.context.Context"), TOOL_CONTEXT),
    },
    tools=ToolSpec(
        makers={
            # FunctionTool(func, *, require_confirmation=False); LongRunningFunctionTool(func).
            FUNCTION_TOOL: ToolMaker("decorator", function=Param("func", 0)),
            LONG_RUNNING_TOOL: ToolMaker("decorator", function=Param("func", 0)),
            # AgentTool(agent, skip_summarization=False, ...): another agent's run, no body of its own here.
            AGENT_TOOL: ToolMaker("constructor"),
        },
        # class T(BaseTool): `async def run_async(self, *, args, tool_context)` is what runs.
        base_classes={BASE_TOOL: ("", "run_async")},
        # McpToolset(connection_params=...) in tools=[...]: its tools join the agent's group.
        servers=(MCP_TOOLSET,),
        # Inline on the event loop, unless the run's RunConfig sets tool_thread_pool_config
        # (ConcurrencySpec.sync_threads).
        sync_runs_in="loop",
        # tool_context.function_call_id: the id the model gave this call.
        call_ids={TOOL_CONTEXT: "function_call_id"},
    ),
    groups=GroupSpec(
        makers={
            # LlmAgent(*, name, ..., tools=[...], before/after_tool_callback, on_tool_error_callback): keywords only.
            AGENT: GroupMaker(tools=Param("tools"), name=Param("name"), plain_functions_are_tools=True,
                              policy=ErrorPolicy(
                                  fatal_by_default=True, handler=Param(ERROR_CALLBACK), handler_returns=True,
                                  plugin_handler=ERROR_CALLBACK,
                                  raising_hooks=(Param("before_tool_callback"), Param("after_tool_callback")),
                                  plugin_hooks=("before_tool_callback", "after_tool_callback"),
                                  fix=f"give the agent (or a plugin) an {ERROR_CALLBACK} that returns a dict on every "
                                      "path, or catch Exception in {tool} and return a dict")),
        },
        fix=_FIX,
        # Awaited during the drain and recorded in the session (RUN c2): not the lost-record hazard.
        kept_reasons=("blocking", "blocking_late", "swallowed"),
    ),
    failure=FailureSpec(
        args={
            AGENT: _CALLBACKS,
            # Runner(*, app, app_name, agent, plugins, ...), InMemoryRunner(agent, *, ..., plugins, app),
            # App(name, root_agent, plugins, ...).
            **{name: _PLUGIN_CALLBACKS for name in (RUNNER, IN_MEMORY_RUNNER, APP)},
        },
    ),
    concurrency=ConcurrencySpec(
        wrappers={
            RUNNER: Wrapper((Param("agent"), Param("app")), plugins=Param("plugins")),
            IN_MEMORY_RUNNER: Wrapper((Param("agent", 0), Param("app")), plugins=Param("plugins")),
            APP: Wrapper((Param("root_agent"),), plugins=Param("plugins")),
        },
        # runner.run_async(*, user_id, session_id, ..., run_config=None); run / run_live / run_debug alike.
        run_methods={m: Param("run_config") for m in ("run_async", "run", "run_live", "run_debug")},
        # RunConfig(tool_thread_pool_config=ToolThreadPoolConfig(max_workers=4)) (`agents/run_config.py:55-82`).
        sync_threads=("tool_thread_pool_config",),
        sync_threads_cap=("tool_thread_pool_config", "max_workers"),
    ),
    example=("from google.adk.tools import FunctionTool", "@FunctionTool"),
    # ADK runs sync tools in threads only under the tool thread pool, which the examples assume.
    example_group=(
        "from google.adk.agents import Agent, RunConfig\nfrom google.adk.agents.run_config import ToolThreadPoolConfig\n"
        "from google.adk.runners import InMemoryRunner\n\nrunner = InMemoryRunner(Agent(name=\"a\", tools=[{tools}]))\n"
        "POOL = RunConfig(tool_thread_pool_config=ToolThreadPoolConfig(max_workers=4))\n\n\n"
        "async def main(session_id: str) -> None:\n"
        "    async for _ in runner.run_async(user_id=\"u\", session_id=session_id, run_config=POOL):\n        pass\n"
    ),
)
