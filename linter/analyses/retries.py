"""Retries, in one module: what retry libraries, frameworks and the model runner re-run, and when a
repeat is harmful (SIB404, SIB405, SIB407, SIB408, SIB409). The rules in `siblint.rules.retries` map
each reason (`Finding.reason`) to its code.

Three places make code run again:

* a retry library inside a tool (tenacity 9.2.1, backoff 2.2.1, stamina 26.1.0; the data in the
  first section, read in their installed source, defaults as in their signatures): the wrapper is
  found on the functions a tool's walk enters (`@retry` on them) and on the loops of those functions
  (`for attempt in Retrying(...):`); what it retries is the walk below it. Which failures it retries
  decides whether a repeat is safe: only a connect-phase error is a failure whose outcome is known
  (nothing was sent: requests documents `ConnectTimeout` as "safe to retry"). What bounds it:
  tenacity stops never by default (`stop=stop_never`), backoff's `max_tries` and `max_time` default
  to None; stamina is bounded by default (`attempts=10`, `timeout=45.0`);
* a framework (`siblint.frameworks`, `RetrySpec`): a retry policy on the graph node that runs a
  ToolNode re-runs every call of the turn, including the ones that already succeeded; a tool-retry
  middleware re-runs one tool call (SIB404's middleware form, SIB405);
* the model runner: `ModelRetrySettings` without a policy retries nothing (the OpenAI Agents SDK
  runner never retries without one: SIB407), and a status policy that lists a status the same
  request always gets again retries an answer that cannot change (SIB408).

A repeat is harmless when the failure it follows is a connect-phase error (nothing was sent), when
the effect is an HTTP method that sets a state (PUT, PATCH, DELETE), or when the call carries a stable
idempotency key.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Literal

from ..common.diagnostics import Loc
from ..effects.keys import key_of, minted_in
from ..frameworks import FRAMEWORKS
from ..frameworks.spec import Framework, NodeRetry, Param
from ..model.callgraph import Site, Visit, Walk, walk
from ..model.project import ProjectIndex
from ..model.semantic import (
    Scope,
    callees,
    canonical,
    is_tool_call_id,
    method_call,
    result_names,
)
from ..model.tools import Tool, tools_in
from ..settings.config import Config
from ..syntax.facts import (
    Attr,
    Call,
    Const,
    FunctionFacts,
    Mapping,
    ModuleFacts,
    Ref,
    Seq,
    Value,
)

if TYPE_CHECKING:
    from ..model.groups import Group


# ---- Retry libraries used inside tools, as data ----------------------------------------------

@dataclass(frozen=True)
class RetryWrapper:
    """A callable that retries the code it wraps."""

    # "decorator": `@name` / `@name(...)` on the retried function; "loop": `for attempt in name(...):`
    # whose body is retried (also usable as a decorator-free call, not followed).
    form: Literal["decorator", "loop"]
    # Where the retried exception types are given; None: every exception.
    exceptions: Param | None = None
    # The exceptions argument is a tenacity predicate (`retry_if_exception_type(X)`), not the types.
    predicate: bool = False
    # Retries on results, not exceptions (backoff.on_predicate): never limited to connect errors.
    on_results: bool = False
    # Keywords that bound the retries; the wrapper is unbounded when none of them is given (or each
    # given one is a literal None / a name in `unbounded`). `bounded_by_default`: unbounded only when
    # every one of them is given as a literal None.
    bounds: tuple[str, ...] = ()
    bounded_by_default: bool = False


_TENACITY = RetryWrapper("decorator", Param("retry"), predicate=True, bounds=("stop",))
_TENACITY_LOOP = RetryWrapper("loop", Param("retry"), predicate=True, bounds=("stop",))

WRAPPERS: dict[str, RetryWrapper] = {
    # retry(*dargs, **dkw): bare `@retry` too.
    "tenacity.retry": _TENACITY,
    "tenacity.Retrying": _TENACITY_LOOP,
    "tenacity.AsyncRetrying": _TENACITY_LOOP,
    "tenacity.asyncio.AsyncRetrying": _TENACITY_LOOP,
    # on_exception(wait_gen, exception, *, max_tries=None, max_time=None, ...)
    "backoff.on_exception": RetryWrapper("decorator", Param("exception", 1), bounds=("max_tries", "max_time")),
    # on_predicate(wait_gen, predicate=operator.not_, *, max_tries=None, max_time=None, ...)
    "backoff.on_predicate": RetryWrapper("decorator", on_results=True, bounds=("max_tries", "max_time")),
    # retry(*, on, attempts=10, timeout=45.0, ...) / retry_context(on, attempts=10, timeout=45.0, ...)
    "stamina.retry": RetryWrapper("decorator", Param("on", 0), bounds=("attempts", "timeout"), bounded_by_default=True),
    "stamina.retry_context": RetryWrapper("loop", Param("on", 0), bounds=("attempts", "timeout"), bounded_by_default=True),
}

# A tenacity stop strategy that never stops (the default).
UNBOUNDED = frozenset({"tenacity.stop_never", "tenacity.stop.stop_never"})
# tenacity predicates that retry exactly the exception types they are given (position 0, or `exception_types=`).
TYPE_PREDICATES = frozenset({"tenacity.retry_if_exception_type", "tenacity.retry.retry_if_exception_type"})

# Errors raised before a request left the client: retrying them cannot repeat an action. Not
# `requests.ConnectionError` (raised for any protocol or socket error, also after sending) and not
# `httpx.TransportError` / `HTTPError` (read and write errors are among them).
CONNECT_PHASE_ERRORS = frozenset({
    "httpx.ConnectError", "httpx.ConnectTimeout", "httpx2.ConnectError", "httpx2.ConnectTimeout",
    "requests.ConnectTimeout", "requests.exceptions.ConnectTimeout",
    "aiohttp.ClientConnectorError",
})

# HTTP methods a repeat cannot turn into a second action: PUT and DELETE (idempotent by RFC 9110),
# and PATCH, which agent tools use to set fields (a merge patch, RFC 7396: the repeat sets the same
# values again; seen on real code, e.g. `{"accountEnabled": False}`). A PATCH that appends is a miss.
IDEMPOTENT_METHODS = frozenset({"PUT", "DELETE", "PATCH"})

# HTTP statuses that do not change when the same request is sent again (408, 409, 425 and 429 are
# transient by definition and are not listed).
PERMANENT_STATUSES = frozenset({400, 401, 403, 404, 405, 410, 422})


# ---- Retry libraries in tools (SIB404, SIB409), and what every retry analysis shares ---------

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


# ---- Retries a framework makes (SIB404 middleware form, SIB405) ------------------------------

def _harmful_sites(tool: Tool, project: ProjectIndex, config: Config) -> list[Site]:
    w = walk(tool, project, config)
    return [s for s in w.sites if repeat_is_harmful(s)] if w is not None else []


def _tool_names(scope: Scope, value: Value | None) -> frozenset[str] | None:
    value = bound(scope, value)
    if not isinstance(value, Seq):
        return None
    return frozenset(i.value if isinstance(i, Const) and isinstance(i.value, str) else (i.text if isinstance(i, Ref) else "")
                     for i in value.items)


def middleware_retries(facts: ModuleFacts, groups: "list[Group]", project: ProjectIndex, config: Config) -> list[Finding]:
    """SIB404 reasons for tool-retry middleware (`ToolRetryMiddleware()` in `create_agent(middleware=[...])`)
    among the module's groups (`siblint.model.groups.groups_in`)."""
    out: list[Finding] = []
    for group in groups:
        spec = group.framework.retries
        mw_param = group.maker.policy.middleware if group.maker is not None else None
        if not spec.tool_middlewares or mw_param is None:
            continue
        scope = Scope(facts, group.scope)
        listed = bound(scope, group.call.arg(mw_param.position, mw_param.keyword))
        for entry in listed.items if isinstance(listed, Seq) else ():
            item = bound(scope, entry)
            if not isinstance(item, Call) or not isinstance(item.func, Ref):
                continue
            mw = spec.tool_middlewares.get(canonical(item.func.name)[1])
            if mw is None:
                continue
            retries = arg_value(scope, item, mw.retries)
            if isinstance(retries, Const) and retries.value == 0:
                continue
            if mw.exceptions is not None and connect_only(exception_names(scope, item.arg(mw.exceptions.position, mw.exceptions.keyword))):
                continue
            names = _tool_names(scope, item.arg(mw.tools.position, mw.tools.keyword)) if mw.tools else None
            repeated = [Repeated(m.tool, s) for m in group.members()
                        if names is None or m.tool.name in names or m.tool.binding in names or m.tool.function.rpartition(".")[2] in names
                        for s in _harmful_sites(m.tool, project, config)]
            if repeated:
                out.append(Finding("repeats_effect", item.loc, facts.path, item.func.name.rpartition(".")[2], repeated))
    return out


def _policy_retries(fw: Framework, scope: Scope, value: Value | None) -> bool:
    """Does a node retry policy (a policy object, or a list of them) run the node again after a
    failure that may follow a side effect?"""
    value = bound(scope, value)
    if value is None or literal_none(value):
        return False
    if isinstance(value, Seq):
        return any(_policy_retries(fw, scope, item) for item in value.items)
    if isinstance(value, Call) and isinstance(value.func, Ref):
        policy = fw.retries.policies.get(canonical(value.func.name)[1])
        if policy is not None:
            attempts = arg_value(scope, value, policy.attempts)
            if isinstance(attempts, Const) and isinstance(attempts.value, int) and attempts.value <= 1:
                return False
            if attempts is None and policy.default_attempts <= 1:
                return False
            return not (policy.exceptions and connect_only(exception_names(scope, value.arg(policy.exceptions.position,
                                                                                     policy.exceptions.keyword))))
    return True  # a policy siblint cannot read: it retries by default


def _builder(call: Call) -> object:
    """What identifies the builder a method call is made on: its variable, or the constructor call a chain starts at."""
    func = call.func
    for _ in range(32):
        if isinstance(func, Ref):
            return func.text.rpartition(".")[0].partition(".")[0] or func.text
        receiver = getattr(func, "receiver", None)
        if not isinstance(receiver, Call):
            return receiver.text if isinstance(receiver, Ref) else None
        if isinstance(receiver.func, Ref) and "." not in receiver.func.text:
            return receiver.loc  # the chain starts at `StateGraph(S)`
        func = receiver.func
    return None


def node_retries(facts: ModuleFacts, module_groups: "list[Group]", project: ProjectIndex, config: Config) -> list[Finding]:
    """SIB405 reasons: a retry policy on a graph node whose runnable is a tool node (one of the
    module's groups) with a member whose side effect a repeat would repeat."""
    from .error_policy import group_policy

    groups = {g.call.loc: g for g in module_groups}
    methods = {m for fw in FRAMEWORKS for m in (*fw.retries.node_methods, *fw.retries.default_methods)}
    nodes: list[tuple[NodeRetry, object, Scope, Call, Value | None]] = []  # (method, builder, scope, add_node call, policy)
    defaults: dict[object, tuple[Framework, Scope, Call, Value]] = {}
    for scope_name, call in facts.all_calls():
        name = call.func.attr if isinstance(call.func, Attr) else (call.func.text.rpartition(".")[2] if isinstance(call.func, Ref) else "")
        if name not in methods:
            continue  # only builder methods that attach a policy are worth resolving
        scope = Scope(facts, scope_name)
        built, method = method_call(scope, call)
        if not built:
            continue
        for fw in FRAMEWORKS:
            spec = fw.retries
            if built not in spec.builders:
                continue
            if method in spec.node_methods:
                nr = spec.node_methods[method]
                policy = next((call.kwarg(k) for k in nr.policies if call.kwarg(k) is not None), None)
                nodes.append((nr, _builder(call), scope, call, policy))
            elif method in spec.default_methods:
                policy = next((call.kwarg(k) for k in spec.default_methods[method] if call.kwarg(k) is not None), None)
                if policy is not None:
                    defaults[_builder(call)] = (fw, scope, call, policy)
    out: list[Finding] = []
    for nr, builder, scope, call, policy in nodes:
        runnable = next((v for v in (call.arg(p.position, p.keyword) for p in nr.runnable) if v is not None), None)
        if isinstance(runnable, Const):  # `add_node("tools")` alone names no runnable
            continue
        made = bound(scope, runnable)
        group = groups.get(made.loc) if isinstance(made, Call) else None
        if group is None:
            continue
        where: tuple[Loc, Value] | None = None
        if policy is not None:
            where = (policy.loc, policy) if _policy_retries(group.framework, scope, policy) else None
        elif builder in defaults:
            fw, dscope, dcall, dpolicy = defaults[builder]
            where = (dcall.loc, dpolicy) if _policy_retries(fw, dscope, dpolicy) else None
        if where is None:
            continue
        covers = group_policy(group, facts, project).covers
        if any(c.tools is None and c.exceptions is None for c in covers):
            continue  # every member's failure becomes a message: nothing raises past the node
        repeated = [Repeated(m.tool, s) for m in group.members() for s in _harmful_sites(m.tool, project, config)]
        if repeated:
            node = call.arg(0, "node")
            label = node.value if isinstance(node, Const) and isinstance(node.value, str) else group.name
            out.append(Finding("node_retry", where[0], facts.path, "retry policy", repeated, str(label)))
    return _once_per_loc(out)


def _once_per_loc(found: list[Finding]) -> list[Finding]:
    by_loc: dict[tuple[str, Loc, str], Finding] = {}
    for f in found:
        kept = by_loc.setdefault((f.reason, f.loc, f.detail), f)
        if kept is not f:
            kept.repeated.extend(f.repeated)
    return list(by_loc.values())


# ---- Model retry settings that cannot do what they say (SIB407, SIB408) ----------------------

def model_retry_settings(facts: ModuleFacts) -> list[Finding]:
    """SIB407 reasons: model retry settings given to a settings object (`ModelSettings(retry=...)`)
    with a retry count and no policy: the runner never retries. Not judged alone: settings merged
    with others (`base.resolve(override)`; the runner also resolves an agent's settings under
    `RunConfig.model_settings`, so a policy set elsewhere in the module may complete them), and
    settings given a policy after construction."""
    found: list[tuple[Loc, Value | None, Call, str]] = []
    with_policy = False
    merged, patched = _merged_names(facts), _patched_names(facts)
    for scope_name, call in facts.all_calls():
        if not isinstance(call.func, Ref):
            continue
        fw, canon = canonical(call.func.name)
        if fw is None or canon not in fw.retries.settings_holders:
            continue
        scope = Scope(facts, scope_name)
        given = call.kwarg(fw.retries.settings_holders[canon])
        value = bound(scope, given)
        for mr_name, mr in fw.retries.model_settings.items():
            if isinstance(value, Mapping):
                retries, policy = value.get(mr.retries.keyword), value.get(mr.policy.keyword)
            elif isinstance(value, Call) and isinstance(value.func, Ref) and canonical(value.func.name)[1] == mr_name:
                retries, policy = arg_value(scope, value, mr.retries), arg_value(scope, value, mr.policy)
            else:
                continue
            names = {t for t, _ in _result_targets(facts, call)}
            if isinstance(given, Ref):
                names.add(given.text)
            if not _dead(retries, policy):
                with_policy = with_policy or not (policy is None or literal_none(policy))
            elif not names & (merged | patched):
                found.append((value.loc, retries, call, canon.rpartition(".")[2]))
    if with_policy:
        return []
    # The settings object that carries them is where the runner looks for a policy (`--output-format full`).
    return [Finding("no_policy", loc, facts.path, holder, [], detail=_spelled(retries), wrapper_at=(facts.path, call.loc))
            for loc, retries, call, holder in found]


def _spelled(value: Value | None) -> str:
    return str(value.value) if isinstance(value, Const) else ""


def _patched_names(facts: ModuleFacts) -> set[str]:
    """Names of settings objects given a policy after construction: `s.policy = p`, or a copy
    made with one (`dataclasses.replace(s, policy=p)`)."""
    keywords = {mr.policy.keyword for fw in FRAMEWORKS for mr in fw.retries.model_settings.values()}
    out = {a.target.rpartition(".")[0] for a in facts.assignments if a.target.rpartition(".")[2] in keywords}
    for _, call in facts.all_calls():
        if call.callee == "dataclasses.replace" and call.args and isinstance(call.args[0], Ref) \
                and any(k in keywords for k, _ in call.kwargs):
            out.add(call.args[0].text)
    return out


def _dead(retries: Value | None, policy: Value | None) -> bool:
    if isinstance(retries, Const) and retries.value == 0:
        return False  # an explicit opt-out (it also turns the client's own retries off)
    return policy is None or literal_none(policy)


def _result_targets(facts: ModuleFacts, call: Call) -> list[tuple[str, str]]:
    return result_names(facts).get(call.loc, [])


def _merged_names(facts: ModuleFacts) -> set[str]:
    """Names of settings objects that are merged with others (`base.resolve(override)`): the
    result may carry a policy from the other side."""
    mergers = {m for fw in FRAMEWORKS for m in fw.retries.settings_mergers}
    out: set[str] = set()
    for _, call in facts.all_calls():
        if not isinstance(call.func, Ref) or call.func.text.rpartition(".")[2] not in mergers or "." not in call.func.text:
            continue
        out.add(call.func.text.rpartition(".")[0])
        out.update(a.text for a in call.args if isinstance(a, Ref))
        out.update(v.text for _, v in call.kwargs if isinstance(v, Ref))
    return out


def permanent_status_retries(facts: ModuleFacts) -> list[Finding]:
    """SIB408 reasons: a status policy listing statuses that do not change on retry."""
    out: list[Finding] = []
    for scope_name, call in facts.all_calls():
        if not isinstance(call.func, Ref):
            continue
        fw, canon = canonical(call.func.name)
        param = fw.retries.status_policies.get(canon) if fw is not None else None
        if param is None:
            continue
        scope = Scope(facts, scope_name)
        statuses = arg_value(scope, call, param)
        if not isinstance(statuses, Seq):
            continue
        codes = sorted({v.value for v in (bound(scope, i) for i in statuses.items)
                        if isinstance(v, Const) and isinstance(v.value, int) and v.value in PERMANENT_STATUSES})
        if codes:
            out.append(Finding("permanent_status", call.loc, facts.path, call.func.text, [], ", ".join(map(str, codes))))
    return out
