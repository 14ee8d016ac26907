"""Per-module facts: a framework-neutral summary of one module, built in one traversal.

Rules never see libcst nodes. They read these plain, picklable records, so the facts of a module
can be cached and a module imported by another can be analysed without parsing it again.

Expressions are kept as small `Value` trees: enough to know which function a call names, what
literal an argument holds, and which names a tools list contains.

Memory: a generated module can hold a million functions, so every record but `ModuleFacts` (whose
`__dict__` holds the derived views) has `__slots__`, and the collector lets functions without
calls, raises or `with` bindings share one empty container each (`EMPTY_*`), instead of ~300 bytes
of empty lists and dicts per function. Facts are never mutated after collection.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, TypeVar, Union

from ..common.diagnostics import Loc
from ..common.pickling import by_constructor

# The base a TypeScript interface is recorded with in `classes` (its `extends` follow): like a
# Protocol, it stands for the project classes that implement it.
TS_INTERFACE = "<interface>"
# The last base an `abstract class` is recorded with: never instantiated, only its subclasses are.
TS_ABSTRACT = "<abstract>"


@by_constructor
@dataclass(frozen=True, slots=True)
class Const:
    """A literal: None, True/False, a number or a string."""

    value: object
    loc: Loc


@by_constructor
@dataclass(frozen=True, slots=True)
class Ref:
    """A dotted name. `name` is resolved through the module's imports (`ft` -> `agents.function_tool`);
    `text` is what the source says."""

    name: str
    text: str
    loc: Loc


@by_constructor
@dataclass(frozen=True, slots=True)
class Call:
    func: "Value"
    args: tuple["Value", ...]
    kwargs: tuple[tuple[str | None, "Value"], ...]  # name None means `**value`
    loc: Loc
    starred: tuple[int, ...] = ()  # indexes of `*arg` positional arguments

    @property
    def callee(self) -> str:
        return self.func.name if isinstance(self.func, Ref) else ""

    def kwarg(self, name: str) -> "Value | None":
        for key, value in self.kwargs:
            if key == name:
                return value
        return None

    def arg(self, index: int | None, name: str | None) -> "Value | None":
        """The argument given by keyword `name` or at positional `index` (before any `*arg`)."""
        if name is not None:
            found = self.kwarg(name)
            if found is not None:
                return found
        if index is not None and index < len(self.args):
            if not any(i <= index for i in self.starred):
                return self.args[index]
        return None


@by_constructor
@dataclass(frozen=True, slots=True)
class Seq:
    """A list, tuple or set display, or `a + b` of such: items in order, `*x` as Starred."""

    items: tuple["Value", ...]
    loc: Loc


@by_constructor
@dataclass(frozen=True, slots=True)
class Starred:
    value: "Value"
    loc: Loc


@by_constructor
@dataclass(frozen=True, slots=True)
class Mapping:
    items: tuple[tuple["Value | None", "Value"], ...]  # key None means `**value`
    loc: Loc

    def get(self, key: str) -> "Value | None":
        for k, v in self.items:
            if isinstance(k, Const) and k.value == key:
                return v
        return None


@by_constructor
@dataclass(frozen=True, slots=True)
class Other:
    """Anything else (lambda, comprehension, arithmetic...): only its location is kept."""

    loc: Loc
    kind: str = ""


@by_constructor
@dataclass(frozen=True, slots=True)
class Lambda(Other):
    """`lambda params: body`. Still an `Other` (kind "Lambda") for code that only needs its location."""

    params: tuple[str, ...] = ()
    body: "Value | None" = None


@by_constructor
@dataclass(frozen=True, slots=True)
class Attr(Other):
    """`<expr>.name` where `<expr>` is not a dotted name (`Path(p).write_text`, `boto3.client("s3").put_object`).
    Still an `Other` (kind "attr:name"); `receiver` is the value the attribute is read from."""

    attr: str = ""
    receiver: "Value | None" = None


# The kind of a TS/JS tagged template's text (`` sql`INSERT ...` ``): the call is the tag's, with a query.
TAGGED_TEMPLATE = "TaggedTemplate"


@by_constructor
@dataclass(frozen=True, slots=True)
class FString(Other):
    """An f-string. Still an `Other` (kind "FormattedString"); `text` is its literal parts, each `{...}` as "{}".
    `values` are the interpolated expressions, in order (a key built as `f"{order}-{uuid4()}"`, SIB403)."""

    text: str = ""
    values: tuple["Value", ...] = ()


@by_constructor
@dataclass(frozen=True, slots=True)
class Either(Other):
    """`a or b or ...` (kind "BooleanOperation"), whichever option is truthy first, or `a if c else b`
    (kind "IfExp"): one of the options. Still an `Other`: a program found as
    `shutil.which("aplay") or shutil.which("paplay")` is one of the two, and so is a tool listed as
    `tools=[search if online else cached_search]`."""

    options: tuple["Value", ...] = ()


def either(loc: Loc, kind: str, values: Iterable["Value"]) -> Either:
    """One of `values`, a nested either-or flattened (`a or (b or c)` is one of three)."""
    return Either(loc, kind, tuple(o for v in values for o in (v.options if isinstance(v, Either) else (v,))))


@by_constructor
@dataclass(frozen=True, slots=True)
class Comp(Other):
    """A list, set or generator comprehension `[elt for target in iter]` (one `for`, filters dropped).
    Still an `Other` (kind "Comp"): tools lists are often written `[t for t in ALL if ...]`."""

    elt: "Value | None" = None
    target: str = ""
    iter: "Value | None" = None


@by_constructor
@dataclass(frozen=True, slots=True)
class Each(Other):
    """What `for target in iter:` binds its target to: one element of `iter`. Still an `Other`
    (kind "For"): a method called on the loop variable (`for g in self.graphs: g.save()`) is a
    method of the element class that `iter`'s items or annotation (`graphs: list[Graph]`) name."""

    iter: "Value | None" = None


# The target text of an assignment to an entry under a key chosen at run time (`d[k] = v`): `d[]`.
KEYED = "[]"


@by_constructor
@dataclass(frozen=True, slots=True)
class Item(Other):
    """`<container>[<key>]`. Still an `Other` (kind "Subscript"): a dispatch table read by key
    (`_ACTIONS[action](**kw)`) calls one of the container's values."""

    container: "Value | None" = None
    key: "Value | None" = None


@by_constructor
@dataclass(frozen=True, slots=True)
class Slash(Other):
    """`left / right`: a path joined with pathlib's `/` operator (or a division). Still an `Other`
    (kind "BinaryOperation"); the operands say what it builds (`EXAMPLE_DIR / slug / "hero.png"`)."""

    left: "Value | None" = None
    right: "Value | None" = None


_T = TypeVar("_T")

Value = Union[Const, Ref, Call, Seq, Starred, Mapping, Other]


@by_constructor
@dataclass(frozen=True, slots=True)
class Handler:
    """One `except` clause around a call: what it catches and whether it re-raises."""

    catches: tuple[str, ...]  # resolved dotted names; ("*",) for a bare `except:`
    reraises: bool
    loc: Loc


@by_constructor
@dataclass(frozen=True, slots=True)
class Branch:
    """An `if` arm around a call whose test reads one name, so a caller that passes that name a
    literal decides whether the call runs. `test` says how the name is tested:

    * "in": compared with string literals (`if method == "GET":`, `elif kind in ("a", "b"):`): the
      arm runs when the name `equals` one of `values` (or, in the other arm, none of them);
      `folded`: compared through `.upper()`/`.lower()`;
    * "truthy": `if create:` (`equals`) or `if not create:`;
    * "none": `if path is None:` (`equals`) or `if path is not None:`;
    * "isinstance": `if isinstance(error, Signal):` (`equals`; `values` are the classes as written,
      resolved through the module's imports by the reader) or `if not isinstance(...)`;
    * "member": a JS `switch` on the name with `case ACTION.GET:` arms (`values` as written): decided
      only by a caller passing a member as written (`Constant`), never by a string."""

    name: str
    values: tuple[str, ...]
    equals: bool
    folded: bool = False
    test: str = "in"

    def allows(self, literal: object) -> bool:
        """Whether the arm runs when the name holds `literal` (a string, number, bool or None)."""
        if self.test == "truthy":
            return bool(literal) == self.equals
        if self.test == "none":
            return (literal is None) == self.equals
        if self.test == "isinstance":
            return True  # whether a literal is an instance of a class as written: unknown
        if self.test == "member":  # `ACTION.DELETE` against `case ACTION.GET:`, as written
            return (literal.text in self.values) == self.equals if isinstance(literal, Constant) else True
        if not isinstance(literal, str):
            return True  # a non-string never equals a string literal, but `==` may be overloaded: unknown
        if self.folded:
            return (literal.casefold() in {v.casefold() for v in self.values}) == self.equals
        return (literal in self.values) == self.equals


@by_constructor
@dataclass(frozen=True, slots=True)
class Constant:
    """A caller's argument written as a member of a constant or enum (`ACTION.DELETE`), for `Branch`."""

    text: str


@by_constructor
@dataclass(frozen=True, slots=True)
class CallSite:
    """A call inside a function body, with the context that decides whether cancellation reaches it."""

    call: Call
    awaited: bool
    awaits_before: int  # awaits in the function body before this call, in source order
    in_finally: bool = False
    in_handler: Handler | None = None  # the call runs inside this except clause
    guarded_by: tuple[Handler, ...] = ()  # try blocks around the call, innermost first
    with_items: tuple[Call, ...] = ()  # context managers (`with x(...)`) around the call
    # `for` / `async for` loops over a call around this call (`for attempt in Retrying(...)`), outermost first.
    loops: tuple[Call, ...] = ()
    branches: tuple[Branch, ...] = ()  # `if name == "literal"` arms around the call, outermost first
    # Awaits before this call on every path to it: not those in an `if` arm, loop body, `try` body or
    # handler the call is outside of (-1: not known, as `awaits_before`).
    awaits_on_every_path: int = -1

    @property
    def surely_awaited_before(self) -> int:
        return self.awaits_before if self.awaits_on_every_path < 0 else self.awaits_on_every_path


@by_constructor
@dataclass(frozen=True, slots=True)
class RaiseSite:
    """A `raise` statement in a function body, with the `try` context around it."""

    exc: "Value | None"  # what is raised (`X(...)` or `X`); None for a bare `raise`
    loc: Loc
    guarded_by: tuple[Handler, ...] = ()  # try blocks around it, innermost first
    in_handler: Handler | None = None  # it is inside this except clause
    branches: tuple[Branch, ...] = ()  # the `if` arms around it (as for a call, `CallSite.branches`)


@by_constructor
@dataclass(frozen=True, slots=True)
class ReturnSite:
    """A `return <value>` statement, with the `try` context around it (SIB406: what a tool tells the
    model on success and after a failure)."""

    value: "Value"
    loc: Loc
    reads: tuple[str, ...] = ()  # the plain names the returned expression reads
    guarded_by: tuple[Handler, ...] = ()  # try blocks around it, innermost first
    in_handler: Handler | None = None  # it is inside this except clause


@by_constructor
@dataclass(frozen=True, slots=True)
class TrySite:
    """A `try` statement with `except` clauses: where control goes when the body succeeds or a
    handler swallows the failure."""

    loc: Loc
    handlers: tuple[Handler, ...]
    body_falls_through: bool  # the body (with its `else:`) can end without returning or raising
    # Per handler: it can end without returning or raising, and the names it binds (`as e` included).
    handler_falls_through: tuple[bool, ...] = ()
    handler_binds: tuple[tuple[str, ...], ...] = ()
    # The `return` reached next when control leaves the `try` by falling through: the statements
    # after it in the same block, up to a `return`, are all simple (no branch can skip it).
    next_return: Loc | None = None


# Shared by every function that has none (see the module docstring); never mutated.
EMPTY_CALLS: list = []
EMPTY_LOCS: list = []
EMPTY_RAISE_SITES: list = []
EMPTY_BINDINGS: dict = {}
EMPTY_VALUES: list = []
EMPTY_RETURN_SITES: list = []
EMPTY_TRY_SITES: list = []


@dataclass(slots=True)
class FunctionFacts:
    name: str  # qualified within the module: `f`, `Cls.method`, `outer.inner`
    is_async: bool
    loc: Loc  # the function's name in its `def` line
    decorators: tuple[Value, ...] = ()
    params: tuple[str, ...] = ()  # positional ones first, then keyword-only ones (`kwonly` of them)
    kwonly: int = 0
    star_param: str = ""  # `*args`: the name of the tuple that receives the extra positional arguments
    returns_annotation: str = ""  # source text of `-> X`
    calls: list[CallSite] = field(default_factory=list)
    awaits: int = 0
    can_return_none: bool = False  # bare `return`, `return None`, or falling off the end
    raises: list[Loc] = field(default_factory=list)  # `raise` statements not caught inside
    returns_value: bool = False
    # The whole body is one `try` whose handler catches Exception or broader and returns.
    guarded_body: bool = False
    class_name: str = ""
    bases: tuple[str, ...] = ()  # of the enclosing class, resolved
    # `with f(...) as name` / `async with f(...) as name` in the body: name -> the context manager's value.
    with_bindings: dict[str, "Value"] = field(default_factory=dict)
    # Every `raise` with its context (policy analysis: what a tool can raise past its own handlers).
    raise_sites: list[RaiseSite] = field(default_factory=list)
    # Per parameter, the resolved names its annotation lists (`e: ValueError | KeyError`), () if none.
    param_annotations: tuple[tuple[str, ...], ...] = ()
    # Parameters whose default is a literal (`method="GET"`): what a call that leaves them out passes.
    param_defaults: tuple[tuple[str, "Value"], ...] = ()
    # What each `return <value>` of the body returns (a factory's tools list, a client it builds).
    return_values: list["Value"] = field(default_factory=list)
    # Every `return <value>` with its try/except context, and every `try` with handlers (SIB406).
    return_sites: list[ReturnSite] = field(default_factory=list)
    try_sites: list[TrySite] = field(default_factory=list)


@by_constructor
@dataclass(frozen=True, slots=True)
class Assignment:
    """`target = value` / `target += value` / `target: T = value`, at any scope."""

    target: str  # dotted text: `agent`, `agent.tools`, `self.x`; a string key: `cfg['key']` (keyed_target); any other key: `cfg[*]`
    value: Value
    loc: Loc
    scope: str  # "" for module level, else the enclosing function's or class's qualified name
    op: str = "="  # "=", "+=", or ":" for an annotation without a value (`db: Store`)
    annotation: tuple[str, ...] = ()  # resolved names the target's annotation lists
    written_in: str = ""  # the function a `global` rebinding is written in (`scope` is then "")


@dataclass
class ModuleFacts:
    path: str
    module: str  # dotted module name, "" when unknown
    is_package: bool = False
    imports: dict[str, str] = field(default_factory=dict)  # local name -> dotted target
    functions: dict[str, FunctionFacts] = field(default_factory=dict)
    classes: dict[str, tuple[str, ...]] = field(default_factory=dict)  # class -> resolved bases (and TS interfaces)
    class_locs: dict[str, Loc] = field(default_factory=dict)  # class -> where its name is declared
    assignments: list[Assignment] = field(default_factory=list)
    # Every call outside a function body (module level and class bodies), in source order.
    module_calls: list[Call] = field(default_factory=list)
    star_imports: list[str] = field(default_factory=list)

    def all_calls(self) -> list[tuple[str, Call]]:
        """Every recorded call with the scope it appears in ("" = module level)."""

        def compute() -> list[tuple[str, Call]]:
            out: list[tuple[str, Call]] = [("", c) for c in self.module_calls]
            for fn in self.functions.values():
                out.extend((fn.name, site.call) for site in fn.calls)
            return out

        return self.derived("all_calls", compute)

    def derived(self, key: str, compute: Callable[[], _T]) -> _T:
        """A view computed from these facts once (tools, binding tables): rules ask for the same
        views many times per module, and a linear scan per question is quadratic on big files.
        Not a dataclass field, so never cached on disk or compared; facts do not change after
        collection, so the view never goes stale."""
        views: dict[str, Any] = self.__dict__.setdefault("_views", {})
        if key not in views:
            views[key] = compute()
        return views[key]

    def assignments_in(self, scope: str) -> list["Assignment"]:
        """The assignments made in `scope` (a function's qualified name, "" for module level), in
        source order: indexed once per module."""

        def compute() -> dict[str, list[Assignment]]:
            table: dict[str, list[Assignment]] = {}
            for a in self.assignments:
                table.setdefault(a.scope, []).append(a)
            return table

        return self.derived("facts.assignments_by_scope", compute).get(scope, [])

    def last_assignments(self) -> dict[tuple[str, str], "Value"]:
        """(target, scope) -> the value of the last plain `=` assignment to it, a reset to None
        (`client = null` in a `catch`, after `client = createClient()`) left out: nothing is
        called on the name while it holds none."""

        def compute() -> dict[tuple[str, str], Value]:
            table: dict[tuple[str, str], Value] = {}
            for a in self.assignments:
                if a.op == "=" and not ((a.target, a.scope) in table and _is_none(a.value)):
                    table[(a.target, a.scope)] = a.value
            return table

        return self.derived("last_assignments", compute)


def _is_none(value: Value) -> bool:
    return (isinstance(value, Const) and value.value is None) or (isinstance(value, Ref) and value.text == "undefined")


def keyed_target(base: str, key: str | None) -> str:
    """How an assignment to a string key of a dotted name is recorded (`cfg["k"] = v` -> `cfg['k']`);
    to a key that is not a string literal, with the key `None` (`self._clients[name] = v` -> `self._clients[*]`)."""
    return f"{base}[*]" if key is None else f"{base}[{key!r}]"
