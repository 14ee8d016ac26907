"""crewai (`crewai` 1.15.30), as measured with that version.

The runtime behaviour is shown by tests/runtime/test_crewai_runtime.py, run with that version (and
by the experiment behind ../shared/reference/frameworks-wave2.md, section 3). Signatures re-checked
in the installed source.

The native tool calls of one turn run in a `ThreadPoolExecutor` (async tools too: each is
`asyncio.run` in its pool thread), unless a tool called in that turn has `result_as_answer=True` or
`max_usage_count` set. A tool's exception reaches the model by default (`tool_failure_policy`
"warn"). It ends the run with `tool_failure_policy="raise"` on the tool, the task, the agent or the
crew (the most specific set level wins), and when an after-tool hook raises `HookAborted`. Nothing
in flight is cancelled: every call already running finishes, *then* the crew raises, and neither
the crew's output nor the exception records those results.
"""

from __future__ import annotations

from .spec import (
    ConcurrencySpec,
    FailureSpec,
    FatalHook,
    Framework,
    GroupMaker,
    GroupSpec,
    LayeredPolicy,
    Param,
    PolicyLevel,
    ToolMaker,
    ToolSpec,
)

AGENT = "crewai.Agent"
TASK = "crewai.Task"
CREW = "crewai.Crew"
TOOL = "crewai.tools.tool"
BASE_TOOL = "crewai.tools.BaseTool"
POLICY = "crewai.tools.ToolFailurePolicy"
HOOK_ABORTED = "crewai.hooks.HookAborted"
POST_TOOL_CALL = "crewai.hooks.InterceptionPoint.POST_TOOL_CALL"

_HOOK_LABEL = "after-tool hook {hook} raises {exception}"
_HOOK_FIX = (
    "HookAborted raised after a tool call ends the crew's run once every call in flight has finished, "
    "and their results are in neither the output nor the exception; return a replacement result "
    "string from the hook instead"
)
_POLICY_FIX = (
    "any failure of the tool then ends the crew's run once every call in flight has finished, and their "
    "results are in neither the output nor the exception; keep the default \"warn\" (the model sees the "
    "error), or set \"warn\" on the tool"
)

FRAMEWORK = Framework(
    name="crewai",
    import_roots=("crewai", "crewai_tools"),
    aliases={
        "crewai.agent.Agent": AGENT,
        "crewai.agent.core.Agent": AGENT,
        "crewai.task.Task": TASK,
        "crewai.crew.Crew": CREW,
        "crewai.tools.base_tool.tool": TOOL,
        "crewai.tools.base_tool.BaseTool": BASE_TOOL,
        # Older crewai_tools re-exported the base class (`from crewai_tools import BaseTool`).
        "crewai_tools.BaseTool": BASE_TOOL,
        **{f"crewai.tools.tool_failure.ToolFailurePolicy.{m}": f"{POLICY}.{m}" for m in ("RAISE", "WARN", "IGNORE")},
        "crewai.hooks.decorators.after_tool_call": "crewai.hooks.after_tool_call",
        "crewai.hooks.dispatch.on": "crewai.hooks.on",
        "crewai.hooks.dispatch.register": "crewai.hooks.register_hook",
        "crewai.hooks.tool_hooks.register_after_tool_call_hook": "crewai.hooks.register_after_tool_call_hook",
        "crewai.hooks.dispatch.HookAborted": HOOK_ABORTED,
        "crewai.hooks.dispatch.InterceptionPoint.POST_TOOL_CALL": POST_TOOL_CALL,
    },
    tools=ToolSpec(
        # tool(*args, result_schema=None, result_as_answer=False, max_usage_count=None): `@tool`,
        # `@tool("name")`, `@tool(result_as_answer=True)`, `tool(fn)` (base_tool.py:678-701).
        makers={TOOL: ToolMaker("decorator", function=Param("func", 0), name=Param("name", 0))},
        # BaseTool.run calls `_run` in the pool thread (a coroutine it returns is `asyncio.run` there);
        # only the async API (`arun`) awaits `_arun`, so a class defining both runs `_run` in a crew.
        base_classes={BASE_TOOL: ("_run", "_run")},
        sync_runs_in="thread",
        runners=("run", "func"),  # `Tool.run(*args)` calls `func` (base_tool.py)
        sync_fix=("crewai cancels nothing in flight, so an async tool would land all the same: make sure no tool "
                  "of its agent can fail fatally (tool_failure_policy \"warn\", no HookAborted after a tool call)"),
    ),
    groups=GroupSpec(
        makers={
            # Agent(role=..., goal=..., backstory=..., tools=[...]); Task(tools=[...]) limits the agent to
            # those tools for that task. A fatal failure cancels nothing in flight.
            AGENT: GroupMaker(tools=Param("tools"), name=Param("role"), cancels_siblings=False),
            TASK: GroupMaker(tools=Param("tools"), name=Param("name"), cancels_siblings=False),
        },
        tools_attr="tools",
        fix=(
            "keep {fatal}'s tool_failure_policy at \"warn\" (or return a result from the after-tool hook instead "
            "of raising HookAborted) so its failure reaches the model; crewai cancels nothing in flight, so even "
            "an awaiting {victim} finishes after the failure and its result is lost when the crew raises"
        ),
    ),
    failure=FailureSpec(
        # tool_failure_policy: BaseTool field (class attribute, constructor keyword, assignment), then
        # Task(...), Agent(...), Crew(...) (tool_failure.py:180-210; base_agent.py:288, task.py:283, crew.py:244).
        layered=LayeredPolicy(
            param=Param("tool_failure_policy"),
            fatal_literals=("raise",),
            fatal_members=(f"{POLICY}.RAISE",),
            levels=(
                PolicyLevel(TASK, (Param("agent"),)),
                PolicyLevel(AGENT),
                PolicyLevel(CREW, (Param("agents"), Param("tasks"))),
            ),
            label='tool_failure_policy="raise"',
            fix=_POLICY_FIX,
        ),
        # HookAborted propagates from post-tool-call hooks; a pre-tool-call one only blocks the call, and
        # any other exception in a hook is swallowed (hooks/dispatch.py:21-23, tool_hooks.py:173-190).
        hooks={
            "crewai.hooks.after_tool_call": FatalHook((HOOK_ABORTED,), function=Param("func", 0), tools=Param("tools"),
                                                      label=_HOOK_LABEL, fix=_HOOK_FIX),
            "crewai.hooks.on": FatalHook((HOOK_ABORTED,), point=(Param("point", 0), (POST_TOOL_CALL,)),
                                         tools=Param("tools"), label=_HOOK_LABEL, fix=_HOOK_FIX),
            "crewai.hooks.register_after_tool_call_hook": FatalHook((HOOK_ABORTED,), function=Param("hook", 0),
                                                                    label=_HOOK_LABEL, fix=_HOOK_FIX),
            "crewai.hooks.register_hook": FatalHook((HOOK_ABORTED,), function=Param("hook", 1),
                                                    point=(Param("point", 0), (POST_TOOL_CALL,)),
                                                    label=_HOOK_LABEL, fix=_HOOK_FIX),
        },
    ),
    concurrency=ConcurrencySpec(
        # A turn that calls a tool with result_as_answer=True or max_usage_count set runs its calls one
        # by one (agent_executor.py:2085-2116).
        tool_serial=("result_as_answer", True),
        tool_serial_when_set=("max_usage_count",),
    ),
    example=("from crewai.tools import tool", "@tool"),
)
