"""Framework-neutral reading of module facts: canonical names, bindings and fatal arguments."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from siblint.facts import Call, Const, Mapping, ModuleFacts, Ref, Value
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
    for wanted in (scope, ""):
        for a in reversed(facts.assignments):
            if a.target == name and a.scope == wanted and a.op == "=":
                return a.value
    return None


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


def argument(call: Call, arg: FatalArg) -> Value | None:
    """The value `call` passes for `arg`, including through a literal `**{...}`."""
    found = call.arg(arg.param.position, arg.param.keyword)
    if found is None:
        for key, value in call.kwargs:
            if key is None and isinstance(value, Mapping):
                found = value.get(arg.param.keyword) or found
    if found is not None and arg.key is not None:
        found = found.get(arg.key) if isinstance(found, Mapping) else None
    return found


@dataclass(frozen=True)
class FatalSetting:
    arg: FatalArg
    value: Value
    call: Call
    scope: str


def fatal_settings(facts: ModuleFacts) -> Iterator[FatalSetting]:
    """Every argument in the module that makes a tool's failure fatal, by the frameworks' data."""
    for scope, call in facts.all_calls():
        if not isinstance(call.func, Ref):
            continue
        fw, name = canonical(call.func.name)
        specs: tuple[FatalArg, ...] = ()
        if fw is not None:
            specs = fw.fatal_args.get(name, ())
        else:
            receiver, _, method = call.func.text.rpartition(".")
            if receiver:
                built = constructed_by(facts, binding(facts, receiver, scope), scope)
                for fw in FRAMEWORKS:
                    specs = fw.fatal_method_args.get((built, method), ())
                    if specs:
                        break
        for spec in specs:
            value = argument(call, spec)
            if isinstance(value, Const) and value.value in spec.values and type(value.value) in {type(v) for v in spec.values}:
                yield FatalSetting(spec, value, call, scope)
