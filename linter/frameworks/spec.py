"""The shape of framework data, grouped by capability: each part names the analysis that reads it.

A framework is one `Framework` value: how its names are spelled (`aliases`), and four parts:

* `tools` (`ToolSpec`, read by `siblint.model.tools`): which calls, decorators, classes and methods make a
  tool, and how a sync tool runs;
* `groups` (`GroupSpec`, read by `siblint.model.groups`): which calls offer tools to the model together,
  and the run deadlines (`Deadline`) set where a group is made or on a workflow that runs it;
* `failure` (`FailureSpec`, read by `siblint.analyses.fatality` and `siblint.analyses.error_policy`): which settings
  make a tool's failure end the run, and which exceptions reach the model anyway;
* `concurrency` (`ConcurrencySpec`, read by `siblint.model.groups`): what runs a group, and what
  serialises its tool calls;
* `retries` (`RetrySpec`, read by `siblint.analyses.retries`): what makes the framework run a tool, a node
  or a model call again;
* `hooks` (`HookSpec`, read by `siblint.analyses.hooks`): callbacks run around every tool call whose
  raising ends the run.

Rule codes never appear here: a fatal setting carries a `cause`, and the rule that reports that
cause owns the code (`siblint.rules.failure_policy`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from typing import Literal

from .versions import Release

# Why a setting makes a tool's failure fatal; each cause is reported by one rule.
Cause = Literal["handler_disabled", "handler_returns_none", "timeout_raises", "invoker_unguarded"]


@dataclass(frozen=True)
class Param:
    """An argument by keyword and, where the signature allows it, by position (0-based, after self)."""

    keyword: str
    position: int | None = None


@dataclass(frozen=True)
class FatalArg:
    """An argument value that makes a tool's failure escape the run (and cancel its siblings)."""

    cause: Cause
    param: Param
    values: tuple[object, ...]  # literal values that are fatal
    label: str  # how the message names it: 'failure_error_function=None'
    key: str | None = None  # when set, the argument is a dict and the fatal value sits under this key
    # When the argument is a callable: what it may do to be fatal. "returns_none" (can return None,
    # including `-> None` and falling off the end), "raises" (a `raise` in its body), "unguarded"
    # (its whole body is not one `try` whose `except Exception`-or-broader handler returns; an
    # unresolvable callable, or the argument missing from a constructor call, counts as unguarded).
    when: tuple[str, ...] = ()
    # When set, the argument is a list of objects (`plugins=[ErrorPlugin()]`) and what is judged is
    # this method of each object's project class, as `when` says (reported at the object).
    method: str = ""
    # Not fatal when this other argument of the same call / field of the same tool is also set to
    # something other than None (`_use_default_failure_error_function=False` with a handler given).
    unless: str | None = None
    # Fatal only when this other argument / field has this literal value (a handler that the SDK
    # only reads once `_use_default_failure_error_function=False`).
    only_with: tuple[str, object] | None = None
    # Fatal whatever value is given (`outputSchema: z.object(...)`): the argument's presence is
    # what changes the default (JS `undefined` counts as absent).
    present: bool = False
    # Fatal only when this other argument / field is also given (`timeoutMs` with `outputSchema`).
    requires: str | None = None


@dataclass(frozen=True)
class ToolMaker:
    """A callable that turns a function (or an object) into a tool."""

    kind: Literal["decorator", "constructor"]  # @name / @name(...) / name(fn, ...); or Name(...) builds one
    function: Param | None = None  # where the call form passes the function that runs
    name: Param | None = None  # where the tool's name is given, when not the function's name
    # Where an async implementation is given beside the sync one (`coroutine=`): when present it is
    # the function analysed (async runs await it; the sync one runs only under a sync invoke).
    async_function: Param | None = None
    # The argument at `function` is an object, and this method of its class runs the call
    # (haystack's `ComponentTool(component=Charge())` runs `Charge.run`).
    method: str = ""


@dataclass(frozen=True)
class Middleware:
    """A middleware constructor that turns tool failures into results the model sees."""

    # Only for the exceptions this argument lists (an exception type or tuple); absent: every Exception.
    exceptions: Param | None = None
    # Only for the tools this argument names (tool objects or name strings); absent: every tool.
    tools: Param | None = None
    # This argument set to one of these literals re-raises instead (`on_failure="error"`).
    fatal_when: tuple[Param, tuple[object, ...]] | None = None


@dataclass(frozen=True)
class ToolMiddleware:
    """A middleware constructor whose product runs around every tool call of the group it is given
    to, where the group turns a tool's error into a message by default (LangChain.js `createAgent`):
    per tool, it either passes the error on (the run ends), turns it into a message (it covers the
    tool, whatever the other middleware does), or leaves it alone (read by
    `siblint.analyses.middleware`)."""

    # The callback option that wraps the call (`wrapToolCall`) and where that callback receives the
    # call as a function (`handler`): calling it outside a `try` whose `catch` does not rethrow
    # passes the tool's error on; a catching callback covers every tool. Absent: leaves all alone.
    wrapper: Param | None = None
    calls: Param | None = None
    # Options that make it pass the error of the tools it applies to on (`onFailure: 'error'`, an
    # `onError` that can return undefined); when none is fatal, it covers those tools.
    fatal: tuple[FatalArg, ...] = ()
    # The tools it applies to, by name (`tools: ['quote']`); absent: every tool.
    tools: Param | None = None
    # The errors of the tools that list leaves out pass on too (`toolRetryMiddleware({ tools })`).
    unlisted_fatal: bool = False
    label: str = ""  # how messages name it: 'toolRetryMiddleware'
    fix: str = ""  # what SIB202 tells the user


@dataclass(frozen=True)
class ErrorPolicy:
    """What a group does with a tool's exception when no per-tool setting applies.

    With `fatal_by_default`, any exception a member raises ends the run unless the group's handler
    or a middleware makes it model-visible, or it is one of `FailureSpec.visible_exceptions`.
    """

    fatal_by_default: bool = False
    # The group-level handler (`handle_tool_errors=`): these literals make every failure visible,
    # any string literal does when `any_string`, a callable does for the exception types its first
    # parameter's annotation names (every Exception when unannotated), an exception type or tuple
    # for those types. Literals in `fatal_values` (and the argument left out) keep the default.
    handler: Param | None = None
    visible_values: tuple[object, ...] = ()
    any_string: bool = False
    fatal_values: tuple[object, ...] = ()
    # The handler's value when the argument is left out (`handleToolErrors` defaults to true in
    # LangGraph.js); None: no handler.
    handler_default: object = None
    middleware: Param | None = None  # where middleware objects are passed (`middleware=[...]`)
    # The handler makes a failure visible by what it returns (`on_tool_error_callback=`): a callable,
    # or a list tried in order, covers every exception only when one of them returns a value on
    # every path and does not raise; returning None leaves the failure fatal.
    handler_returns: bool = False
    # The method of a plugin object given to a wrapper (`Runner(plugins=[...])`, `ConcurrencySpec.wrappers`)
    # that does what `handler` does for every group the wrapper runs, judged as `handler_returns` says.
    plugin_handler: str = ""
    # Callbacks run around every call of the group (`before_tool_callback=`, a callable or a list),
    # and the plugin methods that do the same: one that raises ends the run whichever member it
    # runs for, so it makes every member's call fatal.
    raising_hooks: tuple[Param, ...] = ()
    plugin_hooks: tuple[str, ...] = ()
    fix: str = ""  # how SIB206 tells the user to make a member's errors reach the model; formatted with tool=
    # The default is fatal only from this release on: before it, a group whose handler is left out
    # made every failure visible (judged against the project's pins, `siblint.settings.pins`).
    fatal_since: Release | None = None


@dataclass(frozen=True)
class NodeBudget:
    """A builder call that places a group as a graph node with a time budget every member shares
    (`builder.add_node("tools", ToolNode([...]), timeout=5)`; SIB401)."""

    method: str  # the builder method
    action: Param  # where the group is passed
    budget: Param  # where the budget is given: seconds, or a policy object below
    policies: dict[str, Param] = field(default_factory=dict)  # policy constructor -> its total-seconds argument


@dataclass(frozen=True)
class Deadline:
    """A run deadline on a group, or on the workflow that runs it (`timeout=60`): when it fires, the run
    raises and cancels the calls in flight, so whichever call is still running fails fatally and a
    member that cancellation cannot stop lands after the raise (SIB301). It is not a tool's own timeout
    (SIB203): the framework offers no model-visible alternative. A literal None sets no deadline; any
    other value counts as one, also when it cannot be read."""

    param: Param
    default: float | None = None  # seconds when the argument is left out; None: no deadline
    # When the value is an object / dict display, only these keys set a run deadline (JS `timeout:
    # { totalMs }`; `{ toolMs }` alone bounds each tool, not the run).
    keys: tuple[str, ...] = ()


@dataclass(frozen=True)
class WorkflowMaker:
    """A call that runs groups made elsewhere (`AgentWorkflow(agents=[a, b], timeout=60)`): each agent
    listed stays its own group, and the workflow's deadline applies to it."""

    agents: Param
    deadline: Deadline


@dataclass(frozen=True)
class BuiltinTool:
    """A tool the maker adds to every group it makes, beside the project's (deepagents' `task`)."""

    name: str
    fatal: str  # why its failure can end the run, as SIB301 says it ("runs a sub-agent ...")
    fix: str  # SIB301's advice when it is the fatal tool (formatted with victim=)


@dataclass(frozen=True)
class GroupMaker:
    """A callable whose tools are offered to the model together: one concurrent group."""

    tools: Param | None = None
    servers: Param | None = None  # MCP servers whose tools join the group
    name: Param | None = None
    # A method on a group object (`agent.clone(...)`) that, called without tools, keeps the
    # receiver's tools: the result is the same group, and runs of it are runs of that group.
    keeps_receiver_tools: bool = False
    toolsets: Param | None = None  # toolsets whose tools join the group (`Agent(toolsets=[...])`)
    plain_functions_are_tools: bool = False  # a plain function in the tools list becomes a tool
    policy: ErrorPolicy = ErrorPolicy()
    # Does a fatal failure cancel the other calls of the turn? Overridden per call by `no_cancel_when`
    # ((keyword, literal) pairs, e.g. ("version", "v1")).
    cancels_siblings: bool = True
    cancels_since: Release | None = None  # before this release, nothing was cancelled
    no_cancel_when: tuple[tuple[str, object], ...] = ()
    # Only a member of another group (`ToolNode` given to `create_react_agent`): not a group itself.
    nested_in_groups: bool = False
    fix: str = ""  # overrides GroupSpec.fix for this maker
    # The time budget every member gets unless the tool sets its own (`Agent(tool_timeout=3)`; SIB401).
    tool_budget: Param | None = None
    node_budget: NodeBudget | None = None
    deadline: Deadline | None = None  # a run deadline given where the group is made
    deadlines: tuple[Deadline, ...] = ()  # more of them, the first set one counting (`abortSignal`, `timeout`)
    # Methods of the object the maker returns that run the group, and the deadlines their first argument
    # may set (`agent.generate({ prompt, abortSignal })`): read on such calls of the name it is bound to
    # in the same module.
    run_methods: tuple[str, ...] = ()
    run_deadlines: tuple[Deadline, ...] = ()
    # The tools are given as an object keyed by tool name (JS `tools: { charge: tool({...}) }`): its values.
    tools_by_name: bool = False
    # The model is asked for one call per step (a ReAct loop): the tools never run beside each other.
    one_call_per_turn: bool = False
    # A method maker's receiver given as this keyword (`client.as_agent(...)` is `Agent(client=client,
    # ...)`): the concurrency settings read at that keyword read the receiver.
    receiver_as: str = ""
    # An object given to the maker (`kernel=kernel`) whose `GroupSpec.holder_methods` calls add
    # members (`kernel.add_plugin(Billing())`) and on which hooks are registered (`kernel.add_filter`).
    holder: Param | None = None
    # A tool of the maker's own in every group, whose failure ends the run under the group's policy.
    builtin: BuiltinTool | None = None


@dataclass(frozen=True)
class ToolSpec:
    """How tools are made (read by `siblint.model.tools`)."""

    makers: dict[str, ToolMaker] = field(default_factory=dict)
    # (constructor of the receiver, method) -> ToolMaker, e.g. agent.as_tool(...), @agent.tool
    methods: dict[tuple[str, str], ToolMaker] = field(default_factory=dict)
    # Constructors of MCP servers: their tools join the group of the agent they are given to.
    servers: tuple[str, ...] = ()
    # Collections of tools that join the group they are given to (`FunctionToolset(tools=[...])`):
    # constructor -> where its tools are passed. Decorators in `methods` on such an object add to it.
    toolsets: dict[str, Param] = field(default_factory=dict)
    # Base classes whose subclasses are tools: base -> (sync method, async method) that run.
    base_classes: dict[str, tuple[str, str]] = field(default_factory=dict)
    # Base classes whose subclasses hold several tools, one per method their class attribute lists
    # (a name, or a (sync, async) pair of names): base -> (that attribute, the method returning the
    # tools), e.g. `spec_functions = ["charge"]` and `Spec().to_tool_list()`.
    method_toolsets: dict[str, tuple[str, str]] = field(default_factory=dict)
    # Functions that copy a tool with its policy: resolved name -> where the source is passed, and
    # whether the other keywords set fields (`dataclasses.replace`).
    copiers: dict[str, tuple[Param, bool]] = field(default_factory=dict)
    # Where a sync tool function runs: "thread" (a worker thread cancellation cannot stop) or "loop"
    # (inline on the event loop).
    sync_runs_in: Literal["thread", "loop"] = "thread"
    # "thread" holds only from this release on: before it, sync tools ran inline on the loop.
    sync_thread_since: Release | None = None
    # What SIB101 advises instead of "make it async" where an async tool is not stopped either (crewai
    # cancels nothing in flight); "" keeps the rule's own advice.
    sync_fix: str = ""
    # Generic wrappers a tool receives its run context in -> the attribute that holds the context
    # object its type argument names (`ctx: RunContextWrapper[AppCtx]`, `ctx.context.db`).
    context_attrs: dict[str, str] = field(default_factory=dict)
    # Where the call that makes a tool gives its own time budget in seconds (`@function_tool(timeout=6)`):
    # the framework cancels the tool after that long (read by SIB401).
    budget: tuple[Param, ...] = ()
    # Per-call ids a tool receives: the run-context class -> its attribute that holds the id of this
    # tool call (`ctx.tool_call_id`), or "" when a parameter annotated with the class is the id
    # itself. The model mints a new id on every call, so it is never an idempotency key (SIB403).
    call_ids: dict[str, str] = field(default_factory=dict)
    # Markers of the parameters the framework fills in, not the model (`user_id: Annotated[str,
    # InjectedToolArg()]`, `state: Annotated[dict, InjectedState]`): a module using only these hands
    # its functions to agent code elsewhere, as one using a run-context type does.
    injected: tuple[str, ...] = ()
    # Where the function a tool runs receives the abort signal that cancels it (`execute(input, ctx,
    # details)`, `details.signal`): the framework then cancels siblings by aborting that signal, not by
    # cancelling a task, and a tool must observe it (siblint.analyses.signal_flow). None: task cancellation.
    signal: Param | None = None
    signal_attr: str = "signal"
    # Where a maker's function, or a tool class's run method, receives that holder when not at
    # `signal` (`new DynamicStructuredTool({ func })`: `func(input, runManager, config)`):
    # canonical maker or base class -> Param.
    signal_by_maker: dict[str, Param] = field(default_factory=dict)
    # What aborts that signal: "siblings" (a sibling's fatal failure, @openai/agents) or "run" (only the
    # caller's abort or a run deadline, `GroupMaker.deadlines`; a sibling's failure never does): then a
    # tool that ignores it is a hazard only where a group with a deadline runs it.
    signal_aborted_by: Literal["siblings", "run"] = "siblings"
    # A module-level dict under this name declares the module's own tool (`TOOL_SPEC = {"name": ...}`):
    # the function its "name" key names, else the function named after the module, is a tool.
    module_spec: str = ""
    # An object literal holding all these keys is a tool written without the maker (whose helper
    # only types it: the AI SDK's `{ description, inputSchema, execute }`), read as the maker's call
    # of it: (maker, required keys, keys of which one is needed).
    object_tool: tuple[str, tuple[str, ...], tuple[str, ...]] | None = None
    # Base classes whose instances, given to a group's `toolsets` parameter, bring the tools their
    # methods declare (`class Billing(Plugin)` with `@tool` methods, in `Agent(plugins=[Billing()])`).
    member_classes: tuple[str, ...] = ()
    # An instance of any class with tool methods brings them (semantic-kernel plugins are plain classes
    # whose methods carry `@kernel_function`), whatever its bases.
    any_class_members: bool = False
    # Attributes of a tool made of a function that run that function, or hand it out: another tool
    # calling `send_email.invoke({...})` or `send_email.func(to)` runs `send_email`'s body.
    runners: tuple[str, ...] = ()


@dataclass(frozen=True)
class GroupSpec:
    """Which calls offer tools to the model together (read by `siblint.model.groups`)."""

    makers: dict[str, GroupMaker] = field(default_factory=dict)
    # (constructor of the receiver, method) -> GroupMaker, e.g. agent.clone(tools=[...]); the
    # constructor may be a pattern (`agent_framework.*Client`: every chat client of the framework).
    methods: dict[tuple[str, str], GroupMaker] = field(default_factory=dict)
    # Attribute of a group object that holds its tools (`agent.tools = [...]`, `.append(t)`).
    tools_attr: str = ""
    # Methods of that attribute that add tools: method -> "append" (its first argument), "add" (the
    # items of its first argument) or "items" (every argument: JS `agent.tools.push(a, b)`).
    add_methods: dict[str, str] = field(default_factory=lambda: {"append": "append", "extend": "add"})
    fix: str = ""  # how SIB301 tells the user to fix a mix; formatted with victim=, fatal=
    # Hazard reasons (`siblint.analyses.cancellation`) whose effect completes before the run raises and whose
    # result the run keeps (the framework awaits those siblings and records them): they are SIB1xx
    # findings, but not SIB301 victims. Empty: every reason loses the record.
    kept_reasons: tuple[str, ...] = ()
    # Methods of a `GroupMaker.holder` object that add members: method -> where the plugin or tools go.
    holder_methods: dict[str, Param] = field(default_factory=dict)
    # Objects that run a group and have methods that stop the run at once, cancelling the calls in flight
    # (`ClaudeSDKClient(options).interrupt()`): constructor -> (where the group goes, the methods, the fix
    # SIB301 gives). A call of such a method on such an object made in the module acts as a run deadline.
    stoppers: dict[str, tuple[Param, tuple[str, ...], str]] = field(default_factory=dict)
    # Calls that run groups made elsewhere, with a deadline of their own (`AgentWorkflow(agents=[...])`).
    workflows: dict[str, WorkflowMaker] = field(default_factory=dict)

    def method_maker(self, built: str, method: str) -> GroupMaker | None:
        """The maker of `receiver.method(...)` for a receiver `built` constructs (see `methods`)."""
        found = self.methods.get((built, method))
        if found is None and built:
            found = next((maker for (pattern, name), maker in self.methods.items()
                          if name == method and "*" in pattern and fnmatchcase(built, pattern)), None)
        return found


@dataclass(frozen=True)
class PolicyLevel:
    """One level above the tool that sets a `LayeredPolicy`: a constructor, and where it is given the
    objects of the other levels it applies to (`Crew(agents=[...], tasks=[...])`, `Task(agent=a)`)."""

    maker: str  # canonical constructor
    links: tuple[Param, ...] = ()


@dataclass(frozen=True)
class LayeredPolicy:
    """A failure policy that the tool and several levels above it set, the most specific set one
    winning (read by `siblint.analyses.policy_levels`): the tool's own setting (a class attribute of a tool
    class, its constructor keyword, an assignment to the tool), then `levels` in order. A level
    applies to the objects it links to and to those that link to it (a task names its agent, a
    crew lists agents and tasks)."""

    param: Param  # the keyword (and class attribute / field) every level takes
    fatal_literals: tuple[object, ...]  # literal values that make the tool's failures fatal ("raise")
    fatal_members: tuple[str, ...]  # canonical enum members that do (`ToolFailurePolicy.RAISE`)
    levels: tuple[PolicyLevel, ...]  # most specific first
    label: str  # how messages name the setting
    fix: str = ""  # what SIB201 tells the user


@dataclass(frozen=True)
class FatalHook:
    """A registrar of a hook run around every tool call (a module-level decorator such as
    `@after_tool_call`, or a registration call): raising one of `exceptions` in the hook ends the
    run (read by `siblint.analyses.fatal_hooks`); any other exception is swallowed by the framework."""

    exceptions: tuple[str, ...]  # canonical names
    function: Param | None = None  # call form: where the hook is passed (decorators: the decorated function)
    # Only when this argument names one of these canonical values (`on(InterceptionPoint.POST_TOOL_CALL)`).
    point: tuple[Param, tuple[str, ...]] | None = None
    tools: Param | None = None  # only for the tools this argument names (a list of name strings)
    label: str = ""  # how messages name it; formatted with hook=, exception=
    fix: str = ""  # what SIB202 tells the user


@dataclass(frozen=True)
class FailureSpec:
    """Which settings make a tool's failure end the run (read by `siblint.analyses.fatality`), and which
    exceptions reach the model whatever the group's policy (read by `siblint.analyses.error_policy`)."""

    # Canonical callable name -> arguments that make its tools fatal.
    args: dict[str, tuple[FatalArg, ...]] = field(default_factory=dict)
    # Methods (called on an object built by a known constructor) -> fatal arguments.
    method_args: dict[tuple[str, str], tuple[FatalArg, ...]] = field(default_factory=dict)
    # Fields of a tool object that are fatal when assigned after creation (`t.timeout_behavior = ...`,
    # `setattr(t, "...", ...)`) or set through a copier (`dataclasses.replace(t, ...)`).
    fields: tuple[FatalArg, ...] = ()
    # Functions that set a tool's failure policy in place: canonical name -> (where the tool is
    # passed, the fatal arguments), e.g. set_function_tool_failure_error_function(t, None).
    setters: dict[str, tuple[Param, tuple[FatalArg, ...]]] = field(default_factory=dict)
    # Base classes whose `super().__init__(...)` in a subclass takes fatal arguments (custom MCP servers).
    super_init: dict[str, tuple[FatalArg, ...]] = field(default_factory=dict)
    # Agent-level settings inherited by the MCP servers of that agent unless the server sets the
    # same argument itself: group maker -> (agent-level FatalArgs, server param keyword).
    inherited_by_servers: dict[str, tuple[tuple[FatalArg, ...], str]] = field(default_factory=dict)
    # The attribute of a tool object that is its wrapped invoker (`t.on_invoke_tool`): passing
    # another tool's invoker carries that tool's own failure handling.
    invoker_attr: str = ""
    # A tool option under which these exceptions, raised by the tool, reach the model
    # (`handle_tool_error=True` -> ToolException): keyword -> exception names.
    visible_when: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # Exceptions that reach the model whatever the group's policy (`ModelRetry`).
    visible_exceptions: tuple[str, ...] = ()
    middlewares: dict[str, Middleware] = field(default_factory=dict)
    # Middleware constructors that can pass a tool's error on where the group would not (canonical
    # name -> ToolMiddleware); read from the group policy's `middleware` argument.
    tool_middlewares: dict[str, ToolMiddleware] = field(default_factory=dict)
    # A failure policy the tool and several levels above it set, the most specific winning.
    layered: LayeredPolicy | None = None
    # Hook registrars (canonical decorator or function name) whose hooks can end the run.
    hooks: dict[str, FatalHook] = field(default_factory=dict)
    # Exceptions that end the run when a tool raises them itself (canonical names), and what SIB202 advises.
    fatal_exceptions: tuple[str, ...] = ()
    fatal_exceptions_fix: str = ""


@dataclass(frozen=True)
class Wrapper:
    """A constructor that wraps a group, or another wrapper, into an object whose `run_methods` run
    it (`Runner(agent=root_agent)`, `App(root_agent=...)`, `Runner(app=app)`)."""

    wrapped: tuple[Param, ...]  # where the group or the inner wrapper is passed (the first present)
    plugins: Param | None = None  # where plugin objects are passed (`ErrorPolicy.plugin_handler`)


@dataclass(frozen=True)
class ConcurrencySpec:
    """What runs a group and what serialises its tool calls (read by `siblint.model.groups`)."""

    # Calls that run a group: canonical name -> (where the agent goes, where the run config goes).
    runners: dict[str, tuple[Param, Param]] = field(default_factory=dict)
    # Runner objects: a constructor whose config applies to every run of its run methods
    # (`new Runner({ toolExecution: {...} }).run(agent, input, options)`): constructor -> (where
    # its config goes, method -> (where the agent goes, where the per-run config goes)).
    runner_objects: dict[str, tuple[Param, dict[str, tuple[Param, Param]]]] = field(default_factory=dict)
    # A run config that serialises tool calls: keyword path to a concurrency cap of 1.
    cap: tuple[str, ...] = ()  # e.g. ("tool_execution", "max_function_tool_concurrency")
    # A group option that only asks the provider for one call per turn (it serialises nothing).
    hint: tuple[str, ...] = ()  # e.g. ("model_settings", "parallel_tool_calls")
    hint_note: str = ""  # what SIB301 adds when the hint is set
    # A tool option that makes the tool run alone (`sequential=True`): (keyword, literal).
    tool_serial: tuple[str, object] | None = None
    # Tool options (keywords or class attributes) that, set to anything but None, make every turn
    # that calls the tool run its calls one by one (`max_usage_count=3`).
    tool_serial_when_set: tuple[str, ...] = ()
    # Methods that run a group object (or an object derived from it by `derive_methods` or handed
    # to a `graph_builders` method): method -> where its run config goes.
    run_methods: dict[str, Param] = field(default_factory=dict)
    # Methods that return an object running the same tools (`builder.compile()`, `with_config`).
    derive_methods: tuple[str, ...] = ()
    # Methods that put a group into another object (`builder.add_node("tools", ToolNode(...))`).
    graph_builders: tuple[str, ...] = ()
    # Context managers under which a run serialises every tool call: canonical name or method
    # on the group object -> (argument, literal), e.g. parallel_tool_call_execution_mode("sequential").
    serial_contexts: dict[str, tuple[Param, object]] = field(default_factory=dict)
    wrappers: dict[str, Wrapper] = field(default_factory=dict)  # canonical constructor -> Wrapper
    # A run-config keyword path that, set to anything but None in a run of the group, moves its sync
    # tools into worker threads (where `ToolSpec.sync_runs_in` is "loop" otherwise), e.g.
    # ("tool_thread_pool_config",); and the path whose 1 makes those threads run one at a time
    # (serialising sync tools among themselves only; async tools still run beside them).
    sync_threads: tuple[str, ...] = ()
    sync_threads_cap: tuple[str, ...] = ()
    # Group options whose value, an instance of this constructor, serialises every tool call of the
    # group: keyword -> canonical constructor (`Agent(tool_executor=SequentialToolExecutor())`).
    serial_options: dict[str, str] = field(default_factory=dict)
    # Keyword / dict-key paths from the group maker whose literal serialises every tool call of the
    # group: path -> literal, e.g. ("client", "function_invocation_configuration",
    # "allow_concurrent_invocation") -> False. The object at the path's first step also counts when
    # the rest is set later by `<it>.<middle>.update({<last>: literal})`.
    serial_settings: dict[tuple[str, ...], object] = field(default_factory=dict)
    # When set, a tool runs beside others only when one of these keyword / dict-key paths from the call
    # that made it (its decorator's options) is literally True (claude-agent-sdk: the CLI runs together
    # only tools annotated `readOnlyHint=True`); any other member runs alone and is no group member.
    concurrent_when: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True)
class HookSpec:
    """Callbacks the framework runs around every tool call of a group, outside the tools' own error
    handling (read by `siblint.analyses.hooks`): one that raises ends the run, so it makes every member of
    the group fatal that it can fail (any call, for a hook run before the call; a call that can
    raise, for one run after it, which sees the call's exception). Empty: the framework has none."""

    # Event classes a callback is registered for -> when it runs around the tool call.
    events: dict[str, Literal["before", "after"]] = field(default_factory=dict)
    group: Param | None = None  # where the group maker takes callbacks or provider objects (`hooks=[...]`)
    # Where it takes objects whose class declares hooks (plugins, intervention handlers).
    objects: tuple[Param, ...] = ()
    # Methods that register one callback -> (callback, event type): on the group object, on its
    # registry attributes (`registries`), or on the registry a provider's `provider_method` is given.
    register: dict[str, tuple[Param, Param]] = field(default_factory=dict)
    # The same as decorators on such an object (`@kernel.filter(FilterTypes.AUTO_FUNCTION_INVOCATION)`):
    # method -> where the event type is given; the decorated function is the callback.
    register_decorators: dict[str, Param] = field(default_factory=dict)
    registries: tuple[str, ...] = ()
    provider_method: str = ""  # `register_hooks(self, registry)`
    decorators: tuple[str, ...] = ()  # make a method a hook for the event its parameter is annotated with
    # Base classes whose methods are called around each call -> method -> when; such a method also
    # ends the run when it can return None.
    handlers: dict[str, dict[str, Literal["before", "after"]]] = field(default_factory=dict)
    # A handler's class attribute (or property) under which its errors are not fatal: (name, literals).
    handler_safe: tuple[str, tuple[object, ...]] | None = None
    # A handler method that returns None is fatal (strands raises on it); False where None is the
    # method's normal result (a middleware's `process`).
    handler_none_fatal: bool = True
    # Decorators that make a plain function a hook for that event (`@function_middleware`).
    decorator_events: dict[str, Literal["before", "after"]] = field(default_factory=dict)
    # Only a `raise` of one of these (canonical names) ends the run; any other exception is the
    # call's own error, which the model sees. Empty: any `raise`.
    exceptions: tuple[str, ...] = ()
    noun: str = ""  # how messages name such a hook ("function middleware"); "": "before-call hook"
    # The event of a callback given at `group` whose annotation names none (a permission callback).
    group_event: Literal["before", "after"] | None = None
    # A callback that returns this (constructor canonical name, keyword, literal) ends the run
    # (`PermissionResultDeny(interrupt=True)`); when set, a `raise` alone is not fatal.
    fatal_return: tuple[str, str, object] | None = None
    fix: str = ""  # how SIB202 tells the user to report a failure instead of raising


@dataclass(frozen=True)
class NodeRetry:
    """A graph-builder method that adds a node with its own retry policy (`add_node`)."""

    # Where the node's runnable is given: the first of these present (`add_node(name, runnable)`,
    # then `add_node(runnable)`).
    runnable: tuple[Param, ...]
    policies: tuple[str, ...]  # keywords that take a retry policy (or a list of them)


@dataclass(frozen=True)
class RetryPolicyClass:
    """A retry policy object: how many attempts it makes and which exceptions it retries."""

    attempts: Param
    exceptions: Param | None = None
    default_attempts: int = 1


@dataclass(frozen=True)
class ToolRetry:
    """A middleware that re-runs a failed tool call (`ToolRetryMiddleware`)."""

    exceptions: Param | None = None  # absent: every Exception
    tools: Param | None = None  # absent: every tool of the agent
    retries: Param | None = None  # a literal 0 turns it off
    default_retries: int = 1


@dataclass(frozen=True)
class ModelRetry:
    """Runner-managed retry settings for model calls (`ModelRetrySettings`): a retry count that does
    nothing without a policy."""

    retries: Param
    policy: Param


@dataclass(frozen=True)
class RetrySpec:
    """What makes the framework run a tool, a node or a model call again (read by `siblint.analyses.retries`)."""

    # Graph builders (`StateGraph`), and their methods that return the builder (`add_node(...).add_edge(...)`).
    builders: tuple[str, ...] = ()
    chain_methods: tuple[str, ...] = ()
    node_methods: dict[str, NodeRetry] = field(default_factory=dict)
    # Builder methods that set the policy of every node without its own: method -> policy keywords.
    default_methods: dict[str, tuple[str, ...]] = field(default_factory=dict)
    policies: dict[str, RetryPolicyClass] = field(default_factory=dict)
    tool_middlewares: dict[str, ToolRetry] = field(default_factory=dict)
    model_settings: dict[str, ModelRetry] = field(default_factory=dict)
    # Settings objects a `ModelRetry` dict may be given to: constructor -> the keyword (`ModelSettings(retry={...})`).
    settings_holders: dict[str, str] = field(default_factory=dict)
    # Methods that merge settings objects (`a.resolve(b)`): settings that take part are not judged alone.
    settings_mergers: tuple[str, ...] = ()
    # Policies that retry the HTTP statuses they are given: canonical name -> where the statuses are.
    status_policies: dict[str, Param] = field(default_factory=dict)


@dataclass(frozen=True)
class Framework:
    name: str  # "openai-agents"
    import_roots: tuple[str, ...]  # `agents` for the OpenAI Agents SDK
    # Every spelling of a name -> its canonical name (`agents.tool.function_tool` -> `agents.function_tool`).
    aliases: dict[str, str] = field(default_factory=dict)
    tools: ToolSpec = ToolSpec()
    groups: GroupSpec = GroupSpec()
    failure: FailureSpec = FailureSpec()
    concurrency: ConcurrencySpec = ConcurrencySpec()
    retries: RetrySpec = RetrySpec()
    hooks: HookSpec = HookSpec()
    # The import line and decorator that spell the SIB1xx rule examples in this framework (the
    # OpenAI Agents SDK's `from agents import function_tool` / `@function_tool` is the original).
    example: tuple[str, str] | None = None
    # A statement appended to each of those examples (after its last line, so line numbers hold)
    # that makes the example's tools members of a group, and runs it as the examples assume, where
    # a tool needs more than its decorator (no decorator at all, or a run setting). Formatted with
    # tools= (the names of the example's tool functions, comma-separated).
    example_group: str = ""
    # The language its users write: "python" (libcst front end) or "js" (TypeScript/JavaScript,
    # siblint.js). Decides which files the pre-filter lets through for it.
    language: str = "python"

    def canonical(self, name: str) -> str:
        return self.aliases.get(name, name)
