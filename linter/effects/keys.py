"""Idempotency keys: which calls move money, where a call carries a key, and what mints a new key
on every call. Verified against stripe-python 16.1.0 (legacy `stripe.X.create(idempotency_key=...)`
and `StripeClient` services, `client.v1.<resource>.<verb>(params=..., options={"idempotency_key": ...})`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Literal

from ..syntax.facts import Attr, Call, Const, FString, Mapping, Ref, Seq, Starred, Value
from .resolve import Resolver, method_name, receiver_of

# Payment resources and the verbs that move money on them, by normalised resource name (lower
# case, no underscores, no plural s): `stripe.PaymentIntent.create`, `client.v1.payment_intents.create_async`.
# Left out: verbs that set a state or read (modify, update, cancel, retrieve, list), and resources
# that hold no money (customers, products, checkout sessions that only build a page).
MONEY_MOVING: dict[str, tuple[str, ...]] = {
    "paymentintent": ("create", "confirm", "capture"),
    "charge": ("create", "capture"),
    "refund": ("create",),
    "transfer": ("create",),
    "payout": ("create",),
    "topup": ("create",),
    "invoice": ("pay",),
    "subscription": ("create",),
}

KEY_KEYWORD = "idempotency_key"
OPTIONS = ("options", 1)  # StripeClient service methods: (params, options)
KEY_HEADERS = frozenset({"idempotency-key", "x-idempotency-key"})
HEADERS = "headers"

# Calls whose result is new on every call: resolved name (or prefix ending in ".") -> how the
# message names it.
MINTED: dict[str, str] = {
    "uuid.uuid1": "uuid1()", "uuid.uuid4": "uuid4()",
    "secrets.token_hex": "secrets.token_hex()", "secrets.token_urlsafe": "secrets.token_urlsafe()",
    "secrets.token_bytes": "secrets.token_bytes()", "os.urandom": "os.urandom()",
    "random.": "random", "time.time": "time.time()", "time.time_ns": "time.time_ns()",
    "time.monotonic": "time.monotonic()", "time.monotonic_ns": "time.monotonic_ns()",
    "time.perf_counter": "time.perf_counter()", "time.perf_counter_ns": "time.perf_counter_ns()",
    "datetime.datetime.now": "datetime.now()", "datetime.datetime.utcnow": "datetime.utcnow()",
    "datetime.datetime.today": "datetime.today()", "datetime.date.today": "date.today()",
}


def moves_money(call: Call) -> bool:
    """A payment call that moves money (`stripe.PaymentIntent.create`, `...refunds.create_async`)."""
    verb = method_name(call.func).removesuffix("_async")
    receiver = receiver_of(call.func)
    resource = method_name(receiver) if receiver is not None else ""
    key = resource.lower().replace("_", "").removesuffix("s")
    return verb in MONEY_MOVING.get(key, ())


Presence = Literal["absent", "present", "unknown"]


@dataclass(frozen=True)
class Key:
    presence: Presence
    value: Value | None = None  # the key expression when present
    where: str = ""  # how it is passed: "idempotency_key=", "options", "headers"


def _in_mapping(r: Resolver, value: Value | None, accept, depth: int = 0) -> Key:
    """Look for a key in a dict display, `dict(...)` / TypedDict call, or a name bound to one."""
    if value is None:
        return Key("absent")
    if isinstance(value, Ref) and depth < 3:
        bound = r.value(value.text)
        return _in_mapping(r, bound, accept, depth + 1) if bound is not None else Key("unknown")
    if isinstance(value, Mapping):
        for k, v in value.items:
            if k is None:
                return Key("unknown")  # `{**base, ...}`
            if isinstance(k, Const) and isinstance(k.value, str) and accept(k.value):
                return Key("present", v)
        return Key("absent")
    if isinstance(value, Call):
        for name, arg in value.kwargs:
            if name is None:
                return Key("unknown")
            if accept(name):
                return Key("present", arg)
        return Key("absent") if not value.args else Key("unknown")
    return Key("unknown")


def key_of(call: Call, r: Resolver) -> Key:
    """The idempotency key a call sends: `idempotency_key=`, `options={"idempotency_key": ...}`
    (keyword or position 1), or a `headers=` mapping with an `Idempotency-Key` entry."""
    if any(k is None for k, _ in call.kwargs):
        return Key("unknown")  # `**kwargs` may carry it
    direct = call.kwarg(KEY_KEYWORD)
    if direct is not None:
        return Key("present", direct, f"{KEY_KEYWORD}=")
    seen_unknown = False
    for where, value, accept in (
        ("options", call.arg(OPTIONS[1], OPTIONS[0]), lambda k: k == KEY_KEYWORD),
        ("headers", call.kwarg(HEADERS), lambda k: k.lower() in KEY_HEADERS),
    ):
        if value is None:
            continue
        found = _in_mapping(r, value, accept)
        if found.presence == "present":
            return Key("present", found.value, where)
        seen_unknown = seen_unknown or found.presence == "unknown"
    return Key("unknown" if seen_unknown else "absent")


def minted_in(value: Value | None, r: Resolver, call_id: Callable[[Value], bool] = lambda v: False,
              depth: int = 0) -> tuple[str, Value] | None:
    """The expression inside `value` (through local names) that makes it new on every call, with
    how to name it, or None: a MINTED call, or the tool call's id (`call_id`). `uuid5(NS, f"...{order}")`
    and hashes of the action's arguments are stable."""
    if value is None or depth > 6:
        return None
    if call_id(value):
        return "the tool call id", value
    if isinstance(value, Call):
        name = value.callee
        for prefix, label in MINTED.items():
            if name == prefix or (prefix.endswith(".") and name.startswith(prefix)):
                return label, value
        parts: tuple[Value | None, ...] = (value.func, *value.args, *(v for _, v in value.kwargs))
        return next((m for m in (minted_in(p, r, call_id, depth + 1) for p in parts) if m is not None), None)
    if isinstance(value, FString):
        return next((m for m in (minted_in(v, r, call_id, depth + 1) for v in value.values) if m is not None), None)
    if isinstance(value, Attr):
        return minted_in(value.receiver, r, call_id, depth + 1)
    if isinstance(value, Seq):
        return next((m for m in (minted_in(v, r, call_id, depth + 1) for v in value.items) if m is not None), None)
    if isinstance(value, Starred):
        return minted_in(value.value, r, call_id, depth + 1)
    if isinstance(value, Ref) and "." not in value.text:
        return minted_in(r.value(value.text), r, call_id, depth + 1)
    return None
