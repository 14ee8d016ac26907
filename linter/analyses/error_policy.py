"""Default-fatal error policies: when a group ends the run on a tool's error, which members can fail.

In some frameworks (LangGraph's ToolNode, pydantic-ai) any exception a tool raises ends the run
unless the group turns it into a result the model sees. Which exceptions it turns is framework
data (`ErrorPolicy`, `Middleware`, `visible_exceptions`, `tool_visible_when`); this module reads it:

* `group_policy(group, facts, project)`: is the group fatal by default, and which tools and
  exception types its handler (`handle_tool_errors=`) or middleware make model-visible;
* `fatal_causes(tool, project, policy, framework)`: what in the tool's call graph
  (`siblint.model.callgraph`) can raise past that: an explicit `raise` of another exception, or an I/O
  call (network, file, database, subprocess, SDK client) outside a `try` whose handler catches
  `Exception` (or broader). A pure computation does not count;
* `is_serial(tool, framework)`: the tool runs alone (`sequential=True`), so it neither orphans nor
  is orphaned.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..common.diagnostics import Loc
from ..effects import can_fail, caught_by_its_library
from ..frameworks.spec import Framework, GroupMaker
from ..model.callgraph import BROAD, Visit, walk
from ..model.groups import Group, group_maker
from ..model.nested import agent_members
from ..model.project import ProjectIndex
from ..model.semantic import Scope, canonical, resolve_function
from ..model.tools import Tool
from ..model.versions import runs_current
from ..settings.config import Config
from ..syntax.facts import (
    Call,
    Const,
    FunctionFacts,
    Lambda,
    ModuleFacts,
    RaiseSite,
    Ref,
    Seq,
    Value,
)
from .fatality import (
    FatalReason,
    always_returns,
    function_always_returns,
    function_raises,
    plugin_methods,
    raises,
)

# Re-raising these is cancellation or shutdown passing through, not a tool failure.
NOT_FAILURES = frozenset({"CancelledError", "KeyboardInterrupt", "SystemExit", "GeneratorExit", "get_cancelled_exc_class"})


@dataclass(frozen=True)
class Cover:
    """Failures a group makes model-visible: for these tool names (None: every tool), these
    exception names (None: every Exception)."""

    tools: frozenset[str] | None
    exceptions: tuple[str, ...] | None


@dataclass(frozen=True)
class GroupPolicy:
    fatal_by_default: bool
    covers: tuple[Cover, ...] = ()

    def covers_all(self, tool: Tool) -> bool:
        return any(c.exceptions is None and _names_tool(c, tool) for c in self.covers)

    def covered(self, tool: Tool, exc: str) -> bool:
        return any(_names_tool(c, tool) and (c.exceptions is None or _matches(exc, c.exceptions)) for c in self.covers)


def _names_tool(cover: Cover, tool: Tool) -> bool:
    return cover.tools is None or tool.name in cover.tools or (bool(tool.binding) and tool.binding in cover.tools)


def _short(name: str) -> str:
    return name.rpartition(".")[2]


def _matches(exc: str, names: tuple[str, ...]) -> bool:
    """`exc` is one of `names`, or `names` holds Exception/BaseException (unknown errors included)."""
    return any(n in BROAD or (exc and _short(n) == _short(exc)) for n in names)


# ---- the group's policy -----------------------------------------------------------------------
def group_policy(group: Group, facts: ModuleFacts, project: ProjectIndex) -> GroupPolicy:
    """The error policy of `group` (made in `facts`), with what its handler and middleware cover."""
    maker: GroupMaker | None = group.maker
    node = _node_given_as_tools(group, facts)
    if node is not None:  # `createReactAgent({ tools: new ToolNode(tools, { handleToolErrors: false }) })`
        return group_policy(replace(group, call=node[0], maker=node[1]), facts, project)
    if maker is None or not maker.policy.fatal_by_default:
        return GroupPolicy(False)
    spec = maker.policy
    covers: list[Cover] = []
    handler = group.call.arg(spec.handler.position, spec.handler.keyword) if spec.handler is not None else None
    if handler is None and not runs_current(spec.fatal_since, facts.path, project):
        return GroupPolicy(False)  # the release the project pins returned every error to the model
    if spec.handler is not None:
        value = handler
        if value is None and spec.handler_default is not None:
            value = Const(spec.handler_default, group.call.loc)
        if spec.handler_returns:
            if value is not None and _returning(value, facts, group.scope, project):
                covers.append(Cover(None, None))
        else:
            cover = _handler_cover(value, spec.visible_values, spec.any_string, spec.fatal_values, facts, group.scope, project)
            if cover is not None:
                covers.append(cover)
    if spec.plugin_handler and _plugin_covers(group, spec.plugin_handler, facts, project):
        covers.append(Cover(None, None))
    if spec.middleware is not None:
        value = group.call.arg(spec.middleware.position, spec.middleware.keyword)
        covers.extend(_middleware_covers(group.framework, value, facts, group.scope, project))
    return GroupPolicy(True, tuple(covers))


def _node_given_as_tools(group: Group, facts: ModuleFacts) -> tuple[Call, GroupMaker] | None:
    """The tool node a group that has no policy of its own runs as given (LangGraph.js's
    `createReactAgent` runs a `ToolNode` passed as `tools` as it is, its `handleToolErrors` too),
    inline or by a name bound to it: its call and maker."""
    maker = group.maker
    if maker is None or maker.policy.fatal_by_default or maker.tools is None:
        return None
    where = Scope(facts, group.scope)
    value = group.call.arg(maker.tools.position, maker.tools.keyword)
    if isinstance(value, Ref) and "." not in value.text:
        value = where.value(value.text)
    made = group_maker(facts, value, group.scope) if isinstance(value, Call) else None
    if made is None or not made[1].policy.fatal_by_default:
        return None
    return value, made[1]  # type: ignore[return-value]


def _returning(value: Value, facts: ModuleFacts, scope: str, project: ProjectIndex) -> bool:
    """A handler that makes failures visible by returning a value: one callable, or a list tried in
    order, of which one returns a value on every path and does not raise."""
    where = Scope(facts, scope)
    if isinstance(value, Ref) and "." not in value.text and where.function(value) is None:
        value = where.value(value.text) or value
    if isinstance(value, Const):
        return False  # `None`
    items = value.items if isinstance(value, Seq) else (value,)
    return any(not (isinstance(i, Const) and i.value is None) and always_returns(facts, i, scope, project) for i in items)


def hook_reasons(group: Group, facts: ModuleFacts, project: ProjectIndex) -> list[FatalReason]:
    """Callbacks around every call of the group that raise (`before_tool_callback=`, a plugin's
    `before_tool_callback`): each makes every member's call fatal, whatever the member does."""
    if group.maker is None:
        return []
    spec = group.maker.policy
    out: list[FatalReason] = []
    where = Scope(facts, group.scope)
    for param in spec.raising_hooks:
        value = group.call.arg(param.position, param.keyword)
        if isinstance(value, Ref) and "." not in value.text and where.function(value) is None:
            value = where.value(value.text) or value
        for item in value.items if isinstance(value, Seq) else (() if value is None else (value,)):
            origin = raises(facts, item, group.scope, project)
            if origin is not None:
                out.append(FatalReason("handler_returns_none", f"{param.keyword} raises", facts.path, item.loc, origin=origin))
    for scope, item, method, fn in _plugin_objects(group, spec.plugin_hooks, facts, project):
        origin = function_raises(*fn)
        if origin is not None:
            out.append(FatalReason("handler_returns_none", f"plugin {method} raises", facts.path, item.loc, origin=origin))
    return out


_PluginMethod = tuple[str, Value, str, tuple[ModuleFacts, FunctionFacts]]


def _plugin_objects(group: Group, methods: tuple[str, ...], facts: ModuleFacts,
                    project: ProjectIndex) -> list[_PluginMethod]:
    """(scope, plugin object, method, (facts, function)) for the plugins of the group's wrappers."""
    out: list[_PluginMethod] = []
    for scope, call in group.wrappers:
        if not isinstance(call.func, Ref):
            continue
        spec = group.framework.concurrency.wrappers.get(canonical(call.func.name)[1])
        if spec is None or spec.plugins is None:
            continue
        value = call.arg(spec.plugins.position, spec.plugins.keyword)
        for method in methods:
            out.extend((scope, item, method, fn) for item, fn in plugin_methods(facts, value, scope, method, project))
    return out


def _plugin_covers(group: Group, method: str, facts: ModuleFacts, project: ProjectIndex) -> bool:
    """A plugin given to a wrapper of the group (`Runner(plugins=[ErrorPlugin()])`) whose `method`
    returns a value on every path and does not raise."""
    return any(function_always_returns(*fn) for _, _, _, fn in _plugin_objects(group, (method,), facts, project))


def _handler_cover(value: Value | None, visible: tuple[object, ...], any_string: bool, fatal: tuple[object, ...],
                   facts: ModuleFacts, scope: str, project: ProjectIndex) -> Cover | None:
    if value is None:
        return None
    if isinstance(value, Const):
        if value.value in fatal and type(value.value) in {type(v) for v in fatal}:
            return None
        if (value.value in visible and type(value.value) in {type(v) for v in visible}) or (
                any_string and isinstance(value.value, str)):
            return Cover(None, None)
        return None
    types = _exception_types(value, facts, scope, project)
    return Cover(None, types)


def _exception_types(value: Value | None, facts: ModuleFacts, scope: str, project: ProjectIndex) -> tuple[str, ...] | None:
    """An exception type or tuple -> its names; a callable -> what its first parameter's annotation
    names (None: every Exception, also for lambdas and what cannot be read)."""
    if isinstance(value, Ref) and "." not in value.text:
        bound = Scope(facts, scope).value(value.text)
        if bound is not None and not isinstance(bound, Ref):
            return _exception_types(bound, facts, scope, project)
    if isinstance(value, Seq):
        names: list[str] = []
        for item in value.items:
            if not isinstance(item, Ref):
                return None
            names.append(item.name)
        return tuple(names)
    if isinstance(value, Ref):
        fn = facts.functions.get(value.text) if "." not in value.text else None
        found = (facts, fn) if fn is not None else resolve_function(value.name, project, facts.path)
        if found is not None:
            annotations = found[1].param_annotations
            first = annotations[0] if annotations else ()
            return tuple(first) or None
        return (value.name,)  # an exception class
    return None


def _middleware_covers(fw: Framework, value: Value | None, facts: ModuleFacts, scope: str,
                       project: ProjectIndex) -> list[Cover]:
    where = Scope(facts, scope)
    if isinstance(value, Ref) and "." not in value.text:
        value = where.value(value.text)
    items = value.items if isinstance(value, Seq) else ()
    out: list[Cover] = []
    for item in items:
        if isinstance(item, Ref) and "." not in item.text:
            item = where.value(item.text) or item
        if not isinstance(item, Call) or not isinstance(item.func, Ref):
            continue
        _, canon = canonical(item.func.name)
        mw = fw.failure.middlewares.get(canon)
        if mw is None:
            continue
        if mw.fatal_when is not None:
            param, literals = mw.fatal_when
            v = item.arg(param.position, param.keyword)
            if isinstance(v, Const) and v.value in literals:
                continue
        exceptions: tuple[str, ...] | None = None
        if mw.exceptions is not None:
            v = item.arg(mw.exceptions.position, mw.exceptions.keyword)
            exceptions = _exception_types(v, facts, scope, project) if v is not None else None
            if isinstance(v, Lambda):
                exceptions = None  # a predicate: benefit of the doubt
        tools: frozenset[str] | None = None
        if mw.tools is not None:
            v = item.arg(mw.tools.position, mw.tools.keyword)
            if isinstance(v, Seq):
                tools = frozenset(
                    i.value if isinstance(i, Const) and isinstance(i.value, str) else (i.text if isinstance(i, Ref) else "")
                    for i in v.items
                )
        out.append(Cover(tools, exceptions))
    return out


# ---- what a member can raise ------------------------------------------------------------------
def is_serial(tool: Tool, framework: Framework, facts: ModuleFacts | None = None, instance: Call | None = None) -> bool:
    """The tool is declared to run alone (`sequential=True`), or to serialise every turn that calls it
    (`max_usage_count=3`): on the call that makes it, on a tool class's instantiation (`instance`),
    or as a class attribute of the tool class (given the class's module `facts`)."""
    conc = framework.concurrency
    wanted = ([conc.tool_serial[0]] if conc.tool_serial else []) + list(conc.tool_serial_when_set)
    for keyword in wanted:
        value = _serial_option(tool, keyword, facts, instance)
        if value is None or (isinstance(value, Const) and value.value is None):
            continue
        if keyword in conc.tool_serial_when_set:
            return True
        assert conc.tool_serial is not None
        literal = conc.tool_serial[1]
        if isinstance(value, Const) and value.value == literal and type(value.value) is type(literal):
            return True
    return False


def _serial_option(tool: Tool, keyword: str, facts: ModuleFacts | None, instance: Call | None) -> Value | None:
    for call in (instance, tool.options):
        value = call.kwarg(keyword) if call is not None else None
        if value is not None:
            return value
    if facts is not None and tool.class_name:
        return next((a.value for a in facts.assignments
                     if a.scope == tool.class_name and a.target == keyword and a.op == "="), None)
    return None


def _visible_names(tool: Tool, framework: Framework) -> tuple[str, ...]:
    names = list(framework.failure.visible_exceptions)
    if tool.options is not None:
        for keyword, excs in framework.failure.visible_when.items():
            v = tool.options.kwarg(keyword)
            if v is not None and not (isinstance(v, Const) and v.value in (None, False)):
                names.extend(excs)
    return tuple(names)


def fatal_causes(tool: Tool, project: ProjectIndex, policy: GroupPolicy, framework: Framework,
                 config: Config | None = None) -> list[FatalReason]:
    """What in `tool`'s body can end the run under `policy` (cause "default_fatal"), in walk order:
    a `raise` the group does not make model-visible, or I/O outside a `try` that catches
    `Exception` (or broader), in the tool or the project functions it calls."""
    if not policy.fatal_by_default or policy.covers_all(tool) or wrapped_in_a_guard(tool, project):
        return []
    found = walk(tool, project, config)
    if found is None:
        return []
    visible = _visible_names(tool, framework)
    out: list[FatalReason] = []
    seen: set[tuple[str, Loc]] = set()
    for event in found.events:
        if event.ctx.guarded:
            continue
        if isinstance(event, Visit):
            for rs in event.fn.raise_sites:
                exc = _raised(event.facts, rs, visible, policy, tool)
                if exc is not None and _short(exc) in event.ctx.caught:
                    continue  # a caller on this path catches it (`except ValueError:` around the call)
                if exc is not None and (event.facts.path, rs.loc) not in seen:
                    seen.add((event.facts.path, rs.loc))
                    out.append(FatalReason("default_fatal", f"raises {_short(exc) or 'an exception'}", event.facts.path, rs.loc))
            continue
        io = can_fail(event.call, event.scope) or _runs_an_agent(event.call, event.scope, project)
        if io and caught_by_its_library(event.call, event.scope, event.ctx.caught):
            continue
        if io and not policy.covered(tool, "") and (event.facts.path, event.call.loc) not in seen:
            seen.add((event.facts.path, event.call.loc))
            out.append(FatalReason("default_fatal", f"{io} outside a try/except Exception", event.facts.path, event.call.loc))
    return out


def wrapped_in_a_guard(tool: Tool, project: ProjectIndex) -> bool:
    """The tool's function is decorated (below the tool maker) by a project decorator that returns
    a wrapper whose body is one guarded `try` (`except Exception: return f"Error: {exc}"`): what the
    function raises comes back as a result, so the tool cannot end the run."""
    found = resolve_function(tool.function, project, tool.path) if tool.kind == "function" else None
    if found is None:
        return False
    facts, fn = found
    for decorator in fn.decorators:
        wrapped = resolve_function(decorator.name, project, facts.path) if isinstance(decorator, Ref) else None
        if wrapped is None:
            continue
        dfacts, dfn = wrapped
        returned = (dfacts.functions.get(f"{dfn.name}.{v.text}") for v in dfn.return_values if isinstance(v, Ref))
        if any(inner is not None and inner.guarded_body for inner in returned):
            return True
    return False


def _runs_an_agent(call: Call, scope: Scope, project: ProjectIndex) -> str:
    """`sub.invoke(...)` of an agent the project makes: its model call can raise (a rate limit, a
    timeout), as a chat model's does."""
    if agent_members(call, scope, project) is None:
        return ""
    return f"{call.func.text}() (another agent's run)" if isinstance(call.func, Ref) else "another agent's run"


def _is_visible(exc: str, facts: ModuleFacts, visible: tuple[str, ...]) -> bool:
    if _matches_exact(exc, visible):
        return True
    # `class Retry(ModelRetry)` in the project: one level of local subclassing.
    local = exc[len(facts.module) + 1:] if facts.module and exc.startswith(facts.module + ".") else exc
    return any(_matches_exact(canonical(b)[1], visible) for b in facts.classes.get(local, ()))


def _raised(facts: ModuleFacts, rs: RaiseSite, visible: tuple[str, ...], policy: GroupPolicy, tool: Tool) -> str | None:
    """The exception name when this `raise` can end the run, else None."""
    if rs.exc is None:
        # Bare `raise` re-raises what its handler caught.
        caught = rs.in_handler.catches if rs.in_handler is not None else ()
        if rs.in_handler is not None and not caught:
            return None  # `except <expression>:` we cannot read (`anyio.get_cancelled_exc_class()`)
        if caught and all(_is_visible(canonical(c)[1], facts, visible) or _short(c) in NOT_FAILURES for c in caught):
            return None
        exc = "/".join(_short(c) for c in caught if c != "*") or "the caught exception"
    else:
        target = rs.exc.func if isinstance(rs.exc, Call) else rs.exc
        exc = canonical(target.name)[1] if isinstance(target, Ref) else ""
        if exc and _is_visible(exc, facts, visible):
            return None
    for h in rs.guarded_by:
        # A handler that catches it returns or raises again; its own raises are judged on their own.
        if any(c in BROAD or (exc and _short(c) == _short(exc)) for c in h.catches):
            return None
    if exc and policy.covered(tool, exc):
        return None
    return exc or "an exception"


def _matches_exact(exc: str, names: tuple[str, ...]) -> bool:
    return bool(exc) and any(n == exc or _short(n) == _short(exc) for n in names)
