"""The shape of framework data: which names make tools and groups, and which arguments are fatal."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Param:
    """An argument by keyword and, where the signature allows it, by position (0-based, after self)."""

    keyword: str
    position: int | None = None


@dataclass(frozen=True)
class FatalArg:
    """An argument value that makes a tool's failure escape the run (and cancel its siblings)."""

    code: str  # the rule that reports it: SIB201, SIB203, ...
    param: Param
    values: tuple[object, ...]  # literal values that are fatal
    label: str  # how the message names it: 'failure_error_function=None'
    key: str | None = None  # when set, the argument is a dict and the fatal value sits under this key
    # When the argument is a callable: what it may do to be fatal. "returns_none" (can return None,
    # including `-> None` and falling off the end), "raises" (a `raise` in its body), "unguarded"
    # (its whole body is not one `try` whose `except Exception`-or-broader handler returns; an
    # unresolvable callable, or the argument missing from a constructor call, counts as unguarded).
    when: tuple[str, ...] = ()
    # Not fatal when this other argument of the same call / field of the same tool is also set to
    # something other than None (`_use_default_failure_error_function=False` with a handler given).
    unless: str | None = None
    # Fatal only when this other argument / field has this literal value (a handler that the SDK
    # only reads once `_use_default_failure_error_function=False`).
    only_with: tuple[str, object] | None = None


@dataclass(frozen=True)
class ToolMaker:
    """A callable that turns a function (or an object) into a tool."""

    kind: str  # "decorator": @name / @name(...) / name(fn, ...); "constructor": Name(...) builds one
    function: Param | None = None  # where the call form passes the function that runs
    name: Param | None = None  # where the tool's name is given, when not the function's name


@dataclass(frozen=True)
class GroupMaker:
    """A callable whose tools are offered to the model together: one concurrent group."""

    tools: Param | None = None
    servers: Param | None = None  # MCP servers whose tools join the group
    name: Param | None = None
    keeps_receiver_tools: bool = False  # `agent.clone()` without tools= keeps the same tools


@dataclass(frozen=True)
class Framework:
    name: str  # "openai-agents"
    import_roots: tuple[str, ...]  # `agents` for the OpenAI Agents SDK
    # Every spelling of a name -> its canonical name (`agents.tool.function_tool` -> `agents.function_tool`).
    aliases: dict[str, str] = field(default_factory=dict)
    # Canonical callable name -> arguments that make its tools fatal.
    fatal_args: dict[str, tuple[FatalArg, ...]] = field(default_factory=dict)
    # Methods (called on an object built by a known constructor) -> fatal arguments.
    # Key: (constructor canonical name, method name).
    fatal_method_args: dict[tuple[str, str], tuple[FatalArg, ...]] = field(default_factory=dict)

    tool_makers: dict[str, ToolMaker] = field(default_factory=dict)
    # (constructor of the receiver, method) -> ToolMaker, e.g. agent.as_tool(...)
    tool_methods: dict[tuple[str, str], ToolMaker] = field(default_factory=dict)
    # Constructors of MCP servers: their tools join the group of the agent they are given to.
    server_makers: tuple[str, ...] = ()
    group_makers: dict[str, GroupMaker] = field(default_factory=dict)
    group_methods: dict[tuple[str, str], GroupMaker] = field(default_factory=dict)
    # Fields of a tool object that are fatal when assigned after creation (`t.timeout_behavior = ...`,
    # `setattr(t, "...", ...)`) or set through a copy function (`dataclasses.replace(t, ...)`).
    fatal_fields: tuple[FatalArg, ...] = ()
    # Functions that set a tool's failure policy in place: canonical name -> (where the tool is
    # passed, the fatal arguments), e.g. set_function_tool_failure_error_function(t, None).
    tool_setters: dict[str, tuple[Param, tuple[FatalArg, ...]]] = field(default_factory=dict)
    # Functions that copy a tool with its policy (S11, S12): resolved name -> where the source is
    # passed, and whether the other keywords set fields (`dataclasses.replace`).
    copiers: dict[str, tuple[Param, bool]] = field(default_factory=dict)
    # Base classes whose `super().__init__(...)` in a subclass takes fatal arguments (custom MCP servers).
    fatal_super_init: dict[str, tuple[FatalArg, ...]] = field(default_factory=dict)
    # Agent-level settings inherited by the MCP servers of that agent unless the server sets the
    # same argument itself: (group maker canonical name) -> (agent-level FatalArgs, server param keyword).
    inherited_by_servers: dict[str, tuple[tuple[FatalArg, ...], str]] = field(default_factory=dict)
    # Attribute of a group object that holds its tools (`agent.tools = [...]`, `.append(t)`).
    group_tools_attr: str = "tools"
    # Calls that run a group: canonical name -> (where the agent goes, where the run config goes).
    runners: dict[str, tuple[Param, Param]] = field(default_factory=dict)
    # A run config that serialises tool calls: constructor -> keyword path to a concurrency cap of 1.
    concurrency_cap: tuple[str, ...] = ()  # e.g. ("tool_execution", "max_function_tool_concurrency")
    # A group option that only asks the provider for one call per turn (it serialises nothing).
    parallel_hint: tuple[str, ...] = ()  # e.g. ("model_settings", "parallel_tool_calls")
    # How SIB301 tells the user to fix a mix; formatted with victim=, fatal=.
    group_fix: str = ""

    def canonical(self, name: str) -> str:
        return self.aliases.get(name, name)
