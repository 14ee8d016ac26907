"""Concurrent tool groups: the tools one agent offers the model in a turn.

A group starts at a group maker (`Agent(tools=[...], mcp_servers=[...])`, `agent.clone(tools=...)`)
and changes with later mutations (`agent.tools = [...]`, `agent.tools.append(t)`,
`agent.tools += [...]`). Members are resolved through names, lists, `*spread`, and imports from
other project modules. A group whose every run caps tool concurrency at 1 is not concurrent.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from siblint.diagnostics import Loc
from siblint.facts import Assignment, Call, Const, FunctionFacts, Mapping, ModuleFacts, Ref, Seq, Starred, Value
from siblint.frameworks import FRAMEWORKS
from siblint.frameworks.spec import Framework, GroupMaker, Param
from siblint.model import binding, canonical, constructed_by
from siblint.project import ProjectIndex
from siblint.fatality import copies_in, tool_named
from siblint.tools import Tool, local_function, tools_in

# How many name hops (bindings, imports, list spreads) member resolution follows.
MAX_DEPTH = 8


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


def _tool_for_call(facts: ModuleFacts, call: Call, project: ProjectIndex) -> Tool | None:
    """The tool an inline call makes: `function_tool(fn)`, `FunctionTool(...)`, `copy.copy(t)`."""
    for t in (*tools_in(facts), *copies_in(facts, project)):
        if t.options is not None and t.options.loc == call.loc:
            return t
    return None


def resolve_members(facts: ModuleFacts, value: Value | None, scope: str, project: ProjectIndex,
                    depth: int = 0, plain: str = "") -> list[Member]:
    """The tools a tools-list expression denotes, across modules. With `plain` (a framework name),
    a plain function in the list is a tool of that framework (frameworks that wrap callables themselves)."""
    if value is None or depth > MAX_DEPTH:
        return []
    if isinstance(value, Seq):
        return [m for item in value.items for m in resolve_members(facts, item, scope, project, depth + 1, plain)]
    if isinstance(value, Starred):
        return resolve_members(facts, value.value, scope, project, depth + 1, plain)
    if isinstance(value, Call):
        tool = _tool_for_call(facts, value, project)
        if tool is not None:
            return [Member(tool, facts)]
        made = _class_tool(facts, value, project)
        if made is not None:
            return [made]
        # A group or toolset given as a member (`create_react_agent(m, ToolNode([...]))`): its tools.
        inner = _collection(facts, value)
        if inner is not None:
            return _collection_members(facts, value, inner, scope, project, depth + 1)
        return []
    if isinstance(value, Ref):
        named = tool_named(facts, value.text, scope, project)
        if named is not None:
            return [Member(*named)]
        bound = binding(facts, value.text, scope)
        if bound is not None:
            return resolve_members(facts, bound, scope, project, depth + 1, plain)
        if value.name != value.text or "." in value.name:
            found = project.resolve(value.name)
            if found is not None:
                other, attr = found
                return resolve_members(other, Ref(attr, attr, value.loc), "", project, depth + 1, plain)
        if plain and "." not in value.text:
            fn = local_function(facts, value, scope)
            if fn is not None and not fn.class_name:
                return [Member(_plain_tool(facts, fn, plain), facts)]
    return []


def _plain_tool(facts: ModuleFacts, fn: FunctionFacts, framework: str) -> Tool:
    prefix = f"{facts.module}." if facts.module else ""
    return Tool(fn.name.rsplit(".", 1)[-1], framework, "function", facts.path, facts.module, fn.loc, prefix + fn.name,
                None, fn.name if "." not in fn.name else "", fn.name.rpartition(".")[0])


def _class_tool(facts: ModuleFacts, call: Call, project: ProjectIndex) -> Member | None:
    """`Search()` where `Search` subclasses a framework's tool base class, here or in another module."""
    if not isinstance(call.func, Ref):
        return None
    where: tuple[ModuleFacts, str] | None = (facts, call.func.text) if call.func.text in facts.classes else None
    if where is None and call.func.name != call.func.text:
        where = project.resolve(call.func.name)
    if where is None:
        return None
    other, cls = where
    for tool in tools_in(other):
        if tool.class_name and tool.class_name == cls:
            return Member(tool, other)
    return None


def _collection(facts: ModuleFacts, call: Call) -> tuple[Framework, Param, str] | None:
    """(framework, where its tools go, plain functions allowed) for a toolset or nested group call."""
    if not isinstance(call.func, Ref):
        return None
    fw, canon = canonical(call.func.name)
    if fw is None:
        return None
    if canon in fw.toolset_makers:
        return fw, fw.toolset_makers[canon], fw.name
    maker = fw.group_makers.get(canon)
    if maker is not None and maker.tools is not None:
        return fw, maker.tools, fw.name if maker.plain_functions_are_tools else ""
    return None


def _collection_members(facts: ModuleFacts, call: Call, found: tuple[Framework, Param, str], scope: str,
                        project: ProjectIndex, depth: int, bound_to: str = "") -> list[Member]:
    """The tools a toolset (or nested group) call holds, plus those registered on its name by decorators."""
    _, where, plain = found
    members = resolve_members(facts, call.arg(where.position, where.keyword), scope, project, depth, plain)
    bound_to = bound_to or _assigned_target(facts, call)[0]
    if bound_to:
        members += [Member(t, facts) for t in tools_in(facts) if t.receiver and t.receiver == bound_to]
    return members


def _toolset_members(facts: ModuleFacts, value: Value | None, scope: str, project: ProjectIndex,
                     depth: int = 0) -> list[Member]:
    """`toolsets=[ts, FunctionToolset([...])]`: the tools of each toolset, across modules."""
    if value is None or depth > MAX_DEPTH:
        return []
    if isinstance(value, Seq):
        return [m for item in value.items for m in _toolset_members(facts, item, scope, project, depth + 1)]
    if isinstance(value, Starred):
        return _toolset_members(facts, value.value, scope, project, depth + 1)
    if isinstance(value, Call):
        found = _collection(facts, value)
        return _collection_members(facts, value, found, scope, project, depth + 1) if found is not None else []
    if isinstance(value, Ref) and "." not in value.text:
        bound = binding(facts, value.text, scope)
        if isinstance(bound, Call):
            found = _collection(facts, bound)
            if found is not None:
                return _collection_members(facts, bound, found, scope, project, depth + 1, bound_to=value.text)
        if bound is not None:
            return _toolset_members(facts, bound, scope, project, depth + 1)
        target = facts.imports.get(value.text)
        resolved = project.resolve(target) if target else None
        if resolved is not None and resolved[0] is not facts:
            other, attr = resolved
            return _toolset_members(other, Ref(attr, attr, value.loc), "", project, depth + 1)
    return []


def _group_maker(facts: ModuleFacts, call: Call, scope: str) -> tuple[Framework, GroupMaker, str] | None:
    """(framework, maker, receiver) when `call` makes a group; receiver is set for methods (clone)."""
    if not isinstance(call.func, Ref):
        return None
    fw, canon = canonical(call.func.name)
    if fw is not None and canon in fw.group_makers:
        return fw, fw.group_makers[canon], ""
    receiver, _, method = call.func.text.rpartition(".")
    if receiver:
        built = constructed_by(facts, binding(facts, receiver, scope), scope)
        for fw in FRAMEWORKS:
            maker = fw.group_methods.get((built, method))
            if maker is not None:
                return fw, maker, receiver
    return None


def _path(value: Value | None, keys: tuple[str, ...], facts: ModuleFacts, scope: str) -> Value | None:
    """Follow keyword arguments or dict keys: `RunConfig(tool_execution=X(max...=1))` or dicts."""
    for key in keys:
        if isinstance(value, Ref):
            value = binding(facts, value.text, scope)
        if isinstance(value, Call):
            value = value.kwarg(key)
        elif isinstance(value, Mapping):
            value = value.get(key)
        else:
            return None
    return value


def _assigned_target(facts: ModuleFacts, call: Call) -> tuple[str, str]:
    """The (target, scope) the call's result is first assigned to, or ("", "")."""

    def compute() -> dict[Loc, tuple[str, str]]:
        table: dict[Loc, tuple[str, str]] = {}
        for a in facts.assignments:
            if isinstance(a.value, Call) and a.op == "=":
                table.setdefault(a.value.loc, (a.target, a.scope))
        return table

    return facts.derived("groups.assigned_target", compute).get(call.loc, ("", ""))


def _runs(facts: ModuleFacts, fw: Framework) -> list[tuple[str, Call]]:
    """Calls that run a group of `fw` (`Runner.run(agent, ...)`, `graph.invoke(...)`)."""

    def compute() -> list[tuple[str, Call]]:
        return [(scope, call) for scope, call in facts.all_calls()
                if isinstance(call.func, Ref) and canonical(call.func.name)[1] in fw.runners]

    return facts.derived(f"groups.runs.{fw.name}", compute)


def _aliases(facts: ModuleFacts, fw: Framework, call: Call, target: str) -> set[str]:
    """Names that run the group's tools: its binding, a graph it was added to (`builder.add_node(...,
    group)`), and objects derived from those (`graph = builder.compile()`)."""
    names = {target} if target else set()
    for _, other in facts.all_calls():
        if isinstance(other.func, Ref) and other.func.text.rpartition(".")[2] in fw.graph_builders:
            holder = other.func.text.rpartition(".")[0]
            if holder and any(a.loc == call.loc or (isinstance(a, Ref) and a.text in names) for a in other.args):
                names.add(holder)
    for _ in range(4):  # derivation chains: builder -> compile() -> with_config()
        grew = False
        for a in facts.assignments:
            v = a.value
            if a.op == "=" and isinstance(v, Call) and isinstance(v.func, Ref) and a.target not in names:
                head, _, method = v.func.text.rpartition(".")
                if method in fw.derive_methods and head in names:
                    names.add(a.target)
                    grew = True
        if not grew:
            break
    return names


def _serial_context(fw: Framework, cm: Call) -> bool:
    if not isinstance(cm.func, Ref):
        return False
    _, canon = canonical(cm.func.name)
    spec = fw.serial_contexts.get(canon) or fw.serial_contexts.get(cm.func.text.rpartition(".")[2])
    if spec is None:
        return False
    value = cm.arg(spec[0].position, spec[0].keyword)
    return isinstance(value, Const) and value.value == spec[1]


def _is_capped(facts: ModuleFacts, fw: Framework, agent_binding: str, call: Call | None = None) -> bool:
    """True when the agent is run in this module and every run caps tool concurrency at 1 (a run
    config with the framework's cap, or a serialising context manager around the run)."""
    if not agent_binding and call is None:
        return False
    seen = False
    for scope, run in _runs(facts, fw):
        agent_param, config_param = fw.runners[constructed_name(run)]
        agent = run.arg(agent_param.position, agent_param.keyword)
        if not (isinstance(agent, Ref) and agent.text == agent_binding and agent_binding):
            continue
        seen = True
        if not fw.concurrency_cap:
            return False
        cap = _path(run.arg(config_param.position, config_param.keyword), fw.concurrency_cap, facts, scope)
        if not (isinstance(cap, Const) and cap.value == 1 and not isinstance(cap.value, bool)):
            return False
    if fw.run_methods and call is not None:
        names = _aliases(facts, fw, call, agent_binding)
        for fn in facts.functions.values():
            for site in fn.calls:
                run = site.call
                if not isinstance(run.func, Ref):
                    continue
                head, _, method = run.func.text.rpartition(".")
                if head not in names or method not in fw.run_methods:
                    continue
                seen = True
                if any(_serial_context(fw, cm) for cm in site.with_items):
                    continue
                param = fw.run_methods[method]
                cap = _path(run.arg(param.position, param.keyword), fw.concurrency_cap, facts, fn.name) if fw.concurrency_cap else None
                if not (isinstance(cap, Const) and cap.value == 1 and not isinstance(cap.value, bool)):
                    return False
        for run in facts.module_calls:
            if isinstance(run.func, Ref) and run.func.text.rpartition(".")[0] in names \
                    and run.func.text.rpartition(".")[2] in fw.run_methods:
                param = fw.run_methods[run.func.text.rpartition(".")[2]]
                seen = True
                cap = _path(run.arg(param.position, param.keyword), fw.concurrency_cap, facts, "") if fw.concurrency_cap else None
                if not (isinstance(cap, Const) and cap.value == 1 and not isinstance(cap.value, bool)):
                    return False
    return seen


def constructed_name(call: Call) -> str:
    return canonical(call.func.name)[1] if isinstance(call.func, Ref) else ""


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
    outer_calls = [call for _, call, made in made_here if made is not None]
    for scope, call, made in made_here:
        if made is None:
            continue
        fw, maker, receiver = made
        if maker.nested_in_groups and any(o is not call and _inside(call.loc, o.loc) for o in outer_calls):
            continue  # `create_react_agent(model, ToolNode([...]))`: a member list, not a group of its own
        tools_value = call.arg(maker.tools.position, maker.tools.keyword) if maker.tools else None
        servers_value = call.arg(maker.servers.position, maker.servers.keyword) if maker.servers else None
        toolsets_value = call.arg(maker.toolsets.position, maker.toolsets.keyword) if maker.toolsets else None
        if receiver and tools_value is None and servers_value is None:
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
            members += [Member(t, facts) for t in tools_in(facts) if t.receiver == target]
        anchor = tools_value.loc if tools_value is not None else (servers_value.loc if servers_value is not None else call.loc)
        group = Group(fw, facts.path, name, target, scope, call, [Snapshot(anchor, members)], maker=maker,
                      cancels_siblings=_cancels(call, maker))
        hint = _path(call, fw.parallel_hint, facts, scope) if fw.parallel_hint else None
        group.parallel_hint_off = isinstance(hint, Const) and hint.value is False
        group.capped = _is_capped(facts, fw, target, call)
        _apply_mutations(facts, group, project)
        groups.append(group)
    return groups


def _by_target(facts: ModuleFacts) -> tuple[dict[str, list[Assignment]], dict[str, list[Call]]]:
    """Assignments by target text and calls by callee text, indexed once per module."""

    def compute() -> tuple[dict[str, list[Assignment]], dict[str, list[Call]]]:
        assigned: dict[str, list[Assignment]] = {}
        for a in facts.assignments:
            assigned.setdefault(a.target, []).append(a)
        called: dict[str, list[Call]] = {}
        for _, call in facts.all_calls():
            if isinstance(call.func, Ref):
                called.setdefault(call.func.text, []).append(call)
        return assigned, called

    return facts.derived("groups.by_target", compute)


def _apply_mutations(facts: ModuleFacts, group: Group, project: ProjectIndex) -> None:
    """`agent.tools = [...]`, `agent.tools += [...]`, `agent.tools.append(t)` / `.extend([...])`."""
    if not group.binding or not group.framework.group_tools_attr:
        return
    attr = f"{group.binding}.{group.framework.group_tools_attr}"
    assigned, called = _by_target(facts)
    events: list[tuple[Loc, str, Value]] = []
    for a in assigned.get(attr, ()):
        if a.loc > group.call.loc:
            events.append((a.loc, "set" if a.op == "=" else "add", a.value))
    for method, op in (("append", "append"), ("extend", "add")):
        for call in called.get(f"{attr}.{method}", ()):
            if call.loc > group.call.loc and call.args:
                value = Seq((call.args[0],), call.loc) if op == "append" else call.args[0]
                events.append((call.loc, "add", value))
    for loc, op, value in sorted(events, key=lambda e: e[0]):
        added = resolve_members(facts, value, group.scope, project)
        before = group.snapshots[-1].members if op == "add" else []
        group.snapshots.append(Snapshot(loc, before + added))
