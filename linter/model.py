"""Framework-neutral reading of module facts: canonical names, bindings and fatal arguments."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from siblint.facts import Call, Const, Mapping, ModuleFacts, Other, Ref, Value
from siblint.frameworks import FRAMEWORKS
from siblint.frameworks.spec import FatalArg, Framework


def canonical(name: str) -> tuple[Framework | None, str]:
    """The framework a resolved dotted name belongs to, and its canonical spelling."""
    root = name.split(".", 1)[0]
    for fw in FRAMEWORKS:
        if root in fw.import_roots:
            return fw, fw.canonical(name)
    return None, name


def binding(facts: ModuleFacts, name: str, scope: str) -> Value | None:
    """The value last assigned to `name` in `scope`, else at module level."""
    table = facts.last_assignments()
    found = table.get((name, scope))
    return found if found is not None or not scope else table.get((name, ""))


def constructed_by(facts: ModuleFacts, value: Value | None, scope: str, depth: int = 0) -> str:
    """The canonical name of the constructor that built `value` (following simple name bindings)."""
    if depth > 8 or value is None:
        return ""
    if isinstance(value, Call):
        if isinstance(value.func, Ref):
            # `agent.clone(...)` builds another object of the receiver's type.
            receiver, _, method = value.func.text.rpartition(".")
            if method == "clone" and receiver:
                return constructed_by(facts, binding(facts, receiver, scope), scope, depth + 1)
            return canonical(value.func.name)[1]
        return ""
    if isinstance(value, Ref):
        return constructed_by(facts, binding(facts, value.text, scope), scope, depth + 1)
    return ""


def _mapping(facts: ModuleFacts | None, value: Value | None, scope: str) -> Value | None:
    """A dict written inline or bound to a name (`OPTS = {...}`; `function_tool(**OPTS)`)."""
    for _ in range(4):
        if isinstance(value, Ref) and facts is not None:
            value = binding(facts, value.text, scope)
        else:
            break
    return value


def argument(call: Call, arg: FatalArg, facts: ModuleFacts | None = None, scope: str = "") -> Value | None:
    """The value `call` passes for `arg`, including through a `**{...}` literal (inline or, given the
    facts, bound to a name); for keyed args the value under the key of a dict literal or a
    `dict(...)` / TypedDict call (`MCPConfig(failure_error_function=None)`)."""
    found = call.arg(arg.param.position, arg.param.keyword)
    if found is None:
        for key, value in call.kwargs:
            mapping = _mapping(facts, value, scope) if key is None else None
            if isinstance(mapping, Mapping):
                found = mapping.get(arg.param.keyword) or found
    if found is not None and arg.key is not None:
        found = _mapping(facts, found, scope)
        if isinstance(found, Mapping):
            found = found.get(arg.key)
        elif isinstance(found, Call):
            found = found.kwarg(arg.key)
        else:
            found = None
    return found


def specs_for_call(facts: ModuleFacts, call: Call, scope: str) -> tuple[FatalArg, ...]:
    """The fatal arguments the frameworks' data lists for this call: a known callable, a method on
    an object a known constructor built (`agent.as_tool`), a tool setter, or `super().__init__` in a
    subclass of a known base."""
    if isinstance(call.func, Ref):
        fw, name = canonical(call.func.name)
        if fw is not None:
            if name in fw.tool_setters:
                return fw.tool_setters[name][1]
            return fw.fatal_args.get(name, ())
        receiver, _, method = call.func.text.rpartition(".")
        if receiver:
            built = constructed_by(facts, binding(facts, receiver, scope), scope)
            for fw in FRAMEWORKS:
                specs = fw.fatal_method_args.get((built, method), ())
                if specs:
                    return specs
        return ()
    # `super().__init__(...)` inside `class S(Base)`: the collector keeps it as Other("attr:__init__").
    fn = facts.functions.get(scope)
    if isinstance(call.func, Other) and call.func.kind == "attr:__init__" and fn is not None and fn.name.endswith(".__init__"):
        for base in fn.bases:
            fw, name = canonical(base)
            if fw is not None and name in fw.fatal_super_init:
                return fw.fatal_super_init[name]
    return ()


@dataclass(frozen=True)
class FatalSetting:
    arg: FatalArg
    value: Value
    call: Call
    scope: str


def fatal_settings(facts: ModuleFacts) -> Iterator[FatalSetting]:
    """Every literal argument in the module that makes a tool's failure fatal, by the frameworks' data
    (`failure_error_function=None`, `timeout_behavior="raise_exception"`). Callables passed as
    handlers are judged in `siblint.fatality`, which needs the project."""
    for scope, call in facts.all_calls():
        for spec in specs_for_call(facts, call, scope):
            if not spec.values:
                continue
            value = argument(call, spec, facts, scope)
            if is_fatal_literal(spec, value):
                yield FatalSetting(spec, value, call, scope)  # type: ignore[arg-type]


def is_fatal_literal(spec: FatalArg, value: Value | None) -> bool:
    """`value` is one of the literal values `spec` marks fatal (`False` is not `0`)."""
    return (isinstance(value, Const) and value.value in spec.values
            and type(value.value) in {type(v) for v in spec.values})
