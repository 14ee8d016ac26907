"""Dependency timeouts: the calls that bound how long a tool may wait on a dependency, and where
each takes its number of seconds. For a tuple or a phase object (`httpx.Timeout(8, connect=1)`) the
largest phase counts: any one phase may wait that long.

Library defaults (httpx 5 s, openai 600 s, stripe 80 s) are not compared: only explicit numbers.
"""

from __future__ import annotations

from ..syntax.facts import Call, Ref, Seq, Value
from .resolve import Resolver, method_name, receiver_of

_HTTP_VERBS = ("get", "post", "put", "patch", "delete", "head", "options", "request", "stream")

# Resolved callee -> (keyword, position) of its timeout in seconds.
CHILD_TIMEOUTS: dict[str, tuple[str, int | None]] = {
    **{f"httpx.{v}": ("timeout", None) for v in _HTTP_VERBS},
    **{f"requests.{v}": ("timeout", None) for v in _HTTP_VERBS if v != "stream"},
    "httpx.Client": ("timeout", None), "httpx.AsyncClient": ("timeout", None),
    "asyncio.wait_for": ("timeout", 1), "asyncio.timeout": ("delay", 0),
    "anyio.fail_after": ("delay", 0), "anyio.move_on_after": ("delay", 0),
    "openai.OpenAI": ("timeout", None), "openai.AsyncOpenAI": ("timeout", None),
    "stripe.HTTPXClient": ("timeout", None), "stripe.RequestsClient": ("timeout", None),
    "aiohttp.ClientSession": ("timeout", None),
}
# Clients whose methods take a per-request `timeout=`, and whose constructor's timeout applies to
# every request made through them.
CLIENTS = frozenset({"httpx.Client", "httpx.AsyncClient", "requests.Session", "requests.sessions.Session",
                     "openai.OpenAI", "openai.AsyncOpenAI", "aiohttp.ClientSession"})
# Timeout objects: callee -> the arguments that are phases (position 0 is the httpx default for all).
PHASES: dict[str, tuple[str, ...]] = {
    "httpx.Timeout": ("timeout", "connect", "read", "write", "pool"),
    "aiohttp.ClientTimeout": ("total", "connect", "sock_read", "sock_connect"),
}


def _phase_seconds(value: Value | None, r: Resolver, depth: int = 0) -> float | None:
    """Seconds a timeout argument allows: a number, a (connect, read) tuple or a phase object."""
    from ..model.semantic import Scope, seconds

    if value is None or depth > 3 or not isinstance(r, Scope):
        return None
    if isinstance(value, Ref):
        bound = r.value(value.text)
        if isinstance(bound, (Call, Seq)):
            return _phase_seconds(bound, r, depth + 1)
    if isinstance(value, Seq):
        found = [_phase_seconds(v, r, depth + 1) for v in value.items]
        return max(found) if found and None not in found else None  # type: ignore[type-var]
    if isinstance(value, Call) and value.callee in PHASES:
        phases = PHASES[value.callee]
        found = [_phase_seconds(v, r, depth + 1) for v in (*value.args[:1], *(v for k, v in value.kwargs if k in phases))]
        return max(found) if found and None not in found else None  # type: ignore[type-var]
    return seconds(r, value)


def child_timeout(call: Call, r: Resolver) -> tuple[float, Call] | None:
    """The seconds `call` may wait on a dependency, when it says so explicitly, with the call that
    sets the number: the call itself, or the constructor of the client it is made through (a
    `with` header, a local or module-level client of the same module)."""
    spec = CHILD_TIMEOUTS.get(call.callee)
    if spec is not None:
        n = _phase_seconds(call.arg(spec[1], spec[0]), r)
        return (n, call) if n is not None else None
    receiver = receiver_of(call.func)
    if receiver is None or method_name(call.func).startswith("_") or r.constructor(receiver) not in CLIENTS:
        return None
    own = call.kwarg("timeout")
    if own is not None:
        n = _phase_seconds(own, r)
        return (n, call) if n is not None else None
    built = r.value(receiver.text) if isinstance(receiver, Ref) else receiver
    if isinstance(built, Call) and built.callee in CHILD_TIMEOUTS:
        return child_timeout(built, r)
    return None
