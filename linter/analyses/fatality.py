"""Why a tool's failure ends the run (and cancels its siblings): the fatal causes, per tool.

Everything is read from the frameworks' data (`FailureSpec`: `args`, `method_args`, `fields`,
`setters`, `super_init`, `inherited_by_servers`; `ToolSpec.copiers`), never from names spelled here.
Each reason carries a `cause`; the rules of `siblint.rules.failure_policy` own the codes.

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
project)` is every cause written in one module, which the failure-policy rules report.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Iterable, Literal

from ..common.diagnostics import Loc
from ..frameworks import FRAMEWORKS
from ..frameworks.spec import Cause, FatalArg, Param
from ..model.project import ProjectIndex
from ..model.semantic import (
    Scope,
    annotation_names,
    canonical,
    classes_of,
    constructed_by,
    dereferenced,
    elements,
    given,
    method_of,
    project_class,
    resolve_function,
)
from ..model.tools import Tool, copier, copy_source, names_of, tool_configured_by, tool_named, visible
from ..syntax.facts import (
    Call,
    Const,
    FunctionFacts,
    Lambda,
    Mapping,
    ModuleFacts,
    Other,
    Ref,
    Value,
)

# How many hops (copies of copies, name bindings, imports) resolution follows.
MAX_DEPTH = 8


@dataclass(frozen=True)
class FatalReason:
    """One cause that makes a tool's failure fatal, at the argument or assignment that sets it."""

    cause: Cause | Literal["default_fatal"]  # what the rules report it as; "default_fatal" is a group policy's
    label: str  # 'failure_error_function=None', 'failure handler returns None', ...
    path: str  # the file holding the offending argument or assignment
    loc: Loc
    via: str = ""  # "" when set on the tool itself; "copy of lookup_tax"; "mcp_config of agent"
    origin: tuple[str, Loc] | None = None  # the handler behind it: its `raise` or its `def` line
    # Reported where a shared options dict is used (`function_tool(**STRICT)`), once per tool:
    # where the fatal value itself is written (`STRICT = {"failure_error_function": None}`).
    written_at: tuple[str, Loc] | None = None
    fix: str = ""  # the framework's own advice, where the rule's does not fit (crewai's "warn", a raising hook)


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
    guarded: bool  # nothing it does can escape: its body is guarded, or it cannot raise at all
    origin: tuple[str, Loc]
    # It raises only errors of these classes (resolved names): every `raise` it lets out stands in an
    # `if isinstance(error, Signal):` arm on one of its parameters. A tool raising none of them is safe.
    only_for: tuple[str, ...] = ()
    facts: ModuleFacts | None = field(default=None, compare=False)


# Calls that only build a result from values the invoker already has: an invoker whose body is
# nothing but these (and no `raise`) cannot fail, guarded or not (`return json.dumps({"ok": True})`).
# Parsing is not among them: `json.loads(args)` of the model's arguments can raise.
_CANNOT_FAIL = frozenset({"json.dumps", "str", "repr", "builtins.str", "builtins.repr", "dict", "builtins.dict"})


def _function_behaviour(facts: ModuleFacts, fn: FunctionFacts) -> _Behaviour:
    returns_none = fn.can_return_none or fn.returns_annotation.strip() == "None"
    origin = (facts.path, fn.raises[0] if fn.raises else fn.loc)
    cannot_fail = not fn.raises and all(site.call.callee in _CANNOT_FAIL for site in fn.calls)
    return _Behaviour(returns_none, bool(fn.raises), fn.guarded_body or cannot_fail, origin,
                      _raised_only_for(facts, fn), facts)


def _raised_only_for(facts: ModuleFacts, fn: FunctionFacts) -> tuple[str, ...]:
    """The classes every `raise` the function lets out is tested for (`if isinstance(error,
    ControlSignal): raise error`, a handler passing control signals on); () when any is not."""
    escaping = set(fn.raises)
    tested: list[str] = []
    for site in fn.raise_sites:
        if site.loc not in escaping:
            continue
        arm = next((b for b in reversed(site.branches)
                    if b.test == "isinstance" and b.equals and b.name in fn.params), None)
        if arm is None:
            return ()
        tested.extend(annotation_names(facts, " ".join(arm.values)))
    return tuple(dict.fromkeys(tested))


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
        fn = Scope(facts, scope).function(value)
        if fn is not None:
            return _function_behaviour(facts, fn)
        bound = Scope(facts, scope).value(value.text)
        if bound is not None:
            return _behaviour(facts, bound, scope, project, depth + 1)
    found = resolve_function(value.name, project, facts.path)
    if found is not None:
        return _function_behaviour(*found)
    return None


def always_returns(facts: ModuleFacts, value: Value, scope: str, project: ProjectIndex) -> bool:
    """A callable handler that returns a value on every path and never raises; an unresolved one
    gets the benefit of the doubt."""
    found = _behaviour(facts, value, scope, project)
    return found is None or not (found.returns_none or found.raises)


def raises(facts: ModuleFacts, value: Value, scope: str, project: ProjectIndex) -> tuple[str, Loc] | None:
    """Where a callable raises (its `raise`), when it resolves and has one."""
    found = _behaviour(facts, value, scope, project)
    return found.origin if found is not None and found.raises else None


def function_raises(facts: ModuleFacts, fn: FunctionFacts) -> tuple[str, Loc] | None:
    found = _function_behaviour(facts, fn)
    return found.origin if found.raises else None


def function_always_returns(facts: ModuleFacts, fn: FunctionFacts) -> bool:
    """`always_returns` for a function already found (a plugin's method)."""
    found = _function_behaviour(facts, fn)
    return not (found.returns_none or found.raises)


def plugin_methods(facts: ModuleFacts, value: Value | None, scope: str, method: str,
                   project: ProjectIndex) -> list[tuple[Value, tuple[ModuleFacts, FunctionFacts]]]:
    """(object, its class's `method`) for each object of a plugin list (`plugins=[ErrorPlugin()]`)
    whose project class defines or inherits `method`."""
    out: list[tuple[Value, tuple[ModuleFacts, FunctionFacts]]] = []
    where = Scope(facts, scope)
    for item_scope, item in elements(where, value, project):
        for cls in classes_of(item_scope, item, project):
            found = method_of(cls, method, project)
            if found is not None:
                out.append((item, found))
                break
    return out


def _judge_methods(spec: FatalArg, value: Value, facts: ModuleFacts, scope: str,
                   project: ProjectIndex) -> FatalReason | None:
    """`FatalArg.method`: the first plugin object whose method is fatal, as a reason at the object."""
    for item, (m_facts, fn) in plugin_methods(facts, value, scope, spec.method, project):
        found = _function_behaviour(m_facts, fn)
        fault = next((f for f, hit in (("returns None", "returns_none" in spec.when and found.returns_none),
                                       ("raises", "raises" in spec.when and found.raises)) if hit), None)
        if fault is not None:
            return FatalReason(spec.cause, spec.label.format(fault=fault), facts.path, item.loc, origin=found.origin)
    return None


def _judge(spec: FatalArg, value: Value, facts: ModuleFacts, scope: str, project: ProjectIndex,
           tool: Tool | None = None) -> FatalReason | None:
    """Whether `value` given for `spec` is fatal, as a reason located at the value (for `tool`, when
    known: a handler that raises only some errors is fatal for a tool that can raise them)."""
    if spec.method:
        return _judge_methods(spec, value, facts, scope, project)
    if spec.present:
        return None if _undefined(value) else FatalReason(spec.cause, spec.label, facts.path, value.loc)
    if spec.values:
        if is_fatal_literal(spec, value):
            return FatalReason(spec.cause, spec.label, facts.path, value.loc)
        return None
    if not spec.when or (isinstance(value, Const) and value.value is None):
        return None  # None itself is judged by the literal spec of the same parameter
    unguarded_counts = "unguarded" in spec.when
    if unguarded_counts and _borrowed_invoker(value):
        return None  # another tool's invoker: it carries that tool's own failure handling
    found = _behaviour(facts, value, scope, project)
    if found is None:
        # An unknown handler gets the benefit of the doubt; an unknown invoker has no handler.
        return FatalReason(spec.cause, spec.label.format(fault=""), facts.path, value.loc) if unguarded_counts else None
    faults = [f for f, hit in (("returns None", "returns_none" in spec.when and found.returns_none),
                               ("raises", "raises" in spec.when and found.raises and _raises_for(found, tool, project)),
                               ("", unguarded_counts and not found.guarded)) if hit]
    if not faults:
        return None
    return FatalReason(spec.cause, spec.label.format(fault=faults[0]), facts.path, value.loc, origin=found.origin)


def _raises_for(found: _Behaviour, tool: Tool | None, project: ProjectIndex) -> bool:
    """Does the handler raise when `tool` fails? One that raises only errors of some project classes
    does so only for a tool whose call graph lets one of them out; a library class, or a tool not
    known here, may always be raised."""
    if not found.only_for or tool is None or found.facts is None:
        return True
    from .fatal_raises import may_raise

    classes = [project_class(found.facts, name, project) for name in found.only_for]
    return any(c is None for c in classes) or may_raise(tool, [c for c in classes if c is not None], project)


def _borrowed_invoker(value: Value) -> bool:
    """`other.on_invoke_tool`: an attribute of another tool. A local function that happens to carry
    the attribute's name (`async def on_invoke_tool(...)` in a tool factory) is a raw invoker."""
    if not isinstance(value, Ref):
        return False
    owner, dot, attr = value.text.rpartition(".")
    return bool(dot and owner) and attr in _invoker_attrs()


def _undefined(value: Value) -> bool:
    """JS `undefined`: an option given as undefined is an option left out."""
    return isinstance(value, Ref) and value.name == "undefined"


def _applies(spec: FatalArg, others: dict[str, Value]) -> bool:
    """`unless` / `only_with`: conditions on the other arguments or fields set alongside."""
    if spec.unless is not None:
        other = others.get(spec.unless)
        if other is not None and not (isinstance(other, Const) and other.value is None) and not _undefined(other):
            return False
    if spec.requires is not None and spec.requires not in others:
        return False
    if spec.only_with is not None:
        key, wanted = spec.only_with
        other = others.get(key)
        if not (isinstance(other, Const) and other.value == wanted and type(other.value) is type(wanted)):
            return False
    return True


# ---- calls -----------------------------------------------------------------------------------
def _call_reasons(call: Call, facts: ModuleFacts, scope: str, project: ProjectIndex,
                  specs: Iterable[FatalArg] | None = None, tool: Tool | None = None) -> list[FatalReason]:
    out: list[FatalReason] = []
    others = {k: v for k, v in call.kwargs if k is not None}
    for spec in specs_for_call(facts, call, scope) if specs is None else specs:
        if not _applies(spec, others):
            continue
        value = argument(call, spec, facts, scope)
        if value is None:
            if "unguarded" in spec.when and spec.key is None:
                # `FunctionTool(**kw)` without a visible invoker: still built without a handler.
                out.append(FatalReason(spec.cause, spec.label.format(fault=""), facts.path, call.loc))
            continue
        reason = _judge(spec, value, facts, scope, project, tool)
        if reason is not None:
            shared = _shared_options(call, spec)
            if shared is not None:
                reason = replace(reason, loc=shared.loc, written_at=(reason.path, reason.loc))
            out.append(reason)
    return out


def call_reasons(call: Call, facts: ModuleFacts, scope: str, project: ProjectIndex,
                 specs: Iterable[FatalArg]) -> list[FatalReason]:
    """The reasons these fatal arguments give for one call (a middleware's options)."""
    return _call_reasons(call, facts, scope, project, specs)


def _setter(call: Call) -> tuple[Param, tuple[FatalArg, ...]] | None:
    if isinstance(call.func, Ref):
        fw, name = canonical(call.func.name)
        if fw is not None and name in fw.failure.setters:
            return fw.failure.setters[name]
    return None


def _fields() -> dict[str, list[FatalArg]]:
    out: dict[str, list[FatalArg]] = {}
    for fw in FRAMEWORKS:
        for spec in fw.failure.fields:
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


# ---- settings made after creation ---------------------------------------------------------
_SETATTR = frozenset({"setattr", "builtins.setattr"})


def _mutations(facts: ModuleFacts) -> dict[str, list[_Setting]]:
    """Name -> fields set on it after creation (`name.f = v`, `setattr(name, "f", v)`), indexed
    once per module so that each tool's question is a lookup."""

    def compute() -> dict[str, list[_Setting]]:
        table: dict[str, list[_Setting]] = {}
        for a in facts.assignments:
            head, _, attr = a.target.rpartition(".")
            if head and a.op == "=":
                table.setdefault(head, []).append(_Setting(attr, a.value, a.scope))
        for scope, call in facts.all_calls():
            if (isinstance(call.func, Ref) and call.func.name in _SETATTR and len(call.args) == 3
                    and isinstance(call.args[0], Ref) and isinstance(call.args[1], Const)
                    and isinstance(call.args[1].value, str)):
                table.setdefault(call.args[0].text, []).append(_Setting(call.args[1].value, call.args[2], scope))
        return table

    return facts.derived("fatality.mutations", compute)


def _setter_calls(facts: ModuleFacts) -> dict[str, list[tuple[str, Call, tuple[FatalArg, ...]]]]:
    """Name of the tool passed -> (scope, call, fatal args) for every in-place policy setter."""

    def compute() -> dict[str, list[tuple[str, Call, tuple[FatalArg, ...]]]]:
        table: dict[str, list[tuple[str, Call, tuple[FatalArg, ...]]]] = {}
        for scope, call in facts.all_calls():
            setter = _setter(call)
            if setter is None:
                continue
            target = call.arg(setter[0].position, setter[0].keyword)
            if isinstance(target, Ref):
                table.setdefault(target.text, []).append((scope, call, setter[1]))
        return table

    return facts.derived("fatality.setter_calls", compute)


def _settings_on(facts: ModuleFacts, name: str, bound_in: str) -> list[_Setting]:
    """Fields set on `name` (the binding made in `bound_in`) after creation."""
    return [s for s in _mutations(facts).get(name, ()) if visible(facts, name, bound_in, s.scope)]


def _setter_reasons(facts: ModuleFacts, name: str, bound_in: str, project: ProjectIndex) -> list[FatalReason]:
    out: list[FatalReason] = []
    for scope, call, specs in _setter_calls(facts).get(name, ()):
        if visible(facts, name, bound_in, scope):
            out.extend(_call_reasons(call, facts, scope, project, specs))
    return out


# ---- arguments -------------------------------------------------------------------------------
def _shared_options(call: Call, spec: FatalArg) -> Ref | None:
    """The `**NAME` argument through which `call` gets `spec`'s value from a dict bound to a name."""
    if call.arg(spec.param.position, spec.param.keyword) is not None:
        return None
    for key, value in call.kwargs:
        if key is None and isinstance(value, Ref):
            return value
    return None


def argument(call: Call, arg: FatalArg, facts: ModuleFacts | None = None, scope: str = "") -> Value | None:
    """The value `call` passes for `arg`, including through a `**{...}` literal (inline or, given the
    facts, bound to a name); for keyed args the value under the key of a dict literal or a
    `dict(...)` / TypedDict call (`MCPConfig(failure_error_function=None)`)."""
    where = Scope(facts, scope) if facts is not None else None
    if where is not None:
        found = given(where, call, arg.param.position, arg.param.keyword)
    else:  # no facts: only a `**{...}` written inline
        found = call.arg(arg.param.position, arg.param.keyword) or next(
            (v.get(arg.param.keyword) for k, v in call.kwargs if k is None and isinstance(v, Mapping)
             and v.get(arg.param.keyword) is not None), None)
    if found is not None and arg.key is not None:
        found = dereferenced(where, found) if where is not None else found
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
            if name in fw.failure.setters:
                return fw.failure.setters[name][1]
            return fw.failure.args.get(name, ())
        receiver, _, method = call.func.text.rpartition(".")
        if receiver:
            built = constructed_by(Scope(facts, scope), Ref(receiver, receiver, call.func.loc))
            for fw in FRAMEWORKS:
                specs = fw.failure.method_args.get((built, method), ())
                if specs:
                    return specs
        return ()
    # `super().__init__(...)` inside `class S(Base)`: the collector keeps it as Attr("attr:__init__").
    fn = facts.functions.get(scope)
    if isinstance(call.func, Other) and call.func.kind == "attr:__init__" and fn is not None and fn.name.endswith(".__init__"):
        for base in fn.bases:
            fw, name = canonical(base)
            if fw is not None and name in fw.failure.super_init:
                return fw.failure.super_init[name]
    return ()


def is_fatal_literal(spec: FatalArg, value: Value | None) -> bool:
    """`value` is one of the literal values `spec` marks fatal (`False` is not `0`)."""
    return (isinstance(value, Const) and value.value in spec.values
            and type(value.value) in {type(v) for v in spec.values})


def _invoker_attrs() -> frozenset[str]:
    return frozenset(fw.failure.invoker_attr for fw in FRAMEWORKS if fw.failure.invoker_attr)


# ---- agents and MCP servers ------------------------------------------------------------------
def agent_mcp_reasons(agent: Call, facts: ModuleFacts, project: ProjectIndex, scope: str = "") -> list[FatalReason]:
    """Agent-level settings its MCP servers inherit (`Agent(mcp_config={"failure_error_function": None})`)."""
    specs = _inherited(agent, facts, scope)
    if not specs:
        return []
    via = f"{specs[0][0].param.keyword} of the agent" if specs[0] else "the agent"
    return [replace(r, via=via) for r in _call_reasons(agent, facts, scope, project, specs[0])]


def _inherited(agent: Call, facts: ModuleFacts, scope: str) -> tuple[tuple[FatalArg, ...], str] | None:
    built = constructed_by(Scope(facts, scope), agent)
    for fw in FRAMEWORKS:
        if built in fw.failure.inherited_by_servers:
            return fw.failure.inherited_by_servers[built]
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
        source = copy_source(tool, facts, project)
        if source is not None:
            inherited = fatal_reasons(source[0], source[1], project, _depth=_depth + 1)
            out.extend(r if r.via else replace(r, via=f"copy of {source[0].name}") for r in inherited)
        how = copier(tool.options)
        if how is not None and how[1]:
            settings.extend(_Setting(k, v, tool.scope) for k, v in tool.options.kwargs if k is not None)
    elif tool.options is not None:
        out.extend(_call_reasons(tool.options, facts, tool.scope, project, tool=tool))
    if tool.kind == "server":
        if agent is not None and tool.options is not None:
            a_facts = agent_facts or facts
            agent_level = _inherited(agent, a_facts, "")
            if agent_level is not None and not _server_sets(tool.options, facts, tool.scope, agent_level[1]):
                out.extend(agent_mcp_reasons(agent, a_facts, project))
    else:
        for name, bound_in in names_of(tool, facts):
            settings.extend(_settings_on(facts, name, bound_in))
            out.extend(_setter_reasons(facts, name, bound_in, project))
        out.extend(_field_reasons(settings, facts, project))
        if importer is not None and importer is not facts and tool.binding:
            wanted = f"{tool.module}.{tool.binding}"
            for local, target in importer.imports.items():
                if target == wanted:
                    out.extend(_field_reasons(_settings_on(importer, local, ""), importer, project))
                    out.extend(_setter_reasons(importer, local, "", project))
    from .fatal_raises import tool_reasons  # it reads FatalReason from here

    out.extend(tool_reasons(tool, project))
    return _unique(out)


def module_reasons(facts: ModuleFacts, project: ProjectIndex) -> list[FatalReason]:
    """Every fatal setting written in this module, whichever tool it belongs to (for SIB201-SIB204),
    with the layered policies (`siblint.analyses.policy_levels`) and fatal hooks (`siblint.analyses.fatal_hooks`).

    Field assignments and `dataclasses.replace` keywords count only on names bound to a known tool
    (here or imported), so look-alike objects of other libraries are not reported.
    """
    # Those modules read FatalReason from here: imported at call time.
    from . import fatal_hooks, fatal_raises, policy_levels

    out: list[FatalReason] = [*policy_levels.module_reasons(facts, project), *fatal_hooks.module_reasons(facts, project),
                              *fatal_raises.module_reasons(facts, project)]
    for scope, call in facts.all_calls():
        out.extend(_call_reasons(call, facts, scope, project, tool=tool_configured_by(facts, call)))  # and setters
        how = copier(call)
        if how is not None and how[1]:
            source = call.arg(how[0].position, how[0].keyword)
            if isinstance(source, Ref) and tool_named(facts, source.text, scope, project) is not None:
                settings = [_Setting(k, v, scope) for k, v in call.kwargs if k is not None]
                out.extend(_field_reasons(settings, facts, project))
    # Mutations: group the settings by the tool name they apply to, so `unless`/`only_with` see them together.
    fields = _fields()
    targets: dict[tuple[str, str], None] = {}
    for head, settings in _mutations(facts).items():
        if "." not in head:
            for setting in settings:
                if setting.field in fields:
                    targets[(head, setting.scope)] = None
    for name, scope in targets:
        found = tool_named(facts, name, scope, project)
        if found is None:
            continue
        tool, tool_facts = found
        bound_in = next((s for n, s in names_of(tool, facts) if n == name), "") if tool_facts is facts else ""
        out.extend(_field_reasons(_settings_on(facts, name, bound_in), facts, project))
    return _unique(out)


def _unique(reasons: list[FatalReason]) -> list[FatalReason]:
    seen: set[tuple[str, str, Loc]] = set()
    out: list[FatalReason] = []
    for r in reasons:
        key = (r.cause, r.path, r.loc)
        if key not in seen:
            seen.add(key)
            out.append(r)
    return out


def group_setting_reasons(call: Call, facts: ModuleFacts, project: ProjectIndex) -> list[FatalReason]:
    """The fatal arguments written on a group's own call or on a group maker's call inside it
    (`create_react_agent(llm, tools=ToolNode(tools, handle_tool_errors=False))`): they make the
    failure of every member fatal, wherever the member is defined."""
    from ..model.groups import group_maker

    # The module's group-maker calls, found once per module (not once per group).
    makers = facts.derived("fatality.group_maker_calls", lambda: tuple(
        (scope, c) for scope, c in facts.all_calls() if group_maker(facts, c, scope) is not None))
    out: list[FatalReason] = []
    for scope, inner in makers:
        if inner.loc.within(call.loc):
            out.extend(_call_reasons(inner, facts, scope, project))
    return _unique(out)
