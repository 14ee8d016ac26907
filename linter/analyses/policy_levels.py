"""A failure policy set at several levels, the most specific set one winning (`LayeredPolicy`).

crewai's `tool_failure_policy` is the case in point: the tool (class attribute of a `BaseTool`
subclass, constructor keyword, `t.tool_failure_policy = ...`), then the task, the agent, the crew.
Which constructors are levels, and how they link to each other, is framework data; this module
reads it:

* `member_reasons(group, member, facts, project)`: what makes one member of a group fatal. Every way the
  group can run is a *path*: the group's own call plus, per level, one object linked to the path
  (a task naming the agent, a crew listing the agent or that task). On each path the first level
  that sets the policy decides; the member is fatal when some path decides "raise";
* `module_reasons(facts, project)`: every fatal setting written in a module (SIB201), except a
  level's setting that a more specific level overrides on every path through it.

An unreadable value (a parameter, a call) counts as set and not fatal: the benefit of the doubt.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..common.diagnostics import Loc
from ..frameworks import FRAMEWORKS
from ..frameworks.spec import Framework, LayeredPolicy
from ..model.groups import Group, Member, groups_in
from ..model.project import ProjectIndex
from ..model.semantic import Scope, canonical, elements, result_names
from ..model.tools import (
    class_tool,
    framework_of,
    names_of,
    tool_base,
    tool_named,
    visible,
)
from ..syntax.facts import Call, Const, ModuleFacts, Ref, Value
from .fatality import FatalReason


@dataclass(frozen=True)
class _Level:
    """One object of a level (`Crew(...)`): its rank (0 most specific above the tool) and its call."""

    rank: int
    call: Call
    scope: str
    binding: str  # the name its result is bound to ("" if none), in `scope`


# Links are read within the module: list items by name or inline call, never through imports.
_NO_PROJECT = ProjectIndex()


def _policy(fw: Framework | None) -> LayeredPolicy | None:
    return fw.failure.layered if fw is not None else None


def _setting(policy: LayeredPolicy, call: Call) -> Value | None:
    value = call.arg(policy.param.position, policy.param.keyword)
    return None if isinstance(value, Const) and value.value is None else value


def is_fatal(policy: LayeredPolicy, value: Value, facts: ModuleFacts, scope: str) -> bool:
    """`value` (followed through local names) is one of the policy's fatal literals or enum members."""
    for _ in range(4):
        if not isinstance(value, Ref):
            break
        if canonical(value.name)[1] in policy.fatal_members:
            return True
        bound = Scope(facts, scope).value(value.text) if "." not in value.text else None
        if bound is None:
            return False
        value = bound
    return (isinstance(value, Const) and value.value in policy.fatal_literals
            and type(value.value) in {type(v) for v in policy.fatal_literals})


def _reason(policy: LayeredPolicy, value: Value, facts: ModuleFacts, via: str = "") -> FatalReason:
    return FatalReason("handler_disabled", policy.label, facts.path, value.loc, via=via, fix=policy.fix)


# ---- the levels of a module ------------------------------------------------------------------
def _levels(facts: ModuleFacts) -> list[_Level]:
    def compute() -> list[_Level]:
        out: list[_Level] = []
        for scope, call in facts.all_calls():
            if not isinstance(call.func, Ref):
                continue
            fw, canon = canonical(call.func.name)
            policy = _policy(fw)
            if policy is None:
                continue
            for rank, level in enumerate(policy.levels):
                if level.maker == canon:
                    names = [n for n, _ in result_names(facts).get(call.loc, ()) if "." not in n]
                    out.append(_Level(rank, call, scope, names[0] if names else ""))
        return out

    return facts.derived("policy_levels.levels", compute)


def _adjacency(facts: ModuleFacts, policy: LayeredPolicy) -> dict[int, set[int]]:
    """Level index -> the indexes of the levels it is given (by name or inline), or, in a class, every
    level the class builds when it is given `self.<attr>` (a `@CrewBase` crew's `self.agents`).
    Computed once per module: asked pair by pair, the paths of a module with many agents are cubic."""
    def compute() -> dict[int, set[int]]:
        levels = _levels(facts)
        by_loc = {lv.call.loc: i for i, lv in enumerate(levels)}
        by_binding: dict[str, list[int]] = {}
        for i, lv in enumerate(levels):
            if lv.binding:
                by_binding.setdefault(lv.binding, []).append(i)
        out: dict[int, set[int]] = {}
        for h, holder in enumerate(levels):
            linked: set[int] = set()
            for param in policy.levels[holder.rank].links:
                value = holder.call.arg(param.position, param.keyword)
                if isinstance(value, Ref) and value.text.startswith("self.") and holder.scope:
                    cls = holder.scope.split(".")[0]
                    linked.update(i for i, o in enumerate(levels) if o.scope and o.scope.split(".")[0] == cls)
                for _, item in elements(Scope(facts, holder.scope), value, _NO_PROJECT):
                    if isinstance(item, Call) and item.loc in by_loc:
                        linked.add(by_loc[item.loc])
                    elif isinstance(item, Ref):
                        # the same binding, not another function's variable of that name
                        linked.update(i for i in by_binding.get(item.text, ())
                                      if visible(facts, item.text, levels[i].scope, holder.scope))
            out[h] = linked
        return out

    return facts.derived(f"policy_levels.links.{policy.param.keyword}", compute)


def _paths(facts: ModuleFacts, policy: LayeredPolicy, start: _Level) -> list[list[_Level]]:
    """Every way `start` can run: one linked object (or none) per other level, most specific first."""
    def compute() -> list[list[_Level]]:
        levels = _levels(facts)
        adj = _adjacency(facts, policy)
        first = next(i for i, lv in enumerate(levels) if lv.call.loc == start.call.loc and lv.rank == start.rank)
        paths: list[list[int]] = [[first]]
        for rank in range(len(policy.levels)):
            if rank == start.rank:
                continue
            candidates = [i for i, lv in enumerate(levels) if lv.rank == rank]
            grown: list[list[int]] = []
            for path in paths:
                linked = [i for i in candidates if any(i in adj[p] or p in adj[i] for p in path)]
                grown.extend([*path, i] for i in linked) if linked else grown.append(path)
            paths = grown
        return [sorted((levels[i] for i in path), key=lambda lv: lv.rank) for path in paths]

    return facts.derived(f"policy_levels.paths.{policy.param.keyword}.{start.rank}.{start.call.loc}", compute)


def _level_setting(facts: ModuleFacts, policy: LayeredPolicy, lv: _Level) -> Value | None:
    """What the level object sets: a later `crew.tool_failure_policy = ...`, else its constructor keyword."""
    return facts.derived(f"policy_levels.setting.{policy.param.keyword}.{lv.rank}.{lv.call.loc}",
                         lambda: _read_level_setting(facts, policy, lv))


def _read_level_setting(facts: ModuleFacts, policy: LayeredPolicy, lv: _Level) -> Value | None:
    if lv.binding:
        assigned = _assigned(facts, policy.param.keyword, [(lv.binding, lv.scope)])
        if assigned is not None:
            return None if isinstance(assigned, Const) and assigned.value is None else assigned
    return _setting(policy, lv.call)


def _decides(facts: ModuleFacts, policy: LayeredPolicy, path: list[_Level]) -> tuple[_Level, Value] | None:
    """The most specific level of the path that sets the policy, with its value."""
    for lv in path:
        value = _level_setting(facts, policy, lv)
        if value is not None:
            return lv, value
    return None


def _level_of(facts: ModuleFacts, call: Call) -> _Level | None:
    return next((lv for lv in _levels(facts) if lv.call.loc == call.loc), None)


# ---- the tool's own setting ------------------------------------------------------------------
def _class_setting(facts: ModuleFacts, keyword: str, cls: str) -> Value | None:
    """A class attribute of the tool class or of one of its bases in the same module."""
    todo, seen = [cls], set()
    while todo:
        current = todo.pop(0)
        if current in seen:
            continue
        seen.add(current)
        for a in facts.assignments:
            if a.scope == current and a.target == keyword and a.op == "=":
                return a.value
        todo.extend(b for b in facts.classes.get(current, ()) if b in facts.classes)
    return None


def _assigned(facts: ModuleFacts, keyword: str, names: list[tuple[str, str]]) -> Value | None:
    """The last `name.<keyword> = value` on one of `names` (bound in the given scopes)."""
    found: Value | None = None
    for a in facts.assignments:
        head, _, attr = a.target.rpartition(".")
        if attr == keyword and a.op == "=" and any(head == n and visible(facts, n, s, a.scope) for n, s in names):
            found = a.value
    return found


def tool_setting(policy: LayeredPolicy, member: Member) -> tuple[ModuleFacts, Value] | None:
    """The tool's own setting: a later assignment, else the constructor keyword, else the class attribute."""
    tool, keyword = member.tool, policy.param.keyword
    found: list[tuple[ModuleFacts, Value | None]] = []
    if member.instance is not None and member.instance_facts is not None:
        names = [(t, s) for t, s in result_names(member.instance_facts).get(member.instance.loc, ()) if "." not in t]
        found.append((member.instance_facts, _assigned(member.instance_facts, keyword, names)))
        found.append((member.instance_facts, _setting(policy, member.instance)))
    found.append((member.facts, _assigned(member.facts, keyword, names_of(tool, member.facts))))
    if tool.options is not None:
        found.append((member.facts, _setting(policy, tool.options)))
    if tool.class_name:
        found.append((member.facts, _class_setting(member.facts, keyword, tool.class_name)))
    for facts, value in found:
        if value is not None and not (isinstance(value, Const) and value.value is None):
            return facts, value
    return None


# ---- the API ---------------------------------------------------------------------------------
def member_reasons(group: Group, member: Member, facts: ModuleFacts, project: ProjectIndex) -> list[FatalReason]:
    """What makes `member` of `group` (made in `facts`) fatal under its framework's layered policy."""
    policy = _policy(group.framework)
    if policy is None:
        return []
    own = tool_setting(policy, member)
    if own is not None:
        where, value = own
        return [_reason(policy, value, where)] if is_fatal(policy, value, where, "") else []
    start = _level_of(facts, group.call)
    if start is None:
        return []
    out: list[FatalReason] = []
    for path in _paths(facts, policy, start):
        decided = _decides(facts, policy, path)
        if decided is not None and is_fatal(policy, decided[1], facts, decided[0].scope):
            reason = _reason(policy, decided[1], facts, via="" if decided[0] is start else "its run's settings")
            if reason not in out:
                out.append(reason)
    return out


def module_reasons(facts: ModuleFacts, project: ProjectIndex) -> list[FatalReason]:
    """Every fatal layered setting written in this module (SIB201)."""
    out: list[FatalReason] = []
    groups: dict[Loc, Group] | None = None
    for lv in _levels(facts):
        fw, _ = canonical(lv.call.func.name) if isinstance(lv.call.func, Ref) else (None, "")
        policy = _policy(fw)
        value = _level_setting(facts, policy, lv) if policy is not None else None
        if policy is None or value is None or not is_fatal(policy, value, facts, lv.scope):
            continue
        if groups is None:
            groups = {g.call.loc: g for g in groups_in(facts, project)}
        if _overridden(facts, policy, lv, groups):
            continue
        out.append(_reason(policy, value, facts))
    out.extend(_tool_level_reasons(facts, project))
    return out


def _paths_through(facts: ModuleFacts, policy: LayeredPolicy) -> dict[tuple[int, Loc], list[list[_Level]]]:
    """(rank, call) of each level -> every path (from any start) that runs through it, once per module."""
    def compute() -> dict[tuple[int, Loc], list[list[_Level]]]:
        out: dict[tuple[int, Loc], list[list[_Level]]] = {}
        for start in _levels(facts):
            for path in _paths(facts, policy, start):
                for lv in path:
                    out.setdefault((lv.rank, lv.call.loc), []).append(path)
        return out

    return facts.derived(f"policy_levels.through.{policy.param.keyword}", compute)


def _overridden(facts: ModuleFacts, policy: LayeredPolicy, lv: _Level, groups: dict[Loc, Group]) -> bool:
    """A more specific level decides every path through `lv` (`Crew` raise with `Agent` warn): another
    level, or, on a path through a group, every member's own setting (`Agent` raise whose tools all
    set "ignore")."""
    seen = False
    for path in _paths_through(facts, policy).get((lv.rank, lv.call.loc), ()):
        seen = True
        decided = _decides(facts, policy, path)
        if decided is not None and decided[0] != lv:
            continue
        members = [m for p in path if p.call.loc in groups for m in groups[p.call.loc].members()]
        if not members or any(tool_setting(policy, m) is None for m in members):
            return False
    return seen


def _tool_level_reasons(facts: ModuleFacts, project: ProjectIndex) -> list[FatalReason]:
    """Class attributes of tool classes, constructor keywords of tool classes, and assignments to tools."""
    out: list[FatalReason] = []
    for cls in facts.classes:
        found = tool_base(facts, cls)
        policy = _policy(found[0]) if found else None
        if policy is not None:
            value = _class_setting(facts, policy.param.keyword, cls)
            if value is not None and is_fatal(policy, value, facts, cls):
                out.append(_reason(policy, value, facts))
    keywords = {fw.failure.layered.param.keyword for fw in FRAMEWORKS if fw.failure.layered is not None}
    for scope, call in facts.all_calls():
        if not any(key in keywords for key, _ in call.kwargs):
            continue  # resolving every call's class would load half the project (a tool class takes it by keyword)
        made = class_tool(facts, call, project) if isinstance(call.func, Ref) else None
        policy = _policy(framework_of(made[0])) if made else None
        value = _setting(policy, call) if policy is not None else None
        if policy is not None and value is not None and is_fatal(policy, value, facts, scope):
            out.append(_reason(policy, value, facts))
    for a in facts.assignments:
        head, _, attr = a.target.rpartition(".")
        if not head or "." in head or a.op != "=":
            continue
        policy = _assigned_policy(facts, head, attr, a.scope, project)
        if policy is not None and is_fatal(policy, a.value, facts, a.scope):
            out.append(_reason(policy, a.value, facts))
    return out


def _assigned_policy(facts: ModuleFacts, name: str, attr: str, scope: str, project: ProjectIndex) -> LayeredPolicy | None:
    """The layered policy whose field `name.attr = ...` sets, when `name` is a known tool."""
    policies = [fw.failure.layered for fw in FRAMEWORKS if fw.failure.layered and fw.failure.layered.param.keyword == attr]
    if not policies:
        return None
    named = tool_named(facts, name, scope, project)
    if named is not None:
        return _policy(framework_of(named[0]))
    bound = Scope(facts, scope).value(name)
    made = class_tool(facts, bound, project) if isinstance(bound, Call) else None
    return _policy(framework_of(made[0])) if made else None
