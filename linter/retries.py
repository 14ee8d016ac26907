"""Retries that repeat what already happened or never stop: retry libraries in tools (SIB404, SIB409),
and what every retry analysis shares (`siblint.framework_retries`: SIB404's middleware form and
SIB405; `siblint.model_retries`: SIB407, SIB408).

Three places make code run again:

* a retry library inside a tool (tenacity, backoff, stamina; `siblint.effects.retries`): the
  wrapper is found on the functions a tool's walk enters (`@retry` on them) and on the loops of
  those functions (`for attempt in Retrying(...):`); what it retries is the walk below it;
* a framework (`siblint.frameworks`, `RetrySpec`): a retry policy on the graph node that runs a
  ToolNode re-runs every call of the turn; a tool-retry middleware re-runs one tool call;
* the model runner: `ModelRetrySettings` without a policy retries nothing, and a status policy
  that lists a permanent status retries an answer that cannot change.

A repeat is harmless when the failure it follows is a connect-phase error (nothing was sent), when
the effect is an HTTP method that sets a state (PUT, PATCH, DELETE), or when the call carries a stable
idempotency key. Analyses return reasons (`Finding`); the rules in `siblint.rules.retries` map each
reason to its code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

from siblint.callgraph import Site, Visit, Walk, walk
from siblint.config import Config
from siblint.diagnostics import Loc
from siblint.effects.keys import key_of, minted_in
from siblint.effects.retries import (
    CONNECT_PHASE_ERRORS,
    IDEMPOTENT_METHODS,
    TYPE_PREDICATES,
    UNBOUNDED,
    WRAPPERS,
    RetryWrapper,
)
from siblint.facts import Call, Const, FunctionFacts, ModuleFacts, Ref, Seq, Value
from siblint.frameworks.spec import Param
from siblint.project import ProjectIndex
from siblint.semantic import Scope, callees, is_tool_call_id
from siblint.tools import Tool, tools_in


@dataclass(frozen=True)
class Repeated:
    """A side effect a retry repeats, reached from a tool."""

    tool: Tool
    site: Site


@dataclass
class Finding:
    """One retry problem: where to report it, what it is, and what it repeats (if anything)."""

    reason: str  # "repeats_effect", "unbounded", "node_retry", "no_policy", "permanent_status"
    loc: Loc
    path: str  # the module the wrapper is in
    wrapper: str  # how the message names the wrapper (`tenacity.retry`, `ToolRetryMiddleware`)
    repeated: list[Repeated]
    detail: str = ""  # the node name, the statuses
    tools: list[Tool] = field(default_factory=list)  # the tools that reach it
    wrapper_at: tuple[str, Loc] | None = None  # where the wrapper is (SIB404/SIB409)


# ---- values ----------------------------------------------------------------------------------
def bound(scope: Scope, value: Value | None) -> Value | None:
    """A name's value (one hop at a time, a few hops), else the value itself."""
    for _ in range(4):
        if not isinstance(value, Ref):
            break
        found = scope.value(value.text)
        if found is None:
            break
        value = found
    return value


def arg_value(scope: Scope, call: Call, param: Param | None) -> Value | None:
    return bound(scope, call.arg(param.position, param.keyword)) if param is not None else None


def exception_names(scope: Scope, value: Value | None) -> tuple[str, ...] | None:
    """The exception names an exception type or tuple of types names (None when not literal)."""
    value = bound(scope, value)
    if isinstance(value, Ref):
        return (value.name,)
    if isinstance(value, Seq):
        names: list[str] = []
        for entry in value.items:
            item = bound(scope, entry)
            if not isinstance(item, Ref):
                return None
            names.append(item.name)
        return tuple(names)
    return None


def connect_only(names: tuple[str, ...] | None) -> bool:
    return bool(names) and all(n in CONNECT_PHASE_ERRORS for n in names or ())


def literal_none(value: Value | None) -> bool:
    return isinstance(value, Const) and value.value is None


# ---- idempotency keys ------------------------------------------------------------------------
def stable_key(call: Call, scope: Scope) -> bool:
    """Does the call send an idempotency key that is the same on every attempt? (The key data and
    what mints one per call are shared with SIB402/SIB403: `siblint.effects.keys`.)"""
    key = key_of(call, scope)
    return key.presence == "present" and minted_in(key.value, scope, partial(is_tool_call_id, scope)) is None


def repeat_is_harmful(site: Site) -> bool:
    """A side effect whose repeat may act twice: not an idempotent HTTP method, no stable key."""
    eff = site.effect
    if eff is None:
        return False
    if eff.kind == "http" and eff.method in IDEMPOTENT_METHODS:
        return False
    return not stable_key(site.call, site.scope)


# ---- retry-library wrappers ------------------------------------------------------------------
@dataclass(frozen=True)
class Wrapper:
    name: str  # canonical library name (`tenacity.retry`)
    spec: RetryWrapper
    call: Call | None  # the wrapper's call (None for a bare `@retry`)
    loc: Loc  # where it is used: the decorator, the loop's call
    scope: Scope  # where `call` is read (a factory's body for a wrapper a project function returns)
    path: str  # the module of `loc`


def _wrapper(scope: Scope, value: Value, form: str, project: ProjectIndex | None = None) -> Wrapper | None:
    """The retry wrapper `value` is: a library wrapper, or (with `project`) a project function
    that returns one (`@with_retries()` where `def with_retries(): return retry(...)`), reported
    where it is used."""
    call = value if isinstance(value, Call) else None
    func = call.func if call is not None else value
    if not isinstance(func, Ref):
        return None
    spec = WRAPPERS.get(func.name)
    if spec is not None:
        return Wrapper(func.name, spec, call, value.loc, scope, scope.facts.path) if spec.form == form else None
    if project is None or call is None:
        return None
    for facts, factory in callees(scope, call, project):
        inner = Scope(facts, factory.name)
        for ret in factory.return_values:
            returned = bound(inner, ret)
            found = _wrapper(inner, returned, form) if returned is not None else None
            if found is not None:
                return Wrapper(found.name, found.spec, found.call, value.loc, found.scope, scope.facts.path)
    return None


def decorator_wrappers(scope: Scope, fn: FunctionFacts, project: ProjectIndex | None = None) -> list[Wrapper]:
    found = (_wrapper(scope, d, "decorator", project) for d in fn.decorators)
    return [w for w in found if w is not None]


def is_unbounded(w: Wrapper) -> bool:
    """Does the wrapper retry for ever while the failure lasts?"""
    if w.call is None:
        return True  # bare `@retry`: tenacity's stop_never
    given = {k: bound(w.scope, w.call.kwarg(k)) for k in w.spec.bounds if w.call.kwarg(k) is not None}
    if w.spec.bounded_by_default:
        return len(given) == len(w.spec.bounds) and all(literal_none(v) for v in given.values())
    return all(literal_none(v) or (isinstance(v, Ref) and v.name in UNBOUNDED) for v in given.values())


def retries_connect_only(w: Wrapper) -> bool:
    """Are the only failures it retries connect-phase errors (nothing was sent)?"""
    if w.spec.on_results or w.call is None or w.spec.exceptions is None:
        return False
    value = arg_value(w.scope, w.call, w.spec.exceptions)
    if w.spec.predicate:
        if not isinstance(value, Call) or value.callee not in TYPE_PREDICATES:
            return False
        value = value.arg(0, "exception_types")
    return connect_only(exception_names(w.scope, value))


def _subtree(events: list[Visit | Site], i: int) -> list[Visit | Site]:
    """The events below the Visit at `i`: its own sites and the functions it enters, in walk order."""
    top = events[i]
    depth = top.ctx.depth
    out: list[Visit | Site] = []
    for e in events[i + 1:]:
        if isinstance(e, Visit) and e.ctx.depth <= depth:
            break
        if isinstance(e, Site) and (e.ctx.depth < depth or (e.ctx.depth == depth and e.fn is not top.fn)):
            break
        out.append(e)
    return out


def _loop_subtree(events: list[Visit | Site], i: int, loop: Call) -> list[Site]:
    """The sites a `for attempt in loop:` body of the function visited at `i` reaches."""
    top = events[i]
    assert isinstance(top, Visit)
    inside = {s.call.loc for s in top.fn.calls if loop in s.loops}
    below = _subtree(events, i)
    out: list[Site] = []
    j = 0
    while j < len(below):
        e = below[j]
        if isinstance(e, Site) and e.fn is top.fn and e.call.loc in inside:
            out.append(e)
        elif isinstance(e, Visit) and e.ctx.depth == top.ctx.depth + 1 and e.entered_at in inside:
            out.extend(s for s in _subtree(below, j) if isinstance(s, Site))
        j += 1
    return out


def _wrappers_in_walk(w: Walk, project: ProjectIndex) -> list[tuple[Wrapper, list[Site]]]:
    """Every retry wrapper a tool's walk passes, with the sites it retries."""
    out: list[tuple[Wrapper, list[Site]]] = []
    seen: set[tuple[str, Loc]] = set()
    for i, e in enumerate(w.events):
        if not isinstance(e, Visit):
            continue
        scope = Scope(e.facts, e.fn.name)
        for wr in decorator_wrappers(Scope(e.facts, e.fn.name.rpartition(".")[0]), e.fn, project):
            if (wr.path, wr.loc) not in seen:
                seen.add((wr.path, wr.loc))
                out.append((wr, [s for s in _subtree(w.events, i) if isinstance(s, Site)]))
        loops = {loop.loc: loop for s in e.fn.calls for loop in s.loops}
        for loop in loops.values():
            looped = _wrapper(scope, loop, "loop", project)
            if looped is not None and (looped.path, looped.loc) not in seen:
                seen.add((looped.path, looped.loc))
                out.append((looped, _loop_subtree(w.events, i, loop)))
    return out


def library_retries(facts: ModuleFacts, project: ProjectIndex, config: Config) -> list[Finding]:
    """SIB404/SIB409 reasons for every retry wrapper the tools of this module reach. A wrapper in
    this module is reported where it is; one in another module, at the tool that reaches it (a
    finding belongs to the file being checked, where its `# noqa` is read)."""
    by_key: dict[tuple[str, str, Loc], Finding] = {}
    for tool in tools_in(facts):
        w = walk(tool, project, config)
        if w is None:
            continue
        for wr, sites in _wrappers_in_walk(w, project):
            here = wr.path == facts.path
            loc = wr.loc if here else tool.loc
            harmful = [s for s in sites if repeat_is_harmful(s)]
            reasons = ["repeats_effect"] if harmful and not retries_connect_only(wr) else []
            if is_unbounded(wr):
                reasons.append("unbounded")
            for reason in reasons:
                f = by_key.setdefault((reason, wr.name, loc), Finding(reason, loc, facts.path, wr.name, [],
                                                                      wrapper_at=(wr.path, wr.loc)))
                if tool not in f.tools:
                    f.tools.append(tool)
                f.repeated.extend(Repeated(tool, s) for s in (harmful if reason == "repeats_effect" else ()))
    return list(by_key.values())
