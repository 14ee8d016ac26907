"""The side-effect table: every data module's rows, and the lookups the classifier uses."""

from __future__ import annotations

from functools import lru_cache

from ..frameworks import import_roots
from . import (
    ads,
    azure,
    browser,
    cloud,
    databases,
    desktop,
    files,
    google_apis,
    http,
    javascript,
    mail,
    mcp,
    media,
    memory,
    messaging,
    office,
    payments,
    processes,
    stores,
    ticketing,
)
from .rows import Row, verb_matches

TABLE: tuple[Row, ...] = (
    *http.ROWS, *mail.ROWS, *processes.ROWS, *files.ROWS, *databases.ROWS, *payments.ROWS, *messaging.ROWS,
    *cloud.ROWS, *azure.ROWS, *google_apis.ROWS, *ticketing.ROWS, *memory.ROWS, *desktop.ROWS, *office.ROWS, *javascript.ROWS,
    *stores.ROWS, *browser.ROWS, *media.ROWS, *mcp.ROWS, *ads.ROWS,
)

# Library roots the table names (`requests`, `stripe`, `boto3`): never project code.
TABLE_ROOTS = frozenset(r.name.split(".")[0] for r in TABLE if r.match in ("call", "family", "method"))
# Libraries whose names are never project code: the classifier answers for them, no module lookup.
# The agent frameworks' own roots come from their data (`siblint.frameworks`).
LIBRARY_ROOTS = TABLE_ROOTS | {"asyncio", "concurrent", "functools", "contextlib", "anyio", "starlette", "logging",
                               "json", "time"} | set(import_roots())


def _index() -> tuple[dict[str, Row], list[Row], dict[str, list[Row]], dict[str, tuple[Row, ...]]]:
    calls: dict[str, Row] = {}
    families: list[Row] = []
    methods: dict[str, list[Row]] = {}
    anys: dict[str, tuple[Row, ...]] = {}  # several libraries' rows may claim a verb; each check decides
    for row in TABLE:
        if row.match == "call":
            calls[row.name] = row
        elif row.match == "family":
            families.append(row)
        elif row.match == "method":
            methods.setdefault(row.name, []).append(row)
        else:
            for verb in row.verbs:
                anys[verb] = (*anys.get(verb, ()), row)
    return calls, families, methods, anys


CALLS, FAMILIES, METHODS, ANY = _index()
# Library types that share one set of methods, named as one constructor (see `type_family`).
TYPE_FAMILIES = (*javascript.TYPE_FAMILIES, *cloud.TYPE_FAMILIES)


class _Constructors(frozenset[str]):
    """The constructors the table lists methods of, and every library type a `TYPE_FAMILIES`
    pattern names (a Google Cloud client, `google.cloud.batch_v1.BatchServiceClient`)."""

    def __contains__(self, name: object) -> bool:
        return frozenset.__contains__(self, name) or (isinstance(name, str) and type_family(name) != name)


CONSTRUCTORS = _Constructors(METHODS)
SAME_CALL_WRAPPERS = javascript.SAME_CALL_WRAPPERS
# "any" rows with a prefix verb (`patch_namespaced_*`): matched after the exact names.
_ANY_PREFIXED = tuple(dict.fromkeys(row for verb, rows in ANY.items() if verb.endswith("*") for row in rows))


_FAMILY_PREFIXES = tuple(row.name for row in FAMILIES)


def in_family(name: str) -> bool:
    """`name` is an object a "family" row lists the methods of (`stripe.Customer`)."""
    return name.startswith(_FAMILY_PREFIXES)


def any_rows(method: str) -> tuple[Row, ...]:
    """The "any" rows a method name matches on any receiver: its exact name's, else a prefix's."""
    return ANY.get(method) or tuple(row for row in _ANY_PREFIXED if verb_matches(row.verbs, method))[:1]


@lru_cache(maxsize=4096)
def type_family(ctor: str) -> str:
    """The constructor a library type's methods are listed under: its own when the table lists it,
    else the family a `TYPE_FAMILIES` pattern gives it."""
    if ctor in METHODS:
        return ctor
    return next((family for pattern, family in TYPE_FAMILIES if pattern.match(ctor)), ctor)
