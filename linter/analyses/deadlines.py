"""SIB401: a dependency call inside a tool allowed to wait at least as long as the tool's own budget.

A tool's budget (`@function_tool(timeout=6)`, pydantic-ai `timeout=`) is enforced from outside
with `asyncio.wait_for`: when it expires the tool is cancelled. A child timeout at or above it can
never fire first, so the tool's own timeout handling (record "unknown", reconcile) never runs and
the model is told only "timed out" (../shared/reference/sib4-design.md §3.1, runtime arm A1).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..common.diagnostics import Loc
from ..effects.checks import shown_name
from ..effects.resolve import method_name
from ..effects.timeouts import child_timeout
from ..frameworks.spec import NodeBudget
from ..model.callgraph import walk
from ..model.groups import Group, groups_in
from ..model.project import ProjectIndex
from ..model.semantic import UNBOUNDED, Scope, canonical, seconds
from ..model.tools import Tool, framework_of, tool_function, tools_in
from ..settings.config import Config
from ..syntax.facts import Call, Const, ModuleFacts, Ref, Value


@dataclass(frozen=True)
class Overrun:
    loc: Loc  # where it is reported (the call that sets the child timeout, or the tool's call into it)
    child: float  # seconds the child may wait (UNBOUNDED for an explicit None)
    budget: float  # the smallest budget of the tools that reach it
    tool: str
    budget_loc: Loc
    call_text: str  # how the message names the call
    path: str  # where the child timeout is set
    set_at: Loc


def _number(scope: Scope, value: Value | None) -> tuple[float, Loc] | None:
    n = seconds(scope, value)
    return (n, value.loc) if value is not None and n is not None and n != UNBOUNDED and n > 0 else None


def budget_of(tool: Tool, facts: ModuleFacts, groups: Callable[[], dict[tuple, list[Group]]]) -> tuple[float, Loc] | None:
    """The tool's time budget in seconds, when spelled as a number: its own (`timeout=` on the call
    that makes it), else its groups' default for members (`Agent(tool_timeout=...)`, a LangGraph
    node's `timeout=`), found among `groups()` (this module's groups, by member tool key)."""
    fw = framework_of(tool)
    if fw is None:
        return None
    if tool.options is not None:
        for param in fw.tools.budget:
            value = tool.options.arg(param.position, param.keyword)
            if value is not None and not (isinstance(value, Const) and value.value is None):
                return _number(Scope(facts, tool.scope), value)  # an explicit None: the group's default
    budgets: list[tuple[float, Loc] | None] = []
    for g in groups().get(tool.key, ()):
        if g.maker is None:
            continue
        if g.maker.tool_budget is not None:
            budgets.append(_number(Scope(facts, g.scope), g.call.arg(g.maker.tool_budget.position, g.maker.tool_budget.keyword)))
        if g.maker.node_budget is not None:
            budgets.extend(_node_budgets(facts, g.call, g.maker.node_budget))
    known = [b for b in budgets if b is not None]
    return min(known) if known else None


def _placements(facts: ModuleFacts, spec: NodeBudget) -> dict[Loc, list[tuple[Scope, Call]]]:
    """The location of a group call -> the `add_node(...)`-style calls that place it (inline or by a
    name bound to it), with their scope; indexed once per module."""

    def compute() -> dict[Loc, list[tuple[Scope, Call]]]:
        table: dict[Loc, list[tuple[Scope, Call]]] = {}
        for scope, call in facts.all_calls():
            if method_name(call.func) != spec.method:
                continue
            action = call.arg(spec.action.position, spec.action.keyword)
            here = Scope(facts, scope)
            if isinstance(action, Ref):
                action = here.value(action.text)
            if isinstance(action, Call):
                table.setdefault(action.loc, []).append((here, call))
        return table

    return facts.derived(f"deadlines.placements.{spec.method}", compute)


def _node_budgets(facts: ModuleFacts, group_call: Call, spec: NodeBudget) -> list[tuple[float, Loc] | None]:
    """Budgets of the graph nodes this group is placed as (`add_node("tools", ToolNode(...), timeout=5)`,
    the ToolNode given inline or by a name bound to it)."""
    out: list[tuple[float, Loc] | None] = []
    for here, call in _placements(facts, spec).get(group_call.loc, ()):
        value = call.arg(spec.budget.position, spec.budget.keyword)
        if isinstance(value, Call):
            fw, canon = canonical(value.callee)
            policy = spec.policies.get(canon) if fw is not None else None
            value = value.arg(policy.position, policy.keyword) if policy is not None else None
        if value is not None:
            out.append(_number(here, value))
    return out


def overruns(facts: ModuleFacts, project: ProjectIndex, config: Config,
             module_groups: Callable[[], list[Group]] | None = None) -> list[Overrun]:
    """Every child timeout reached from a tool of this module that is not below the tool's budget,
    once per report location, naming the smallest budget. `module_groups` gives the module's groups
    when the caller already has them (the rules share one computation per file)."""
    found: dict[Loc, Overrun] = {}
    by_tool: list[dict[tuple, list[Group]]] = []

    def groups() -> dict[tuple, list[Group]]:
        """This module's groups by member tool, built once, on the first tool that asks."""
        if not by_tool:
            table: dict[tuple, list[Group]] = {}
            for g in (module_groups() if module_groups else groups_in(facts, project)):
                for m in g.members():
                    table.setdefault(m.tool.key, []).append(g)
            by_tool.append(table)
        return by_tool[0]

    for tool in tools_in(facts):
        budget = budget_of(tool, facts, groups)
        if budget is None:
            continue
        fn = tool_function(tool, project)
        w = walk(tool, project, config) if fn is not None and fn[0].path == facts.path else None
        if w is None:
            continue
        for site in w.sites:
            child = child_timeout(site.call, site.scope)
            if child is None:
                continue
            n, setter = child
            if n < budget[0]:
                continue
            here = setter.loc if site.facts.path == facts.path else site.reported_at(facts.path)
            if here is None:
                continue
            old = found.get(here)
            if old is None or budget[0] < old.budget:
                found[here] = Overrun(here, n, budget[0], tool.name, budget[1], shown_name(setter), site.facts.path,
                                      setter.loc)
    return sorted(found.values(), key=lambda o: (o.loc.line, o.loc.col))
