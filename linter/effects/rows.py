"""The row format of the side-effect table, and the helpers the data modules build rows with."""

from __future__ import annotations

from dataclasses import dataclass

MUTATING_HTTP = frozenset({"POST", "PUT", "PATCH", "DELETE"})


@dataclass(frozen=True)
class Row:
    """One spelling of a side effect.

    `match` says how the call is recognised: "call" (the resolved dotted callee), "family" (a dotted
    prefix plus a final name), "method" (a method on an object a known constructor built) or "any"
    (a method name distinctive enough to count on any receiver). In `verbs`, "put_*" is a prefix
    and "!name" excludes a name a prefix would otherwise match.
    """

    match: str  # "call" | "family" | "method" | "any"
    name: str  # dotted callee, family prefix, constructor, or "" for "any"
    verbs: tuple[str, ...]  # final names that match; () for "call"
    what: str  # description; "{method}" is the HTTP method, "{name}" the call as written
    blocking: bool | None  # None: blocking when the call is not awaited
    check: str = ""  # argument check (see `checks.CHECKS`); "" = every matching call is the effect
    method: str = ""  # the HTTP method of `requests.post`-style rows ("" = read it from the arguments)
    kind: str = ""  # http / email / subprocess / file / sql / orm / nosql / payment / message / ...
    threaded: bool = False  # the library does it in its own worker thread, which a cancelled await leaves running


@dataclass(frozen=True)
class Found:
    """What an argument check read from a call: the effect's description, verb and target."""

    description: str
    method: str = ""  # HTTP method, SQL verb, or the library verb (`create`, `put_object`)
    target: str = ""  # URL, table, path or resource, when the source spells it out
    kind: str = ""  # overrides the row's kind (a bare `.execute()` that turns out to be a Google API call)


def calls(names: str, what: str, blocking: bool | None, kind: str, check: str = "", threaded: bool = False) -> list[Row]:
    """One "call" row per dotted name in `names`."""
    return [Row("call", n, (), what, blocking, check, kind=kind, threaded=threaded) for n in names.split()]


def methods(ctors: str, verbs: str, what: str, blocking: bool | None, kind: str, check: str = "") -> list[Row]:
    """One "method" row per constructor in `ctors`, matching the method names in `verbs`."""
    return [Row("method", c, tuple(verbs.split()), what, blocking, check, kind=kind) for c in ctors.split()]


def anys(verbs: str, what: str, blocking: bool | None, kind: str, check: str = "") -> Row:
    """An "any" row: the method names in `verbs` on any receiver."""
    return Row("any", "", tuple(verbs.split()), what, blocking, check, kind=kind)


def verb_matches(verbs: tuple[str, ...], name: str, group: str = "") -> bool:
    """Is method `name` one of `verbs` (`create`, a prefix `create*`, or `conversations.join`: the
    method of that group of the client, `client.conversations.join(...)`, where a plain value has
    a `join` too)? `group`: the attribute the method is called on."""
    if f"!{name}" in verbs:
        return False
    return any(name.startswith(v[:-1]) if v.endswith("*") else name == v or v == f"{group}.{name}" for v in verbs)
