"""A read-through cache in a helper: not the tool's effect.

A helper that answers from a stored copy when it has one, and otherwise reads the value elsewhere,
stores it and returns it, keeps a cache of what it reads:

    if (user?.timezone) return { timezone: user.timezone }
    const response = await calendar.settings.get({ setting: "timezone" })
    const timezone = response.data.value || "UTC"
    userRepository.updateUserTimezone(email, timezone)
    return { timezone }

(a calendar assistant's `getTimezoneHandler`; a coding agent's `readWorkspaceFile` hydrating its
disk copy from object storage). The store changes nothing a caller reads differently: the next call
answers the same, from the copy. Three things together make it one, so that a helper that imports
records and returns them (`orders = shop.get_orders(); db.insert(orders); return orders`) stays an
effect: the stored value came from a call of the same function, the function returns it, and it
returns earlier, before that call, when it does not need it (the stored copy).
"""

from __future__ import annotations

from ..syntax.facts import Attr, Call, Either, FunctionFacts, Item, Mapping, Ref, Seq, Value
from .semantic import Scope

MAX_HOPS = 4  # `timezone = response.data.value || "UTC"` -> `response` -> `calendar.settings.get(...)`


def stores_what_it_read(fn: FunctionFacts, scope: Scope, call: Call) -> bool:
    """Does `call` store, in `fn`'s read-through cache, a value `fn` read and returns (module doc)?"""
    if len(fn.return_sites) < 2:  # an early answer and the final one: most functions have neither
        return False
    for arg in _names_passed(call):
        if "." in arg.text or arg.text in fn.params:
            continue
        source = _source_call(scope, arg.text)
        if source is None or source.loc == call.loc or not any(_mentions(r, arg.text) for r in fn.return_values):
            continue
        if any((r.loc.line, r.loc.col) < (source.loc.line, source.loc.col) for r in fn.return_sites):
            return True
    return False


def _names_passed(call: Call) -> list[Ref]:
    """The names `call` is given, also inside a tuple or an object (`(tz, email)`, `{ timezone }`)."""
    out: list[Ref] = []
    for arg in (*call.args, *(value for _, value in call.kwargs)):
        items = arg.items if isinstance(arg, Seq) else [v for _, v in arg.items] if isinstance(arg, Mapping) else [arg]
        out.extend(v for v in items if isinstance(v, Ref))
    return out


def _source_call(scope: Scope, name: str) -> Call | None:
    """The call whose result the local `name` holds, through attribute reads and `or` defaults."""
    value: Value | None = scope.value(name)
    for _ in range(MAX_HOPS):
        if isinstance(value, Either):
            value = next((o for o in value.options if isinstance(o, (Ref, Call, Item, Attr))), None)
        if isinstance(value, Item):  # `requests.get(url).json()["value"]`
            value = value.container
        elif isinstance(value, Attr):  # `(await response.json()).value`
            value = value.receiver
        if isinstance(value, Call):
            # `process.stdout.decode()` of `process = subprocess.run(...)`: the read is the call that
            # made the local it is a method of (an early `return` after it answers from that read).
            head = value.func.text.partition(".")[0] if isinstance(value.func, Ref) and "." in value.func.text else ""
            made = scope.value(head) if head and head != name and head not in (scope.fn.params if scope.fn else ()) \
                else None
            if not isinstance(made, Call):
                return value
            value = made
            continue
        if not isinstance(value, Ref):
            return None
        head = value.text.partition(".")[0]
        if head == name or head in (scope.fn.params if scope.fn else ()):
            return None
        value = scope.value(head)
    return None


def _mentions(value: Value | None, name: str) -> bool:
    """Does the returned `value` hand `name` back (`timezone`, `{ timezone }`, `[copy]`)?"""
    if isinstance(value, Ref):
        return value.text == name
    if isinstance(value, Mapping):
        return any(_mentions(v, name) for _, v in value.items)
    if isinstance(value, Seq):
        return any(_mentions(v, name) for v in value.items)
    return False
