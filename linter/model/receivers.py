"""Receivers that real code reaches its clients through, for the effect classifier.

`Scope.constructor` knows a receiver built in the function, the class or the module. Real tools
also get their clients from project code: a factory helper (`_get_client().publish(...)`,
`self._client().send_message(...)`, in this module or another), a `@property`
(`self.sqs.send_message(...)`), and a model class of the project that derives from a known ORM
base (`Fact.create(...)` under `peewee.Model`). `ReceiverScope` follows those through the
project, by the scopes, imports and types the semantic model resolves; never by a method name
searched across the project.

`dynamic_method_effect` classifies `getattr(client, op)(**params)`: the operation is chosen at run
time, so the call is an effect when the client's library has any mutating operation.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from ..effects import CONSTRUCTORS, Effect, effect_of, in_family
from ..effects.failing import is_chat_model
from ..effects.table import METHODS
from ..js import modules as js_modules
from ..syntax.facts import Attr, Call, Comp, Const, Each, Either, FunctionFacts, Mapping, ModuleFacts, Ref, Seq, Value
from .project import ProjectIndex
from .semantic import (
    OWN_OBJECT,
    Scope,
    annotation_names,
    ancestor_bases,
    argument_values,
    attributes,
    callees,
    calls_by_text,
    classes_of,
    imported_binding,
    method_of,
    project_class,
)

MAX_HOPS = 5  # hops (names bound, factories, properties) after which a project factory is not followed (was 4:
# `canvas = get_canvas()`, `course = canvas.get_course(i)`, `a = course.get_assignment(j)` lost the client)
PROPERTIES = frozenset({"property", "builtins.property", "functools.cached_property", "cached_property"})
GETATTR = frozenset({"getattr", "builtins.getattr"})


class ReceiverScope(Scope):
    """A function's `Scope` on one call path of the walk: its parameters read as what the caller
    passed, and `constructor` also follows factories and properties of the project."""

    __slots__ = ("project", "arguments")

    def __init__(self, facts: ModuleFacts, name: str, project: ProjectIndex,
                 arguments: dict[str, tuple[Scope, Value]] | None = None) -> None:
        super().__init__(facts, name)
        self.project = project
        self.arguments = arguments or {}  # parameters bound to what the caller passed (the walk's)

    def at(self, name: str) -> "ReceiverScope":
        return ReceiverScope(self.facts, name, self.project)

    # On one call path, a parameter nothing in the function rebinds reads as the value its caller
    # passed (`_run_git(["status", "--short"])` runs `git status`).
    def value(self, text: str) -> Value | None:
        found = super().value(text)
        if found is None and text in self.arguments:
            caller, given = self.arguments[text]
            return caller.value(given.text) if isinstance(given, Ref) else given
        return found

    def passed(self, text: str) -> tuple[Scope, Value] | None:
        if text not in self.arguments or super().binding(text) is not None:
            return None
        caller, given = self.arguments[text]
        return (caller.binding(given.text) or (caller, given)) if isinstance(given, Ref) else (caller, given)

    def text(self, value: Value | None, depth: int = 0, numbers: bool = False) -> str | None:
        if isinstance(value, Ref) and value.text in self.arguments and super().value(value.text) is None:
            caller, given = self.arguments[value.text]
            return caller.text(given, depth + 1, numbers)
        found = super().text(value, depth, numbers)
        if found is None and isinstance(value, Ref) and "." not in value.text and value.name != value.text \
                and depth < 4 and super().binding(value.text) is None:
            # A constant another module of the project exports (`import { createProject } from
            # './graphql/mutations'`, `from .queries import INSERT_ORDER`): its text there.
            imported = imported_binding(self, value, self.project)
            if imported is not None:
                where, bound = imported
                return ReceiverScope(where.facts, where.name, self.project).text(bound, depth + 1, numbers)
        return found

    def returned_entries(self, value: Value | None) -> list[tuple[Value, "ReceiverScope"]]:
        """`directory` of `const { directory } = await makeTemp()`, or `made.directory` of `made =
        makeTemp()`: what project functions the call runs return under that key (`return { directory,
        filePath }`), each with the function's scope."""
        if isinstance(value, Ref) and "." not in value.text:
            value = self.value(value.text)
        call: Value | None
        if isinstance(value, Attr) and isinstance(value.receiver, Call):
            call, key = value.receiver, value.attr
        elif isinstance(value, Ref) and "." in value.text:
            head, _, rest = value.text.partition(".")
            call, key = self.value(head), rest.partition(".")[0]
        else:
            return []
        out: list[tuple[Value, ReceiverScope]] = []
        for facts, fn in callees(self, call, self.project) if isinstance(call, Call) else []:
            inner = ReceiverScope(facts, fn.name, self.project)
            out += [(entry, inner) for ret in fn.return_values
                    if (entry := ret.get(key) if isinstance(ret, Mapping) else None) is not None]
        return out

    def returned_lists(self, value: Value | None) -> list[tuple[Seq, "ReceiverScope"]] | None:
        """Every list display a project helper can return (`command = _command_for(host)`, a branch
        per platform), each with the helper's scope; None when the value is no such call or a return
        is anything else (a `return None` is no list)."""
        call = self.value(value.text) if isinstance(value, Ref) and "." not in value.text else value
        found = callees(self, call, self.project) if isinstance(call, Call) else []
        if len(found) != 1:
            return None
        facts, fn = found[0]
        inner = ReceiverScope(facts, fn.name, self.project)
        lists = []
        todo = list(fn.return_values)
        while todo:
            ret = todo.pop()
            made = inner.value(ret.text) if isinstance(ret, Ref) and "." not in ret.text else ret
            if isinstance(made, Either):  # `return [...] if remote else None`
                todo += made.options
            elif isinstance(made, Seq):
                lists.append((made, inner))
            elif not (isinstance(made, Const) and made.value is None):
                return None
        return lists or None

    def mapped_argument(self, call: Call) -> Value | None:
        """The list argument of a project helper that returns each of its items mapped on its own
        (`sanitize_command(cmd)`: `[shlex.quote(p) for p in command]`, or a list it appends
        `quote(part)` to for each `part` of the parameter), else None."""
        found = callees(self, call, self.project)
        if len(found) != 1 or not call.args:
            return None
        facts, fn = found[0]
        params = fn.params[1:] if fn.class_name and fn.params[:1] in (("self",), ("cls",)) else fn.params
        if not params or len(fn.return_values) != 1:
            return None
        inner = Scope(facts, fn.name)
        ret, param = fn.return_values[0], params[0]

        def per_item(item: Value | None) -> bool:
            if isinstance(item, Call) and len(item.args) == 1:
                item = item.args[0]
            bound = inner.value(item.text) if isinstance(item, Ref) else None
            return isinstance(bound, Each) and isinstance(bound.iter, Ref) and bound.iter.text == param

        if isinstance(ret, Comp):
            mapped = isinstance(ret.iter, Ref) and ret.iter.text == param and (
                isinstance(ret.elt, Ref) and ret.elt.text == ret.target
                or isinstance(ret.elt, Call) and len(ret.elt.args) == 1 and isinstance(ret.elt.args[0], Ref)
                and ret.elt.args[0].text == ret.target)
        elif isinstance(ret, Ref) and isinstance(made := inner.value(ret.text), Seq) and not made.items:
            appended = [c for scope, c in calls_by_text(facts).get(f"{ret.text}.append", ()) if scope == fn.name]
            mapped = bool(appended) and all(per_item(c.args[0] if c.args else None) for c in appended)
        else:
            mapped = False
        return call.args[0] if mapped else None

    def constructor(self, value: Value | None, depth: int = 0) -> str:
        found = super().constructor(value, depth)
        if found in CONSTRUCTORS or depth > MAX_HOPS or value is None:
            return found
        if isinstance(value, Ref) and value.text in OWN_OBJECT and self.class_name:
            # `this.schedule(...)` in a class deriving a library class (`extends AIChatAgent`): an
            # object of that class.
            return self._library_base(self.class_name) or found
        named = found or (value.name if isinstance(value, Ref) else "")
        return self._built_by_project(value, depth) or self._library_base(named) or self._declared_library(value) \
            or self._made_by_built(value, depth) or found

    def _made_by_built(self, value: Value, depth: int) -> str:
        """`new Item({...})` of `const Item = mongoose.model("Item", schema)` (here or imported): what
        a known constructor's product makes is of its kind (a Mongoose document of its model)."""
        if not isinstance(value, Call) or not isinstance(value.func, Ref) or "." in value.func.text:
            return ""
        made = self.constructor(value.func, depth + 1)
        return made if made in CONSTRUCTORS else ""

    def _passed_constructor(self, name: str, depth: int) -> str:
        """Also where another module calls the factory (`createPostgresTools(pgClient)` in an agent
        module, itself handed `new Client(...)` by a route): what the call sites there pass."""
        local = super()._passed_constructor(name, depth)
        found = self.param(name)
        if local or depth > MAX_HOPS or found is None or "." in found[0].name:
            return local
        fn, index = found

        def compute() -> str:
            for caller, arg in argument_values(Scope(self.facts, fn.name), fn, index, self.project)[:8]:
                if caller.facts is not self.facts:
                    built = ReceiverScope(caller.facts, caller.name, self.project).constructor(arg, depth + 1)
                    if built in CONSTRUCTORS:
                        return built
            return ""

        # The depth is part of the key: an answer cut short deep in one walk is not another's.
        return self.project.remembered(("receivers.passed_constructor", self.facts.path, fn.name, name, str(depth)), compute)

    def _declared_library(self, value: Value) -> str:
        """A known client a name's annotation declares through a project module that re-exports it
        (`client: OctokitType` of `export type { Octokit as OctokitType } from '@octokit/rest'` in
        `types/octokit.d.ts`) or a project class deriving it (`prisma: PrismaService` of `class
        PrismaService extends PrismaClient`), for the name or any attribute head of it (`prisma.lead`)."""
        text = value.text if isinstance(value, Ref) else ""
        while text:
            for declared in self.types(text):
                if "." not in declared:
                    continue
                named = self.project.remembered(  # its lookups go into the trace of each file that asks
                    ("receivers.declared_library", self.facts.path, declared),
                    partial(self.project.library_name, declared, self.facts.path))
                if named in CONSTRUCTORS:
                    return named or ""
                if isinstance(value, Ref) and text != value.text and (base := self._library_base(declared)):
                    return base
            text = text.rpartition(".")[0]
        return ""

    def _library_base(self, name: str) -> str:
        """The known constructor a project class derives from: `Fact` of `class Fact(BaseModel)` and
        `class BaseModel(peewee.Model)` is a `peewee.Model`, and so is `Fact.get(...)`."""
        last = name.rpartition(".")[2]
        if not name or not (last[:1].isupper() or last == "default" and name.startswith(js_modules.PREFIX)):
            return ""  # only a class (CapWords, or a JS module's default export) can be one; no module is loaded to ask
        memo: dict[tuple[str, str], str] = self.project.memo.setdefault("receivers.library_base", {})
        key = (self.facts.path, name)
        if key not in memo:
            cls = project_class(self.facts, name, self.project)
            memo[key] = "" if cls is None else next(
                (base for base in ancestor_bases(*cls, self.project) if base in CONSTRUCTORS), "")
        return memo[key]

    def _built_by_project(self, value: Value, depth: int) -> str:
        if isinstance(value, Ref) and value.text in self.arguments and self.param(value.text) is not None:
            # `_ACTIONS[action](client, **kw)`: the client the caller built and passed in.
            caller, given = self.arguments[value.text]
            where = caller if isinstance(caller, ReceiverScope) else ReceiverScope(caller.facts, caller.name, self.project)
            return where.constructor(given, depth + 1)
        if isinstance(value, Call):
            return self._returned_client(callees(self, value, self.project), depth)
        part = self._returned_part(value, depth)
        if part:
            return part
        if isinstance(value, Ref) and "." in value.text:
            receiver, _, attr = value.text.rpartition(".")
            head = Ref(value.name.rpartition(".")[0], receiver, value.loc)
            getters = [m for cls in classes_of(self, head, self.project)
                       if (m := method_of(cls, attr, self.project)) is not None and _is_property(m[1])]
            found = self._returned_client(getters, depth) or self._instance_attribute(value, depth)
            if found:
                return found
        first, _, attr = value.text.partition(".") if isinstance(value, Ref) else ("", "", "")
        if first in OWN_OBJECT and attr and self.class_name:
            # `self.client` set by a project base class, or a sub-client of it (`self.client.crm.contacts`).
            return self._inherited_attribute(attr.partition(".")[0], depth)
        if isinstance(value, Ref) and super().value(first) is None:
            return self._module_variable(value, depth)
        return ""

    def _inherited_attribute(self, attr: str, depth: int) -> str:
        """`self.client` of a class whose project base (here or in another module) sets it:
        `client: httpx.Client = Field(default_factory=...)` in `class HomeAssistantBaseTool(BaseTool)`."""
        seen: set[tuple[str, str]] = set()
        todo = [(self.facts, self.class_name)]
        while todo and len(seen) <= MAX_HOPS * 2:
            facts, cls = todo.pop(0)
            for base in facts.classes.get(cls, ()):
                found = project_class(facts, base, self.project)
                if found is None or (found[0].path, found[1]) in seen:
                    continue
                seen.add((found[0].path, found[1]))
                built = self._attribute_client(*found, attr, depth)
                if built is None:
                    todo.append(found)
                    continue
                return built
        return ""

    def _instance_attribute(self, value: Ref, depth: int) -> str:
        """`cp.repo.git` of `cp = get_store()` (a project `Store` whose `__init__` sets `self.repo =
        git.Repo(path)`): the client the attribute of a project object holds; the rest of the chain
        is its part."""
        parts = value.text.split(".")
        names = value.name.split(".")
        for i in range(1, len(parts)):
            head = Ref(".".join(names[: len(names) - len(parts) + i]), ".".join(parts[:i]), value.loc)
            for cls in classes_of(self, head, self.project):
                built = self._attribute_client(*cls, parts[i], depth)
                if built and built in CONSTRUCTORS:
                    return built
        return ""

    def _attribute_client(self, facts: ModuleFacts, cls: str, attr: str, depth: int) -> str | None:
        """The known client a project class's attribute holds ("" if another value), None when the
        class does not set it."""
        a = attributes(facts).get((cls, attr))
        if a is None:
            return None
        where = ReceiverScope(facts, a.scope if a.scope in facts.functions else "", self.project)
        built = where.constructor(a.value, depth + 1) if a.op == "=" else ""
        # Declared as a known client, or as a project class deriving one (`client: BotClient` of
        # `class BotClient extends Client`).
        declared = next((t for t in a.annotation if t in CONSTRUCTORS), "") \
            or next((b for t in a.annotation if (b := where._library_base(t))), "")
        return built if built in CONSTRUCTORS or not declared else declared

    def _module_variable(self, value: Ref, depth: int) -> str:
        """`client.post(...)` of `from app.db import client` (`client = httpx.Client()` there): what
        the other module's top-level assignment built; for `prisma.task.create(...)`, what `prisma` is."""
        found = self.project.resolve(value.name, self.facts.path)
        if found is None and "." in value.text:
            rest = value.text[len(value.text.partition(".")[0]):]
            found = self.project.resolve(value.name[: -len(rest)], self.facts.path) if value.name.endswith(rest) else None
        if found is None or found[0] is self.facts:
            return ""
        facts, attr = found
        if not any(a.target == attr and not a.scope for a in facts.assignments):
            return ""
        return ReceiverScope(facts, "", self.project).constructor(Ref(attr, attr, value.loc), depth + 1)

    def _returned_part(self, value: Value, depth: int) -> str:
        """`store` of `const { store } = resolveTarget(kind)` or `target.store` of `target =
        resolveTarget(kind)`, where the project function returns `{ api, store }`: the known client
        that key of the returned object holds ("" if none)."""
        if not isinstance(value, (Attr, Ref)) or isinstance(value, Ref) and "." not in value.text:
            return ""
        return next((built for entry, inner in self.returned_entries(value)
                     if _known(built := inner.constructor(entry, depth + 1))), "")

    def _returned_client(self, functions: list[tuple[ModuleFacts, FunctionFacts]], depth: int) -> str:
        """The known client constructor a project function returns ("" if none)."""
        for facts, fn in functions:
            inner = ReceiverScope(facts, fn.name, self.project)
            for ret in fn.return_values:
                built = inner.constructor(ret, depth + 1)
                if _known(built) or is_chat_model(built):  # a chat model's calls can fail
                    return built
            # `def _require_sheet(...) -> xw.Sheet`: what it returns is read where its annotation says.
            declared = annotation_names(facts, fn.returns_annotation) if fn.returns_annotation else ()
            built = next((name for name in declared if name in CONSTRUCTORS), "")
            if built:
                return built
        return ""


def _known(built: str) -> bool:
    """A client the effect table lists the methods of."""
    return built in CONSTRUCTORS or in_family(built)


def _is_property(fn: FunctionFacts) -> bool:
    return any(isinstance(d, Ref) and d.name in PROPERTIES for d in fn.decorators)


def dynamic_method_effect(call: Call, scope: Scope, awaited: bool) -> Effect | None:
    """`getattr(client, op)(...)`: the effect of the named operation when `op` is a literal, else
    of any mutating operation of the client (the first write its library's rows list)."""
    getter = call.func
    if not isinstance(getter, Call) or getter.callee not in GETATTR or len(getter.args) < 2:
        return None
    receiver, op = getter.args[0], getter.args[1]
    if not isinstance(receiver, Ref):
        return None
    literal = scope.text(op)
    if literal is not None:
        as_method = Ref(f"{receiver.name}.{literal}", f"{receiver.text}.{literal}", getter.loc)
        return effect_of(replace(call, func=as_method), scope, awaited=awaited)
    for row in METHODS.get(scope.constructor(receiver), ()):
        if not row.verbs:  # a row's check reads the call's arguments: any operation may be the write
            continue
        shown = f"getattr({receiver.text}, {_shown(op)})"
        blocking = (not awaited) if row.blocking is None else row.blocking
        return Effect(row.what.format(method="", name=shown), blocking, call, kind=row.kind)
    return None


def _shown(op: Value) -> str:
    return op.text if isinstance(op, Ref) else "…"
