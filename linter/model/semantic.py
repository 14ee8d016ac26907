"""The semantic model: what a name, a call, a list or a type stands for, answered in one place.

Every analysis (tools, groups, fatality, error policy, the call-graph walk, effects) asks these
questions the same way, with one scoping rule:

* `Scope(facts, name).value(text)`: what `text` is bound to, seen from a function (or module level,
  name ""): `with ... as` names, then assignments in the function and the functions around it
  (closures), then module level; a parameter hides outer bindings; `self.x` / `cls.x` is what the
  class body or any method of the class assigns (`self.x = Client()` in `__init__`);
* `Scope.types(text)`: the annotation names of a parameter or attribute (`gw: Gateway`);
* `classes_of(scope, value, project)`: the project classes an object may be an instance of: a
  constructor call, a factory's return value (followed across modules), an annotated parameter or
  attribute, where a `Protocol` or ABC stands for every project class that subclasses or (for a
  Protocol) structurally implements it, found through the project's class index; a concrete class
  stands for itself (`Optional[...]`, unions and generics unwrap by their names);
* `callees(scope, call, project)`: the project functions a call runs: local, nested and module-level
  functions, imported ones, methods on `self`/`cls`, methods of objects from `classes_of`, and
  callables passed in as arguments (a parameter resolved at the function's call sites);
* `elements(scope, value, project)`: the items a list expression holds, through names, closures,
  imports, `[*A]`, `A + B`, `list(A)` / `tuple(A)` / `A.copy()`, comprehensions over a list,
  `append`/`extend`/`+=` after construction, a factory's return value, and a builder function's
  parameter (resolved at each of the builder's call sites in the module).

Answers are computed from the facts with per-module indexes (`ModuleFacts.derived`), so each
question is a lookup and analysis time stays linear in the size of a module.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from functools import lru_cache

from ..common.diagnostics import Loc
from ..frameworks import FRAMEWORKS, tool_runners
from ..frameworks.spec import Framework
from ..js import modules as js_modules
from ..syntax.facts import (
    Assignment,
    Attr,
    Call,
    Comp,
    Const,
    Each,
    Either,
    FunctionFacts,
    Item,
    KEYED,
    Mapping,
    ModuleFacts,
    Other,
    Ref,
    Seq,
    Slash,
    Starred,
    TS_INTERFACE,
    Value,
    keyed_target,
)
from .project import ProjectIndex

MAX_DEPTH = 8  # hops through names, returns, imports and call sites before giving up


class _Reading(threading.local):
    """Per thread: (path, name) of the module names `Scope._module_rebinding` is reading."""

    def __init__(self) -> None:
        self.keys: set[tuple[str, str]] = set()


_REBINDING = _Reading()
# A method's own object: Python's `self` and `cls`, and JS's `this` (`this.executeLocal(...)`,
# `this.client = new Stripe(...)` in a constructor).
OWN_OBJECT = ("self", "cls", "this")
# Where a walk binds the class of the tool it walks, in its `arguments`: in a method that class
# inherits, `self.execute()` runs the tool class's own `execute` (a base class's template method).
OWN_CLASS = "<own class>"
# Calls that give back the items of their first argument, as a new list or view.
ITEM_COPIERS = frozenset({"list", "tuple", "set", "sorted", "builtins.list", "builtins.tuple", "builtins.set",
                          "builtins.sorted", "copy.copy", "copy.deepcopy"})
ITEM_METHODS = frozenset({"copy"})
ARRAY_MAPS = frozenset({"map", "flatMap"})  # JS: the array of what the callback returns
# Base classes that make a class an interface: any project class implementing it stands for it.
INTERFACE_BASES = frozenset({"typing.Protocol", "typing_extensions.Protocol", "abc.ABC", "Protocol", "ABC", TS_INTERFACE})
ABSTRACT_METHOD = frozenset({"abc.abstractmethod"})
WRAPPER_TYPES = frozenset({"typing.Optional", "typing.Union", "Optional", "Union", "typing.Annotated",
                           "contextvars.ContextVar", "typing.Type", "type", "builtins.type"})


@lru_cache(maxsize=1 << 16)  # a pure function of the name, asked hundreds of thousands of times a run
def canonical(name: str) -> tuple[Framework | None, str]:
    """The framework a resolved dotted name belongs to, and its canonical spelling. A dotted import
    root (`google.adk`) claims only the names under it, not its whole top-level package."""
    root = name.split(".", 1)[0]
    claimed = [fw for fw in FRAMEWORKS
               if root in fw.import_roots or any(name.startswith(r + ".") for r in fw.import_roots if "." in r)]
    # Two frameworks may share a root (`langchain` in Python and on npm): the one spelling the name wins.
    fw = next((f for f in claimed if name in f.aliases), claimed[0] if claimed else None)
    return (fw, fw.canonical(name)) if fw is not None else (None, name)


def imports_framework(facts: ModuleFacts, fw: Framework) -> bool:
    """The module imports something from the framework (its conventions apply there)."""
    return any(target.split(".", 1)[0] in fw.import_roots for target in facts.imports.values())


def framework_roots() -> frozenset[str]:
    return frozenset(root for fw in FRAMEWORKS for root in fw.import_roots)


def constructed_by(scope: "Scope", value: Value | None, depth: int = 0) -> str:
    """The canonical name of the framework constructor that built `value` ("" if none): through
    name bindings, a group method that keeps its receiver's tools (`agent.clone()` is another
    object of the receiver's type), and parameter or attribute annotations (`agent: Agent[Deps]`)."""
    if depth > MAX_DEPTH or value is None:
        return ""
    if isinstance(value, Call):
        if isinstance(value.func, Attr) and value.func.receiver is not None:
            # `StateGraph(S).add_node(...)`: a builder method that returns its receiver.
            built = constructed_by(scope, value.func.receiver, depth + 1)
            return built if built and _returns_receiver(built, value.func.attr) else ""
        if not isinstance(value.func, Ref):
            return ""
        receiver, _, method = value.func.text.rpartition(".")
        if receiver:
            built = constructed_by(scope, Ref(receiver, receiver, value.loc), depth + 1)
            if built and (_returns_receiver(built, method) or any(
                    (m := fw.groups.method_maker(built, method)) is not None and m.keeps_receiver_tools
                    for fw in FRAMEWORKS)):
                return built
        return canonical(value.func.name)[1]
    if isinstance(value, Ref):
        bound = scope.value(value.text)
        if bound is not None:
            return constructed_by(scope, bound, depth + 1)
        for name in scope.types(value.text):
            fw, canon = canonical(name)
            if fw is not None:
                return canon
    return ""


def _returns_receiver(built: str, method: str) -> bool:
    """Does `method` of a `built` object return that object (a builder's chained calls)?"""
    return any(built in fw.retries.builders and method in fw.retries.chain_methods for fw in FRAMEWORKS)


def method_call(scope: "Scope", call: Call) -> tuple[str, str]:
    """(canonical constructor of the receiver, method name) of a method call, ("", "") if the
    receiver's constructor is unknown: `builder.add_node(...)`, `StateGraph(S).add_node(...)`,
    `builder.add_node(a).add_node(b)`."""
    func = call.func
    if isinstance(func, Attr) and func.receiver is not None:
        built = constructed_by(scope, func.receiver)
        return (built, func.attr) if built else ("", "")
    if isinstance(func, Ref) and "." in func.text:
        receiver, _, method = func.text.rpartition(".")
        built = constructed_by(scope, Ref(receiver, receiver, func.loc))
        return (built, method) if built else ("", "")
    return "", ""


# ---- per-module indexes ----------------------------------------------------------------------
def _made_from(a: Assignment, attr: str, local: dict[tuple[str, str], Value]) -> bool:
    """Is the value `a` assigns (or the value of the local name it assigns) a call on the attribute
    `attr` of its own object (`self.store.load(path)`)?"""
    made = local.get((a.value.text, a.scope)) if isinstance(a.value, Ref) and "." not in a.value.text else a.value
    return isinstance(made, Call) and isinstance(made.func, Ref) and \
        made.func.text.rpartition(".")[0] in (f"self.{attr}", f"cls.{attr}")


def attributes(facts: ModuleFacts) -> dict[tuple[str, str], Assignment]:
    """(class, attribute) -> the last assignment to it: `x = ...` in the class body, `self.x = ...`
    or `cls.x = ...` in any method of the class (annotation-only ones included). A `None` after a
    value keeps the value: `self.client = None` in the `except` of the `try` that made the client,
    or in `close()`, says when there is none, not what it is. Nor does a value made from the attribute
    itself (`self.store = self.store.load(path)`, also through a local name): the same kind of object."""

    def compute() -> dict[tuple[str, str], Assignment]:
        table: dict[tuple[str, str], Assignment] = {}
        local = facts.last_assignments()
        for a in facts.assignments:
            if a.op == "+=":
                continue
            if a.scope in facts.classes and "." not in a.target:
                cls, attr = a.scope, a.target
            else:
                head, _, attr = a.target.partition(".")
                fn = facts.functions.get(a.scope)
                if head not in OWN_OBJECT or not attr or "." in attr or fn is None or not fn.class_name:
                    continue
                cls = fn.class_name
            old = table.get((cls, attr))
            if old is not None and old.op == "=" and not _is_none(old.value) and (
                    _is_none(a.value) or _made_from(a, attr, local)):
                table[(cls, attr)] = _merge(old, a)
            elif old is None or old.op == ":" or a.op == "=":
                # The last value, with the annotation any assignment gave (`self.book: Book | None =
                # None` in `__init__`, then `self.book = None` in `close`).
                table[(cls, attr)] = a if old is None else _merge(a, old) if a.op == "=" else _merge(old, a)
        return table

    return facts.derived("semantic.attributes", compute)


def _module_bindings(facts: ModuleFacts) -> dict[str, list[Value]]:
    """Name -> the values plain `=` binds it to at module level (an init function's `global` ones
    included), None left out: indexed once per module."""

    def compute() -> dict[str, list[Value]]:
        table: dict[str, list[Value]] = {}
        for a in facts.assignments_in(""):
            if a.op == "=" and not _is_none(a.value):
                table.setdefault(a.target, []).append(a.value)
        return table

    return facts.derived("semantic.module_bindings", compute)


def _is_none(value: Value | None) -> bool:
    return isinstance(value, Const) and value.value is None


def _merge(old: Assignment, new: Assignment) -> Assignment:
    return Assignment(old.target, old.value, old.loc, old.scope, old.op, old.annotation or new.annotation)


def _annotations(facts: ModuleFacts) -> dict[tuple[str, str], tuple[str, ...]]:
    """(target, scope) -> annotation names (`db: Store = make()`, `db: Store`)."""

    def compute() -> dict[tuple[str, str], tuple[str, ...]]:
        return {(a.target, a.scope): a.annotation for a in facts.assignments if a.annotation}

    return facts.derived("semantic.annotations", compute)


def calls_by_text(facts: ModuleFacts) -> dict[str, list[tuple[str, Call]]]:
    """Callee text (`build`, `tools.append`) -> (scope, call) for every call of the module."""

    def compute() -> dict[str, list[tuple[str, Call]]]:
        table: dict[str, list[tuple[str, Call]]] = {}
        for scope, call in facts.all_calls():
            if isinstance(call.func, Ref):
                table.setdefault(call.func.text, []).append((scope, call))
        return table

    return facts.derived("semantic.calls_by_text", compute)


def _transaction_callbacks(facts: ModuleFacts) -> dict[str, tuple[str, Call]]:
    """Inline function (qualified name) -> (the function calling, the call) for each callback handed
    to a transaction method (`db.$transaction(async (tx) => ...)`), indexed once per module."""
    from ..effects.javascript import TRANSACTION_CALLBACKS
    from ..effects.resolve import method_name

    def compute() -> dict[str, tuple[str, Call]]:
        table: dict[str, tuple[str, Call]] = {}
        for scope, call in facts.all_calls():
            if method_name(call.func) in TRANSACTION_CALLBACKS:
                for a in call.args:
                    if isinstance(a, Ref) and "@" in a.text:
                        table.setdefault(f"{scope}.{a.text}" if scope else a.text, (scope, call))
        return table

    return facts.derived("semantic.transaction_callbacks", compute)


def _assignments_by(facts: ModuleFacts, op: str) -> dict[tuple[str, str], list[Assignment]]:
    """(target, scope) -> its assignments with `op` ("=" or "+="), in source order."""
    def compute() -> dict[tuple[str, str], list[Assignment]]:
        table: dict[tuple[str, str], list[Assignment]] = {}
        for a in facts.assignments:
            if a.op == op:
                table.setdefault((a.target, a.scope), []).append(a)
        return table

    return facts.derived(f"semantic.assignments {op}", compute)


def _aug_assignments(facts: ModuleFacts) -> dict[tuple[str, str], list[Assignment]]:
    return _assignments_by(facts, "+=")


def result_names(facts: ModuleFacts) -> dict[object, list[tuple[str, str]]]:
    """Call location -> the (target, scope) pairs its result is assigned to, in source order
    (`T = f(...)`, and `T = f(...)(g)` for the inner call too)."""

    def compute() -> dict[object, list[tuple[str, str]]]:
        table: dict[object, list[tuple[str, str]]] = {}
        for a in facts.assignments:
            v = a.value
            if a.op == "=" and isinstance(v, Call):
                table.setdefault(v.loc, []).append((a.target, a.scope))
                if isinstance(v.func, Call):
                    table.setdefault(v.func.loc, []).append((a.target, a.scope))
        return table

    return facts.derived("semantic.result_names", compute)


def first_result_name(facts: ModuleFacts, call: Call, *, plain: bool = False, module_level: bool = False) -> str:
    """The first name `call`'s result is assigned to ("" if none); `plain` skips dotted targets,
    `module_level` keeps only module-level assignments."""
    for target, scope in result_names(facts).get(call.loc, ()):
        if (plain and "." in target) or (module_level and scope):
            continue
        return target
    return ""


# ---- scopes ----------------------------------------------------------------------------------
class Scope:
    """Name resolution seen from one function of one module ("" = module level)."""

    __slots__ = ("facts", "name", "fn")

    def __init__(self, facts: ModuleFacts, name: str = "") -> None:
        self.facts = facts
        self.name = name
        self.fn = facts.functions.get(name) if name else None

    def __repr__(self) -> str:
        return f"Scope({self.facts.path!r}, {self.name!r})"

    @property
    def class_name(self) -> str:
        """The class of the method this scope is, or is nested in (closures see its `self`)."""
        return next((fn.class_name for fn in self.functions() if fn.class_name), "")

    def functions(self) -> Iterator[FunctionFacts]:
        """This function and the functions it is nested in, innermost first (class scopes are not
        visible from their methods, as in Python)."""
        scope = self.name
        while scope:
            fn = self.facts.functions.get(scope)
            if fn is not None:
                yield fn
            scope = scope.rpartition(".")[0]

    def value(self, text: str) -> Value | None:
        """The value `text` (a name or dotted name) is bound to here, or None."""
        found = self.binding(text)
        return found[1] if found is not None else None

    def binding(self, text: str) -> tuple["Scope", Value] | None:
        """The value `text` is bound to, with the scope that value is to be read in (`self.store =
        store` in `__init__` is read in `__init__`, where `store` is a parameter)."""
        head = text.partition(".")[0]
        table = self.facts.last_assignments()
        for fn in self.functions():
            if text in fn.with_bindings:
                return Scope(self.facts, fn.name), fn.with_bindings[text]
            found = table.get((text, fn.name))
            if found is not None:
                return Scope(self.facts, fn.name), found
            if head in fn.params:
                if head in OWN_OBJECT and "." in text:
                    break
                return None  # a parameter hides the bindings around it
        if head in OWN_OBJECT and "." in text:
            attr = text.partition(".")[2]
            if "." not in attr and self.class_name:
                a = attributes(self.facts).get((self.class_name, attr))
                if a is not None and a.op == "=":
                    return Scope(self.facts, a.scope if a.scope in self.facts.functions else ""), a.value
            return None
        found = table.get((text, ""))
        return (Scope(self.facts), found) if found is not None else None

    def passed(self, text: str) -> tuple["Scope", Value] | None:
        """What the caller passed for the parameter `text` on the walk's call path (`ReceiverScope`),
        with the scope to read it in; None here, where no call path is known."""
        return None

    def param(self, name: str) -> tuple[FunctionFacts, int] | None:
        """The innermost function (this one or around it) with `name` as a parameter, and its index,
        when nothing closer binds the name."""
        table = self.facts.last_assignments()
        for fn in self.functions():
            if name in fn.with_bindings or (name, fn.name) in table:
                return None
            if name in fn.params:
                return fn, fn.params.index(name)
        return None

    def types(self, text: str) -> tuple[str, ...]:
        """The names the annotation of `text` lists: a parameter (`gw: Gateway`), an annotated local
        or module name, or a class attribute (`self.db` with `db: Store` in the class)."""
        head, _, rest = text.partition(".")
        notes = _annotations(self.facts)
        if not rest:
            found = self.param(text)
            if found is not None:
                fn, index = found
                return fn.param_annotations[index] if index < len(fn.param_annotations) else ()
            for fn in self.functions():
                if (text, fn.name) in notes:
                    return notes[(text, fn.name)]
            return notes.get((text, ""), ())
        if head in OWN_OBJECT and "." not in rest and self.class_name:
            a = attributes(self.facts).get((self.class_name, rest))
            return a.annotation if a is not None else ()
        return ()

    def _module_rebinding(self, text: str, last: Value, depth: int) -> str:
        """A module-level name whose last binding says nothing (a lazy singleton: `db = None`, an
        init function's `global db; db = firestore.client()`, then `db = get_db()` returning `db`):
        the client an earlier binding of it at module level builds."""
        from ..effects import CONSTRUCTORS

        others = [v for v in _module_bindings(self.facts).get(text, ()) if v is not last]
        key = (self.facts.path, text)
        reading = _REBINDING.keys
        if not others or key in reading or (found := self.binding(text)) is None or found[0].name:
            return ""  # (in flight: `get_db()` returning `db` asks again; the other bindings answer)
        reading.add(key)
        try:
            module = Scope(self.facts)
            return next((built for v in reversed(others) if (built := module.constructor(v, depth + 1)) in CONSTRUCTORS), "")
        finally:
            reading.discard(key)

    def function(self, value: Value | None) -> FunctionFacts | None:
        """The function of this module a plain name refers to, innermost scope first."""
        if not isinstance(value, Ref) or "." in value.text:
            return None
        parts = self.name.split(".") if self.name else []
        for i in range(len(parts), -1, -1):
            fn = self.facts.functions.get(".".join([*parts[:i], value.text]))
            if fn is not None:
                return fn
        return None

    # `siblint.effects` reads values through these two (its Resolver protocol).
    def constructor(self, value: Value | None, depth: int = 0) -> str:
        """The dotted name of the constructor that built `value` ("" if unknown), through bindings
        and call chains (`repo = Github(t).get_repo(n)` is a `github.Github` object)."""
        from ..effects import CONSTRUCTORS, in_family, method_name, receiver_of
        from ..effects.files import TEXT_OF_PATH

        if value is None or depth > MAX_DEPTH:
            return ""
        if isinstance(value, Ref):
            text = value.text
            while text:
                bound = self.value(text)
                types = _unwrap(self.types(text))
                # A client the table knows, as a name's annotation types it; its attributes are
                # its sub-clients (`prisma.user` of `{ prisma }: { prisma: PrismaClient }`).
                client = types[0] if types and types[0] in CONSTRUCTORS else ""
                if isinstance(bound, Ref) and text != value.text:  # `cfg = _config`: `cfg.client` is `_config.client`
                    rest = value.text[len(text):]
                    return self.constructor(Ref(bound.name + rest, bound.text + rest, value.loc), depth + 1) or client
                if bound is not None:
                    # `cfg = Settings(client=boto3.client("s3"))`: `cfg.client` is what was passed.
                    held = bound.kwarg(value.text[len(text) + 1:].partition(".")[0]) \
                        if text != value.text and isinstance(bound, Call) else None
                    found = self.constructor(held, depth + 1) if held is not None else ""
                    built = found or self.constructor(bound, depth + 1)
                    if built not in CONSTRUCTORS:
                        built = self._module_rebinding(text, bound, depth) or built
                    # `self.book = None` says nothing; its annotation (`Book | None`) does, and an
                    # annotation naming a library class beats a call the table does not know
                    # (`page = await b.newPage()` of `let page: Page | null`).
                    if client and built not in CONSTRUCTORS:
                        return client
                    return built or (types[0] if types else "")
                if types and text == value.text or client:
                    return types[0]
                if "." not in text and not types:
                    passed = self._passed_constructor(text, depth) or self._transaction_client(text, depth)
                    if passed:
                        return passed
                text = text.rpartition(".")[0]
            if value.name != value.text and (value.name in CONSTRUCTORS or in_family(value.name)):
                return value.name  # an imported module that is the client (`import mail from '@sendgrid/mail'`)
            return ""
        if isinstance(value, Call):
            name = value.callee
            if name in CONSTRUCTORS:
                return name
            # A dependency-injection lookup by class (`inject(PrismaClient)`, `container.resolve(Redis)`,
            # `moduleRef.get(Stripe)`) hands out an instance of that class.
            given = value.args[0] if len(value.args) == 1 else None
            if method_name(value.func) in DI_GETTERS and isinstance(given, Ref) and given.name in CONSTRUCTORS:
                return given.name
            if method_name(value.func) in TEXT_OF_PATH:
                return ""  # text made of a path, not the path
            return self.constructor(receiver_of(value.func), depth + 1) or name
        if isinstance(value, Either):  # `global.pool || new Pool(...)`: the option a known class builds
            return next((built for option in value.options
                         if (built := self.constructor(option, depth + 1)) in CONSTRUCTORS), "")
        if isinstance(value, Item) and isinstance(value.container, Ref):
            # `self._containers[name]` of a cache the class fills (`self._containers[name] =
            # self._db.get_container_client(name)`): what it holds under that key, or under any key.
            held, key = value.container, value.key.value if isinstance(value.key, Const) else None
            for k in dict.fromkeys((key if isinstance(key, str) and key.isidentifier() else None, None)):
                built = self.constructor(Ref(keyed_target(held.name, k), keyed_target(held.text, k), value.loc), depth + 1)
                if built:
                    return built
            return ""
        if isinstance(value, Slash):
            # `base / "out.png"` is an object of its operands' kind (a pathlib path joined with `/`).
            return self.constructor(value.left, depth + 1) or self.constructor(value.right, depth + 1)
        receiver = getattr(value, "receiver", None)
        if receiver is not None:
            return self.constructor(receiver, depth + 1)
        return ""

    def at(self, name: str) -> "Scope":
        """Another function's scope of this module, resolving as this one does."""
        return Scope(self.facts, name)

    def _transaction_client(self, name: str, depth: int) -> str:
        """`tx` of `db.$transaction(async (tx) => { await tx.order.update(...) })`: the first parameter
        of a callback handed to a transaction method is a client of the receiver's kind."""
        from ..effects import CONSTRUCTORS
        from ..effects.resolve import receiver_of

        found = self.param(name)
        if found is None or found[1] != 0:
            return ""
        handed = _transaction_callbacks(self.facts).get(found[0].name)
        if handed is None:
            return ""
        outer, call = handed
        built = self.at(outer).constructor(receiver_of(call.func), depth + 1)
        return built if built in CONSTRUCTORS else ""

    def _passed_constructor(self, name: str, depth: int) -> str:
        """The client a module-level function's unannotated parameter `name` is given where this
        module calls the function (a factory making tools around the client it is handed:
        `def build_tools(client): @tool def send(...): client.call_tool_sync(...)`); "" if none."""
        from ..effects import CONSTRUCTORS

        found = self.param(name)
        if found is None or "." in found[0].name:
            return ""
        fn, index = found
        for scope, call in calls_by_text(self.facts).get(fn.name, ()):
            built = self.at(scope).constructor(call.arg(index, name), depth + 1)
            if built in CONSTRUCTORS:
                return built
        return ""

    def text(self, value: Value | None, depth: int = 0, numbers: bool = False) -> str | None:
        """The literal text of a string argument, through bindings, f-strings, concatenations and
        `text("...")`; a part it cannot read is "{}". With `numbers`, a part that is a number
        (`serial: int` formatted in) reads as "0": it cannot change what a command does."""
        from ..syntax.facts import FString

        if value is None or depth > 4:
            return None
        if isinstance(value, Const):
            return value.value if isinstance(value.value, str) else None
        if isinstance(value, FString):
            return _numbers_filled(value.text, [self._number(v) for v in value.values]) if numbers else value.text
        if isinstance(value, Seq) and value.items and all(isinstance(i, Starred) for i in value.items):
            # `" -i " + str(serial)`: a concatenation.
            texts = [self.text(i.value, depth + 1, numbers) for i in value.items if isinstance(i, Starred)]
            if all(t is None for t in texts):
                return None
            return "".join(t if t is not None else "0" if numbers and self._number(i.value) else "{}"
                           for t, i in zip(texts, value.items) if isinstance(i, Starred))
        if isinstance(value, Ref):
            bound = self.binding(value.text)
            base = self.text(bound[1], depth + 1, numbers) if bound is not None else None
            # `cmd = "grep"` then `cmd += f' "{pattern}"'`: the text the additions build, each
            # addition it cannot read as "{}".
            added = _aug_assignments(self.facts).get((value.text, bound[0].name), ()) if bound is not None else ()
            if base is None or not added:
                return base
            return base + "".join(self.text(a.value, depth + 1, numbers) or "{}" for a in added)
        if isinstance(value, Call) and value.args:
            # sqlalchemy.text, textwrap.dedent, a GraphQL document's tag (gql, graphql-tag)
            if value.callee.rpartition(".")[2] in ("text", "dedent", "gql"):
                return self.text(value.args[0], depth + 1, numbers)
            if isinstance(value.func, Attr) and value.func.attr == "format":  # "...".format(x)
                return self.text(value.func.receiver, depth + 1, numbers)
        if isinstance(value, Call) and len(value.args) <= 1:
            return self._str_method(value, depth)  # `"...".strip()`, `method.upper()`
        return None

    def grown_list(self, text: str) -> Seq | None:
        """The list display bound to the plain name `text` with what is added to it later, in source
        order (`cmd = ["kubectl"]; cmd.extend(["get", "pods"])`; `+=` of a list, `append` of an
        item; an arm's additions count as made). None when the name holds no list display or an
        addition is not a list display."""
        found = self.binding(text) if "." not in text else None
        if found is None or not isinstance(found[1], Seq):
            return None
        where, seq = found[0], found[1]
        assert isinstance(seq, Seq)
        table = calls_by_text(self.facts)
        added: list[tuple[Loc, str, Value | None]] = [
            (call.loc, method, call.args[0] if call.args else None)
            for method in ("append", "extend") for scope, call in table.get(f"{text}.{method}", ())
            if _same_binding(self.facts, scope, where.name)]
        added += [(a.loc, "extend", a.value) for a in _aug_assignments(self.facts).get((text, where.name), ())]
        items = list(seq.items)
        for _, method, value in sorted(added, key=lambda a: (a[0].line, a[0].col)):
            if method == "append" and value is not None:
                items.append(value)
            elif isinstance(value, Seq):
                items.extend(value.items)
            else:
                return None
        return Seq(tuple(items), seq.loc)

    def _number(self, value: Value | None) -> bool:
        """A parameter or name annotated as a number (`serial: int`, `Optional[int]`), or `str()` of
        one: formatted into a command or a path, it cannot change what that text does."""
        if isinstance(value, Call) and isinstance(value.func, Ref) and value.func.name in ("str", "builtins.str") \
                and len(value.args) == 1:
            value = value.args[0]
        if not isinstance(value, Ref) or "." in value.text:
            return False
        names = set(self.types(value.text))
        return bool(names & _NUMBER_TYPES) and names <= _NUMBER_TYPES | _OPTIONAL

    def _str_method(self, call: Call, depth: int) -> str | None:
        """`method.upper()`, `path.lstrip("/")` of a text that can be read: the text it makes."""
        if isinstance(call.func, Attr):
            receiver, name = call.func.receiver, call.func.attr
        elif isinstance(call.func, Ref) and "." in call.func.text:
            head, _, name = call.func.text.rpartition(".")
            receiver = Ref(head, head, call.func.loc)
        else:
            return None
        if name not in _STR_METHODS:
            return None
        base = self.text(receiver, depth + 1)
        chars = self.text(call.args[0], depth + 1) if call.args else None
        if base is None or (call.args and chars is None):
            return None
        return getattr(base, name)(chars) if name in _STRIPS else getattr(base, name)()


_NUMBER_TYPES = frozenset({"int", "float", "bool", "builtins.int", "builtins.float", "builtins.bool"})
_OPTIONAL = frozenset({"typing.Optional", "Optional", "None", "typing.Union", "Union"})


def _numbers_filled(template: str, numbers: list[bool]) -> str:
    """An f-string's text with each `{}` whose value is a number written as "0"."""
    parts = template.split("{}")
    if len(parts) != len(numbers) + 1:
        return template
    return parts[0] + "".join(("0" if n else "{}") + rest for n, rest in zip(numbers, parts[1:]))


_STRIPS = frozenset({"strip", "lstrip", "rstrip"})
# Methods of `str` whose result a literal receiver decides (what an HTTP helper does to its `method`).
_STR_METHODS = _STRIPS | {"upper", "lower", "casefold", "title", "capitalize"}


def scope_of(facts: ModuleFacts, fn: FunctionFacts | None) -> Scope:
    return Scope(facts, fn.name if fn is not None else "")


def _unwrap(names: tuple[str, ...]) -> tuple[str, ...]:
    """Annotation names without `Optional`/`Union`/`ContextVar` wrappers and `None`."""
    return tuple(n for n in names if n not in WRAPPER_TYPES and n not in ("None", "builtins.None"))


DI_GETTERS = frozenset({"inject", "resolve", "get", "getInstance", "get_instance"})


# ---- functions and classes of the project ------------------------------------------------------
def resolve_function(dotted: str, project: ProjectIndex, importer: str = "") -> tuple[ModuleFacts, FunctionFacts] | None:
    """The function a resolved dotted name (`pkg.tools.charge`, `pkg.store.Store.save`) defines,
    as the file at `importer` imports it."""
    if not dotted:
        return None
    found = project.resolve(dotted, importer)
    if found is not None:
        facts, name = found
        fn = facts.functions.get(name)
        if fn is not None:
            return facts, fn
        # `create_ticket_tool = create_ticket` at the module's top level: the function it aliases.
        aliased = [a.value for a in facts.assignments if a.target == name and not a.scope]
        if len(aliased) == 1 and isinstance(aliased[0], Ref) and aliased[0].text in facts.functions:
            return facts, facts.functions[aliased[0].text]
    # `pkg.mod.Cls.method`: the module is `pkg.mod`, the name inside it `Cls.method`.
    head, _, method = dotted.rpartition(".")
    cls = project.resolve(head, importer) if head else None
    if cls is not None and cls[1] in cls[0].classes:
        fn = cls[0].functions.get(f"{cls[1]}.{method}")
        if fn is not None:
            return cls[0], fn
    return None


def star_imported(facts: ModuleFacts, name: str, project: ProjectIndex) -> str | None:
    """The absolute name of a bare name a star import brings (`from app.config import *`, then
    `send_email`), None when the module binds it itself or no star-imported module defines it."""
    if "." in name or not facts.star_imports or name in facts.imports:
        return None
    return project.star_source(facts, name)


def project_class(facts: ModuleFacts, name: str, project: ProjectIndex) -> tuple[ModuleFacts, str] | None:
    """The project class a resolved name denotes: a class of this module or of another one (also a
    bare name a star import brings: `from app.schema import *`, then `Guest(...)`)."""
    local = name[len(facts.module) + 1:] if facts.module and name.startswith(facts.module + ".") else name
    if local in facts.classes:
        return facts, local
    name = star_imported(facts, name, project) or name
    if "." in name and not _library(name, project):
        found = project.resolve(name, facts.path)
        if found is not None and found[1] in found[0].classes:
            return found
    return None


def ancestor_bases(facts: ModuleFacts, cls: str, project: ProjectIndex) -> Iterator[str]:
    """The resolved names of the bases `cls` derives from, directly or through project classes
    (here or in other modules), nearest first."""
    todo: list[tuple[ModuleFacts, str]] = [(facts, cls)]
    seen: set[tuple[str, str]] = set()
    while todo and len(seen) <= MAX_DEPTH * 2:
        where, name = todo.pop(0)
        if (where.path, name) in seen:
            continue
        seen.add((where.path, name))
        for base in where.classes.get(name, ()):
            yield base
            found = project_class(where, base, project)
            if found is not None:
                todo.append(found)


def framework_bases(facts: ModuleFacts, cls: str, project: ProjectIndex) -> set[str]:
    """Canonical names of the framework classes `cls` derives from, directly or through project
    classes (here or in other modules)."""
    out: set[str] = set()
    for base in ancestor_bases(facts, cls, project):
        fw, canon = canonical(base)
        if fw is not None:
            out.add(canon)
    return out


def method_of(cls: tuple[ModuleFacts, str], method: str, project: ProjectIndex,
              depth: int = 0) -> tuple[ModuleFacts, FunctionFacts] | None:
    """`Cls.method`, or the method inherited from a project base class."""
    facts, name = cls
    fn = facts.functions.get(f"{name}.{method}")
    if fn is not None:
        return facts, fn
    if depth < MAX_DEPTH:
        for base in facts.classes.get(name, ()):
            found = project_class(facts, base, project)
            if found is not None:
                inherited = method_of(found, method, project, depth + 1)
                if inherited is not None:
                    return inherited
    return None


def _overridden(scope: Scope, method: str, project: ProjectIndex,
                arguments: dict[str, tuple[Scope, Value]] | None) -> tuple[ModuleFacts, FunctionFacts] | None:
    """`self.method` in a method of a base of the walked tool's class (`OWN_CLASS`): that class's
    own `method` (or the nearest one it inherits)."""
    own = arguments.get(OWN_CLASS) if arguments else None
    if own is None or not isinstance(own[1], Ref):
        return None
    cls = (own[0].facts, own[1].text)
    here = (scope.facts.path, scope.class_name)
    if (cls[0].path, cls[1]) == here or here not in _ancestors(cls, project):
        return None
    return method_of(cls, method, project)


def _ancestors(cls: tuple[ModuleFacts, str], project: ProjectIndex) -> set[tuple[str, str]]:
    """(path, class) of every project class `cls` derives from."""
    out: set[tuple[str, str]] = set()
    todo = [cls]
    while todo and len(out) <= MAX_DEPTH * 2:
        facts, name = todo.pop()
        for base in facts.classes.get(name, ()):
            found = project_class(facts, base, project)
            if found is not None and (found[0].path, found[1]) not in out:
                out.add((found[0].path, found[1]))
                todo.append(found)
    return out


def is_interface(cls: tuple[ModuleFacts, str]) -> bool:
    facts, name = cls
    return any(b in INTERFACE_BASES for b in facts.classes.get(name, ()))


def has_stub_methods(cls: tuple[ModuleFacts, str]) -> bool:
    """A base class by convention: one of its methods raises `NotImplementedError` outside any
    `try` (`def create_fact(...): raise NotImplementedError`) or is marked `@abstractmethod` (without
    `ABC` among its bases too), so subclasses supply the behaviour."""
    facts, name = cls

    def compute() -> frozenset[str]:
        return frozenset(fn.class_name for fn in facts.functions.values() if fn.class_name and (any(
            site.guarded_by == () and _names_not_implemented(site.exc) for site in fn.raise_sites)
            or any(isinstance(d, Ref) and d.name in ABSTRACT_METHOD for d in fn.decorators)))

    return name in facts.derived("semantic.stub_classes", compute)


def _names_not_implemented(exc: Value | None) -> bool:
    if isinstance(exc, Call):
        exc = exc.func
    return isinstance(exc, Ref) and exc.name in ("NotImplementedError", "builtins.NotImplementedError")


def implementations(cls: tuple[ModuleFacts, str], project: ProjectIndex) -> list[tuple[ModuleFacts, str]]:
    """The project classes that stand for `cls`: itself when it is concrete; for a Protocol or ABC,
    every project class that subclasses it (across modules) or, for a Protocol, defines all its
    methods; for a concrete base with stub methods (`has_stub_methods`), itself and its subclasses."""
    stub_base = not is_interface(cls) and has_stub_methods(cls)
    if not is_interface(cls) and not stub_base:
        # A concrete class stands for itself: searching the tree for its subclasses would read every
        # file of the project for each annotated name (and a subclass usually keeps the behaviour).
        return [cls]
    facts, name = cls
    key = (facts.path, name)
    memo: dict[tuple[str, str], list[tuple[ModuleFacts, str]]] = project.memo.setdefault("implementations", {})
    if key in memo:
        return memo[key]
    memo[key] = []  # a class hierarchy with a cycle
    short = name.rpartition(".")[2]
    bases = facts.classes.get(name, ())
    protocol = any(b.rpartition(".")[2] == "Protocol" for b in bases)
    methods = _methods(facts, name) - {"__init__"}
    # A Protocol's `async def run` is not met by a sync `def run` (nor the reverse): it returns
    # something else, and an awaited call of it could not run the other.
    kinds = _method_kinds(facts, name, methods)
    out: list[tuple[ModuleFacts, str]] = [cls] if stub_base else []
    typescript = TS_INTERFACE in bases  # nominal: the classes that say `implements` it
    for other in project.js_implementers(short) if typescript else project.modules_mentioning(short):
        for cname, cbases in other.classes.items():
            if (other.path, cname) == key:
                continue
            subclass = any(b.rpartition(".")[2] == short and _key(project_class(other, b, project)) == key for b in cbases)
            structural = protocol and bool(methods) and kinds <= _method_kinds(other, cname, methods)
            if subclass or structural:
                out.append((other, cname))
    if protocol and methods:
        for other in project.modules_mentioning("", *sorted(methods)):
            for cname in other.classes:
                if (other, cname) not in out and (other.path, cname) != key \
                        and kinds <= _method_kinds(other, cname, methods):
                    out.append((other, cname))
    if typescript and not out:
        # A TS interface no class implements is a shape (`interface Settings { fileService: FileService }`):
        # it stands for itself, so its members' types type what is read off a value of it.
        out = [cls]
    memo[key] = out
    return out


def _key(cls: tuple[ModuleFacts, str] | None) -> tuple[str, str] | None:
    return (cls[0].path, cls[1]) if cls is not None else None


def _method_kinds(facts: ModuleFacts, cls: str, names: set[str]) -> set[tuple[str, bool]]:
    """(name, is async) of the methods of `cls` among `names`."""
    return {(n, fn.is_async) for n in names if (fn := facts.functions.get(f"{cls}.{n}")) is not None}


def _methods(facts: ModuleFacts, cls: str) -> set[str]:
    prefix = cls + "."
    return {f[len(prefix):] for f in facts.functions if f.startswith(prefix) and "." not in f[len(prefix):]}


def classes_for_types(facts: ModuleFacts, names: tuple[str, ...], project: ProjectIndex) -> list[tuple[ModuleFacts, str]]:
    """The project classes an annotation stands for, interfaces expanded to their implementations."""
    out: list[tuple[ModuleFacts, str]] = []
    for name in _unwrap(names):
        cls = project_class(facts, name, project)
        if cls is not None:
            for impl in implementations(cls, project):
                if impl not in out:
                    out.append(impl)
    return out


def classes_of(scope: Scope, value: Value | None, project: ProjectIndex,
               depth: int = 0) -> list[tuple[ModuleFacts, str]]:
    """The project classes the object `value` may be an instance of."""
    if value is None or depth > MAX_DEPTH:
        return []
    facts = scope.facts
    if isinstance(value, Ref):
        if value.text in OWN_OBJECT and scope.class_name:
            return [(facts, scope.class_name)]
        bound = scope.binding(value.text)
        if bound is not None and not bound[0].name and isinstance(bound[1], Ref) and bound[1].text in OWN_OBJECT:
            # `global _instance; _instance = self` in a method: the module's name holds that instance.
            held = bound[1]
            written = next((a.written_in for a in facts.assignments if a.value is held), "")
            bound = (Scope(facts, written), held)
        found = classes_of(bound[0], bound[1], project, depth + 1) if bound is not None else []
        if not found:
            found = classes_for_types(facts, scope.types(value.text), project)
        if not found and bound is None and "." not in value.text and value.name != value.text:
            # An imported module-level object (`from .db import store`).
            target = project.resolve(value.name, facts.path)
            if target is not None and target[0] is not facts:
                return classes_of(Scope(target[0]), Ref(target[1], target[1], value.loc), project, depth + 1)
        if not found and bound is None and value.text.count(".") == 1:
            found = _passed_entry_classes(scope, value.text, project, depth)
        if not found and bound is None and value.text.count(".") <= 1:
            found = _closure_parameter_classes(scope, value.text, project, depth)
        if not found and bound is None and "." in value.text:
            found = _attribute_chain(scope, value, project, depth)
        if not found and bound is None and value.text.count(".") == 1:  # `result.client` of `result = getClient()`
            head, _, key = value.text.partition(".")
            made = scope.value(head)
            found = _returned_entry_classes(scope, made, key, project, depth) if isinstance(made, Call) else []
        return found
    if isinstance(value, Attr) and isinstance(value.receiver, Call):  # `const { client } = getClient()`
        return _returned_entry_classes(scope, value.receiver, value.attr, project, depth)
    if isinstance(value, Call) and isinstance(value.func, Ref):
        cls = project_class(facts, value.func.name, project) if value.func.text in facts.classes or "." in value.func.name \
            or value.func.name != value.func.text or facts.star_imports else None
        if cls is None and value.func.text in facts.classes:
            cls = (facts, value.func.text)
        if cls is not None:
            return [cls]
        # A factory: the classes of what it returns (`store = make_store()`), or of its annotation.
        out: list[tuple[ModuleFacts, str]] = []
        for callee_facts, fn in callees(scope, value, project, depth + 1):
            inner = Scope(callee_facts, fn.name)
            for ret in fn.return_values:
                out.extend(c for c in classes_of(inner, ret, project, depth + 1) if c not in out)
            if not out and fn.returns_annotation:
                out.extend(classes_for_types(callee_facts, annotation_names(callee_facts, fn.returns_annotation), project))
        if not out and value.func.text.rpartition(".")[2] == "get":
            # `repo_var.get()` of `repo_var: ContextVar[Repo]`.
            out = classes_for_types(facts, scope.types(value.func.text.rpartition(".")[0]), project)
        return out
    if isinstance(value, Each):
        return _element_classes(scope, value.iter, project, depth + 1)
    if isinstance(value, Item) and isinstance(value.container, Call) and isinstance(value.key, Const) \
            and isinstance(value.key.value, int):
        return _unpacked_classes(scope, value.container, value.key.value, project, depth)
    if isinstance(value, Either):  # `ctx.repo if ctx else ClaimRepository()`: an instance of any option's class
        out = []
        for option in value.options:
            out.extend(c for c in classes_of(scope, option, project, depth + 1) if c not in out)
        return out
    return []


def _passed_entry_classes(scope: Scope, name: str, project: ProjectIndex, depth: int) -> list[tuple[ModuleFacts, str]]:
    """`deps.repo` where the walk's caller passed `deps` (`ReceiverScope.passed`): the classes of
    that entry of what it passed, read in the caller's scope."""
    head, _, key = name.partition(".")
    given = scope.passed(head)
    if given is None:
        return []
    caller, arg = given
    return classes_of(caller, _entry_of(arg, key), project, depth + 1)


def _entry_of(arg: Value, key: str) -> Value | None:
    """What a passed value holds under `key`: `deps.repo` of a name, the entry of an object display
    (`{ repo: store }`); the value itself for no key."""
    if not key:
        return arg
    if isinstance(arg, Ref):
        return Ref(f"{arg.name}.{key}", f"{arg.text}.{key}", arg.loc)
    return arg.get(key) if isinstance(arg, Mapping) else None


def _closure_parameter_classes(scope: Scope, name: str, project: ProjectIndex,
                               depth: int) -> list[tuple[ModuleFacts, str]]:
    """`notifier` in a tool nested in `make_slack_tool(notifier)`, unannotated: the classes of what
    the factory's call sites pass (`make_slack_tool(make_notifier())` in another module); `deps.repo`
    of `make_tool(deps)`, what they pass under that key (`make_tool({ repo: deps.repo })`, typed
    there). A parameter of the function itself is bound by the walk that enters it (`ReceiverScope`),
    but a constructor's: the walk reads what `__init__` stored (`self.repo = repo`) in another method,
    so it is what the class's constructions pass (`Service(repo=SQLRepo())`, in other modules too)."""
    head, _, key = name.partition(".")
    found = scope.param(head)
    if found is None or (found[0] is scope.fn and found[0].name.rpartition(".")[2] != "__init__"):
        return []
    fn, index = found

    def compute() -> tuple[tuple[str, str], ...]:  # paths, not facts: the answer outlives `forget`
        out: list[tuple[str, str]] = []
        for caller, arg in argument_values(Scope(scope.facts, fn.name), fn, index, project)[:8]:
            out.extend((f.path, c) for f, c in classes_of(caller, _entry_of(arg, key), project, depth + 1)
                       if (f.path, c) not in out)
        return tuple(out)

    # The depth is part of the key: an answer cut short deep in one walk is not another's (any `-j`, any order).
    found_in = project.remembered(("semantic.closure_parameter", os.path.abspath(scope.facts.path), fn.name, name,
                                   str(depth)), compute)
    return [(facts, cls) for path, cls in found_in if (facts := project.facts_for_path(path)) is not None]


def _returned_entry_classes(scope: Scope, call: Call, key: str, project: ProjectIndex,
                            depth: int) -> list[tuple[ModuleFacts, str]]:
    """The classes of what the project function `call` runs returns under `key` (`return { ok: true,
    client }`, a result object holding the client)."""
    out: list[tuple[ModuleFacts, str]] = []
    for callee_facts, fn in callees(scope, call, project, depth + 1):
        inner = Scope(callee_facts, fn.name)
        for ret in fn.return_values:
            entry = ret.get(key) if isinstance(ret, Mapping) else None
            out.extend(c for c in classes_of(inner, entry, project, depth + 1) if c not in out)
    return out


def _unpacked_classes(scope: Scope, call: Call, index: int, project: ProjectIndex,
                      depth: int) -> list[tuple[ModuleFacts, str]]:
    """`client, err = client_or_error(get_lidarr_client, "Lidarr")`: the classes of item `index` of the
    tuples the project function returns; an item its body got by calling a parameter
    (`client = get_client_fn()`) is what calling the caller's argument makes."""
    out: list[tuple[ModuleFacts, str]] = []
    for callee_facts, fn in callees(scope, call, project, depth + 1):
        inner = Scope(callee_facts, fn.name)
        for ret in fn.return_values:
            if not isinstance(ret, Seq) or len(ret.items) <= index:
                continue
            item = ret.items[index]
            made = inner.value(item.text) if isinstance(item, Ref) and "." not in item.text else None
            if isinstance(made, Call) and isinstance(made.func, Ref) and made.func.text in fn.params:
                given = call.arg(fn.params.index(made.func.text), made.func.text)
                found = classes_of(scope, Call(given, (), (), made.loc), project, depth + 1) if isinstance(given, Ref) else []
            else:
                found = classes_of(inner, item, project, depth + 1)
            out.extend(c for c in found if c not in out)
    return out


def _element_classes(scope: Scope, iterable: Value | None, project: ProjectIndex,
                     depth: int) -> list[tuple[ModuleFacts, str]]:
    """The project classes of what iterating `iterable` yields: the items of a list display or
    comprehension (through a name bound to one), or what the container's annotation names
    (`graphs: list[Graph]`, also read with `.values()`), or what a function returns."""
    if iterable is None or depth > MAX_DEPTH:
        return []
    if isinstance(iterable, Seq):
        out: list[tuple[ModuleFacts, str]] = []
        for item in iterable.items:
            out.extend(c for c in classes_of(scope, item, project, depth + 1) if c not in out)
        return out
    if isinstance(iterable, Comp):
        return classes_of(scope, iterable.elt, project, depth + 1)
    if isinstance(iterable, Either):  # `for p in plugins or []`
        out = []
        for option in iterable.options:
            out.extend(c for c in _element_classes(scope, option, project, depth + 1) if c not in out)
        return out
    if isinstance(iterable, Call) and isinstance(iterable.func, Ref) and iterable.func.text.endswith(".values"):
        iterable = Ref(iterable.func.name.rpartition(".")[0], iterable.func.text.rpartition(".")[0], iterable.loc)
    if isinstance(iterable, Ref):
        bound = scope.binding(iterable.text)
        if bound is not None and isinstance(bound[1], (Seq, Comp)):
            found = _element_classes(bound[0], bound[1], project, depth + 1)
            # `self.graphs: list[Graph] = []` holds what its annotation names.
            return found or classes_for_types(scope.facts, scope.types(iterable.text), project)
        param = scope.param(iterable.text) if bound is None and "." not in iterable.text else None
        if param is not None:
            # `for plugin in plugins:` of a parameter: what its callers pass (`plugins=[GitPlugin()]`,
            # also a class that only looks like the annotation's), then what the annotation names.
            out = []
            for caller, arg in argument_values(scope, param[0], param[1], project):
                for where, item in elements(caller, arg, project, depth + 1):
                    out.extend(c for c in classes_of(where, item, project, depth + 1) if c not in out)
            out.extend(c for c in classes_of(scope, iterable, project, depth + 1) if c not in out)
            return out
    # An annotation lists its element type (`list[Graph]` names Graph); a function returns one.
    return classes_of(scope, iterable, project, depth + 1) if isinstance(iterable, (Ref, Call)) else []


def _attribute_chain(scope: Scope, value: Ref, project: ProjectIndex, depth: int) -> list[tuple[ModuleFacts, str]]:
    """`gw.http.client` / `ctx.context.db`: the classes of the head, then of each attribute in turn
    (assigned or annotated on those classes). A framework's context wrapper (`RunContextWrapper[AppCtx]`
    read through `.context`) stands for the project classes its annotation names."""
    head, *attrs = value.text.split(".")
    wrappers = {attr for fw in FRAMEWORKS for attr in fw.tools.context_attrs.values()}
    wrapped = any(canonical(n)[1] in fw.tools.context_attrs for n in scope.types(head) for fw in FRAMEWORKS)
    current = classes_of(scope, Ref(value.name.split(".")[0], head, value.loc), project, depth + 1)
    for i, attr in enumerate(attrs):
        if i == 0 and wrapped and attr in wrappers:
            continue  # `ctx.context` is the AppCtx the annotation names
        nxt: list[tuple[ModuleFacts, str]] = []
        for cls in current:
            for found in _attribute_classes(cls, attr, project, depth + 1):
                if found not in nxt:
                    nxt.append(found)
        current = nxt
        if not current:
            break
    return current


def _attribute_classes(cls: tuple[ModuleFacts, str], attr: str, project: ProjectIndex,
                       depth: int) -> list[tuple[ModuleFacts, str]]:
    facts, name = cls
    a = attributes(facts).get((name, attr))
    found: list[tuple[ModuleFacts, str]] = []
    if a is not None and a.annotation:
        found = classes_for_types(facts, a.annotation, project)
    if not found and a is not None and a.op == "=":
        found = classes_of(Scope(facts, a.scope if a.scope in facts.functions else ""), a.value, project, depth + 1)
    # Only an attribute the class declares but leaves unknown is looked for outside it.
    return found or (_set_from_outside(cls, attr, project, depth) if a is not None else [])


def _set_from_outside(cls: tuple[ModuleFacts, str], attr: str, project: ProjectIndex,
                      depth: int) -> list[tuple[ModuleFacts, str]]:
    """The classes of what project code stores in `attr` of an instance from outside the class
    (`app_context.excel_manager = manager` in the CLI, where the class itself only says `= None`
    or `Any`): every such assignment in the class's module and its importers, each name read
    through every value the function binds it to."""
    facts, name = cls
    memo: dict[tuple[str, str, str], list[tuple[ModuleFacts, str]]] = project.memo.setdefault("semantic.set_outside", {})
    key = (facts.path, name, attr)
    if key in memo:
        return memo[key]
    memo[key] = []  # an attribute whose value is read through itself
    out: list[tuple[ModuleFacts, str]] = []
    for where in [facts, *(m for m in project.importers_of(facts.module) if m is not facts)]:
        for a in _outside_sets(where).get(attr, ()):
            scope = Scope(where, a.scope if a.scope in where.functions else "")
            head = a.target[: -len(attr) - 1]
            if cls not in classes_of(scope, Ref(head, head, a.loc), project, depth + 1):
                continue
            for value in _every_value(where, a.scope, a.value):
                out.extend(c for c in classes_of(scope, value, project, depth + 1) if c not in out)
    memo[key] = out
    return out


def _outside_sets(facts: ModuleFacts) -> dict[str, list[Assignment]]:
    """attribute -> the plain assignments `obj.attr = value` whose receiver is not `self`/`cls`."""

    def compute() -> dict[str, list[Assignment]]:
        table: dict[str, list[Assignment]] = {}
        for a in facts.assignments:
            head, _, attr = a.target.rpartition(".")
            if a.op == "=" and head and head not in OWN_OBJECT:
                table.setdefault(attr, []).append(a)
        return table

    return facts.derived("semantic.outside_sets", compute)


def _every_value(facts: ModuleFacts, scope: str, value: Value) -> list[Value]:
    """Every value a plain name is bound to in `scope` (`manager = None` ... `manager = Manager()`),
    where `Scope.value` sees only the last; any other value stands for itself."""
    if not isinstance(value, Ref) or "." in value.text:
        return [value]
    bound = [a.value for a in facts.assignments if a.op == "=" and a.target == value.text and a.scope == scope]
    return bound or [value]


def annotation_names(facts: ModuleFacts, text: str) -> tuple[str, ...]:
    """Resolved names in an annotation's source text (`Store | None`, `"Store"`, `Optional[Store]`)."""
    out: list[str] = []
    for word in text.replace("[", " ").replace("]", " ").replace("|", " ").replace(",", " ").replace('"', " ").replace("'", " ").split():
        head, _, rest = word.partition(".")
        target = facts.imports.get(head)
        out.append(f"{target}.{rest}" if target and rest else (target or word))
    return tuple(out)


# ---- calls -----------------------------------------------------------------------------------
def callees(scope: Scope, call: Call, project: ProjectIndex, depth: int = 0,
            arguments: dict[str, tuple[Scope, Value]] | None = None) -> list[tuple[ModuleFacts, FunctionFacts]]:
    """The project functions `call` (made in `scope`) runs. `arguments` binds the parameters of the
    function being walked to the caller's argument values (a callable passed in)."""
    func = call.func
    if depth > MAX_DEPTH:
        return []
    if isinstance(func, Item) or (isinstance(func, Call) and dispatch_table(scope, func) is not None):
        return _function_values(scope, func, project, depth + 1)  # `_ACTIONS[action](**kw)`
    if isinstance(func, Attr) and func.receiver is not None:
        # `make_store().save(...)`, `repo_var.get().delete(...)`: a method of what the receiver is.
        found = [method_of(cls, func.attr, project) for cls in classes_of(scope, func.receiver, project, depth + 1)]
        return [f for f in found if f is not None]
    if not isinstance(func, Ref):
        return []
    return target_functions(scope, func, project, depth, arguments)


def target_functions(scope: Scope, func: Ref, project: ProjectIndex, depth: int = 0,
                     arguments: dict[str, tuple[Scope, Value]] | None = None) -> list[tuple[ModuleFacts, FunctionFacts]]:
    """The project functions a callee expression (`f`, `self.m`, `store.save`, `mod.f`) names."""
    facts, text = scope.facts, func.text
    if depth > MAX_DEPTH:
        return []
    if "." not in text:
        if arguments and text in arguments:
            caller, arg = arguments[text]
            return _function_values(caller, arg, project, depth + 1)
        local = scope.function(func)
        if local is not None and (scope.fn is None or local.name != scope.fn.name):
            return [(facts, local)]
        bound = scope.value(text)
        if bound is not None:
            return _function_values(scope, bound, project, depth + 1)
        param = scope.param(text)
        if param is not None:
            return [f for s, v in argument_values(scope, param[0], param[1], project)
                    for f in _function_values(s, v, project, depth + 1)]
        if func.name != text and not _library(func.name, project):
            found = resolve_function(func.name, project, facts.path)
            if found is not None:
                return [found]
            # `export const eventsHandler = asyncHandler(async (...) => {...})`: what it is bound to runs.
            binding = imported_binding(scope, func, project)
            return _function_values(binding[0], binding[1], project, depth + 1) if binding is not None else []
        # `from .config import *`, then `send_email(...)`: the star-imported module's function.
        source = star_imported(facts, text, project)
        found = resolve_function(source, project, facts.path) if source else None
        return [found] if found is not None else []
    receiver, _, method = text.rpartition(".")
    if receiver in OWN_OBJECT and scope.class_name:
        found = _overridden(scope, method, project, arguments) or method_of((facts, scope.class_name), method, project)
        if found is not None:
            return [found]
        # An attribute holding an object: `self.store.save()` is handled below through the receiver.
        if "." not in receiver:
            return []
    out: list[tuple[ModuleFacts, FunctionFacts]] = []
    for cls in classes_of(scope, Ref(func.name.rpartition(".")[0], receiver, func.loc), project, depth + 1):
        found = method_of(cls, method, project)
        if found is not None and found not in out:
            out.append(found)
    if out:
        return out
    named = project_class(facts, func.name.rpartition(".")[0], project) if "." in func.name else None
    if named is not None:  # `Tools.search(q)`: a function read off the class itself (a static method)
        found = method_of(named, method, project)
        return [found] if found is not None else []
    head = text.partition(".")[0]
    if head in facts.imports and not _library(func.name, project):
        found = resolve_function(func.name, project, facts.path)
        if found is not None:
            return [found]
    if method in tool_runners():
        # `send_email.invoke({...})` in another tool: the tool made of `send_email` runs its function.
        return target_functions(scope, Ref(func.name.rpartition(".")[0], receiver, func.loc), project, depth + 1, arguments)
    literal = _object_literal(scope, Ref(func.name.rpartition(".")[0], receiver, func.loc), project)
    if literal is not None and (member := literal[1].get(method)) is not None:
        # `taskService.create(...)` of `export const taskService = { async create(data) {...} }`
        return _function_values(literal[0], member, project, depth + 1)
    return []


def _object_literal(scope: Scope, value: Ref, project: ProjectIndex) -> tuple[Scope, Mapping] | None:
    """The object literal (dict) a name is bound to, here or at the top level of the module it is
    imported from, with the scope its values are read in."""
    bound = scope.binding(value.text) if "." not in value.text else None
    if bound is None and value.name != value.text and not _library(value.name, project):
        bound = imported_binding(scope, value, project)
    return (bound[0], bound[1]) if bound is not None and isinstance(bound[1], Mapping) else None


def imported_binding(scope: Scope, value: Ref, project: ProjectIndex) -> tuple[Scope, Value] | None:
    """What an imported name is bound to at the top level of the module defining it, with that
    module's scope (`export const taskService = {...}`, `export const handler = wrap(fn)`)."""
    found = project.resolve(value.name, scope.facts.path)
    return Scope(found[0]).binding(found[1]) if found is not None and found[0] is not scope.facts else None


def _library(name: str, project: ProjectIndex) -> bool:
    """A name of a framework or of a library the effect table knows: never project code, unless
    the project has a package of that name (`agents/` run from its parent folder, beside or
    instead of the OpenAI Agents SDK): then a name it does not define is still the library's."""
    from ..effects import LIBRARY_ROOTS

    root = name.split(".")[0]
    return (root in framework_roots() or root in LIBRARY_ROOTS) and root not in project.package_names()


def _function_values(scope: Scope, value: Value, project: ProjectIndex, depth: int) -> list[tuple[ModuleFacts, FunctionFacts]]:
    """The project functions a value that is called stands for (`work` bound to `insert`, a
    `functools.partial(f, ...)`)."""
    if depth > MAX_DEPTH:
        return []
    if isinstance(value, Ref):
        return target_functions(scope, value, project, depth)
    if isinstance(value, Call) and value.callee == "functools.partial" and value.args:
        return _function_values(scope, value.args[0], project, depth + 1)
    made = _made_of(value) if isinstance(value, Call) else None
    if made is not None:  # `StructuredTool.from_function(func=send)`: what the tool runs is `send`
        return _function_values(scope, made, project, depth + 1)
    out: list[tuple[ModuleFacts, FunctionFacts]] = []
    if isinstance(value, Attr) and value.receiver is not None:  # `TerraformAgent(settings).run`
        for cls in classes_of(scope, value.receiver, project, depth + 1):
            found = method_of(cls, value.attr, project)
            if found is not None and found not in out:
                out.append(found)
        return out
    if isinstance(value, Each):  # `for step in build_pipeline(s): ctx = step(ctx)`: each step runs
        for where, item in elements(scope, value.iter, project, depth + 1):
            out.extend(f for f in _function_values(where, item, project, depth + 1) if f not in out)
        return out
    table = dispatch_table(scope, value)
    if table is not None:
        for inner, item in table:
            out.extend(f for f in _function_values(inner, item, project, depth + 1) if f not in out)
    elif isinstance(value, Call):
        # What a wrapper makes of a function runs it (`asyncHandler(async (p) => {...})`, `once(send)`).
        for arg in value.args:
            if isinstance(arg, Ref):
                out.extend(f for f in target_functions(scope, arg, project, depth + 1) if f not in out)
    return out


def _made_of(call: Call) -> Value | None:
    """The function a framework's tool maker is given (`tool(send)`, `FunctionTool.from_defaults(fn=send)`)."""
    fw, canon = canonical(call.callee)
    maker = fw.tools.makers.get(canon) if fw is not None else None
    if maker is None or maker.function is None:
        return None
    return call.arg(maker.function.position, maker.function.keyword)


def dispatch_table(scope: Scope, value: Value) -> list[tuple[Scope, Value]] | None:
    """The values of a dict read by a key known only at run time (`_ACTIONS[action]`,
    `{"a": self._a}[kind]`, `HANDLERS.get(name)`, a name bound to a dict that is called), each with
    the scope it is read in: the call may run any of them. None when `value` is no such read."""
    if isinstance(value, Item):
        container = value.container
    elif isinstance(value, Mapping):  # `D[k](...)` is collected as a call of `D` (as `Agent[T](...)` is)
        container = value
    elif isinstance(value, Call) and isinstance(value.func, Ref) and value.func.text.endswith(".get") and value.args:
        text = value.func.text.rpartition(".")[0]
        container = Ref(text, text, value.func.loc)
    elif isinstance(value, Call) and isinstance(value.func, Attr) and value.func.attr == "get" and value.args:
        container = value.func.receiver
    else:
        return None
    where = scope
    if isinstance(container, Ref):
        bound = scope.binding(container.text)
        if bound is None:
            return None
        where, container = bound
    if not isinstance(container, Mapping):
        return None
    return [(where, v) for k, v in container.items if k is not None]


def argument_values(scope: Scope, fn: FunctionFacts, index: int, project: ProjectIndex) -> list[tuple[Scope, Value]]:
    """What the call sites of `fn` pass for its parameter at `index` (keyword or position; methods
    skip `self`): in its module, and in the modules that import it. A class's `__init__` is called
    by calling the class (`ReactAgent(model, tools)`)."""
    facts = scope.facts
    name = fn.params[index]
    position = index - 1 if fn.class_name and fn.params and fn.params[0] in OWN_OBJECT else index
    out: list[tuple[Scope, Value]] = []
    for where, caller_scope, call in _call_sites_of(facts, fn, project):
        arg = call.arg(position if position >= 0 else None, name)
        if arg is not None and (where is not facts or caller_scope != fn.name):
            out.append((Scope(where, caller_scope), arg))
    return out if len(out) <= 64 else out[:64]


def _call_sites_of(facts: ModuleFacts, fn: FunctionFacts, project: ProjectIndex) -> list[tuple[ModuleFacts, str, Call]]:
    short = fn.name.rpartition(".")[2]
    constructor = bool(fn.class_name) and short == "__init__"
    texts = [short] if not fn.class_name else [f"self.{short}", f"cls.{short}", f"{fn.class_name}.{short}"]
    if constructor:
        texts.append(fn.class_name)
    table = calls_by_text(facts)
    found = [(facts, caller, call) for text in texts for caller, call in table.get(text, ())]
    if constructor:  # a subclass's `super().__init__(...)`
        found += _super_inits(facts, {fn.class_name, f"{facts.module}.{fn.class_name}"})
    # Another module calls it by the name it imports it under (`from .react import build`).
    public = fn.class_name if constructor else ("" if fn.class_name else fn.name)
    if not public or not facts.module:
        return found
    js = facts.module.startswith(js_modules.PREFIX)
    for path in project.js_importers(facts.path) if js else project.importer_paths(facts.path):
        other = project.facts_for_path(path)
        if other is None or other is facts:
            continue
        called = calls_by_text(other)
        for local, dotted in other.imports.items():
            as_attribute = called.get(f"{local}.{public}")  # `factory.make(...)`: asked only where such a call is
            if as_attribute and project.module(dotted, other.path) is facts:
                # The module itself, imported (`from app import factory`, `import app.factory as f`).
                found.extend((other, caller, call) for caller, call in as_attribute)
                continue
            if dotted.rpartition(".")[2] != public or project.resolve(dotted, other.path) != (facts, public):
                continue
            found.extend((other, caller, call) for caller, call in called.get(local, ()))
            if constructor:
                found += _super_inits(other, {dotted})
    return found


def _super_inits(facts: ModuleFacts, bases: set[str]) -> list[tuple[ModuleFacts, str, Call]]:
    """The `super().__init__(...)` calls in the `__init__` of this module's subclasses of `bases`
    (resolved names); the collector keeps their callee as Other("attr:__init__")."""
    return [(facts, caller, call) for caller, call, caller_bases in _super_init_calls(facts) if bases.intersection(caller_bases)]


def _super_init_calls(facts: ModuleFacts) -> list[tuple[str, Call, tuple[str, ...]]]:
    """(the `__init__`, its `super().__init__(...)` call, its class's bases), indexed once per module:
    `argument_values` asks for them at every constructor parameter it follows."""

    def compute() -> list[tuple[str, Call, tuple[str, ...]]]:
        inits = {f.name: f.bases for f in facts.functions.values() if f.name.endswith(".__init__")}
        return [(caller, call, inits[caller]) for caller, call in facts.all_calls()
                if caller in inits and isinstance(call.func, Other) and call.func.kind == "attr:__init__"]

    return facts.derived("semantic.super_init_calls", compute)


def given(scope: Scope, call: Call, position: int | None, keyword: str | None) -> Value | None:
    """The argument `call` gives at `position` or as `keyword`, also inside a `**` spread of a dict
    display or `dict(...)`, inline or bound to a name (`options = {"tools": [...]}; Agent(**options)`),
    or in either object a JS spread chooses between (`...(signal ? { abortSignal: signal } : {})`)."""
    found = call.arg(position, keyword)
    if found is not None or keyword is None:
        return found
    for key, value in call.kwargs:
        if key is None:
            chosen = dereferenced(scope, value)
            for option in chosen.options if isinstance(chosen, Either) else (chosen,):
                spread = spread_mapping(scope, option)
                found = spread.get(keyword) if isinstance(spread, Mapping) else (
                    spread.kwarg(keyword) if isinstance(spread, Call) else None)
                if found is not None:
                    return found
    return None


def spread_mapping(scope: Scope, value: Value | None) -> Value | None:
    """What a `**value` spread holds: a dict display or a `dict(...)` call, written inline or bound to
    a name (`OPTS = {...}; function_tool(**OPTS)`); else None."""
    value = dereferenced(scope, value)
    if isinstance(value, Mapping) or (isinstance(value, Call) and value.callee in ("dict", "builtins.dict")):
        return value
    return None


def dereferenced(scope: Scope, value: Value | None) -> Value | None:
    """`value`, through the names it is bound to (a few hops)."""
    for _ in range(4):
        if not isinstance(value, Ref):
            break
        value = scope.value(value.text)
    return value


# ---- lists -----------------------------------------------------------------------------------
def elements(scope: Scope, value: Value | None, project: ProjectIndex, depth: int = 0) -> Iterator[tuple[Scope, Value]]:
    """The items a list expression holds, each with the scope it is read in. An item that is not a
    list (a tool name, a call) is yielded as it is; the caller decides what it denotes."""
    if value is None or depth > MAX_DEPTH:
        return
    if isinstance(value, Seq):
        for item in value.items:
            yield from elements(scope, item, project, depth + 1) if isinstance(item, (Starred, Either)) else ((scope, item),)
        return
    if isinstance(value, Starred):
        yield from elements(scope, value.value, project, depth + 1)
        return
    if isinstance(value, Either):  # `[a] if c else [b]`, `tools or [default]`: whichever runs
        for option in value.options:
            yield from elements(scope, option, project, depth + 1)
        return
    if isinstance(value, Comp):
        if isinstance(value.elt, Ref) and value.elt.text == value.target:
            yield from elements(scope, value.iter, project, depth + 1)
        elif isinstance(value.elt, Call):  # `[make_tool(spec) for spec in specs]`: what each call makes
            yield from elements(scope, value.elt, project, depth + 1)
        return
    if isinstance(value, Call):
        made = _mapped(scope, value)
        if made is not None:  # `definitions.map((d) => tool({...}))`: what the callback returns
            for inner, ret in made:
                yield from elements(inner, ret, project, depth + 1)
            return
        if isinstance(value.func, Ref):
            if value.func.name in ITEM_COPIERS and value.args:
                yield from elements(scope, value.args[0], project, depth + 1)
                return
            receiver, _, method = value.func.text.rpartition(".")
            if method in ITEM_METHODS and receiver and not value.args:
                yield from elements(scope, Ref(receiver, receiver, value.loc), project, depth + 1)
                return
            returned = list(_returned_elements(scope, value, project, depth))
            if returned:
                yield from returned
                return
        yield scope, value
        return
    if _picked_by_name(scope, value):
        # `toolRegistry[name]`: an entry of a tools object picked by a name chosen at run time, any of them.
        yield from elements(scope, value.container, project, depth + 1)  # type: ignore[union-attr]
        return
    if isinstance(value, Mapping):  # a tools object keyed by name a factory returns (`{ write_file: tool({...}) }`)
        for key, item in value.items:
            yield from elements(scope, item, project, depth + 1) if key is None else ((scope, item),)
        return
    if isinstance(value, Ref):
        bound = scope.value(value.text)
        for where, alternative in _rebound(scope, value.text, bound):
            yield from elements(where, alternative, project, depth + 1)
        if isinstance(bound, (Seq, Starred, Comp)) or (isinstance(bound, Call) and _is_list_call(bound)):
            yield from elements(scope, bound, project, depth + 1)
            yield from _grown(scope, value.text, project, depth)
            return
        if isinstance(bound, (Ref, Either)):  # an alias, or `(hint && byHint[hint]) || [...]`: whichever runs
            yield from elements(scope, bound, project, depth + 1)
            return
        if isinstance(bound, Each):  # `for t in tools: wrapped.append(t)`: any item of what it loops over
            yield from elements(scope, bound.iter, project, depth + 1)
            return
        if _picked_by_name(scope, bound):  # `const tool = toolRegistry[name]`
            yield from elements(scope, bound, project, depth + 1)
            return
        if isinstance(bound, Mapping) and "." not in value.text:
            # `tools = { ...tools, ...createApplyTools(opts) }`: its spread of the name itself is
            # the value before, which `_rebound` gave.
            yield from elements(scope, Mapping(tuple((k, v) for k, v in bound.items if not _same_spread(k, v, value.text)),
                                               bound.loc), project, depth + 1)
            yield from _stored_by_key(scope, value.text, project, depth)
            yield from _assigned_into(scope, value.text, project, depth)
            return
        held = _group_tools(scope, value.text) if bound is None and "." in value.text else None
        if held is not None:  # `[...base.tools, x]`: the tools `base` was built with
            yield from elements(scope, held, project, depth + 1)
            return
        kept = list(_returned_entry(scope, value.text, project, depth)) if bound is None and "." in value.text else []
        if kept:  # `agent.tools` of `agent = createChatAgent()` returning `{ tools, model }`
            for inner, entry in kept:
                yield from elements(inner, entry, project, depth + 1)
            return
        if bound is None and "." not in value.text:
            param = scope.param(value.text)
            if param is not None:
                for caller, arg in argument_values(scope, param[0], param[1], project):
                    yield from elements(caller, arg, project, depth + 1)
                return
            if value.name != value.text:
                target = project.resolve(value.name, scope.facts.path)
                if target is not None and target[0] is not scope.facts:
                    other = Scope(target[0])
                    if isinstance(other.value(target[1]), (Seq, Starred, Comp, Call, Ref, Mapping)):
                        yield from elements(other, Ref(target[1], target[1], value.loc), project, depth + 1)
                        return
        if isinstance(bound, Call):
            returned = list(_returned_elements(scope, bound, project, depth))
            if returned:
                yield from returned
                return
        if isinstance(bound, Attr) and isinstance(bound.receiver, Call):
            # `const { systemPrompt, tools } = await this.prepareLlmCall()`: the entry it returns.
            entries = list(_entries_returned(scope, bound.receiver, bound.attr, project, depth))
            if entries:
                for inner, entry in entries:
                    yield from elements(inner, entry, project, depth + 1)
                return
        yield scope, value


def _mapped(scope: Scope, call: Call) -> list[tuple[Scope, Value]] | None:
    """The values an array's `map` / `flatMap` callback written in this module returns (a registry of
    tool definitions made into tools), each in the callback's scope; None for any other call."""
    func = call.func
    method = func.attr if isinstance(func, Attr) else func.text.rpartition(".")[2] if isinstance(func, Ref) else ""
    if method not in ARRAY_MAPS or not call.args:
        return None
    fn = scope.function(call.args[0])
    if fn is None:
        return None
    return [(Scope(scope.facts, fn.name), ret) for ret in fn.return_values]


def _returned_elements(scope: Scope, call: Call, project: ProjectIndex, depth: int) -> Iterator[tuple[Scope, Value]]:
    """The items of what a project function returns, read where `call` is: a part of what the call
    gave it (`filterTools(allTools, names)`, `wrapEach(tools)`) in the caller's scope, else in its own."""
    for inner, ret in _returned(scope, call, project, depth + 1):
        passed = _passed_through(inner, ret, call)
        if passed is not None:
            yield from elements(scope, passed, project, depth + 1)
        else:
            yield from elements(inner, ret, project, depth + 1)


def _passed_through(inner: Scope, ret: Value, call: Call) -> Value | None:
    """What `call` passed for the parameter its callee returns entries of: the parameter itself, an
    entry of it (`allTools[name]`, the item of a loop over it, a copy `{ ...item, execute }`), a call
    handed it (a wrapper: `withTokenVault(opts, tool)`), or a local object filled with its entries
    (`filtered[name] = allTools[name]; return filtered`, a filter by name, a wrapper of each). None
    when the return is something else."""
    fn = inner.fn
    if fn is None:
        return None
    if isinstance(ret, Ref) and "." not in ret.text and isinstance(inner.value(ret.text), Mapping):
        entries = [a.value for a in _keyed_assignments(inner.facts).get(ret.text, ())
                   if _same_binding(inner.facts, a.scope, fn.name)]
        held = {_passed_through(inner, e, call) for e in entries}
        return held.pop() if len(held) == 1 and None not in held else None
    if isinstance(ret, Item) and ret.kind == "Subscript" and ret.container is not None:
        ret = ret.container
    if isinstance(ret, Mapping):  # `{ ...toolDef, execute: wrapped }`: the entry it copies
        ret = next((v for k, v in ret.items if k is None and isinstance(v, Ref)), ret)
    if isinstance(ret, Call):  # `withTokenVault({...}, tool)`, `authorize(opts)(tool)`: a wrapper of the parameter
        ret = next((a for a in ret.args if isinstance(a, Ref) and a.text in fn.params), ret)
    looped = inner.value(ret.text) if isinstance(ret, Ref) and "." not in ret.text else None
    if isinstance(looped, Each) and looped.iter is not None:  # an entry of a loop over the parameter
        ret = looped.iter
    if isinstance(ret, Ref) and ret.text in fn.params and inner.value(ret.text) is None:
        index = fn.params.index(ret.text)
        return call.arg(index, ret.text)
    return None


def _picked_by_name(scope: Scope, value: Value | None) -> bool:
    """`registry[name]` of an object (a literal, or what a call made), under a key chosen at run time."""
    return isinstance(value, Item) and value.kind == "Subscript" and isinstance(value.container, Ref) \
        and not isinstance(value.key, Const) and isinstance(scope.value(value.container.text), (Mapping, Call))


def _stored_by_key(scope: Scope, name: str, project: ProjectIndex, depth: int) -> Iterator[tuple[Scope, Value]]:
    """The entries stored into the object `name` under keys chosen at run time, in the scope that
    binds it (`resolved[name] = toolRegistry[name]`, `resolved[name] = createSearch(org)`)."""
    found = scope.binding(name)
    owner = found[0].name if found is not None else ""
    for a in _keyed_assignments(scope.facts).get(name, ()):
        if _same_binding(scope.facts, a.scope, owner):
            yield from elements(Scope(scope.facts, a.scope), a.value, project, depth + 1)


def _assigned_into(scope: Scope, name: str, project: ProjectIndex, depth: int) -> Iterator[tuple[Scope, Value]]:
    """The entries `Object.assign(name, a, b)` copies into the object `name`: those of `a` and `b`."""
    found = scope.binding(name)
    owner = found[0].name if found is not None else ""
    for call_scope, call in calls_by_text(scope.facts).get("Object.assign", ()):
        target = call.args[0] if call.args else None
        if isinstance(target, Ref) and target.text == name and _same_binding(scope.facts, call_scope, owner):
            for source in call.args[1:]:
                yield from elements(Scope(scope.facts, call_scope), source, project, depth + 1)


def _returned_entry(scope: Scope, text: str, project: ProjectIndex, depth: int) -> Iterator[tuple[Scope, Value]]:
    """`made.key` of `made = { key: ... }` (a catalog of tools) or of `made = f()`, a project function
    returning an object display: the value under `key` (`return { tools, model }`), in the scope
    that wrote it."""
    receiver, _, key = text.rpartition(".")
    made = scope.value(receiver) if "." not in receiver else None
    entry = made.get(key) if isinstance(made, Mapping) else None
    if entry is not None:
        yield scope, entry
        return
    if isinstance(made, Call):
        yield from _entries_returned(scope, made, key, project, depth)


def _entries_returned(scope: Scope, call: Call, key: str, project: ProjectIndex, depth: int) -> Iterator[tuple[Scope, Value]]:
    """The values the project function `call` runs returns under `key` (`return { systemPrompt, tools }`),
    each in the scope that wrote it."""
    if depth > MAX_DEPTH:
        return
    for inner, ret in _returned(scope, call, project, depth + 1):
        shown = inner.value(ret.text) if isinstance(ret, Ref) and "." not in ret.text else ret
        entry = shown.get(key) if isinstance(shown, Mapping) else None
        if entry is not None:
            yield inner, entry


def _keyed_assignments(facts: ModuleFacts) -> dict[str, list[Assignment]]:
    """name -> its `name[key] = value` assignments, indexed once per module."""

    def compute() -> dict[str, list[Assignment]]:
        table: dict[str, list[Assignment]] = {}
        for a in facts.assignments:
            if a.target.endswith(KEYED):
                table.setdefault(a.target[:-len(KEYED)], []).append(a)
        return table

    return facts.derived("semantic.keyed_assignments", compute)


def _rebound(scope: Scope, text: str, last: Value | None) -> list[tuple[Scope, Value]]:
    """The other lists a plain `=` gives the name `text` in the scope that binds it, besides the
    last one (`last`): `toolkit = get_package_toolkit()` in one `if` arm and `toolkit =
    get_network_toolkit()` in another; whichever ran, its tools are members."""
    if last is None or "." in text:
        return []
    found = scope.binding(text)
    if found is None:
        return []
    where = found[0]
    return [(where, a.value) for a in _assignments_by(scope.facts, "=").get((text, where.name), ())
            if a.value is not last and isinstance(a.value, (Seq, Starred, Comp, Call, Either, Mapping))]


def _same_spread(key: Value | None, item: Value, name: str) -> bool:
    """`...name` in an object assigned back to `name`."""
    return key is None and isinstance(item, Ref) and item.text == name


def _group_tools(scope: Scope, text: str) -> Value | None:
    """`agent.tools` of an agent built in this module (`Agent(tools=[...])`, `new Agent({ tools })`):
    the tools argument it was built with."""
    receiver, _, attr = text.rpartition(".")
    made = scope.value(receiver) if receiver else None
    if not isinstance(made, Call) or not isinstance(made.func, Ref):
        return None
    fw, canon = canonical(made.func.name)
    maker = fw.groups.makers.get(canon) if fw is not None and attr == fw.groups.tools_attr else None
    if maker is None or maker.tools is None:
        return None
    return made.arg(maker.tools.position, maker.tools.keyword)


def _is_list_call(call: Call) -> bool:
    if not isinstance(call.func, Ref):
        return False
    return call.func.name in ITEM_COPIERS or call.func.text.rpartition(".")[2] in ITEM_METHODS


def _returned(scope: Scope, call: Call, project: ProjectIndex, depth: int) -> Iterator[tuple[Scope, Value]]:
    """The values a call to a project function returns, each with the callee's scope."""
    for facts, fn in callees(scope, call, project, depth):
        inner = Scope(facts, fn.name)
        for ret in fn.return_values:
            yield inner, ret


def _grown(scope: Scope, name: str, project: ProjectIndex, depth: int) -> Iterator[tuple[Scope, Value]]:
    """Items added to the list `name` after it was built: `name.append(x)`, `name.extend(xs)`,
    `name += [...]`, in the scope that binds it."""
    facts = scope.facts
    owner = next((fn.name for fn in scope.functions() if (name, fn.name) in facts.last_assignments()), "")
    table = calls_by_text(facts)
    for call_scope, call in table.get(f"{name}.append", ()):
        if _same_binding(facts, call_scope, owner) and call.args:
            where, item = Scope(facts, call_scope), call.args[0]
            if isinstance(item, Ref) and isinstance(where.value(item.text), Each):  # `for t in ts: out.append(t)`
                yield from elements(where, item, project, depth + 1)
            else:
                yield where, item
    for call_scope, call in table.get(f"{name}.extend", ()):
        if _same_binding(facts, call_scope, owner) and call.args:
            yield from elements(Scope(facts, call_scope), call.args[0], project, depth + 1)
    for a in _aug_assignments(facts).get((name, owner), ()):
        yield from elements(Scope(facts, a.scope), a.value, project, depth + 1)


def _same_binding(facts: ModuleFacts, scope: str, owner: str) -> bool:
    """Does a use in `scope` see the binding made in `owner` (its own scope or nested in it)?"""
    return scope == owner or (not owner) or scope.startswith(owner + ".")


# ---- numbers and per-call values ---------------------------------------------------------------
TIMEDELTA = frozenset({"datetime.timedelta"})
_TIMEDELTA_UNITS = {"days": 86400.0, "seconds": 1.0, "microseconds": 1e-6, "milliseconds": 1e-3, "minutes": 60.0,
                    "hours": 3600.0, "weeks": 604800.0}
UNBOUNDED = float("inf")  # an explicit `None` where a number of seconds goes: no limit at all


def seconds(scope: Scope, value: Value | None, depth: int = 0) -> float | None:
    """The number of seconds `value` spells, or None when it cannot be read without running code:
    a literal, a name bound to one (module level or local), `timedelta(...)` of literals. An
    explicit `None` is `UNBOUNDED`."""
    if value is None or depth > 4:
        return None
    if isinstance(value, Const):
        if value.value is None:
            return UNBOUNDED
        if isinstance(value.value, (int, float)) and not isinstance(value.value, bool):
            return float(value.value)
        return None
    if isinstance(value, Ref):
        found = scope.binding(value.text)
        return seconds(found[0], found[1], depth + 1) if found is not None else None
    if isinstance(value, Call) and value.callee in TIMEDELTA:
        total = 0.0
        given = list(zip(("days", "seconds", "microseconds", "milliseconds", "minutes", "hours", "weeks"), value.args))
        for unit, arg in [*given, *((k, v) for k, v in value.kwargs if k is not None)]:
            n = seconds(scope, arg, depth + 1)
            if unit not in _TIMEDELTA_UNITS or n is None or n == UNBOUNDED:
                return None
            total += n * _TIMEDELTA_UNITS[unit]
        return total
    return None


def is_tool_call_id(scope: Scope, value: Value | None) -> bool:
    """Is `value` the id of the current tool call (`ctx.tool_call_id` on the framework's tool
    context, or a parameter injected as the call id)? The model mints a new one on every call."""
    if not isinstance(value, Ref):
        return False
    head, _, attr = value.text.partition(".")
    if "." in attr:
        return False
    for name in _unwrap(scope.types(head)):
        fw, canon = canonical(name)
        if fw is not None and fw.tools.call_ids.get(canon) == attr:
            return True
    return False
