"""Middleware that passes a tool's error on where the group would turn it into a message.

A group whose errors reach the model by default (LangChain.js `createAgent`) ends the run when a
middleware in its list (`ErrorPolicy.middleware`) lets a tool's error through. Which constructors
build such middleware, and how each decides, is framework data (`ToolMiddleware`). Per tool, a
middleware passes the error on, covers it (turns it into a message), or leaves it alone; the error
ends the run when one passes it on and none covers it (measured: a catching middleware anywhere in
the list saves the run, whichever its place).

A wrapper callback (`wrapToolCall: async (request, handler) => ...`) passes errors on when it calls
`handler` outside a `try` whose `catch` does not rethrow, or throws itself; a wrapper that cannot be
read is given the benefit of the doubt.

* `module_reasons(facts, project)`: every middleware that can pass errors on, where it is built and
  where a group of this module registers it by name (SIB202), once per place;
* `group_passing(group, facts, project)`: those of one group, with the tools they reach and the
  tools other middleware of the group covers (`siblint.analyses.hooks` turns them into hooks).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..common.diagnostics import Loc
from ..frameworks import FRAMEWORKS
from ..frameworks.spec import Framework, ToolMiddleware
from ..model.groups import Group
from ..model.project import ProjectIndex
from ..model.semantic import Scope, canonical, elements, imports_framework, target_functions
from ..model.tools import Tool
from ..syntax.facts import Call, Const, FunctionFacts, ModuleFacts, Ref, Seq, Value
from .fatality import FatalReason, call_reasons


@dataclass(frozen=True)
class Reach:
    """The tools a middleware applies to: those named in `only` (None: every tool) but not in `but`."""

    only: frozenset[str] | None = None
    but: frozenset[str] = frozenset()

    def has(self, tool: Tool) -> bool:
        names = {tool.name, tool.binding} - {""}
        return (self.only is None or bool(names & self.only)) and not names & self.but


@dataclass(frozen=True)
class Passing:
    """A middleware that passes the errors of the tools it reaches on: why, and where."""

    reason: FatalReason  # located at the middleware's constructor call (or the fatal option in it)
    reach: Reach
    spared: tuple[Reach, ...] = ()  # tools other middleware of the same group covers
    unlisted: bool = False  # it passes on the errors of the tools its `tools` list leaves out


@dataclass(frozen=True)
class _Judged:
    passing: tuple[Passing, ...]
    covers: Reach | None


def _spec(call: Value) -> tuple[Framework, ToolMiddleware] | None:
    if not isinstance(call, Call) or not isinstance(call.func, Ref):
        return None
    fw, name = canonical(call.func.name)
    found = fw.failure.tool_middlewares.get(name) if fw is not None else None
    return (fw, found) if fw is not None and found is not None else None


def _listed(value: Value | None) -> frozenset[str] | None:
    """Tool names of a `tools: [...]` option: string literals and tool names (None when not given)."""
    if not isinstance(value, Seq):
        return None
    return frozenset(i.value if isinstance(i, Const) and isinstance(i.value, str) else (i.text if isinstance(i, Ref) else "")
                     for i in value.items)


def _lets_through(fn: FunctionFacts, position: int, path: str) -> tuple[str, Loc] | None:
    """Where a wrapper lets the wrapped call's error out: an unguarded call of its handler parameter
    (or one whose `catch` rethrows), or a `throw` of its own."""
    handler = fn.params[position] if position < len(fn.params) else None
    for site in fn.calls:
        if handler is not None and isinstance(site.call.func, Ref) and site.call.func.text == handler:
            if not site.guarded_by or all(h.reraises for h in site.guarded_by):
                return path, site.call.loc
    return (path, fn.raises[0]) if fn.raises else None


def _middleware_name(call: Call, spec: ToolMiddleware) -> str:
    given = call.kwarg("name")
    return repr(given.value) if isinstance(given, Const) and isinstance(given.value, str) else spec.label


def _judge(spec: ToolMiddleware, call: Call, scope: Scope, project: ProjectIndex,
           members: list[Tool] | None = None) -> _Judged:
    """What one middleware does with the tools' errors. `members`: the tools of the group it is given
    to; without them (where it is built) a `tools` list's unlisted tools are not known yet."""
    listed = _listed(call.arg(spec.tools.position, spec.tools.keyword)) if spec.tools is not None else None
    applies = Reach(listed)
    passing: list[Passing] = []
    covers: Reach | None = None
    if spec.wrapper is not None and spec.calls is not None:
        wrapper = call.arg(spec.wrapper.position, spec.wrapper.keyword)
        found = target_functions(scope, wrapper, project) if isinstance(wrapper, Ref) else []
        leaks = [(f, o) for f, fn in found if (o := _lets_through(fn, spec.calls.position or 0, f.path)) is not None]
        if leaks:
            label = f"{spec.wrapper.keyword} of middleware {_middleware_name(call, spec)} lets {spec.calls.keyword}'s error through"
            passing.append(Passing(FatalReason("handler_returns_none", label, scope.facts.path, call.loc, origin=leaks[0][1],
                                               fix=spec.fix), applies))
        elif found:
            covers = applies
    if spec.fatal:
        reasons = call_reasons(call, scope.facts, scope.name, project, spec.fatal)
        passing.extend(Passing(replace(r, fix=spec.fix), applies) for r in reasons)
        if not reasons and spec.wrapper is None:
            covers = applies
    left_out = Reach(None, listed) if listed is not None else None
    if (spec.unlisted_fatal and left_out is not None and members is not None and any(left_out.has(t) for t in members)
            and not any(p.reach.only is None for p in passing)):
        names = ", ".join(sorted(t.name for t in members if left_out.has(t)))
        label = f"{spec.label} lists tools: the errors of the tools it leaves out ({names}) end the run"
        passing.append(Passing(FatalReason("handler_returns_none", label, scope.facts.path, call.loc, fix=spec.fix), left_out,
                               unlisted=True))
    return _Judged(tuple(passing), covers)


def _built(scope: Scope, item: Value, project: ProjectIndex) -> tuple[Scope, Call] | None:
    """The middleware constructor call a list item is, or a name bound to one (here or imported)."""
    if isinstance(item, Call):
        return scope, item
    if isinstance(item, Ref) and "." not in item.text:
        bound = scope.binding(item.text)
        if bound is not None and isinstance(bound[1], Call):
            return bound[0], bound[1]
        target = project.resolve(item.name, scope.facts.path) if bound is None and item.name != item.text else None
        if target is not None:
            other = Scope(target[0]).binding(target[1])
            if other is not None and isinstance(other[1], Call):
                return other[0], other[1]
    return None


def _group_judged(group: Group, facts: ModuleFacts, project: ProjectIndex) -> list[tuple[Value, _Judged]]:
    """Each middleware item of `group`'s list (made in `facts`), judged against the group's tools."""
    param = group.maker.policy.middleware if group.maker is not None else None
    if param is None or not group.framework.failure.tool_middlewares:
        return []
    members = [m.tool for m in group.members()]
    out: list[tuple[Value, _Judged]] = []
    for where, item in elements(Scope(facts, group.scope), group.call.arg(param.position, param.keyword), project):
        built = _built(where, item, project)
        spec = _spec(built[1]) if built is not None else None
        if built is not None and spec is not None:
            out.append((item, _judge(spec[1], built[1], built[0], project, members)))
    return out


def group_passing(group: Group, facts: ModuleFacts, project: ProjectIndex) -> list[Passing]:
    """The middleware of `group` (made in `facts`) that passes errors on, each with the tools the
    group's other middleware covers."""
    judged = _group_judged(group, facts, project)
    covers = tuple(j.covers for _, j in judged if j.covers is not None)
    return [replace(p, spared=covers) for _, j in judged for p in j.passing]


def _registrations(facts: ModuleFacts, project: ProjectIndex) -> list[FatalReason]:
    """Middleware of a group made here: reported where it is registered by name; a `tools` list's
    unlisted tools, known only here, also where it is written inline."""
    from ..model.groups import groups_in

    out: list[FatalReason] = []
    for group in groups_in(facts, project):
        for item, judged in _group_judged(group, facts, project):
            for p in judged.passing:
                if isinstance(item, Ref):
                    out.append(replace(p.reason, label=f"{p.reason.label} (registered here as {item.text})", path=facts.path,
                                       loc=item.loc, origin=p.reason.origin or (p.reason.path, p.reason.loc)))
                elif p.unlisted:
                    out.append(p.reason)
    return out


def module_reasons(facts: ModuleFacts, project: ProjectIndex) -> list[FatalReason]:
    """Every middleware that can pass errors on: where it is built, and where it is registered by name."""

    def compute() -> list[FatalReason]:
        if not any(fw.failure.tool_middlewares and imports_framework(facts, fw) for fw in FRAMEWORKS):
            return []
        out: list[FatalReason] = []
        for scope_name, call in facts.all_calls():
            spec = _spec(call)
            if spec is not None:
                out.extend(p.reason for p in _judge(spec[1], call, Scope(facts, scope_name), project).passing)
        return out + _registrations(facts, project)

    return facts.derived("middleware.module", compute)
