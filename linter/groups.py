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
from siblint.facts import Call, Const, Mapping, ModuleFacts, Ref, Seq, Starred, Value
from siblint.frameworks import FRAMEWORKS
from siblint.frameworks.spec import Framework, GroupMaker
from siblint.model import binding, canonical, constructed_by
from siblint.project import ProjectIndex
from siblint.fatality import copies_in, tool_named
from siblint.tools import Tool, tools_in

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


def _tool_for_call(facts: ModuleFacts, call: Call, project: ProjectIndex) -> Tool | None:
    """The tool an inline call makes: `function_tool(fn)`, `FunctionTool(...)`, `copy.copy(t)`."""
    for t in (*tools_in(facts), *copies_in(facts, project)):
        if t.options is not None and t.options.loc == call.loc:
            return t
    return None


def resolve_members(facts: ModuleFacts, value: Value | None, scope: str, project: ProjectIndex,
                    depth: int = 0) -> list[Member]:
    """The tools a tools-list expression denotes, across modules."""
    if value is None or depth > MAX_DEPTH:
        return []
    if isinstance(value, Seq):
        return [m for item in value.items for m in resolve_members(facts, item, scope, project, depth + 1)]
    if isinstance(value, Starred):
        return resolve_members(facts, value.value, scope, project, depth + 1)
    if isinstance(value, Call):
        tool = _tool_for_call(facts, value, project)
        return [Member(tool, facts)] if tool is not None else []
    if isinstance(value, Ref):
        named = tool_named(facts, value.text, scope, project)
        if named is not None:
            return [Member(*named)]
        bound = binding(facts, value.text, scope)
        if bound is not None:
            return resolve_members(facts, bound, scope, project, depth + 1)
        if value.name != value.text or "." in value.name:
            found = project.resolve(value.name)
            if found is not None:
                other, attr = found
                return resolve_members(other, Ref(attr, attr, value.loc), "", project, depth + 1)
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
    for a in facts.assignments:
        if isinstance(a.value, Call) and a.value.loc == call.loc and a.op == "=":
            return a.target, a.scope
    return "", ""


def _runs(facts: ModuleFacts, fw: Framework) -> Iterator[tuple[str, Call]]:
    for scope, call in facts.all_calls():
        if isinstance(call.func, Ref):
            _, canon = canonical(call.func.name)
            if canon in fw.runners:
                yield scope, call


def _is_capped(facts: ModuleFacts, fw: Framework, agent_binding: str) -> bool:
    """True when the agent is run in this module and every run caps tool concurrency at 1."""
    if not agent_binding or not fw.concurrency_cap:
        return False
    seen = False
    for scope, run in _runs(facts, fw):
        agent_param, config_param = fw.runners[constructed_name(run)]
        agent = run.arg(agent_param.position, agent_param.keyword)
        if not (isinstance(agent, Ref) and agent.text == agent_binding):
            continue
        seen = True
        cap = _path(run.arg(config_param.position, config_param.keyword), fw.concurrency_cap, facts, scope)
        if not (isinstance(cap, Const) and cap.value == 1 and not isinstance(cap.value, bool)):
            return False
    return seen


def constructed_name(call: Call) -> str:
    return canonical(call.func.name)[1] if isinstance(call.func, Ref) else ""


def groups_in(facts: ModuleFacts, project: ProjectIndex) -> list[Group]:
    """Every group the module makes, with its members after each mutation."""
    groups: list[Group] = []
    for scope, call in facts.all_calls():
        made = _group_maker(facts, call, scope)
        if made is None:
            continue
        fw, maker, receiver = made
        tools_value = call.arg(maker.tools.position, maker.tools.keyword) if maker.tools else None
        servers_value = call.arg(maker.servers.position, maker.servers.keyword) if maker.servers else None
        if receiver and tools_value is None and servers_value is None:
            continue  # `agent.clone()` keeps the receiver's tools: the same group
        target, _ = _assigned_target(facts, call)
        name_value = call.arg(maker.name.position, maker.name.keyword) if maker.name else None
        name = name_value.value if isinstance(name_value, Const) and isinstance(name_value.value, str) else (target or "agent")
        members = resolve_members(facts, tools_value, scope, project) + resolve_members(facts, servers_value, scope, project)
        anchor = tools_value.loc if tools_value is not None else (servers_value.loc if servers_value is not None else call.loc)
        group = Group(fw, facts.path, name, target, scope, call, [Snapshot(anchor, members)])
        hint = _path(call, fw.parallel_hint, facts, scope) if fw.parallel_hint else None
        group.parallel_hint_off = isinstance(hint, Const) and hint.value is False
        group.capped = _is_capped(facts, fw, target)
        _apply_mutations(facts, group, project)
        groups.append(group)
    return groups


def _apply_mutations(facts: ModuleFacts, group: Group, project: ProjectIndex) -> None:
    """`agent.tools = [...]`, `agent.tools += [...]`, `agent.tools.append(t)` / `.extend([...])`."""
    if not group.binding:
        return
    attr = f"{group.binding}.{group.framework.group_tools_attr}"
    events: list[tuple[Loc, str, Value]] = []
    for a in facts.assignments:
        if a.target == attr and a.loc > group.call.loc:
            events.append((a.loc, "set" if a.op == "=" else "add", a.value))
    for _, call in facts.all_calls():
        if isinstance(call.func, Ref) and call.loc > group.call.loc and call.args:
            if call.func.text == f"{attr}.append":
                events.append((call.loc, "add", Seq((call.args[0],), call.loc)))
            elif call.func.text == f"{attr}.extend":
                events.append((call.loc, "add", call.args[0]))
    for loc, op, value in sorted(events, key=lambda e: e[0]):
        added = resolve_members(facts, value, group.scope, project)
        before = group.snapshots[-1].members if op == "add" else []
        group.snapshots.append(Snapshot(loc, before + added))
