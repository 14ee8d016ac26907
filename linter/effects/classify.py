"""The classifier: which side effect a call performs, as a structured `Effect`."""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..syntax.facts import TAGGED_TEMPLATE, Call, FString, Ref
from .checks import CHECKS, describe
from .resolve import Resolver, method_name, no_names, receiver_of
from .rows import Row, verb_matches
from .table import CALLS, FAMILIES, METHODS, SAME_CALL_WRAPPERS, any_rows, type_family


@dataclass(frozen=True)
class Effect:
    description: str  # "POST to https://payments.example.com/… via requests", "a subprocess"
    blocking: bool  # sync I/O: holds its thread, or the event loop when called from async code
    call: Call
    configured: bool = False  # named by `extend-side-effect-calls`
    kind: str = ""  # http / email / subprocess / file / sql / orm / payment / message / cloud / ... / configured
    method: str = ""  # HTTP method, SQL verb or library verb; "" when chosen at run time
    target: str = ""  # URL, table, path or resource, when the source spells it out
    threaded: bool = False  # done in the library's worker thread (aiofiles): a cancelled await leaves it running


def _matches(patterns: tuple[str, ...], names: tuple[str, ...]) -> bool:
    for p in patterns:
        for n in names:
            if not n:
                continue
            if p.endswith(".*") and (n.startswith(p[:-1]) or n == p[:-2]):
                return True
            if n == p:
                return True
    return False


def names_of(call: Call, bindings: Resolver | None = None) -> tuple[str, ...]:
    """The names config entries are compared with: the callee, and `<constructor>.<method>`."""
    r = bindings or no_names()
    template = call.arg(0, None)
    if isinstance(template, FString) and template.kind == TAGGED_TEMPLATE and isinstance(call.func, Ref) \
            and "." not in call.func.text:
        # An object a known constructor built, used as a tag (postgres.js's `sql\`INSERT ...\`` of
        # `const sql = postgres(url)`): its `__call__`.
        ctor = r.constructor(call.func)
        if ctor:
            return (call.callee, f"{ctor}.__call__")
    ctor = r.constructor(receiver_of(call.func))
    return (call.callee, f"{ctor}.{method_name(call.func)}" if ctor else "")


def is_pure(call: Call, bindings: Resolver | None, pure_calls: tuple[str, ...]) -> bool:
    return bool(pure_calls) and _matches(pure_calls, names_of(call, bindings))


def rows_for(call: Call, names: tuple[str, ...]) -> list[Row]:
    """The table rows `call` matches, most specific first (a "call" or "family" row, then a method
    of a known object, then an "any" row)."""
    callee = call.callee
    meth = "__call__" if names[1].endswith(".__call__") else method_name(call.func)
    rows: list[Row] = []
    if callee in CALLS:
        rows.append(CALLS[callee])
    # A family's object by its import path (`stripe.Customer.create`), or bound to a local name
    # (`pods = Renderer.K8sApi.podsApi; pods.evict(...)`: the constructor the resolver gives).
    for name in (callee, names[1]):
        if name and not rows:
            rows.extend(r for r in FAMILIES if name.startswith(r.name) and verb_matches(r.verbs, meth))
    if not rows and meth:
        ctor = type_family(names[1].rpartition(".")[0]) if names[1] else ""
        receiver = receiver_of(call.func)
        group = method_name(receiver) if receiver is not None else ""
        rows.extend(r for r in METHODS.get(ctor, ()) if verb_matches(r.verbs, meth, group))
        if not rows and receiver is not None:
            rows.extend(any_rows(meth))
    return rows


def effect_of(
    call: Call,
    bindings: Resolver | None = None,
    *,
    awaited: bool = False,
    extend: tuple[str, ...] = (),
    pure: tuple[str, ...] = (),
) -> Effect | None:
    """The side effect `call` performs, or None for reads, pure calls and unknown calls.

    `bindings` resolves receivers and string arguments in the calling function; `awaited` says
    whether the call is awaited (for rows that serve sync and async drivers alike); `extend` and
    `pure` are the user's `extend-side-effect-calls` and `pure-calls`.
    """
    r: Resolver = bindings or no_names()
    names = names_of(call, r)
    if pure and _matches(pure, names):
        return None
    if extend and _matches(extend, names):
        name = next(n for n in names if n and _matches(extend, (n,)))
        return Effect(f"{name} (configured side effect)", not awaited, call, configured=True, kind="configured",
                      method=method_name(call.func))
    rows = rows_for(call, names)
    if not rows and (wrapped := _same_call(call, r)) is not None:
        call, rows = wrapped, rows_for(wrapped, names_of(wrapped, r))
    for row in rows:
        found = CHECKS[row.check](row, call, r) if row.check else describe(row, call, row.method)
        if found is not None:
            blocking = (not awaited) if row.blocking is None else row.blocking
            return Effect(found.description, blocking, call, kind=found.kind or row.kind, method=found.method,
                          target=found.target, threaded=row.threaded)
    return None


def _same_call(call: Call, r: Resolver) -> Call | None:
    """The same call of the function a local name stands for: `fetchFn(url, {...})` of `const
    fetchFn = globalThis.fetch`, `execFileAsync(...)` of `const execFileAsync = promisify(execFile)`
    (a wrapper that keeps the arguments)."""
    if not isinstance(call.func, Ref) or "." in call.func.text:
        return None
    bound = r.value(call.func.text)
    if isinstance(bound, Call) and bound.callee in SAME_CALL_WRAPPERS and bound.args and isinstance(bound.args[0], Ref):
        return replace(call, func=bound.args[0])
    if isinstance(bound, Ref) and bound.text != call.func.text:
        return replace(call, func=bound)
    return None
