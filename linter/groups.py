"""Concurrent tool groups: the tools one agent offers the model in a turn.

A group starts at a group maker (`Agent(tools=[...], mcp_servers=[...])`, `agent.clone(tools=...)`)
and changes with later mutations (`agent.tools = [...]`, `agent.tools.append(t)`,
`agent.tools += [...]`). Members are resolved by the semantic model (`siblint.semantic.elements`):
names, closures, lists, `*spread`, copies of lists, factories' return values, builder functions'
parameters and imports from other project modules. A group whose every run caps tool concurrency
at 1 is not concurrent.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from siblint.diagnostics import Loc
from siblint.facts import Call, Const, Mapping, ModuleFacts, Ref, Seq, Value
from siblint.frameworks import FRAMEWORKS
from siblint.frameworks.spec import Framework, GroupMaker, Param
from siblint.project import ProjectIndex
from siblint.semantic import (
    Scope,
    argument_values,
    calls_by_text,
    canonical,
    constructed_by,
    elements,
    framework_bases,
    project_class,
    resolve_function,
    result_names,
)
from siblint.tools import Tool, class_tool, plain_tool, tool_for_call, tool_named, tools_in, visible


@dataclass(frozen=True)
class Member:
    tool: Tool
    facts: ModuleFacts  # the module that makes the tool


@dataclass
class Snapshot:
    """The group's members after one statement, and where that statement is."""

    loc: Loc
    members: list[Member]


@dataclass
class Group:
    framework: Framework
    path: str
    name: str  # the agent's name= literal, else its variable, else "agent"
    binding: str
    scope: str
    call: Call
    snapshots: list[Snapshot] = field(default_factory=list)  # in source order
    parallel_hint_off: bool = False  # the group asks the provider for one call per turn (a hint only)
    capped: bool = False  # every run of this group serialises tool calls
    maker: GroupMaker | None = None
    # A fatal failure cancels the other calls of the turn (False: they run on, even awaiting ones).
    cancels_siblings: bool = True

    @property
    def fix(self) -> str:
        """How SIB301 tells the user to fix a mix (formatted with victim=, fatal=)."""
        return self.maker.fix if self.maker is not None and self.maker.fix else self.framework.groups.fix

    def members(self) -> list[Member]:
        """Every tool that is a member at some point, once."""
        return list({m.tool.key: m for snap in self.snapshots for m in snap.members}.values())


# ---- members ---------------------------------------------------------------------------------
def resolve_members(facts: ModuleFacts, value: Value | None, scope: str, project: ProjectIndex,
                    plain: str = "") -> list[Member]:
    """The tools a tools-list expression denotes, across modules. With `plain` (a framework name),
    a plain function in the list is a tool of that framework (frameworks that wrap callables themselves)."""
    out: list[Member] = []
    for where, item in elements(Scope(facts, scope), value, project):
        out.extend(_item_members(where, item, project, plain))
    return out


def _item_members(where: Scope, item: Value, project: ProjectIndex, plain: str) -> list[Member]:
    facts = where.facts
    if isinstance(item, Call):
        tool = tool_for_call(facts, item, project)
        if tool is not None:
            return [Member(tool, facts)]
        made = class_tool(facts, item, project)
        if made is not None:
            return [Member(*made)]
        # A group or toolset given as a member (`create_react_agent(m, ToolNode([...]))`): its tools.
        inner = _collection(item)
        return _collection_members(facts, item, inner, where.name, project) if inner is not None else []
    if isinstance(item, Ref):
        named = tool_named(facts, item.text, where.name, project)
        if named is None and "." in item.text and item.name != item.text:
            # `tools.charge_card` through `import app.tools as tools`.
            target = project.resolve(item.name)
            if target is not None and target[0] is not facts:
                named = tool_named(target[0], target[1], "", project)
        if named is not None:
            return [Member(*named)]
        if plain:
            fn = where.function(item)
            if fn is not None and not fn.class_name:
                return [Member(plain_tool(facts, fn, plain), facts)]
            found = resolve_function(item.name, project) if item.name != item.text else None
            if found is not None and not found[1].class_name:
                return [Member(plain_tool(found[0], found[1], plain), found[0])]
    return []


def _collection(call: Call) -> tuple[Framework, Param, str] | None:
    """(framework, where its tools go, plain functions allowed) for a toolset or nested group call."""
    if not isinstance(call.func, Ref):
        return None
    fw, canon = canonical(call.func.name)
    if fw is None:
        return None
    if canon in fw.tools.toolsets:
        return fw, fw.tools.toolsets[canon], fw.name
    maker = fw.groups.makers.get(canon)
    if maker is not None and maker.tools is not None:
        return fw, maker.tools, fw.name if maker.plain_functions_are_tools else ""
    return None


def _collection_members(facts: ModuleFacts, call: Call, found: tuple[Framework, Param, str], scope: str,
                        project: ProjectIndex, bound_to: str = "") -> list[Member]:
    """The tools a toolset (or nested group) call holds, plus those registered on its name by decorators."""
    _, where, plain = found
    members = resolve_members(facts, call.arg(where.position, where.keyword), scope, project, plain)
    bound_to = bound_to or _assigned_target(facts, call)[0]
    if bound_to:
        members += _registered_on(facts, bound_to, scope)
    return members


def _registered_on(facts: ModuleFacts, name: str, scope: str) -> list[Member]:
    """Tools registered by a method decorator on `name` as bound in `scope` (not another function's
    object of the same name)."""
    return [Member(t, facts) for t in _registered(facts).get(name, ()) if visible(facts, name, scope, t.scope)]


def _registered(facts: ModuleFacts) -> dict[str, list[Tool]]:
    """Receiver name -> tools registered on it by a method decorator (`@agent.tool`)."""

    def compute() -> dict[str, list[Tool]]:
        table: dict[str, list[Tool]] = {}
        for t in tools_in(facts):
            if t.receiver:
                table.setdefault(t.receiver, []).append(t)
        return table

    return facts.derived("groups.registered", compute)


def _toolset_members(facts: ModuleFacts, value: Value | None, scope: str, project: ProjectIndex) -> list[Member]:
    """`toolsets=[ts, FunctionToolset([...])]`: the tools of each toolset, across modules."""
    out: list[Member] = []
    for where, item in elements(Scope(facts, scope), value, project):
        bound_to = ""
        if isinstance(item, Ref) and "." not in item.text:
            bound = where.value(item.text)
            if isinstance(bound, Call):
                bound_to, item = item.text, bound
            elif item.name != item.text:
                target = project.resolve(item.name)
                if target is not None and target[0] is not where.facts:
                    out.extend(_toolset_members(target[0], Ref(target[1], target[1], item.loc), "", project))
                continue
        if isinstance(item, Call):
            found = _collection(item)
            if found is not None:
                out.extend(_collection_members(where.facts, item, found, where.name, project, bound_to=bound_to))
            else:
                out.extend(_class_members(where.facts, item, project))
    return out


def _class_members(facts: ModuleFacts, call: Call, project: ProjectIndex) -> list[Member]:
    """`Billing()` of a class deriving from a framework's member class (`Plugin`): its tool methods."""
    if not isinstance(call.func, Ref):
        return []
    cls = project_class(facts, call.func.name, project)
    if cls is None:
        return []
    other, name = cls
    bases = framework_bases(other, name, project)
    if not any(b in fw.tools.member_classes for fw in FRAMEWORKS for b in bases):
        return []
    return [Member(t, other) for t in tools_in(other) if t.scope == name]


# ---- makers and runs -------------------------------------------------------------------------
def _group_maker(facts: ModuleFacts, call: Call, scope: str) -> tuple[Framework, GroupMaker, str] | None:
    """(framework, maker, receiver) when `call` makes a group; receiver is set for methods (clone)."""
    if not isinstance(call.func, Ref):
        return None
    fw, canon = canonical(call.func.name)
    if fw is not None and canon in fw.groups.makers:
        return fw, fw.groups.makers[canon], ""
    receiver, _, method = call.func.text.rpartition(".")
    if receiver:
        built = constructed_by(Scope(facts, scope), Ref(receiver, receiver, call.func.loc))
        for fw in FRAMEWORKS:
            maker = fw.groups.methods.get((built, method))
            if maker is not None:
                return fw, maker, receiver
    return None


def _path(value: Value | None, keys: tuple[str, ...], facts: ModuleFacts, scope: str) -> Value | None:
    """Follow keyword arguments or dict keys: `RunConfig(tool_execution=X(max...=1))` or dicts."""
    where = Scope(facts, scope)
    for key in keys:
        if isinstance(value, Ref):
            value = where.value(value.text)
        if isinstance(value, Call):
            value = value.kwarg(key)
        elif isinstance(value, Mapping):
            value = value.get(key)
        else:
            return None
    return value


def _assigned_target(facts: ModuleFacts, call: Call) -> tuple[str, str]:
    """The (target, scope) the call's result is first assigned to, or ("", "")."""
    found = result_names(facts).get(call.loc)
    return found[0] if found else ("", "")


def _is_cap(value: Value | None) -> bool:
    return isinstance(value, Const) and value.value == 1 and not isinstance(value.value, bool)


def _runner_calls(facts: ModuleFacts, fw: Framework) -> dict[str, list[tuple[str, Call]]]:
    """Agent name -> the calls that run it (`Runner.run(agent, ...)`), indexed once per module."""

    def compute() -> dict[str, list[tuple[str, Call]]]:
        table: dict[str, list[tuple[str, Call]]] = {}
        for scope, call in facts.all_calls():
            if not isinstance(call.func, Ref):
                continue
            spec = fw.concurrency.runners.get(canonical(call.func.name)[1])
            if spec is None:
                continue
            agent = call.arg(spec[0].position, spec[0].keyword)
            if isinstance(agent, Ref):
                table.setdefault(agent.text, []).append((scope, call))
        return table

    return facts.derived(f"groups.runner_calls.{fw.name}", compute)


def _method_runs(facts: ModuleFacts, fw: Framework) -> dict[str, list[tuple[str, Call, tuple[Call, ...]]]]:
    """Object name -> (scope, call, context managers around it) of `name.invoke(...)`-style runs."""

    def compute() -> dict[str, list[tuple[str, Call, tuple[Call, ...]]]]:
        table: dict[str, list[tuple[str, Call, tuple[Call, ...]]]] = {}
        methods = fw.concurrency.run_methods
        if not methods:
            return table
        for fn in facts.functions.values():
            for site in fn.calls:
                if isinstance(site.call.func, Ref):
                    head, _, method = site.call.func.text.rpartition(".")
                    if head and method in methods:
                        table.setdefault(head, []).append((fn.name, site.call, site.with_items))
        for call in facts.module_calls:
            if isinstance(call.func, Ref):
                head, _, method = call.func.text.rpartition(".")
                if head and method in methods:
                    table.setdefault(head, []).append(("", call, ()))
        return table

    return facts.derived(f"groups.method_runs.{fw.name}", compute)


def _derivations(facts: ModuleFacts, fw: Framework) -> tuple[dict[str, list[str]], dict[object, list[str]]]:
    """Indexes for `_aliases`: name -> names derived from it (`graph = builder.compile()`), and a
    graph-builder argument (a name or a call's location) -> the holders it was added to."""

    def compute() -> tuple[dict[str, list[str]], dict[object, list[str]]]:
        derived: dict[str, list[str]] = {}
        for a in facts.assignments:
            v = a.value
            if a.op == "=" and isinstance(v, Call) and isinstance(v.func, Ref):
                head, _, method = v.func.text.rpartition(".")
                if method in fw.concurrency.derive_methods and head:
                    derived.setdefault(head, []).append(a.target)
        holders: dict[object, list[str]] = {}
        for builder in fw.concurrency.graph_builders:
            for texts in (t for t in calls_by_text(facts) if t.rpartition(".")[2] == builder):
                for _, other in calls_by_text(facts)[texts]:
                    holder = texts.rpartition(".")[0]
                    for arg in other.args:
                        holders.setdefault(arg.text if isinstance(arg, Ref) else arg.loc, []).append(holder)
        return derived, holders

    return facts.derived(f"groups.derivations.{fw.name}", compute)


def _aliases(facts: ModuleFacts, fw: Framework, call: Call, target: str) -> set[str]:
    """Names that run the group's tools: its binding, a graph it was added to (`builder.add_node(...,
    group)`), and objects derived from those (`graph = builder.compile()`)."""
    derived, holders = _derivations(facts, fw)
    names = {target} if target else set()
    names.update(holders.get(call.loc, ()))
    if target:
        names.update(holders.get(target, ()))
    todo = list(names)
    while todo:
        for new in derived.get(todo.pop(), ()):
            if new not in names:
                names.add(new)
                todo.append(new)
    return names


def _serial_context(fw: Framework, cm: Call) -> bool:
    if not isinstance(cm.func, Ref):
        return False
    _, canon = canonical(cm.func.name)
    contexts = fw.concurrency.serial_contexts
    spec = contexts.get(canon) or contexts.get(cm.func.text.rpartition(".")[2])
    if spec is None:
        return False
    value = cm.arg(spec[0].position, spec[0].keyword)
    return isinstance(value, Const) and value.value == spec[1]


def _is_capped(facts: ModuleFacts, fw: Framework, agent_binding: str, call: Call | None = None) -> bool:
    """True when the agent is run in this module and every run caps tool concurrency at 1 (a run
    config with the framework's cap, or a serialising context manager around the run)."""
    if not agent_binding and call is None:
        return False
    conc = fw.concurrency
    seen = False
    for scope, run in _runner_calls(facts, fw).get(agent_binding, ()) if agent_binding else ():
        seen = True
        config_param = conc.runners[canonical(run.func.name)[1] if isinstance(run.func, Ref) else ""][1]
        if not conc.cap or not _is_cap(_path(run.arg(config_param.position, config_param.keyword), conc.cap, facts, scope)):
            return False
    if conc.run_methods and call is not None:
        runs = _method_runs(facts, fw)
        for name in _aliases(facts, fw, call, agent_binding):
            for scope, run, withs in runs.get(name, ()):
                seen = True
                if any(_serial_context(fw, cm) for cm in withs):
                    continue
                param = conc.run_methods[run.func.text.rpartition(".")[2]] if isinstance(run.func, Ref) else None
                value = run.arg(param.position, param.keyword) if param is not None else None
                if not conc.cap or not _is_cap(_path(value, conc.cap, facts, scope)):
                    return False
    return seen


def _serial_option(facts: ModuleFacts, fw: Framework, call: Call, scope: str) -> bool:
    """The group maker is given an option that serialises its calls (`tool_executor=SequentialToolExecutor()`)."""
    where = Scope(facts, scope)
    return any(constructed_by(where, call.kwarg(keyword)) == constructor
               for keyword, constructor in fw.concurrency.serial_options.items())


def _inside(inner: Loc, outer: Loc) -> bool:
    return (outer.line, outer.col) <= (inner.line, inner.col) and (inner.end_line, inner.end_col) <= (outer.end_line, outer.end_col)


def _cancels(call: Call, maker: GroupMaker) -> bool:
    for keyword, literal in maker.no_cancel_when:
        value = call.kwarg(keyword)
        if isinstance(value, Const) and value.value == literal:
            return False
    return maker.cancels_siblings


def groups_in(facts: ModuleFacts, project: ProjectIndex) -> list[Group]:
    """Every group the module makes, with its members after each mutation."""
    groups: list[Group] = []
    made_here = [(scope, call, _group_maker(facts, call, scope)) for scope, call in facts.all_calls()]
    outer_calls = sorted((call.loc for _, call, made in made_here if made is not None),
                         key=lambda loc: (loc.line, loc.col))
    for scope, call, made in made_here:
        if made is None:
            continue
        fw, maker, receiver = made
        if maker.nested_in_groups and _nested(call.loc, outer_calls):
            continue  # `create_react_agent(model, ToolNode([...]))`: a member list, not a group of its own
        tools_value = call.arg(maker.tools.position, maker.tools.keyword) if maker.tools else None
        servers_value = call.arg(maker.servers.position, maker.servers.keyword) if maker.servers else None
        toolsets_value = call.arg(maker.toolsets.position, maker.toolsets.keyword) if maker.toolsets else None
        if receiver and maker.keeps_receiver_tools and tools_value is None and servers_value is None:
            continue  # `agent.clone()` keeps the receiver's tools: the same group
        target, _ = _assigned_target(facts, call)
        name_value = call.arg(maker.name.position, maker.name.keyword) if maker.name else None
        name = name_value.value if isinstance(name_value, Const) and isinstance(name_value.value, str) else (target or "agent")
        plain = fw.name if maker.plain_functions_are_tools else ""
        members = (resolve_members(facts, tools_value, scope, project, plain=plain)
                   + resolve_members(facts, servers_value, scope, project)
                   + _toolset_members(facts, toolsets_value, scope, project))
        if target and "." not in target:
            # `@agent.tool` on this group's name: registered before any run, so members from the start.
            members += _registered_on(facts, target, scope)
        anchor = tools_value.loc if tools_value is not None else (servers_value.loc if servers_value is not None else call.loc)
        snapshots = _per_call_site(facts, tools_value, scope, project, plain) or [Snapshot(anchor, members)]
        group = Group(fw, facts.path, name, target, scope, call, snapshots, maker=maker,
                      cancels_siblings=_cancels(call, maker))
        hint = _path(call, fw.concurrency.hint, facts, scope) if fw.concurrency.hint else None
        group.parallel_hint_off = isinstance(hint, Const) and hint.value is False
        group.capped = _is_capped(facts, fw, target, call) or _serial_option(facts, fw, call, scope)
        _apply_mutations(facts, group, project)
        groups.append(group)
    return groups


def _per_call_site(facts: ModuleFacts, tools: Value | None, scope: str, project: ProjectIndex,
                   plain: str) -> list[Snapshot]:
    """A builder function's tools parameter (`def build(m, tools): return Agent(tools=tools)`): one
    group per call of the builder, each with the tools that call passes, anchored where it passes
    them (different calls build different agents; their tools never run together)."""
    if not isinstance(tools, Ref) or "." in tools.text:
        return []
    where = Scope(facts, scope)
    param = where.param(tools.text)
    if param is None:
        return []
    return [Snapshot(arg.loc, resolve_members(caller.facts, arg, caller.name, project, plain))
            for caller, arg in argument_values(where, param[0], param[1], project)]


def _nested(loc: Loc, outer: list[Loc]) -> bool:
    """Is `loc` inside another group maker's call (sorted by start)?"""
    return any(o != loc and _inside(loc, o) for o in outer if (o.line, o.col) <= (loc.line, loc.col))


def _apply_mutations(facts: ModuleFacts, group: Group, project: ProjectIndex) -> None:
    """`agent.tools = [...]`, `agent.tools += [...]`, `agent.tools.append(t)` / `.extend([...])`."""
    if not group.binding or not group.framework.groups.tools_attr:
        return
    attr = f"{group.binding}.{group.framework.groups.tools_attr}"
    events: list[tuple[Loc, str, Value]] = []
    for a in _assignments_to(facts).get(attr, ()):
        if a.loc > group.call.loc:
            events.append((a.loc, "set" if a.op == "=" else "add", a.value))
    called = calls_by_text(facts)
    for method, op in (("append", "append"), ("extend", "add")):
        for _, call in called.get(f"{attr}.{method}", ()):
            if call.loc > group.call.loc and call.args:
                value = Seq((call.args[0],), call.loc) if op == "append" else call.args[0]
                events.append((call.loc, "add", value))
    for loc, op, value in sorted(events, key=lambda e: e[0]):
        added = resolve_members(facts, value, group.scope, project)
        before = group.snapshots[-1].members if op == "add" else []
        group.snapshots.append(Snapshot(loc, before + added))


def _assignments_to(facts: ModuleFacts) -> dict[str, list]:
    def compute() -> dict[str, list]:
        table: dict[str, list] = {}
        for a in facts.assignments:
            if a.op in ("=", "+="):
                table.setdefault(a.target, []).append(a)
        return table

    return facts.derived("groups.assignments_to", compute)
