"""Why a tool's failure ends the run (and cancels its siblings): the SIB2xx causes, per tool.

Everything is read from the frameworks' data (`fatal_args`, `fatal_method_args`, `fatal_fields`,
`tool_setters`, `copiers`, `fatal_super_init`, `inherited_by_servers`), never from names spelled here:

* the options call of the tool (decorator, call form, `FunctionTool(...)`, `agent.as_tool(...)`,
  an MCP server constructor): literal values (`failure_error_function=None`) and callables that
  are judged by their facts (a handler that can return None or raises, an unguarded invoker);
* mutations on the tool's binding in its module (`t.timeout_behavior = ...`, `setattr(t, ...)`,
  `set_function_tool_failure_error_function(t, None)`), and in an importing module when given;
* copies (`dataclasses.replace(t, ...)`, `copy.copy(t)`): the copy inherits its source's reasons
  and adds those of the fields `replace` sets;
* for an MCP server, the agent-level `mcp_config` of the agent it is given to, unless the server
  sets the same argument itself.

`fatal_reasons(tool, facts, project)` is what the group rule (SIB301) calls; `module_reasons(facts,
project)` is every cause written in one module, which the SIB2xx rules report.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable

from siblint.diagnostics import Loc
from siblint.facts import Call, Const, FunctionFacts, Lambda, ModuleFacts, Ref, Value
from siblint.frameworks import FRAMEWORKS
from siblint.frameworks.spec import FatalArg, Param
from siblint.model import argument, binding, canonical, constructed_by, is_fatal_literal, specs_for_call
from siblint.project import ProjectIndex
from siblint.tools import Tool, resolve_function, tools_in

# How many hops (copies of copies, name bindings, imports) resolution follows.
MAX_DEPTH = 8


@dataclass(frozen=True)
class FatalReason:
    """One cause that makes a tool's failure fatal, at the argument or assignment that sets it."""

    code: str  # SIB201 / SIB202 / SIB203 / SIB204
    label: str  # 'failure_error_function=None', 'failure handler returns None', ...
    path: str  # the file holding the offending argument or assignment
    loc: Loc
    via: str = ""  # "" when set on the tool itself; "copy of lookup_tax"; "mcp_config of agent"
    origin: tuple[str, Loc] | None = None  # the handler behind it: its `raise` or its `def` line


@dataclass(frozen=True)
class _Setting:
    """A field set on a tool after creation: `t.f = v`, `setattr(t, "f", v)`, `replace(t, f=v)`."""

    field: str
    value: Value
    scope: str


# ---- callables -------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Behaviour:
    returns_none: bool
    raises: bool
    guarded: bool
    origin: tuple[str, Loc]


def _function_behaviour(facts: ModuleFacts, fn: FunctionFacts) -> _Behaviour:
    returns_none = fn.can_return_none or fn.returns_annotation.strip() == "None"
    origin = (facts.path, fn.raises[0] if fn.raises else fn.loc)
    return _Behaviour(returns_none, bool(fn.raises), fn.guarded_body, origin)


def _local_function(facts: ModuleFacts, name: str, scope: str) -> FunctionFacts | None:
    """`name` as seen from `scope`: a nested function first, then outward to module level."""
    parts = scope.split(".") if scope else []
    while True:
        fn = facts.functions.get(".".join([*parts, name]))
        if fn is not None or not parts:
            return fn
        parts.pop()


def _behaviour(facts: ModuleFacts, value: Value, scope: str, project: ProjectIndex, depth: int = 0) -> _Behaviour | None:
    """What a callable passed as a handler or invoker can do; None when it cannot be resolved."""
    if depth > MAX_DEPTH:
        return None
    if isinstance(value, Lambda):
        # A lambda has no statements: it returns its body, and cannot hold a `raise`.
        none = isinstance(value.body, Const) and value.body.value is None
        return _Behaviour(none, False, False, (facts.path, value.loc))
    if not isinstance(value, Ref):
        return None
    if "." not in value.text:
        fn = _local_function(facts, value.text, scope)
        if fn is not None:
            return _function_behaviour(facts, fn)
        bound = binding(facts, value.text, scope)
        if bound is not None:
            return _behaviour(facts, bound, scope, project, depth + 1)
    found = resolve_function(value.name, project)
    if found is not None:
        return _function_behaviour(*found)
    return None


def _judge(spec: FatalArg, value: Value, facts: ModuleFacts, scope: str, project: ProjectIndex) -> FatalReason | None:
    """Whether `value` given for `spec` is fatal, as a reason located at the value."""
    if spec.values:
        if is_fatal_literal(spec, value):
            return FatalReason(spec.code, spec.label, facts.path, value.loc)
        return None
    if not spec.when or (isinstance(value, Const) and value.value is None):
        return None  # None itself is judged by the literal spec of the same parameter
    unguarded_counts = "unguarded" in spec.when
    if unguarded_counts and isinstance(value, Ref) and value.text.endswith(".on_invoke_tool"):
        return None  # another tool's invoker: it carries that tool's own failure handling
    found = _behaviour(facts, value, scope, project)
    if found is None:
        # An unknown handler gets the benefit of the doubt; an unknown invoker has no handler.
        return FatalReason(spec.code, spec.label.format(fault=""), facts.path, value.loc) if unguarded_counts else None
    faults = [f for f, hit in (("returns None", "returns_none" in spec.when and found.returns_none),
                               ("raises", "raises" in spec.when and found.raises),
                               ("", unguarded_counts and not found.guarded)) if hit]
    if not faults:
        return None
    return FatalReason(spec.code, spec.label.format(fault=faults[0]), facts.path, value.loc, origin=found.origin)


def _applies(spec: FatalArg, others: dict[str, Value]) -> bool:
    """`unless` / `only_with`: conditions on the other arguments or fields set alongside."""
    if spec.unless is not None:
        other = others.get(spec.unless)
        if other is not None and not (isinstance(other, Const) and other.value is None):
            return False
    if spec.only_with is not None:
        key, wanted = spec.only_with
        other = others.get(key)
        if not (isinstance(other, Const) and other.value == wanted and type(other.value) is type(wanted)):
            return False
    return True


# ---- calls -----------------------------------------------------------------------------------
def _call_reasons(call: Call, facts: ModuleFacts, scope: str, project: ProjectIndex,
                  specs: Iterable[FatalArg] | None = None) -> list[FatalReason]:
    out: list[FatalReason] = []
    others = {k: v for k, v in call.kwargs if k is not None}
    for spec in specs_for_call(facts, call, scope) if specs is None else specs:
        if not _applies(spec, others):
            continue
        value = argument(call, spec, facts, scope)
        if value is None:
            if "unguarded" in spec.when and spec.key is None:
                # `FunctionTool(**kw)` without a visible invoker: still built without a handler.
                out.append(FatalReason(spec.code, spec.label.format(fault=""), facts.path, call.loc))
            continue
        reason = _judge(spec, value, facts, scope, project)
        if reason is not None:
            out.append(reason)
    return out


def _copier(call: Call) -> tuple[Param, bool] | None:
    if isinstance(call.func, Ref):
        for fw in FRAMEWORKS:
            if call.func.name in fw.copiers:
                return fw.copiers[call.func.name]
    return None


def _setter(call: Call) -> tuple[Param, tuple[FatalArg, ...]] | None:
    if isinstance(call.func, Ref):
        fw, name = canonical(call.func.name)
        if fw is not None and name in fw.tool_setters:
            return fw.tool_setters[name]
    return None


def _fields() -> dict[str, list[FatalArg]]:
    out: dict[str, list[FatalArg]] = {}
    for fw in FRAMEWORKS:
        for spec in fw.fatal_fields:
            out.setdefault(spec.param.keyword, []).append(spec)
    return out


def _field_reasons(settings: list[_Setting], facts: ModuleFacts, project: ProjectIndex) -> list[FatalReason]:
    fields = _fields()
    others = {s.field: s.value for s in settings}
    out: list[FatalReason] = []
    for s in settings:
        for spec in fields.get(s.field, ()):
            if _applies(spec, others):
                reason = _judge(spec, s.value, facts, s.scope, project)
                if reason is not None:
                    out.append(reason)
    return out


# ---- names bound to tools --------------------------------------------------------------------
def _visible(facts: ModuleFacts, name: str, bound_in: str, scope: str) -> bool:
    """Does `name` in `scope` mean the binding made in `bound_in` (not a local of the same name)?"""
    if scope == bound_in:
        return True
    if bound_in and not scope.startswith(bound_in + "."):
        return False
    fn = facts.functions.get(scope)
    if fn is not None and name in fn.params:
        return False
    return not any(a.target == name and a.scope == scope and a.op == "=" for a in facts.assignments)


def _names(tool: Tool, facts: ModuleFacts) -> list[tuple[str, str]]:
    """(name, scope) pairs bound to the tool in its module."""
    out: list[tuple[str, str]] = [(tool.binding, "")] if tool.binding else []
    if tool.options is not None:
        out.extend(_names_by_call(facts).get(tool.options.loc, ()))
    if tool.kind == "function":
        for fn in _functions_by_loc(facts).get(tool.loc, ()):
            # Only the decorator form binds the function's own name to the tool (`B = function_tool(f)`
            # leaves `f` a plain function).
            if fn.decorators and (tool.options is None or tool.options in fn.decorators):
                out.append((fn.name.rsplit(".", 1)[-1], tool.scope))
    return list(dict.fromkeys(out))


def _names_by_call(facts: ModuleFacts) -> dict[Loc, list[tuple[str, str]]]:
    """Call location -> the plain names assigned its result (`T = f(...)` and `T = f(...)(g)`)."""

    def compute() -> dict[Loc, list[tuple[str, str]]]:
        table: dict[Loc, list[tuple[str, str]]] = {}
        for a in facts.assignments:
            v = a.value
            if a.op == "=" and "." not in a.target and isinstance(v, Call):
                table.setdefault(v.loc, []).append((a.target, a.scope))
                if isinstance(v.func, Call):
                    table.setdefault(v.func.loc, []).append((a.target, a.scope))
        return table

    return facts.derived("fatality.names_by_call", compute)


def _functions_by_loc(facts: ModuleFacts) -> dict[Loc, list[FunctionFacts]]:
    def compute() -> dict[Loc, list[FunctionFacts]]:
        table: dict[Loc, list[FunctionFacts]] = {}
        for fn in facts.functions.values():
            table.setdefault(fn.loc, []).append(fn)
        return table

    return facts.derived("fatality.functions_by_loc", compute)


def _settings_on(facts: ModuleFacts, name: str, bound_in: str) -> list[_Setting]:
    """Fields set on `name` after creation: `name.f = v` and `setattr(name, "f", v)`."""
    out: list[_Setting] = []
    for a in facts.assignments:
        head, _, attr = a.target.rpartition(".")
        if head == name and a.op == "=" and _visible(facts, name, bound_in, a.scope):
            out.append(_Setting(attr, a.value, a.scope))
    for scope, call in facts.all_calls():
        if (isinstance(call.func, Ref) and call.func.name in ("setattr", "builtins.setattr") and len(call.args) == 3
                and isinstance(call.args[0], Ref) and call.args[0].text == name
                and isinstance(call.args[1], Const) and isinstance(call.args[1].value, str)
                and _visible(facts, name, bound_in, scope)):
            out.append(_Setting(call.args[1].value, call.args[2], scope))
    return out


def _setter_reasons(facts: ModuleFacts, name: str, bound_in: str, project: ProjectIndex) -> list[FatalReason]:
    out: list[FatalReason] = []
    for scope, call in facts.all_calls():
        setter = _setter(call)
        if setter is None:
            continue
        target = call.arg(setter[0].position, setter[0].keyword)
        if isinstance(target, Ref) and target.text == name and _visible(facts, name, bound_in, scope):
            out.extend(_call_reasons(call, facts, scope, project, setter[1]))
    return out


def _binding_of(facts: ModuleFacts, call: Call) -> str:
    for a in facts.assignments:
        if a.scope == "" and a.op == "=" and "." not in a.target and isinstance(a.value, Call) and a.value.loc == call.loc:
            return a.target
    return ""


def _module_tools(facts: ModuleFacts, project: ProjectIndex) -> list[Tool]:
    return [*tools_in(facts), *copies_in(facts, project)]


def _tools_by_name(facts: ModuleFacts) -> dict[str, list[tuple[Tool, str]]]:
    """Name -> (tool, scope it is bound in), for every name bound to a tool of the module."""

    def compute() -> dict[str, list[tuple[Tool, str]]]:
        table: dict[str, list[tuple[Tool, str]]] = {}
        for tool in tools_in(facts):
            for bound, bound_in in _names(tool, facts):
                table.setdefault(bound, []).append((tool, bound_in))
        return table

    return facts.derived("fatality.tools_by_name", compute)


def tool_named(facts: ModuleFacts, name: str, scope: str, project: ProjectIndex,
               depth: int = 0) -> tuple[Tool, ModuleFacts] | None:
    """The tool `name` refers to in `scope`: bound in this module, or imported from another one."""
    if depth > MAX_DEPTH or not name or "." in name:
        return None
    for tool, bound_in in _tools_by_name(facts).get(name, ()):
        if _visible(facts, name, bound_in, scope):
            return tool, facts
    # `name = copy.copy(imported_tool)`: a copy `tools_in` cannot see without the project.
    bound = binding(facts, name, scope)
    copier = _copier(bound) if isinstance(bound, Call) else None
    if copier is not None and isinstance(bound, Call):
        source = bound.arg(copier[0].position, copier[0].keyword)
        found = tool_named(facts, source.text, scope, project, depth + 1) if isinstance(source, Ref) else None
        if found is not None:
            src = found[0]
            return Tool(src.name, src.framework, "copy", facts.path, facts.module, bound.loc, src.function, bound,
                        name if _binding_of(facts, bound) == name else "", scope), facts
    target = facts.imports.get(name)
    if target is not None:
        found = project.resolve(target)
        if found is not None and found[0] is not facts:
            other, attr = found
            return tool_named(other, attr, "", project, depth + 1)
    return None


def _copier_calls(facts: ModuleFacts) -> list[tuple[str, Call, tuple[Param, bool]]]:
    """Every `dataclasses.replace(...)` / `copy.copy(...)`-style call of the module, found once."""

    def compute() -> list[tuple[str, Call, tuple[Param, bool]]]:
        found = ((scope, call, _copier(call)) for scope, call in facts.all_calls())
        return [(scope, call, copier) for scope, call, copier in found if copier is not None]

    return facts.derived("fatality.copier_calls", compute)


def copies_in(facts: ModuleFacts, project: ProjectIndex, depth: int = 0) -> tuple[Tool, ...]:
    """Copies of tools imported from other modules (`copy.copy(imported_tool)`), as kind "copy".
    `tools_in` already lists copies of the module's own tools."""
    if depth > MAX_DEPTH:
        return ()
    local = {t.options.loc for t in tools_in(facts) if t.kind == "copy" and t.options is not None}
    out: list[Tool] = []
    for scope, call, copier in _copier_calls(facts):
        if call.loc in local:
            continue
        source = call.arg(copier[0].position, copier[0].keyword)
        if not isinstance(source, Ref) or source.text not in facts.imports:
            continue
        found = tool_named(facts, source.text, scope, project, depth + 1)
        if found is not None:
            src = found[0]
            out.append(Tool(src.name, src.framework, "copy", facts.path, facts.module, call.loc, src.function, call,
                            _binding_of(facts, call), scope))
    return tuple(out)


def _copy_source(tool: Tool, facts: ModuleFacts, project: ProjectIndex) -> tuple[Tool, ModuleFacts] | None:
    copier = _copier(tool.options) if tool.options is not None else None
    if copier is None or tool.options is None:
        return None
    source = tool.options.arg(copier[0].position, copier[0].keyword)
    if not isinstance(source, Ref):
        return None
    for candidate in _module_tools(facts, project):
        if candidate.key != tool.key and source.text in {n for n, s in _names(candidate, facts) if _visible(facts, n, s, tool.scope)}:
            return candidate, facts
    return tool_named(facts, source.text, tool.scope, project)


# ---- agents and MCP servers ------------------------------------------------------------------
def agent_mcp_reasons(agent: Call, facts: ModuleFacts, project: ProjectIndex, scope: str = "") -> list[FatalReason]:
    """Agent-level settings its MCP servers inherit (`Agent(mcp_config={"failure_error_function": None})`)."""
    specs = _inherited(agent, facts, scope)
    return [replace(r, via="mcp_config of the agent") for r in _call_reasons(agent, facts, scope, project, specs[0])] if specs else []


def _inherited(agent: Call, facts: ModuleFacts, scope: str) -> tuple[tuple[FatalArg, ...], str] | None:
    built = constructed_by(facts, agent, scope)
    for fw in FRAMEWORKS:
        if built in fw.inherited_by_servers:
            return fw.inherited_by_servers[built]
    return None


def _server_sets(server: Call, facts: ModuleFacts, scope: str, keyword: str) -> bool:
    for spec in specs_for_call(facts, server, scope):
        if spec.param.keyword == keyword and argument(server, spec, facts, scope) is not None:
            return True
    return False


# ---- the API ---------------------------------------------------------------------------------
def fatal_reasons(tool: Tool, facts: ModuleFacts, project: ProjectIndex, *, agent: Call | None = None,
                  agent_facts: ModuleFacts | None = None, importer: ModuleFacts | None = None,
                  _depth: int = 0) -> list[FatalReason]:
    """Every cause that makes `tool`'s failure fatal, located where it is written.

    `facts` are those of the tool's module (`tool.path`). For an MCP server, pass the `Agent(...)`
    call it is given to (and that call's module as `agent_facts` when it differs): the agent's
    `mcp_config` applies unless the server sets the same argument. `importer` is a module that
    imports the tool by name (where the agent is built): its mutations of that name count too.
    """
    if _depth > MAX_DEPTH:
        return []
    out: list[FatalReason] = []
    settings: list[_Setting] = []
    if tool.kind == "copy" and tool.options is not None:
        source = _copy_source(tool, facts, project)
        if source is not None:
            inherited = fatal_reasons(source[0], source[1], project, _depth=_depth + 1)
            out.extend(r if r.via else replace(r, via=f"copy of {source[0].name}") for r in inherited)
        copier = _copier(tool.options)
        if copier is not None and copier[1]:
            settings.extend(_Setting(k, v, tool.scope) for k, v in tool.options.kwargs if k is not None)
    elif tool.options is not None:
        out.extend(_call_reasons(tool.options, facts, tool.scope, project))
    if tool.kind == "server":
        if agent is not None and tool.options is not None:
            a_facts = agent_facts or facts
            inherited = _inherited(agent, a_facts, "")
            if inherited is not None and not _server_sets(tool.options, facts, tool.scope, inherited[1]):
                out.extend(agent_mcp_reasons(agent, a_facts, project))
    else:
        for name, bound_in in _names(tool, facts):
            settings.extend(_settings_on(facts, name, bound_in))
            out.extend(_setter_reasons(facts, name, bound_in, project))
        out.extend(_field_reasons(settings, facts, project))
        if importer is not None and importer is not facts and tool.binding:
            wanted = f"{tool.module}.{tool.binding}"
            for local, target in importer.imports.items():
                if target == wanted:
                    out.extend(_field_reasons(_settings_on(importer, local, ""), importer, project))
                    out.extend(_setter_reasons(importer, local, "", project))
    return _unique(out)


def module_reasons(facts: ModuleFacts, project: ProjectIndex) -> list[FatalReason]:
    """Every fatal setting written in this module, whichever tool it belongs to (for SIB201-SIB204).

    Field assignments and `dataclasses.replace` keywords count only on names bound to a known tool
    (here or imported), so look-alike objects of other libraries are not reported.
    """
    out: list[FatalReason] = []
    for scope, call in facts.all_calls():
        out.extend(_call_reasons(call, facts, scope, project))  # includes tool setters
        copier = _copier(call)
        if copier is not None and copier[1]:
            source = call.arg(copier[0].position, copier[0].keyword)
            if isinstance(source, Ref) and tool_named(facts, source.text, scope, project) is not None:
                settings = [_Setting(k, v, scope) for k, v in call.kwargs if k is not None]
                out.extend(_field_reasons(settings, facts, project))
    # Mutations: group the settings by the tool name they apply to, so `unless`/`only_with` see them together.
    fields = _fields()
    targets: dict[tuple[str, str], None] = {}
    for a in facts.assignments:
        head, _, attr = a.target.rpartition(".")
        if head and "." not in head and attr in fields:
            targets[(head, a.scope)] = None
    for scope, call in facts.all_calls():
        if (isinstance(call.func, Ref) and call.func.name in ("setattr", "builtins.setattr") and call.args
                and isinstance(call.args[0], Ref)):
            targets[(call.args[0].text, scope)] = None
    for name, scope in targets:
        found = tool_named(facts, name, scope, project)
        if found is None:
            continue
        tool, tool_facts = found
        bound_in = next((s for n, s in _names(tool, facts) if n == name), "") if tool_facts is facts else ""
        out.extend(_field_reasons(_settings_on(facts, name, bound_in), facts, project))
    return _unique(out)


def _unique(reasons: list[FatalReason]) -> list[FatalReason]:
    seen: set[tuple[str, str, Loc]] = set()
    out: list[FatalReason] = []
    for r in reasons:
        key = (r.code, r.path, r.loc)
        if key not in seen:
            seen.add(key)
            out.append(r)
    return out
