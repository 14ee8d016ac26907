"""Hooks that run around every tool call and end the run when they raise (`FatalHook` data).

A hook registered by a module-level decorator (`@after_tool_call`, `@on(<point>)`) or by a
registration call (`register_after_tool_call_hook(fn)`) runs for every tool of every group in the
process (or, with a `tools=[...]` filter, for the tools it names). Raising one of the framework's
fatal exceptions there (crewai's `HookAborted` after a tool call) ends the run; any other exception
is swallowed by the framework, so it is not reported.

* `module_reasons(facts, project)`: every fatal hook registered in a module (SIB202), at the hook's
  `def` (the registration call for the call form), with its `raise` as the origin;
* `member_reasons(member, facts, project)`: the fatal hooks that apply to a member of a group made
  in `facts`: those registered there, in the member's module, and in the modules `facts` imports
  (where hooks usually live: `import app.hooks` registers them).

Only a `raise` written in the hook's own body counts.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..common.diagnostics import Loc
from ..frameworks import FRAMEWORKS
from ..frameworks.spec import FatalHook
from ..model.callgraph import BROAD
from ..model.groups import Member
from ..model.project import ProjectIndex
from ..model.semantic import Scope, canonical, resolve_function
from ..syntax.facts import Call, Const, FunctionFacts, ModuleFacts, Ref, Seq, Value
from .fatality import FatalReason


@dataclass(frozen=True)
class _Hook:
    reason: FatalReason
    tools: frozenset[str] | None  # None: every tool


def _registrar(value: Value) -> tuple[FatalHook, Call | None] | None:
    """The hook data for a decorator or registration callee, with its options call."""
    call = value if isinstance(value, Call) else None
    target = value.func if isinstance(value, Call) else value
    if not isinstance(target, Ref):
        return None
    fw, canon = canonical(target.name)
    hook = fw.failure.hooks.get(canon) if fw is not None else None
    if hook is None:
        return None
    if hook.point is not None:
        param, points = hook.point
        given = call.arg(param.position, param.keyword) if call is not None else None
        if not (isinstance(given, Ref) and canonical(given.name)[1] in points):
            return None
    return hook, call


def _tool_filter(hook: FatalHook, call: Call | None) -> frozenset[str] | None:
    value = call.arg(hook.tools.position, hook.tools.keyword) if hook.tools is not None and call is not None else None
    if not isinstance(value, Seq):
        return None
    return frozenset(i.value for i in value.items if isinstance(i, Const) and isinstance(i.value, str))


def fatal_raise(exceptions: tuple[str, ...], fn: FunctionFacts) -> tuple[str, Loc] | None:
    """(exception short name, location) of the first `raise` of one of `exceptions` (canonical
    names) that the function does not catch itself."""
    for rs in fn.raise_sites:
        target = rs.exc.func if isinstance(rs.exc, Call) else rs.exc
        if not isinstance(target, Ref) or canonical(target.name)[1] not in exceptions:
            continue
        short = target.name.rpartition(".")[2]
        if any(c in BROAD or c.rpartition(".")[2] == short for h in rs.guarded_by for c in h.catches):
            continue
        return short, rs.loc
    return None


def _uses_hooks(facts: ModuleFacts) -> bool:
    """The module imports a framework that has fatal hooks (the cheap test before any scan)."""
    roots = {r for fw in FRAMEWORKS if fw.failure.hooks for r in fw.import_roots}
    return any(target.split(".", 1)[0] in roots for target in facts.imports.values())


def _decorated(facts: ModuleFacts) -> list[_Hook]:
    """Hooks registered by decorators: they depend on this module alone, so they are kept."""

    def compute() -> list[_Hook]:
        out: list[_Hook] = []
        for fn in facts.functions.values():
            for deco in fn.decorators:
                found = _registrar(deco)
                if found is not None:
                    out.extend(_judge(found[0], found[1], facts, fn, fn.loc))
        return out

    return facts.derived("fatal_hooks.decorated", compute)


def _hooks(facts: ModuleFacts, project: ProjectIndex) -> list[_Hook]:
    """Every fatal hook this module registers: decorators, and registration calls (`register(fn)`),
    whose hook may live in another module."""
    if not _uses_hooks(facts):
        return []
    out = list(_decorated(facts))
    decorators = {d.loc for f in facts.functions.values() for d in f.decorators if isinstance(d, Call)}
    for scope, call in facts.all_calls():
        found = _registrar(call) if call.loc not in decorators else None
        if found is None or found[0].function is None:
            continue
        hook, param = found[0], found[0].function
        given = call.arg(param.position, param.keyword)
        fn = Scope(facts, scope).function(given)
        where = (facts, fn) if fn is not None else (
            resolve_function(given.name, project, facts.path) if isinstance(given, Ref) else None)
        if where is not None:
            out.extend(_judge(hook, call, where[0], where[1], call.loc, registered_in=facts))
    return out


def _judge(hook: FatalHook, call: Call | None, facts: ModuleFacts, fn: FunctionFacts, loc: Loc,
           registered_in: ModuleFacts | None = None) -> list[_Hook]:
    raised = fatal_raise(hook.exceptions, fn)
    if raised is None:
        return []
    short, raise_loc = raised
    label = hook.label.format(hook=fn.name.rpartition(".")[2], exception=short)
    at = registered_in or facts
    reason = FatalReason("handler_returns_none", label, at.path, loc, origin=(facts.path, raise_loc),
                         fix=hook.fix)
    return [_Hook(reason, _tool_filter(hook, call))]


def module_reasons(facts: ModuleFacts, project: ProjectIndex) -> list[FatalReason]:
    """Every fatal hook registered in this module (SIB202)."""
    return [h.reason for h in _hooks(facts, project)]


def _imported(facts: ModuleFacts, project: ProjectIndex) -> list[ModuleFacts]:
    """The project modules `facts` imports (`import app.hooks`, `from app.hooks import guard`)."""
    out: list[ModuleFacts] = []
    for target in dict.fromkeys(facts.imports.values()):
        for module in (target, target.rpartition(".")[0]):
            found = project.module(module, facts.path) if module else None
            if found is not None and found is not facts and found not in out:
                out.append(found)
                break
    return out


def member_reasons(member: Member, facts: ModuleFacts, project: ProjectIndex) -> list[FatalReason]:
    """The fatal hooks that run around `member`'s calls, for a group made in `facts`."""
    modules = [facts, *([member.facts] if member.facts is not facts else []), *_imported(facts, project)]
    out: list[FatalReason] = []
    for module in modules:
        for hook in _hooks(module, project):
            if (hook.tools is None or member.tool.name in hook.tools) and hook.reason not in out:
                out.append(hook.reason)
    return out
