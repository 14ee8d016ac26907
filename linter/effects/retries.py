"""Retry libraries used inside tools, as data (tenacity 9.2.1, backoff 2.2.1, stamina 26.1.0; read in
their installed source, defaults as in their signatures).

A wrapper re-runs code after a failure. Two things decide whether that is safe and whether it ends:

* which failures it retries: only a connect-phase error is a failure whose outcome is known
  (nothing was sent: requests documents `ConnectTimeout` as "safe to retry"); every other error may
  come after the server acted, so the repeat can act twice;
* what bounds it: tenacity stops never by default (`stop=stop_never`), backoff's `max_tries` and
  `max_time` default to None; stamina is bounded by default (`attempts=10`, `timeout=45.0`).

Read by `siblint.retries` (SIB404, SIB409); framework retry settings are in `siblint.frameworks`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from siblint.frameworks.spec import Param


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
