"""Hooks a framework runs around every tool call of a group, outside the tools' own error handling.

Where a tool's exception reaches the model by default, a hook that raises is what ends the run: the
other calls of the turn are cancelled and the turn's results are dropped. Which callables are hooks
is framework data (`HookSpec`); this module finds the ones that raise:

* `module_hooks(facts, project)`: every raising hook this module registers or declares, reported
  where it is registered or declared (SIB202): a callable in the group maker's hooks list, one
  registered by a method (`agent.add_hook(cb)`, `registry.add_callback(Event, cb)`), a plugin
  method with the hook decorator, a handler class's before/after method;
* `group_hooks(group, project)`: the raising hooks that run around one group's calls: given to its
  maker (hooks, providers, plugins, handlers) or registered on its name in its module;
* `member_reasons(...)`: what such hooks make fatal for one member (SIB301). A hook run before the
  call can fail any call; one run after it sees the call's exception, so re-raising it makes every
  member fatal that can fail (`siblint.analyses.error_policy.fatal_causes`).

A callback raises when its body holds a `raise` it does not catch itself; a handler method also
when it can return None (the framework raises on that). A callback's event is the one its
registration names, else its first parameter's annotation; a callback for no known tool-call event
is not a tool-call hook.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..common.diagnostics import Loc
from ..frameworks import FRAMEWORKS
from ..frameworks.spec import Framework, HookSpec
from ..model.groups import Group, Member, group_maker, holder_of
from ..model.project import ProjectIndex
from ..model.semantic import (
    Scope,
    calls_by_text,
    canonical,
    elements,
    framework_bases,
    imports_framework,
    method_of,
    project_class,
    target_functions,
)
from ..model.tools import Tool
from ..settings.config import Config
from ..syntax.facts import Call, Const, FunctionFacts, ModuleFacts, Ref, Value
from .error_policy import GroupPolicy, fatal_causes
from .fatal_hooks import fatal_raise
from .fatality import FatalReason
from .middleware import Reach, group_passing
from .middleware import module_reasons as middleware_reasons

When = Literal["before", "after"]


@dataclass(frozen=True)
class RaisingHook:
    """A tool-call hook that can end the run, where it is registered or declared."""

    when: When
    name: str  # the callback's name
    path: str
    loc: Loc
    origin: tuple[str, Loc]  # its `raise` (or its `def`, for a handler that can return None)
    fault: str  # "raises", "can return None"
    fix: str = ""  # how to make it report instead of raising (`HookSpec.fix`)
    noun: str = ""  # what the framework calls it (`HookSpec.noun`)
    # Middleware that passes on only some tools' errors (`siblint.analyses.middleware`): those it
    # reaches, less those other middleware of the group covers. None: every member.
    reach: Reach | None = None
    spared: tuple[Reach, ...] = ()

    def applies(self, tool: Tool) -> bool:
        return (self.reach is None or self.reach.has(tool)) and not any(s.has(tool) for s in self.spared)

    @property
    def label(self) -> str:
        if not self.fault:  # a middleware's reason says it all (`siblint.analyses.middleware`)
            return self.name
        return f"{self.noun or f'{self.when}-call hook'} {self.name} {self.fault}"


def _hooked(fw: Framework) -> bool:
    return bool(fw.hooks.events or fw.hooks.group_event or fw.hooks.decorator_events)


def _event(fw: Framework, value: Value | None, scope: Scope) -> When | None:
    """When a callback for the event class `value` runs, or None for another event."""
    if isinstance(value, Ref):
        found = fw.hooks.events.get(canonical(value.name)[1])
        if found is not None:
            return found
        bound = scope.value(value.text) if "." not in value.text else None
        if isinstance(bound, Ref):
            return _event(fw, bound, scope)
    return None


def _annotated_event(fw: Framework, facts: ModuleFacts, fn: FunctionFacts) -> When | None:
    """The event a callback's first parameter (after `self`) is annotated with."""
    first = 1 if fn.class_name and fn.params[:1] in (("self",), ("cls",)) else 0
    names = fn.param_annotations[first] if first < len(fn.param_annotations) else ()
    for name in names:
        found = fw.hooks.events.get(canonical(name)[1])
        if found is not None:
            return found
    return None


def _decorated_event(fw: Framework, fn: FunctionFacts) -> When | None:
    """The event a decorator makes the function a hook for (`@function_middleware`)."""
    for ref in _decorator_names(fn):
        found = fw.hooks.decorator_events.get(canonical(ref.name)[1])
        if found is not None:
            return found
    return None


def _fatal_return(fatal: tuple[str, str, object], fn: FunctionFacts) -> tuple[str, Loc] | None:
    """("returns X(k=v)", where) when the function can return the fatal answer."""
    constructor, keyword, literal = fatal
    for value in fn.return_values:
        if isinstance(value, Call) and isinstance(value.func, Ref) and canonical(value.func.name)[1] == constructor:
            given = value.kwarg(keyword)
            if isinstance(given, Const) and given.value is literal:
                return f"returns {value.func.text}({keyword}={literal!r})", value.loc
    return None


def _fault(spec: HookSpec, facts: ModuleFacts, fn: FunctionFacts,
           none_counts: bool = False) -> tuple[str, tuple[str, Loc]] | None:
    if spec.fatal_return is not None:  # only that answer ends the run
        returned = _fatal_return(spec.fatal_return, fn)
        return (returned[0], (facts.path, returned[1])) if returned is not None else None
    if spec.exceptions:  # only these end the run: any other exception is the call's own error
        raised = fatal_raise(spec.exceptions, fn)
        if raised is not None:
            return f"raises {raised[0]}", (facts.path, raised[1])
    elif fn.raises:
        return "raises", (facts.path, fn.raises[0])
    if none_counts and (fn.can_return_none or fn.returns_annotation.strip() == "None"):
        return "can return None", (facts.path, fn.loc)
    return None


def _callback(fw: Framework, scope: Scope, value: Value | None, event: When | None, at: Loc,
              project: ProjectIndex) -> list[RaisingHook]:
    """A callback given by name (`reraise`, `self.on_after`, an imported function) that raises."""
    if not isinstance(value, Ref):
        return []
    out: list[RaisingHook] = []
    for facts, fn in target_functions(scope, value, project):
        when = event or _annotated_event(fw, facts, fn) or _decorated_event(fw, fn) or fw.hooks.group_event
        fault = _fault(fw.hooks, facts, fn) if when is not None else None
        if when is not None and fault is not None:
            out.append(RaisingHook(when, fn.name.rsplit(".", 1)[-1], scope.facts.path, at, fault[1], fault[0], fw.hooks.fix, fw.hooks.noun))
    return out


def _registration(fw: Framework, scope: Scope, call: Call, project: ProjectIndex) -> list[RaisingHook]:
    """`agent.add_hook(cb[, Event])`, `registry.add_callback(Event, cb)`: a raising callback for a
    tool-call event. The event must be known (named, or the callback's annotation)."""
    if not isinstance(call.func, Ref):
        return []
    found = fw.hooks.register.get(call.func.text.rpartition(".")[2])
    if found is None or "." not in call.func.text:
        return []
    callback, event_param = found
    event_value = call.arg(event_param.position, event_param.keyword)
    event = _event(fw, event_value, scope) if event_value is not None else None
    if event_value is not None and event is None:
        return []  # another event: not a tool-call hook
    cb = call.arg(callback.position, callback.keyword)
    return _callback(fw, scope, cb, event, cb.loc if cb is not None else call.loc, project)


def _decorated_registrations(fw: Framework, facts: ModuleFacts, project: ProjectIndex,
                             receivers: tuple[str, ...] | None = None) -> list[RaisingHook]:
    """`@kernel.filter(Event)` on a function: a raising callback registered on `kernel` (on any
    receiver, or on one of `receivers`), reported at the function's `def`."""
    out: list[RaisingHook] = []
    if not fw.hooks.register_decorators:
        return out
    for fn in facts.functions.values():
        for d in fn.decorators:
            if not isinstance(d, Call) or not isinstance(d.func, Ref) or "." not in d.func.text:
                continue
            receiver, _, method = d.func.text.rpartition(".")
            param = fw.hooks.register_decorators.get(method)
            if param is None or (receivers is not None and receiver not in receivers):
                continue
            outer, _, local = fn.name.rpartition(".")
            scope = Scope(facts, outer)
            event_value = d.arg(param.position, param.keyword)
            event = _event(fw, event_value, scope) if event_value is not None else None
            if event_value is None or event is not None:
                out.extend(_callback(fw, scope, Ref(local, local, fn.loc), event, fn.loc, project))
    return out


def _safe_handler(spec: HookSpec, facts: ModuleFacts, cls: str) -> bool:
    """The handler class sets its errors to be non-fatal (`on_error = "deny"`)."""
    if spec.handler_safe is None:
        return False
    attr, values = spec.handler_safe
    for a in facts.assignments:
        if a.scope == cls and a.target == attr and isinstance(a.value, Const) and a.value.value in values:
            return True
    fn = facts.functions.get(f"{cls}.{attr}")  # `@property def on_error(self): return "deny"`
    return fn is not None and bool(fn.return_values) and all(
        isinstance(v, Const) and v.value in values for v in fn.return_values)


def _declared(fw: Framework, facts: ModuleFacts, cls: str, project: ProjectIndex) -> list[RaisingHook]:
    """Raising hooks a class declares: plugin methods with the hook decorator, handler methods."""
    spec = fw.hooks
    bases = framework_bases(facts, cls, project)
    out: list[RaisingHook] = []
    handler = next((spec.handlers[b] for b in bases if b in spec.handlers), None)
    safe = handler is not None and _safe_handler(spec, facts, cls)
    prefix = f"{cls}."
    for name, fn in facts.functions.items():
        if not name.startswith(prefix) or "." in name[len(prefix):]:
            continue
        method = name[len(prefix):]
        if handler is not None and method in handler:
            fault = None if safe else _fault(spec, facts, fn, none_counts=spec.handler_none_fatal)
            if fault is not None:
                out.append(RaisingHook(handler[method], name, facts.path, fn.loc, fault[1], fault[0], spec.fix, spec.noun))
            continue
        decorated = any(canonical(d.name)[1] in spec.decorators for d in _decorator_names(fn))
        when = _annotated_event(fw, facts, fn) if decorated else None
        fault = _fault(spec, facts, fn) if when is not None else None
        if when is not None and fault is not None:
            out.append(RaisingHook(when, name, facts.path, fn.loc, fault[1], fault[0], spec.fix, spec.noun))
    return out


def _decorator_names(fn: FunctionFacts) -> list[Ref]:
    """`@hook` and `@hook(...)`: the decorator's name."""
    targets = (d.func if isinstance(d, Call) else d for d in fn.decorators)
    return [t for t in targets if isinstance(t, Ref)]


def _provided(fw: Framework, facts: ModuleFacts, cls: str, project: ProjectIndex) -> list[RaisingHook]:
    """The raising callbacks a provider class registers in its registration method."""
    if not fw.hooks.provider_method:
        return []
    found = method_of((facts, cls), fw.hooks.provider_method, project)
    if found is None:
        return []
    where, fn = found
    scope = Scope(where, fn.name)
    return [h for site in fn.calls for h in _registration(fw, scope, site.call, project)]


def module_hooks(facts: ModuleFacts, project: ProjectIndex) -> list[RaisingHook]:
    """Every raising tool-call hook this module registers or declares (SIB202)."""

    def compute() -> list[RaisingHook]:
        out: list[RaisingHook] = []
        for fw in FRAMEWORKS:
            if not _hooked(fw) or not imports_framework(facts, fw):
                continue
            for scope_name, call in facts.all_calls():
                scope = Scope(facts, scope_name)
                out.extend(_registration(fw, scope, call, project))
                made = group_maker(facts, call, scope_name)
                if made is not None and made[0] is fw and fw.hooks.group is not None:
                    value = call.arg(fw.hooks.group.position, fw.hooks.group.keyword)
                    for where, item in elements(scope, value, project):
                        if where.facts is facts and isinstance(item, Ref):
                            out.extend(_callback(fw, where, item, None, item.loc, project))
            for cls in facts.classes:
                out.extend(_declared(fw, facts, cls, project))
            out.extend(_decorated_registrations(fw, facts, project))
        return _unique(out)

    return facts.derived("hooks.module", compute)


def _objects(fw: Framework, where: Scope, item: Value, project: ProjectIndex) -> list[RaisingHook]:
    """A provider, plugin or handler object given to the group (`FailFast()`): the raising hooks of its class."""
    if not isinstance(item, Call) or not isinstance(item.func, Ref):
        return []
    cls = project_class(where.facts, item.func.name, project)
    if cls is None:
        return []
    return _declared(fw, *cls, project) + _provided(fw, *cls, project)


def group_hooks(group: Group, facts: ModuleFacts, project: ProjectIndex) -> list[RaisingHook]:
    """The raising tool-call hooks that run around `group`'s calls (made in `facts`)."""
    fw, spec = group.framework, group.framework.hooks
    passing = [RaisingHook("after", p.reason.label, p.reason.path, p.reason.loc, p.reason.origin or (p.reason.path, p.reason.loc),
                           "", reach=p.reach, spared=p.spared) for p in group_passing(group, facts, project)]
    if not _hooked(fw):
        return passing
    scope = Scope(facts, group.scope)
    out: list[RaisingHook] = passing
    for param in (spec.group, *spec.objects):
        if param is None:
            continue
        for where, item in elements(scope, group.call.arg(param.position, param.keyword), project):
            out.extend(_callback(fw, where, item, None, item.loc, project) if isinstance(item, Ref)
                       else _objects(fw, where, item, project))
    holder = holder_of(group.call, group.maker) if group.maker is not None else None
    receivers = [r for r in (group.binding, holder.text if holder is not None else "") if r]
    if receivers:
        called = calls_by_text(facts)
        for receiver in (*receivers, *(f"{r}.{a}" for r in receivers for a in spec.registries)):
            for method in spec.register:
                for scope_name, call in called.get(f"{receiver}.{method}", ()):
                    out.extend(_registration(fw, Scope(facts, scope_name), call, project))
        out.extend(_decorated_registrations(fw, facts, project, tuple(receivers)))
    return _unique(out)


def member_reasons(member: Member, hooks: list[RaisingHook], group: Group, project: ProjectIndex,
                   config: Config | None = None) -> list[FatalReason]:
    """What the group's raising hooks make fatal for `member` (SIB301): any call, for a hook run
    before it; a call that can fail, for a hook run after it (it sees the call's exception)."""
    out: list[FatalReason] = []
    causes: list[FatalReason] | None = None
    for hook in hooks:
        if not hook.applies(member.tool):
            continue
        if hook.when == "before":
            out.append(FatalReason("handler_returns_none", hook.label, hook.path, hook.loc, origin=hook.origin))
            continue
        if causes is None:
            causes = fatal_causes(member.tool, project, GroupPolicy(True), group.framework, config)
        if causes:
            by = f"re-raised by the after-call hook {hook.name}" if hook.fault else f"and {hook.name}"
            out.append(FatalReason("handler_returns_none", f"{causes[0].label}, {by}", causes[0].path,
                                   causes[0].loc, origin=(hook.path, hook.loc)))
    return out


def hook_reasons(facts: ModuleFacts, project: ProjectIndex) -> list[FatalReason]:
    """`module_hooks` as the failure-policy rules read them (cause "handler_returns_none": SIB202)."""
    return [FatalReason("handler_returns_none", h.label, h.path, h.loc, origin=h.origin, fix=h.fix)
            for h in module_hooks(facts, project)] + middleware_reasons(facts, project)


def _unique(hooks: list[RaisingHook]) -> list[RaisingHook]:
    """Each hook once per registration (the first seen), in order."""
    first: dict[tuple[str, Loc, tuple[str, Loc]], RaisingHook] = {}
    for h in hooks:
        first.setdefault((h.path, h.loc, h.origin), h)
    return list(first.values())
