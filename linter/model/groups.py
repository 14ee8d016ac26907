"""Concurrent tool groups: the tools one agent offers the model in a turn.

A group starts at a group maker (`Agent(tools=[...], mcp_servers=[...])`, `agent.clone(tools=...)`)
and changes with later mutations (`agent.tools = [...]`, `agent.tools.append(t)`,
`agent.tools += [...]`). Members are resolved by the semantic model (`siblint.model.semantic.elements`):
names, closures, lists, `*spread`, copies of lists, factories' return values, builder functions'
parameters and imports from other project modules. A group whose every run caps tool concurrency
at 1, or whose model is asked for one call per step, is not concurrent.

A run deadline (`timeout=` where the group is made, or on a workflow that runs it) makes whichever
call is still running when it fires a fatal failure: `Group.deadline` says where it is set.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from functools import partial
from typing import NamedTuple

from ..common.diagnostics import Loc
from ..common.reading import read_bounded
from ..frameworks import FRAMEWORKS
from ..frameworks.spec import Deadline, Framework, GroupMaker, Param
from ..js import modules as js_modules
from ..syntax.facts import Attr, Call, Const, Each, FunctionFacts, Mapping, ModuleFacts, Ref, Seq, Starred, Value, keyed_target
from . import relevance
from .prebuilt_tools import prebuilt_member
from .project import ProjectIndex, framework_module, module_name_for, names_from_roots
from .semantic import (
    UNBOUNDED,
    Scope,
    argument_values,
    calls_by_text,
    canonical,
    classes_of,
    constructed_by,
    elements,
    framework_bases,
    given,
    has_stub_methods,
    imports_framework,
    is_interface,
    method_of,
    project_class,
    resolve_function,
    result_names,
    seconds,
    star_imported,
)
from .tools import (
    Tool,
    class_tool,
    defined_elsewhere,
    is_static,
    method_toolset_members,
    plain_tool,
    registered_from_imports,
    tool_configured_by,
    tool_for_call,
    tool_function,
    tool_maker,
    tool_named,
    tools_in,
    visible,
)
from .versions import runs_current


@dataclass(frozen=True)
class Member:
    tool: Tool
    facts: ModuleFacts  # the module that makes the tool
    # A class-based tool's instantiation (`Search(tool_failure_policy="raise")`) and its module.
    instance: Call | None = None
    instance_facts: ModuleFacts | None = None


@dataclass
class Snapshot:
    """The group's members after one statement, and where that statement is."""

    loc: Loc
    members: list[Member]


@dataclass
class Group:
    framework: Framework
    path: str
    name: str  # the agent's name= literal, else its variable, else "agent"
    binding: str
    scope: str
    call: Call
    snapshots: list[Snapshot] = field(default_factory=list)  # in source order
    parallel_hint_off: bool = False  # the group asks the provider for one call per turn (a hint only)
    capped: bool = False  # every run of this group serialises tool calls
    maker: GroupMaker | None = None
    # A fatal failure cancels the other calls of the turn (False: they run on, even awaiting ones).
    cancels_siblings: bool = True
    # A run of this group moves its sync tools into worker threads (`ConcurrencySpec.sync_threads`);
    # `sync_threads_serial`: every such run caps those threads at 1 (sync tools then run one at a time).
    sync_threads: bool = False
    sync_threads_serial: bool = False
    # The wrapper calls that run this group (`Runner(agent=...)`, `App(root_agent=...)`), with their scopes.
    wrappers: tuple[tuple[str, Call], ...] = ()
    deadline: "RunDeadline | None" = None  # a run deadline: any call still running when it fires is fatal

    @property
    def fix(self) -> str:
        """How SIB301 tells the user to fix a mix (formatted with victim=, fatal=)."""
        return self.maker.fix if self.maker is not None and self.maker.fix else self.framework.groups.fix

    def members(self) -> list[Member]:
        """Every tool that is a member at some point, once."""
        return list({m.tool.key: m for snap in self.snapshots for m in snap.members}.values())


@dataclass(frozen=True)
class RunDeadline:
    """Where a group's run deadline is set, and how messages name it (`timeout=60`)."""

    path: str
    loc: Loc
    label: str
    fix: str = ""  # replaces the group's SIB301 fix when set (a stop the caller calls, not a time limit)
    signal: str = ""  # the caller's abort signal as the call spells it (`req.signal`), when the stop is one


# ---- members ---------------------------------------------------------------------------------
def resolve_members(facts: ModuleFacts, value: Value | None, scope: str, project: ProjectIndex,
                    plain: str = "") -> list[Member]:
    """The tools a tools-list expression denotes, across modules. With `plain` (a framework name),
    a plain function in the list is a tool of that framework (frameworks that wrap callables themselves)."""
    out: list[Member] = []
    for where, item in elements(Scope(facts, scope), value, project):
        out.extend(_item_members(where, item, project, plain))
    return out


MAX_ALIASES = 8  # `a = b` hops followed from a tools-list item


def _item_members(where: Scope, item: Value, project: ProjectIndex, plain: str, depth: int = 0) -> list[Member]:
    facts = where.facts
    if isinstance(item, Mapping):  # a tool written as a plain object (`ToolSpec.object_tool`)
        plain_object = tool_configured_by(facts, item)
        return [Member(plain_object, facts)] if plain_object is not None else []
    if isinstance(item, Call):
        tool = tool_for_call(facts, item, project)
        if tool is not None:
            return _made_of_listed(where, item, tool, project, depth) or [Member(tool, facts)]
        made = class_tool(facts, item, project, where.name)
        if made is not None:
            return [Member(*made, instance=item, instance_facts=facts)]
        listed = method_toolset_members(facts, item, where.name, project)
        if listed is not None:
            return [Member(*t) for t in listed]
        packaged = prebuilt_member(where, item)
        if packaged is not None:
            return [Member(packaged, facts)]
        # A group or toolset given as a member (`create_react_agent(m, ToolNode([...]))`): its tools.
        inner = _collection(item)
        if inner is not None:
            return _collection_members(facts, item, inner, where.name, project)
        # A project factory's product (`tools=[make_lookup(url), post_order]`): what it returns.
        made_by = [(s, v) for s, v in elements(where, item, project) if v is not item] if depth < MAX_ALIASES else []
        products = [m for s, v in made_by for m in _item_members(s, v, project, plain, depth + 1)]
        if products or not item.args or depth >= MAX_ALIASES:
            return products
        # A wrapper around a tool, a library's (`withAsyncAuthorization(shopOnlineTool)`, Auth0 for AI
        # Agents) or a project's whose product siblint cannot read (a curried `withConnection(c)(tool)`):
        # the tool it wraps runs; a plain function handed to it is no tool.
        return _item_members(where, item.args[0], project, "", depth + 1)
    if isinstance(item, Attr) and isinstance(item.receiver, Call) and isinstance(item.receiver.func, Ref):
        # `SearchTools().search`: a tool method read off an instance is the class attribute.
        named = tool_named(facts, f"{item.receiver.func.text}.{item.attr}", where.name, project)
        return [Member(*named)] if named is not None else []
    if isinstance(item, Ref):
        named = tool_named(facts, item.text, where.name, project)
        if named is None and "." in item.text and item.name != item.text:
            # `tools.charge_card` through `import app.tools as tools`.
            target = project.resolve(item.name, facts.path)
            if target is not None and target[0] is not facts:
                named = tool_named(target[0], target[1], "", project)
        if named is not None:
            return [Member(*named)]
        if "." in item.text and depth < MAX_ALIASES:  # `catalog.gmailSend` of a local object display
            entries = [(s, v) for s, v in elements(where, item, project) if v is not item]
            if entries:
                return [m for s, v in entries for m in _item_members(s, v, project, plain, depth + 1)]
        bound = where.value(item.text) if "." not in item.text else None
        if isinstance(bound, Each) and depth < MAX_ALIASES:  # `tool(t)` of a loop over tools: each of them
            return [m for s, v in elements(where, item, project) for m in _item_members(s, v, project, plain, depth + 1)]
        if isinstance(bound, Call):
            made = class_tool(facts, bound, project, where.name)
            if made is not None:  # `tax = StrictTax(); Agent(tools=[tax])`
                return [Member(*made, instance=bound, instance_facts=facts)]
            # `tools = Shop().to_tool_list()` read back through its name.
            listed = method_toolset_members(facts, bound, where.name, project)
            if listed is not None:
                return [Member(*t) for t in listed]
        aliased = _item_members(where, bound, project, plain, depth + 1) \
            if isinstance(bound, Ref) and bound.text != item.text and depth < MAX_ALIASES else []
        if aliased:  # `write_file_tool = FileTools.write_file; Agent(tools=[write_file_tool])`: what the alias names
            return aliased
        if isinstance(bound, Call) and depth < MAX_ALIASES:
            # `const move = (() => { return tool({...}) })()`, `const t = makeTool(cfg)` kept under a
            # key (`{ move_ticket: move }`): what the call makes.
            products = _item_members(where, bound, project, plain, depth + 1)
            if products:
                return products
        if plain:
            fn = where.function(item)
            if fn is not None and not fn.class_name:
                return [Member(plain_tool(facts, fn, plain), facts)]
            qualified = item.name if item.name != item.text else star_imported(facts, item.text, project)
            found = resolve_function(qualified, project, facts.path) if qualified else None
            if found is not None and not found[1].class_name:
                return [Member(plain_tool(found[0], found[1], plain), found[0])]
            bound_method = (_bound_method(where, item, project) or _class_function(where, item, project)) \
                if "." in item.text else None
            if bound_method is not None:  # `tools=[git_ops.clone_repository]` of `git_ops = GitOps()`
                return [Member(plain_tool(bound_method[0], bound_method[1], plain), bound_method[0])]
        packaged = prebuilt_member(where, item)
        if packaged is not None:
            return [Member(packaged, facts)]
    return []


def _made_of_listed(where: Scope, call: Call, tool: Tool, project: ProjectIndex, depth: int) -> list[Member]:
    """`tool(t)` of a function no name here resolves to (a loop variable over a tools list, a bound
    method `plugin.search`): the tools that argument denotes, as the framework lists plain functions,
    each configured by this call."""
    if tool.kind != "function" or depth >= MAX_ALIASES or tool_function(tool, project) is not None:
        return []
    made = tool_maker(call.func.name) if isinstance(call.func, Ref) else None
    param = made[1].function if made is not None else None
    if made is None or param is None:
        return []
    fw = made[0]
    given = call.arg(param.position, param.keyword)
    if not isinstance(given, Ref):
        return []
    return [replace(m, tool=replace(m.tool, options=call)) for m in _item_members(where, given, project, fw.name, depth + 1)]


def _class_function(where: Scope, item: Ref, project: ProjectIndex) -> tuple[ModuleFacts, FunctionFacts] | None:
    """A static or class method read off its project class (`tools=[GuestStore.new_guest]`)."""
    cls = project_class(where.facts, item.name.rpartition(".")[0], project)
    found = method_of(cls, item.text.rpartition(".")[2], project) if cls is not None else None
    return found if found is not None and is_static(found[1]) else None


def _bound_method(where: Scope, item: Ref, project: ProjectIndex) -> tuple[ModuleFacts, FunctionFacts] | None:
    """The method a bound method of a project object names (`git_ops.clone_repository`)."""
    receiver, _, attr = item.text.rpartition(".")
    for cls in classes_of(where, Ref(item.name.rpartition(".")[0], receiver, item.loc), project):
        found = method_of(cls, attr, project)
        if found is not None:
            return found
    return None


def _collection(call: Call) -> tuple[Framework, Param, str] | None:
    """(framework, where its tools go, plain functions allowed) for a toolset or nested group call."""
    if not isinstance(call.func, Ref):
        return None
    fw, canon = canonical(call.func.name)
    if fw is None:
        return None
    if canon in fw.tools.toolsets:
        return fw, fw.tools.toolsets[canon], fw.name
    maker = fw.groups.makers.get(canon)
    if maker is not None and maker.tools is not None:
        return fw, maker.tools, fw.name if maker.plain_functions_are_tools else ""
    return None


def _collection_members(facts: ModuleFacts, call: Call, found: tuple[Framework, Param, str], scope: str,
                        project: ProjectIndex, bound_to: str = "") -> list[Member]:
    """The tools a toolset (or nested group) call holds, plus those registered on its name by decorators."""
    _, where, plain = found
    members = resolve_members(facts, call.arg(where.position, where.keyword), scope, project, plain)
    bound_to = bound_to or _assigned_target(facts, call)[0]
    if bound_to:
        members += _registered_on(facts, bound_to, scope)
    return members


def _registered_on(facts: ModuleFacts, name: str, scope: str) -> list[Member]:
    """Tools registered by a method decorator on `name` as bound in `scope` (not another function's
    object of the same name)."""
    return [Member(t, facts) for t in _registered(facts).get(name, ()) if visible(facts, name, scope, t.scope)]


def _registered(facts: ModuleFacts) -> dict[str, list[Tool]]:
    """Receiver name -> tools registered on it by a method decorator (`@agent.tool`)."""

    def compute() -> dict[str, list[Tool]]:
        table: dict[str, list[Tool]] = {}
        for t in tools_in(facts):
            if t.receiver:
                table.setdefault(t.receiver, []).append(t)
        return table

    return facts.derived("groups.registered", compute)


def _registered_by_importers(facts: ModuleFacts, name: str, call: Call, project: ProjectIndex) -> list[Member]:
    """Tools other project modules register on this module's top-level `name` (`@agent.tool` after
    `from .agent import agent`): of the importers whose text spells a decorator method of the object."""
    made_by = canonical(call.func.name)[1] if isinstance(call.func, Ref) else ""
    methods = frozenset(m.encode() for fw in FRAMEWORKS for (built, m), maker in fw.tools.methods.items()
                        if built == made_by and maker.kind == "decorator")
    if not facts.module or not methods:
        return []
    absolute = f"{facts.module}.{name}"
    importers = project.importers_of(facts.module, keep=lambda path: project.spells_any(path, methods))
    return [Member(t, importer) for importer in importers
            for t in registered_from_imports(importer, project) if t.receiver == absolute]


def _toolset_members(facts: ModuleFacts, value: Value | None, scope: str, project: ProjectIndex) -> list[Member]:
    """`toolsets=[ts, FunctionToolset([...])]`: the tools of each toolset, across modules (a dict
    display, `mcp_servers={"billing": server}`: its values)."""
    if isinstance(value, Mapping):
        value = Seq(tuple(v for k, v in value.items if k is not None), value.loc)
    out: list[Member] = []
    for where, item in elements(Scope(facts, scope), value, project):
        bound_to = ""
        if isinstance(item, Ref) and "." not in item.text:
            bound = where.value(item.text)
            if isinstance(bound, Call):
                bound_to, item = item.text, bound
            elif item.name != item.text:
                target = project.resolve(item.name, where.facts.path)
                if target is not None and target[0] is not where.facts:
                    out.extend(_toolset_members(target[0], Ref(target[1], target[1], item.loc), "", project))
                continue
        if isinstance(item, Call):
            found = _collection(item)
            if found is not None:
                out.extend(_collection_members(where.facts, item, found, where.name, project, bound_to=bound_to))
            else:
                out.extend(_class_members(where.facts, item, project))
    return out


def _class_members(facts: ModuleFacts, call: Call, project: ProjectIndex) -> list[Member]:
    """`Billing()` of a class deriving from a framework's member class (`Plugin`): its tool methods."""
    if not isinstance(call.func, Ref):
        return []
    cls = project_class(facts, call.func.name, project)
    if cls is None:
        return []
    other, name = cls
    bases = framework_bases(other, name, project)
    methods = [t for t in tools_in(other) if t.scope == name]
    if any(b in fw.tools.member_classes for fw in FRAMEWORKS for b in bases):
        return [Member(t, other) for t in methods]
    plugin_frameworks = {fw.name for fw in FRAMEWORKS if fw.tools.any_class_members}
    return [Member(t, other) for t in methods if t.framework in plugin_frameworks]


def holder_of(call: Call, maker: GroupMaker) -> Ref | None:
    """The plain name of the holder object given to a group maker (`kernel=kernel`), if any."""
    value = call.arg(maker.holder.position, maker.holder.keyword) if maker.holder is not None else None
    return value if isinstance(value, Ref) and "." not in value.text else None


def _holder_members(facts: ModuleFacts, fw: Framework, call: Call, maker: GroupMaker,
                    project: ProjectIndex) -> list[Member]:
    """What `kernel.add_plugin(Billing())` adds to every group made with `kernel=kernel` in this module."""
    holder = holder_of(call, maker)
    if holder is None:
        return []
    out: list[Member] = []
    for method, param in fw.groups.holder_methods.items():
        for scope, added in calls_by_text(facts).get(f"{holder.text}.{method}", ()):
            value = added.arg(param.position, param.keyword)
            if value is not None:
                out.extend(_toolset_members(facts, Seq((value,), value.loc), scope, project))
    return out


def siblings_cancelled_in(facts: ModuleFacts) -> bool:
    """Does a failure that ends the run cancel the other calls in flight, in this module's
    frameworks? False only when every framework it imports cancels nothing (crewai, haystack,
    semantic-kernel: the siblings finish after the raise, unrecorded)."""
    imported = [fw for fw in FRAMEWORKS if imports_framework(facts, fw)]
    return not imported or any(maker.cancels_siblings for fw in imported
                               for maker in (*fw.groups.makers.values(), *fw.groups.methods.values()))


# ---- makers and runs -------------------------------------------------------------------------
def members_made_by(facts: ModuleFacts, call: Call, scope: str, project: ProjectIndex) -> list[Member] | None:
    """The tools of the group `call` makes (`Agent(tools=[shell, file_write])`), None if it makes none."""
    made = group_maker(facts, call, scope)
    if made is None:
        return None
    fw, maker, _ = made
    if maker.tools is None:
        return None
    tools_value = given(Scope(facts, scope), call, maker.tools.position, maker.tools.keyword)
    return resolve_members(facts, tools_value, scope, project, plain=fw.name if maker.plain_functions_are_tools else "")


def group_maker(facts: ModuleFacts, call: Call, scope: str) -> tuple[Framework, GroupMaker, str] | None:
    """(framework, maker, receiver) when `call` makes a group; receiver is set for methods (clone)."""
    if not isinstance(call.func, Ref):
        return None
    fw, canon = canonical(call.func.name)
    if fw is not None and canon in fw.groups.makers:
        return fw, fw.groups.makers[canon], ""
    receiver, _, method = call.func.text.rpartition(".")
    if receiver:
        built = constructed_by(Scope(facts, scope), Ref(receiver, receiver, call.func.loc))
        for fw in FRAMEWORKS:
            maker = fw.groups.method_maker(built, method)
            if maker is not None:
                return fw, maker, receiver
    return None


def _path(value: Value | None, keys: tuple[str, ...], facts: ModuleFacts, scope: str) -> Value | None:
    """Follow keyword arguments or dict keys: `RunConfig(tool_execution=X(max...=1))` or dicts."""
    where = Scope(facts, scope)
    for key in keys:
        if isinstance(value, Ref):
            value = where.value(value.text)
        if isinstance(value, Call):
            value = value.kwarg(key)
        elif isinstance(value, Mapping):
            value = value.get(key)
        else:
            return None
    return value


def _assigned_target(facts: ModuleFacts, call: Call) -> tuple[str, str]:
    """The (target, scope) the call's result is first assigned to, or ("", "")."""
    found = result_names(facts).get(call.loc)
    return found[0] if found else ("", "")


def _is_cap(value: Value | None) -> bool:
    return isinstance(value, Const) and value.value == 1 and not isinstance(value.value, bool)


def _run_spec(facts: ModuleFacts, fw: Framework, scope: str, call: Call) -> tuple[Param, Param, Value | None] | None:
    """(where the agent goes, where the per-run config goes, the runner object's own config) when
    `call` runs an agent: `Runner.run(agent, ...)`, or a run method of a runner object."""
    if not isinstance(call.func, Ref):
        return None
    spec = fw.concurrency.runners.get(canonical(call.func.name)[1])
    if spec is not None:
        return spec[0], spec[1], None
    receiver, _, method = call.func.text.rpartition(".")
    if not receiver or not fw.concurrency.runner_objects:
        return None
    where = Scope(facts, scope)
    built = constructed_by(where, Ref(receiver, receiver, call.loc))
    runner = fw.concurrency.runner_objects.get(built)
    if runner is None or method not in runner[1]:
        return None
    made = where.value(receiver)
    own = made.arg(runner[0].position, runner[0].keyword) if isinstance(made, Call) else None
    return runner[1][method][0], runner[1][method][1], own


def _runner_calls(facts: ModuleFacts, fw: Framework) -> dict[str, list[tuple[str, Call, tuple[Param, Param, Value | None]]]]:
    """Agent name -> the calls that run it (`Runner.run(agent, ...)`), indexed once per module."""

    def compute() -> dict[str, list[tuple[str, Call, tuple[Param, Param, Value | None]]]]:
        table: dict[str, list[tuple[str, Call, tuple[Param, Param, Value | None]]]] = {}
        for scope, call in facts.all_calls():
            spec = _run_spec(facts, fw, scope, call)
            if spec is None:
                continue
            agent = call.arg(spec[0].position, spec[0].keyword)
            if isinstance(agent, Ref):
                table.setdefault(agent.text, []).append((scope, call, spec))
        return table

    return facts.derived(f"groups.runner_calls.{fw.name}", compute)


def _method_runs(facts: ModuleFacts, fw: Framework) -> dict[str, list[tuple[str, Call, tuple[Call, ...]]]]:
    """Object name -> (scope, call, context managers around it) of `name.invoke(...)`-style runs."""

    def compute() -> dict[str, list[tuple[str, Call, tuple[Call, ...]]]]:
        table: dict[str, list[tuple[str, Call, tuple[Call, ...]]]] = {}
        methods = fw.concurrency.run_methods
        if not methods:
            return table
        for fn in facts.functions.values():
            for site in fn.calls:
                if isinstance(site.call.func, Ref):
                    head, _, method = site.call.func.text.rpartition(".")
                    if head and method in methods:
                        table.setdefault(head, []).append((fn.name, site.call, site.with_items))
        for call in facts.module_calls:
            if isinstance(call.func, Ref):
                head, _, method = call.func.text.rpartition(".")
                if head and method in methods:
                    table.setdefault(head, []).append(("", call, ()))
        return table

    return facts.derived(f"groups.method_runs.{fw.name}", compute)


def _derivations(facts: ModuleFacts, fw: Framework) -> tuple[dict[str, list[str]], dict[object, list[str]]]:
    """Indexes for `_aliases`: name -> names derived from it (`graph = builder.compile()`), and a
    graph-builder argument (a name or a call's location) -> the holders it was added to."""

    def compute() -> tuple[dict[str, list[str]], dict[object, list[str]]]:
        derived: dict[str, list[str]] = {}
        holders: dict[object, list[str]] = {}
        for a in facts.assignments:
            v = a.value
            if a.op == "=" and isinstance(v, Call) and isinstance(v.func, Ref):
                head, _, method = v.func.text.rpartition(".")
                if method in fw.concurrency.derive_methods and head:
                    derived.setdefault(head, []).append(a.target)
                wrapped = _wrapped(fw, v)
                if isinstance(wrapped, Ref):  # `runner = Runner(agent=agent)`
                    derived.setdefault(wrapped.text, []).append(a.target)
                elif isinstance(wrapped, Call):  # `runner = Runner(agent=Agent(...))`
                    holders.setdefault(wrapped.loc, []).append(a.target)
        for builder in fw.concurrency.graph_builders:
            for texts in (t for t in calls_by_text(facts) if t.rpartition(".")[2] == builder):
                for _, other in calls_by_text(facts)[texts]:
                    holder = texts.rpartition(".")[0]
                    for arg in other.args:
                        holders.setdefault(arg.text if isinstance(arg, Ref) else arg.loc, []).append(holder)
        return derived, holders

    return facts.derived(f"groups.derivations.{fw.name}", compute)


def _aliases(facts: ModuleFacts, fw: Framework, call: Call, target: str) -> set[str]:
    """Names that run the group's tools: its binding, a graph it was added to (`builder.add_node(...,
    group)`), and objects derived from those (`graph = builder.compile()`)."""
    derived, holders = _derivations(facts, fw)
    names = {target} if target else set()
    names.update(holders.get(call.loc, ()))
    if target:
        names.update(holders.get(target, ()))
    todo = list(names)
    while todo:
        for new in derived.get(todo.pop(), ()):
            if new not in names:
                names.add(new)
                todo.append(new)
    return names


def _wrapped(fw: Framework, call: Call) -> Value | None:
    """What a wrapper constructor call (`Runner(agent=a)`) wraps: the group or an inner wrapper."""
    if not fw.concurrency.wrappers or not isinstance(call.func, Ref):
        return None
    spec = fw.concurrency.wrappers.get(canonical(call.func.name)[1])
    if spec is None:
        return None
    return next((v for v in (call.arg(p.position, p.keyword) for p in spec.wrapped) if v is not None), None)


def _wrapper_calls(facts: ModuleFacts, fw: Framework, call: Call, names: set[str]) -> tuple[tuple[str, Call], ...]:
    """The wrapper calls of this module that wrap the group (made by `call`, known by `names`)."""
    if not fw.concurrency.wrappers:
        return ()
    out: list[tuple[str, Call]] = []
    for scope, other in facts.all_calls():
        wrapped = _wrapped(fw, other)
        if (isinstance(wrapped, Ref) and wrapped.text in names) or (isinstance(wrapped, Call) and wrapped.loc == call.loc):
            out.append((scope, other))
    return tuple(out)


def _sync_threads(facts: ModuleFacts, fw: Framework, call: Call, names: set[str]) -> tuple[bool, bool]:
    """(some run of the group moves sync tools into threads, every such run caps them at 1)."""
    conc = fw.concurrency
    if not conc.sync_threads:
        return False, False
    threaded = serial = False
    runs = _method_runs(facts, fw)
    for name in names:
        for scope, run, _ in runs.get(name, ()):
            param = conc.run_methods[run.func.text.rpartition(".")[2]] if isinstance(run.func, Ref) else None
            value = run.arg(param.position, param.keyword) if param is not None else None
            switch = _path(value, conc.sync_threads, facts, scope)
            if switch is None or (isinstance(switch, Const) and switch.value is None):
                continue
            capped = bool(conc.sync_threads_cap) and _is_cap(_path(value, conc.sync_threads_cap, facts, scope))
            serial = capped and (serial or not threaded)
            threaded = True
    return threaded, serial


def _serial_context(fw: Framework, cm: Call) -> bool:
    if not isinstance(cm.func, Ref):
        return False
    _, canon = canonical(cm.func.name)
    contexts = fw.concurrency.serial_contexts
    spec = contexts.get(canon) or contexts.get(cm.func.text.rpartition(".")[2])
    if spec is None:
        return False
    value = cm.arg(spec[0].position, spec[0].keyword)
    return isinstance(value, Const) and value.value == spec[1]


def _is_capped(facts: ModuleFacts, fw: Framework, agent_binding: str, call: Call | None = None) -> bool:
    """True when the agent is run in this module and every run caps tool concurrency at 1 (a run
    config with the framework's cap, or a serialising context manager around the run)."""
    if not agent_binding and call is None:
        return False
    conc = fw.concurrency
    seen = False
    for scope, run, (_, config_param, own) in _runner_calls(facts, fw).get(agent_binding, ()) if agent_binding else ():
        seen = True
        per_run = _path(run.arg(config_param.position, config_param.keyword), conc.cap, facts, scope) if conc.cap else None
        if not conc.cap or not (_is_cap(per_run) or (per_run is None and _is_cap(_path(own, conc.cap, facts, scope)))):
            return False
    if conc.run_methods and call is not None:
        runs = _method_runs(facts, fw)
        for name in _aliases(facts, fw, call, agent_binding):
            for scope, run, withs in runs.get(name, ()):
                seen = True
                if any(_serial_context(fw, cm) for cm in withs):
                    continue
                param = conc.run_methods[run.func.text.rpartition(".")[2]] if isinstance(run.func, Ref) else None
                value = run.arg(param.position, param.keyword) if param is not None else None
                if not conc.cap or not _is_cap(_path(value, conc.cap, facts, scope)):
                    return False
    return seen


def _serial_option(facts: ModuleFacts, fw: Framework, call: Call, scope: str) -> bool:
    """The group maker is given an option that serialises its calls (`tool_executor=SequentialToolExecutor()`)."""
    where = Scope(facts, scope)
    return any(constructed_by(where, call.kwarg(keyword)) == constructor
               for keyword, constructor in fw.concurrency.serial_options.items())


def _concurrent_only(fw: Framework, members: list[Member]) -> list[Member]:
    """The members that may run beside others (`ConcurrencySpec.concurrent_when`); all when unset."""
    paths = fw.concurrency.concurrent_when
    if not paths:
        return members
    return [m for m in members if m.tool.options is not None and any(
        isinstance(v, Const) and v.value is True
        for v in (_path(m.tool.options, p, m.facts, m.tool.scope) for p in paths))]


def _serial_setting(facts: ModuleFacts, fw: Framework, call: Call, scope: str) -> bool:
    """The group maker is given, at a keyword path, a literal that serialises its calls
    (`Agent(client=Client(function_invocation_configuration={"allow_concurrent_invocation": False}))`),
    or the object at the path's first step has the rest set by `.update({...})` in this module."""
    for path, literal in fw.concurrency.serial_settings.items():
        value = _path(call, path, facts, scope)
        if isinstance(value, Const) and value.value is literal:
            return True
        if len(path) >= 2 and _set_by_key(facts, _path(call, path[:-1], facts, scope), path[-1], literal, scope):
            return True  # `cfg["allow_concurrent_invocation"] = False` on the dict given at the path
        holder = call.kwarg(path[0])
        if not isinstance(holder, Ref) or len(path) < 2:
            continue
        middle = ".".join((holder.text, *path[1:-1]))
        if _set_by_key(facts, Ref(middle, middle, holder.loc), path[-1], literal, scope):
            return True  # `client.function_invocation_configuration["allow_concurrent_invocation"] = False`
        for where, update in calls_by_text(facts).get(".".join((holder.text, *path[1:-1], "update")), ()):
            given = _path(update.arg(0, None), path[-1:], facts, where)
            if isinstance(given, Const) and given.value is literal:
                return True
    return False


def _set_by_key(facts: ModuleFacts, holder: Value | None, key: str, literal: object, scope: str) -> bool:
    """Is `holder[key] = literal` written in this module, at module level or in `scope`?"""
    if not isinstance(holder, Ref):
        return False
    target = keyed_target(holder.text, key)
    return any(a.target == target and a.scope in ("", scope) and isinstance(a.value, Const) and a.value.value is literal
               for a in facts.assignments)


def _cancels(call: Call, maker: GroupMaker) -> bool:
    for keyword, literal in maker.no_cancel_when:
        value = call.kwarg(keyword)
        if isinstance(value, Const) and value.value == literal:
            return False
    return maker.cancels_siblings


def groups_in(facts: ModuleFacts, project: ProjectIndex, with_workflows: bool = True) -> list[Group]:
    """Every group the module makes, with its members after each mutation; `with_workflows` adds the
    agents of other modules that a workflow here runs under its deadline."""
    groups: list[Group] = []
    made_here = [(scope, call, group_maker(facts, call, scope)) for scope, call in facts.all_calls()]
    outer_calls = sorted((call.loc for _, call, made in made_here if made is not None),
                         key=lambda loc: (loc.line, loc.col))
    for scope, call, made in made_here:
        if made is None:
            continue
        fw, maker, receiver = made
        if maker.nested_in_groups and _nested(call.loc, outer_calls):
            continue  # `create_react_agent(model, ToolNode([...]))`: a member list, not a group of its own
        tools_value = given(Scope(facts, scope), call, maker.tools.position, maker.tools.keyword) if maker.tools else None
        # Where the group is reported: the argument as written (`tools: agentTools`), not what it names.
        tools_at = tools_value.loc if tools_value is not None else None
        if maker.tools_by_name:
            tools_value = _named_values(Scope(facts, scope), tools_value)
        servers_value = call.arg(maker.servers.position, maker.servers.keyword) if maker.servers else None
        toolsets_value = call.arg(maker.toolsets.position, maker.toolsets.keyword) if maker.toolsets else None
        if receiver and maker.keeps_receiver_tools and tools_value is None and servers_value is None:
            continue  # `agent.clone()` keeps the receiver's tools: the same group
        target, _ = _assigned_target(facts, call)
        name_value = call.arg(maker.name.position, maker.name.keyword) if maker.name else None
        name = name_value.value if isinstance(name_value, Const) and isinstance(name_value.value, str) else (target or "agent")
        plain = fw.name if maker.plain_functions_are_tools else ""
        members = (resolve_members(facts, tools_value, scope, project, plain=plain)
                   + resolve_members(facts, servers_value, scope, project)
                   + _toolset_members(facts, toolsets_value, scope, project)
                   + _holder_members(facts, fw, call, maker, project))
        if target and "." not in target:
            # `@agent.tool` on this group's name: registered before any run, so members from the start,
            # here and, for an agent of the module's top level, in the modules importing it.
            members += _registered_on(facts, target, scope)
            if not scope:
                members += _registered_by_importers(facts, target, call, project)
        members = _concurrent_only(fw, members)
        anchor = tools_at or (servers_value.loc if servers_value is not None else call.loc)
        snapshots = _per_call_site(facts, tools_value, scope, project, plain) or [Snapshot(anchor, members)]
        group = Group(fw, facts.path, name, target, scope, call, snapshots, maker=maker,
                      cancels_siblings=_cancels(call, maker) and runs_current(maker.cancels_since, facts.path, project))
        hint = _path(call, fw.concurrency.hint, facts, scope) if fw.concurrency.hint else None
        group.parallel_hint_off = isinstance(hint, Const) and hint.value is False
        as_made = call
        if receiver and maker.receiver_as and call.kwarg(maker.receiver_as) is None:
            as_made = replace(call, kwargs=(*call.kwargs, (maker.receiver_as, Ref(receiver, receiver, call.func.loc))))
        group.capped = (maker.one_call_per_turn or _is_capped(facts, fw, target, call)
                        or _serial_option(facts, fw, as_made, scope) or _serial_setting(facts, fw, as_made, scope))
        if fw.concurrency.wrappers or fw.concurrency.sync_threads:
            names = _aliases(facts, fw, call, target)
            group.wrappers = _wrapper_calls(facts, fw, call, names)
            group.sync_threads, group.sync_threads_serial = _sync_threads(facts, fw, call, names)
        for spec in (maker.deadline, *maker.deadlines) if maker.deadline else maker.deadlines:
            group.deadline = group.deadline or _deadline(facts, call, scope, spec)
        if maker.run_methods and target and not group.deadline:
            group.deadline = _run_call_deadline(facts, maker, target)
            if not group.deadline and not scope and "." not in target:
                group.deadline = _deadline_in_importers(facts, maker, target, project)
        if fw.groups.stoppers:
            group.deadline = group.deadline or _stopped(facts, fw, call, {target} if target else set())
        _apply_mutations(facts, group, project)
        groups.append(group)
    if with_workflows:
        groups.extend(_workflow_groups(facts, groups, project))
    return groups


def _named_values(scope: Scope, value: Value | None) -> Value | None:
    """A tools object keyed by name (`{ charge: tool({...}), ...base }`, or a name bound to one) as
    the list of its values; spreads of other such objects are flattened."""
    if isinstance(value, Ref) and "." not in value.text and isinstance(scope.value(value.text), (Mapping, Call)):
        value = scope.value(value.text)  # a factory's product (`const all = createAgentTools()`) is read as one
    if not isinstance(value, Mapping):
        return value
    items: list[Value] = []
    for key, item in value.items:
        inner = _named_values(scope, item) if key is None else item
        if isinstance(inner, Seq) and key is None:
            items.extend(inner.items)
        elif inner is not None:
            items.append(inner if key is not None else Starred(inner, inner.loc))
    return Seq(tuple(items), value.loc)


# ---- run deadlines ---------------------------------------------------------------------------
def _deadline(facts: ModuleFacts, call: Call, scope: str, spec: Deadline, via: str = "") -> RunDeadline | None:
    """The deadline `call` sets; an explicit None sets none, anything unreadable counts as one."""
    value = given(Scope(facts, scope), call, spec.param.position, spec.param.keyword)
    if isinstance(value, Ref) and value.name == "undefined":
        value = None  # JS: an option given as undefined is left out
    if isinstance(value, Mapping) and spec.keys:
        keyed = [(key, inner) for key in spec.keys if (inner := value.get(key)) is not None]
        if not keyed:
            return None  # `timeout: { toolMs }`: no run deadline
        key, inner = keyed[0]
        secs = seconds(Scope(facts, scope), inner)
        return RunDeadline(facts.path, inner.loc, f"{via}{spec.param.keyword}.{key}={secs:g}" if secs is not None
                           else f"{via}{spec.param.keyword}.{key}")
    if value is None:
        if spec.default is None:
            return None
        return RunDeadline(facts.path, call.loc, f"{via}{spec.param.keyword} left at {spec.default:g} s")
    secs = seconds(Scope(facts, scope), value)
    if secs == UNBOUNDED:
        return None
    shown = f"{secs:g}" if secs is not None else (value.text if isinstance(value, Ref) else
                                                   f"{value.func.text}(...)" if isinstance(value, Call) and isinstance(value.func, Ref) else "...")
    signal = value.text if isinstance(value, Ref) and secs is None and "signal" in spec.param.keyword.lower() else ""
    return RunDeadline(facts.path, value.loc, f"{via}{spec.param.keyword}={shown}", signal=signal)


def _run_call_deadline(facts: ModuleFacts, maker: GroupMaker, target: str) -> RunDeadline | None:
    """The first deadline a run of the group bound to `target` sets in this module
    (`agent.generate({ prompt, abortSignal })`)."""
    called = calls_by_text(facts)
    for method in maker.run_methods:
        for scope, run in called.get(f"{target}.{method}", ()):
            for spec in maker.run_deadlines:
                found = _deadline(facts, run, scope, spec, via=f"{target}.{method}(): ")
                if found is not None:
                    return found
    return None


MAX_IMPORT_HOPS = 3  # agent module -> package index -> app config -> the route that runs it


def _deadline_in_importers(facts: ModuleFacts, maker: GroupMaker, target: str, project: ProjectIndex) -> RunDeadline | None:
    """The first deadline a run of the TS/JS module-level agent `target` sets in a module importing
    it, through re-exports and names it is bound to again (`export const webAgent = openAgent`, then
    `const { webAgent } = await import('@/app/config'); webAgent.stream({ abortSignal })`)."""
    if not facts.module.startswith(js_modules.PREFIX):
        return None
    wanted = {(facts.path, target)}
    frontier, seen = [facts.path], {facts.path}
    for _ in range(MAX_IMPORT_HOPS):
        following: list[str] = []
        for path in frontier:
            for importer_path in project.js_importers(path):
                importer = project.facts_for_path(importer_path)
                if importer is None:
                    continue
                names = {local for local, dotted in importer.imports.items()
                         if ((found := project.resolve(dotted, importer.path)) is not None
                             and (found[0].path, found[1]) in wanted)}
                for name in sorted(names):
                    deadline = _run_call_deadline(importer, maker, name)
                    if deadline is not None:
                        return deadline
                    wanted.update((importer.path, a.target) for a in importer.assignments
                                  if not a.scope and a.op == "=" and isinstance(a.value, Ref) and a.value.text == name)
                    wanted.add((importer.path, name))
                if names and importer_path not in seen:
                    seen.add(importer_path)
                    following.append(importer_path)
        frontier = following
    return None


def _stopped(facts: ModuleFacts, fw: Framework, call: Call, names: set[str]) -> RunDeadline | None:
    """`client = ClaudeSDKClient(options)` (or `async with ... as client`) and `client.interrupt()` in
    this module: the first such stop of a runner of the group made by `call` (known by `names`)."""
    called = calls_by_text(facts)
    for _, runner in facts.all_calls():
        if not isinstance(runner.func, Ref):
            continue
        spec = fw.groups.stoppers.get(canonical(runner.func.name)[1])
        if spec is None:
            continue
        param, methods, fix = spec
        given = runner.arg(param.position, param.keyword)
        if not ((isinstance(given, Ref) and given.text in names) or (isinstance(given, Call) and given.loc == call.loc)):
            continue
        bound = [t for t, _ in result_names(facts).get(runner.loc, ())]
        bound += [n for fn in facts.functions.values() for n, v in fn.with_bindings.items()
                  if isinstance(v, Call) and v.loc == runner.loc]
        for name in bound:
            for method in methods:
                for _, stop in called.get(f"{name}.{method}", ()):
                    return RunDeadline(facts.path, stop.loc, f"{name}.{method}() stops the run", fix=fix)
    return None


def _workflow_groups(facts: ModuleFacts, made: list[Group], project: ProjectIndex) -> list[Group]:
    """`AgentWorkflow(agents=[a, b], timeout=60)`: the workflow runs each agent under its own deadline.
    An agent made in this module gets the deadline (unless it sets one); an agent imported from
    another module becomes a group of this module, anchored at its place in the agents list."""
    by_call = {g.call.loc: g for g in made}
    out: list[Group] = []
    for scope, call in facts.all_calls():
        if not isinstance(call.func, Ref):
            continue
        fw, canon = canonical(call.func.name)
        spec = fw.groups.workflows.get(canon) if fw is not None else None
        if spec is None:
            continue
        deadline = _deadline(facts, call, scope, spec.deadline, via="the workflow's ")
        if deadline is None:
            continue
        where = Scope(facts, scope)
        for item_scope, item in elements(where, call.arg(spec.agents.position, spec.agents.keyword), project):
            agent = item_scope.value(item.text) if isinstance(item, Ref) and "." not in item.text else item
            local = by_call.get(agent.loc) if isinstance(agent, Call) and item_scope.facts is facts else None
            if local is not None:
                local.deadline = local.deadline or deadline
                continue
            target = project.resolve(item.name, item_scope.facts.path) if isinstance(item, Ref) and item.name != item.text else None
            if target is None or target[0] is facts:
                continue
            for other in groups_in(target[0], project, with_workflows=False):
                if other.binding == target[1] and not other.scope:
                    out.append(Group(other.framework, facts.path, other.name, "", scope, call,
                                     [Snapshot(item.loc, other.members())],
                                     parallel_hint_off=other.parallel_hint_off, capped=other.capped,
                                     maker=other.maker, cancels_siblings=other.cancels_siblings,
                                     sync_threads=other.sync_threads, sync_threads_serial=other.sync_threads_serial,
                                     deadline=deadline))
    return out


COPIES = frozenset({"list", "tuple", "builtins.list", "builtins.tuple"})  # a copy of a tools list holds its tools


def _per_call_site(facts: ModuleFacts, tools: Value | None, scope: str, project: ProjectIndex,
                   plain: str) -> list[Snapshot]:
    """A builder function's tools parameter (`def build(m, tools): return Agent(tools=tools)`): one
    group per call of the builder, each with the tools that call passes, anchored where it passes
    them (different calls build different agents; their tools never run together)."""
    if not isinstance(tools, Ref) or "." in tools.text:
        return []
    where = Scope(facts, scope)
    anchor = tools.loc
    copied = where.value(tools.text)
    if isinstance(copied, Call) and copied.callee in COPIES and len(copied.args) == 1 and isinstance(copied.args[0], Ref):
        tools = copied.args[0]  # `tool_list = list(tools)`: the parameter's tools
    param = where.param(tools.text)
    if param is None:
        return []
    # A call from another module is anchored at this module's tools argument: findings stay in the
    # file being checked.
    return [Snapshot(arg.loc if caller.facts is facts else anchor,
                     resolve_members(caller.facts, arg, caller.name, project, plain))
            for caller, arg in argument_values(where, param[0], param[1], project)]


def listed_by_importers(facts: ModuleFacts, project: ProjectIndex) -> list[tuple[Tool, bool]]:
    """Plain functions of this module that other project modules list in a group (`Agent(tools=[f])`
    after `from .tools import f`, or through a package re-exporting it), each with whether a run of
    such a group moves sync tools into worker threads: a module that makes no tool of its own still
    defines those tools. Asked of its importers that name a framework, of the agent code near it
    (`ProjectIndex.agent_code_near`) and of the importers of its classes' project bases."""
    if not facts.module or project.framework_source(facts.path):
        return []  # a framework's own module is used by its importers, not listed by them
    own = os.path.abspath(facts.path)
    found: dict[tuple, tuple[Tool, bool]] = {}
    candidates = dict.fromkeys([*project.importer_paths(facts.path), *project.agent_code_near(facts.path)])
    importers = [f for p in candidates
                 if _may_make_groups(p, project) and (f := project.facts_for_path(p)) is not None]
    keep = partial(_may_make_groups, project=project)
    importers += [f for m in _base_modules(facts, project) for f in project.importers_of(m, keep=keep)]
    for importer in {id(f): f for f in importers}.values():
        if importer is facts:
            continue
        for path, tool, threads, *_ in _members_listed(importer, project):
            if tool.kind == "function" and tool.options is None and path == own:
                threaded = found.get(tool.key, (tool, False))[1] or threads
                found[tool.key] = (tool, threaded)
    return list(found.values())


def hands_out_plain_functions(facts: ModuleFacts) -> bool:
    """Does the module name no framework, or only what a tool body uses of one (a `ToolContext`
    annotation, `raise ModelRetry(...)`), or name the rest only in annotations (`-> list[FunctionTool]`)?
    Its plain functions are tools where other modules list or wrap them; a module that calls, decorates
    with or derives from a framework's names makes its own tools."""
    from ..frameworks import tool_body_names

    named = _framework_names(facts) - tool_body_names()
    return not named or not (named & _framework_names_used(facts))


def _framework_names_used(facts: ModuleFacts) -> frozenset[str]:
    """The framework names (canonical) the module calls, decorates with or derives a class from."""

    def compute() -> frozenset[str]:
        refs = [call.func for _, call in facts.all_calls()]
        refs += [d.func if isinstance(d, Call) else d for fn in facts.functions.values() for d in fn.decorators]
        names = [r.name for r in refs if isinstance(r, Ref)]
        names += [b for bases in facts.classes.values() for b in bases]
        return frozenset(canon for fw, canon in map(canonical, names) if fw is not None)

    return facts.derived("groups.framework_names_used", compute)


def hands_out_beside_agent_code(facts: ModuleFacts, project: ProjectIndex) -> bool:
    """A module importing, beside what a tool body uses, only a framework's context and state types
    (an ADK `CallbackContext` or `State` for its callbacks) hands its plain functions out too, where
    agent code that lists plain functions is near it in the import graph (a scan answer)."""
    from ..frameworks import tool_body_names

    others = _framework_names(facts) - tool_body_names()
    return bool(others) and all(n.rpartition(".")[2].endswith(_CONTEXT_SUFFIXES) for n in others) \
        and bool(project.agent_code_near(facts.path))


_CONTEXT_SUFFIXES = ("Context", "State")


def _framework_names(facts: ModuleFacts) -> set[str]:
    return {name for fw, name in map(canonical, facts.imports.values()) if fw is not None}


def wrapped_by_importers(facts: ModuleFacts, project: ProjectIndex) -> list[tuple[Tool, ModuleFacts]]:
    """Tools other project modules make of this module's functions (`FunctionTool(func=tickets.create)`,
    `function_tool(send)` after `from .mail import send`), each with the module making it: their
    findings go to the `def` here, as a decorated tool's do (`reported_at_def`)."""
    own = os.path.abspath(facts.path)
    out: list[tuple[Tool, ModuleFacts]] = []
    if not hands_out_plain_functions(facts):
        return out
    for path in _wrapper_candidates(facts.path, project):
        maker = project.facts_for_path(path)
        if maker is None or maker is facts:
            continue
        for tool in tools_in(maker):
            found = defined_elsewhere(tool, project)
            if found is not None and os.path.abspath(found[0].path) == own:
                out.append((tool, maker))
    return out


def reported_at_def(tool: Tool, project: ProjectIndex) -> bool:
    """Is this call-form tool's function defined in another project file that is analysed and finds
    the tool (`wrapped_by_importers`)? Then that file reports it at the `def`, and the module making it
    does not. A file the run does not analyse leaves the finding where the tool is made."""
    found = defined_elsewhere(tool, project)
    if found is None or not hands_out_plain_functions(found[0]):
        return False
    path = os.path.abspath(found[0].path)
    if not project.scans(path):
        return False  # excluded from the run, or outside its roots
    project.noted(path)  # the answer reads it: a cached one is re-checked when it changes
    try:
        data = read_bounded(path, project.max_bytes)
    except OSError:
        return False
    return os.path.abspath(tool.path) in _wrapper_candidates(path, project) and project.wants(path, data)


def _wrapper_candidates(path: str, project: ProjectIndex) -> list[str]:
    """The modules that may wrap the functions of the file at `path` into tools: its importers and
    the agent code near it that name a framework and one of its functions (a byte check, so that
    no other importer is parsed to ask). A framework's own module is used by its importers, not
    wrapped into their tools."""
    if framework_module(module_name_for(path)[0]):
        return []
    near = dict.fromkeys(os.path.abspath(p) for p in [*project.importer_paths(path), *project.agent_code_near(path)])
    return [p for p in near if p != os.path.abspath(path) and project.names_a_function_of(p, path)
            and _may_make_groups(p, project)]


# ---- per-module answers for the whole run (project.remembered): no per-tool rescans -------------
class _Listing(NamedTuple):
    """A member of a module's group: its tool's absolute path, the tool, whether the group moves
    sync tools into threads, the group's run deadline (`Group.deadline`, None without one), the
    group's framework."""
    path: str
    tool: Tool
    threads: bool
    deadline: RunDeadline | None
    framework: Framework


def _members_listed(facts: ModuleFacts, project: ProjectIndex) -> tuple[_Listing, ...]:
    """Every member of this module's groups, in group and member order; worked out once per module
    and run."""

    def compute() -> tuple[_Listing, ...]:
        return tuple(_Listing(os.path.abspath(m.tool.path), m.tool, group.sync_threads, group.deadline,
                              group.framework)
                     for group in groups_in(facts, project) for m in group.members())

    return project.remembered(("groups.members_listed", os.path.abspath(facts.path)), compute)


def _may_make_groups(path: str, project: ProjectIndex) -> bool:
    """A module that spells no framework's name makes no group (siblint.model.relevance): asking
    whether it lists a tool needs no parse of it."""
    return relevance.names_a_framework(path, project)


def run_by_a_group(tool: Tool, facts: ModuleFacts, project: ProjectIndex) -> bool:
    """Does a framework's group run `tool`: a group of its own module, of a module importing it, or
    of a module importing the package that re-exports it? A tool the project runs itself (its own
    loop calling `tool.run`) is in none."""
    return any(True for _ in _listings_of(tool, facts, project))


def run_under_deadline(tool: Tool, facts: ModuleFacts, project: ProjectIndex) -> bool:
    """Does a group with a run deadline (a caller's abort signal or time limit) run `tool`?"""
    return any(listing.deadline for listing in _listings_of(tool, facts, project))


def run_signals(tool: Tool, facts: ModuleFacts, project: ProjectIndex) -> frozenset[str]:
    """The callers' abort signals (`config.abortSignal`) of the groups with a run deadline that run
    `tool`, when each such deadline is a signal (a run timeout aborts only the tool's own signal):
    empty otherwise."""
    deadlines = [listing.deadline for listing in _listings_of(tool, facts, project) if listing.deadline]
    return frozenset(d.signal for d in deadlines) if deadlines and all(d.signal for d in deadlines) else frozenset()


def running_framework(tool: Tool, facts: ModuleFacts, project: ProjectIndex) -> Framework | None:
    """The framework whose groups run `tool`, where every group found running it is of one framework
    (a LangChain `@tool` in a crewAI `Agent` runs as crewAI runs its tools); None where none or several."""
    found = {listing.framework.name: listing.framework for listing in _listings_of(tool, facts, project)}
    return next(iter(found.values())) if len(found) == 1 else None


MAX_JS_IMPORTERS = 64  # TS/JS importers (and their importers) asked for a tool's groups
MAX_BARREL_HOPS = 3  # further levels of importers reached through files that make no groups (barrels)


def _listings_of(tool: Tool, facts: ModuleFacts, project: ProjectIndex) -> Iterator[_Listing]:
    """`tool`'s places in the groups that run it, looked for where `run_by_a_group` says."""
    own = (os.path.abspath(tool.path), tool.loc)
    for where in _group_modules(facts, project):
        yield from (listing for listing in _members_listed(where, project) if (listing.path, listing.tool.loc) == own)


def groups_elsewhere(facts: ModuleFacts, project: ProjectIndex) -> Iterator[tuple[Group, ModuleFacts]]:
    """The groups of the other modules that may run a tool of `facts`, each with its module."""
    own = os.path.abspath(facts.path)
    for where in _group_modules(facts, project):
        if where is not facts and os.path.abspath(where.path) != own:
            yield from ((group, where) for group in groups_in(where, project))


def _group_modules(facts: ModuleFacts, project: ProjectIndex) -> Iterator[ModuleFacts]:
    """The modules whose groups may run a tool of `facts`: itself, the modules importing it (or the
    package re-exporting it), agent code beside it, and for TS/JS the files importing it and theirs."""
    names = names_from_roots(facts.path, project.roots) if facts.path else []
    if any(framework_module(name) for name in names):
        # A framework's own module (its repository's source) is used by its importers, never listed
        # by them: only the agent code importing it directly is asked (`agent_code_near`), not every
        # importer of the framework's package (pydantic-ai's tree spent 15% of its CPU on their groups).
        names = []
    modules = [name for module in names for name in (module, module.rpartition(".")[0])]
    modules += _base_modules(facts, project)
    keep = partial(_may_make_groups, project=project)
    candidates = [facts, *(m for name in dict.fromkeys(modules) if name for m in project.importers_of(name, keep=keep)),
                  *(m for p in project.agent_code_near(facts.path) if keep(p) and (m := project.facts_for_path(p)))]
    if facts.path and facts.module.startswith(js_modules.PREFIX):
        # TS/JS: the files importing it, and theirs (`route.ts` importing the `registry.ts` that
        # imports the tool's module).
        near = project.js_importers(facts.path)
        importers = near[:MAX_JS_IMPORTERS]
        near += [p for importer in importers for p in project.js_importers(importer)]
        # Barrels make no groups (`index.ts` with `export * from './calendar'`, itself re-exporting
        # `./calendar-read`): the files importing them are asked too, a few levels up.
        passing = [p for p in near[len(importers):] if _is_barrel(p, project)]
        asked = set(near)
        for _ in range(MAX_BARREL_HOPS):
            above = list(dict.fromkeys(q for p in passing[:MAX_JS_IMPORTERS] for q in project.js_importers(p)
                                       if q not in asked))
            near += above
            asked.update(above)
            passing = [p for p in above if _is_barrel(p, project)]
        # And the modules an importer hands the tools to (`analyse(text, tools)` of an `ai.ts` whose
        # `streamText({ tools })` takes them as a parameter: `_per_call_site`).
        near += [p for importer in importers for p in project.js_imports_of(importer)]
        candidates += [m for p in dict.fromkeys(near) if keep(p) and (m := project.facts_for_path(p))][:MAX_JS_IMPORTERS]
    seen: set[str] = set()
    for where in candidates:
        if os.path.abspath(where.path) not in seen:
            seen.add(os.path.abspath(where.path))
            yield where


def _is_barrel(path: str, project: ProjectIndex) -> bool:
    """A TS/JS module that only hands on other modules' names (`export * from './calendar'`): no
    function, no call."""
    facts = project.facts_for_path(path)
    return facts is not None and not facts.functions and next(iter(facts.all_calls()), None) is None


def _base_modules(facts: ModuleFacts, project: ProjectIndex) -> list[str]:
    """The project modules defining the abstract bases of this module's classes: a group built over
    the base (`plugin.get_tools()` of a `plugins: list[BasePlugin]`) runs the subclass's tools without
    importing the subclass's module. Only a base whose methods subclasses supply (an ABC or Protocol,
    a stub or `@abstractmethod` method), outside the frameworks' own packages: a concrete base is
    dispatched to itself, and a framework's base classes are imported by all agent code."""
    if not facts.classes or facts.module.startswith(js_modules.PREFIX):
        return []
    out: list[str] = []
    for base in sorted({b for found in facts.classes.values() for b in found}):
        module = base.rpartition(".")[0]
        if not module or module == facts.module or module in out or framework_module(module):
            continue
        cls = project_class(facts, base, project)
        if cls is not None and cls[0].module == module and (is_interface(cls) or has_stub_methods(cls)):
            out.append(module)
    return out


def _nested(loc: Loc, outer: list[Loc]) -> bool:
    """Is `loc` inside another group maker's call (sorted by start)?"""
    return any(o != loc and loc.within(o) for o in outer if (o.line, o.col) <= (loc.line, loc.col))


def _apply_mutations(facts: ModuleFacts, group: Group, project: ProjectIndex) -> None:
    """`agent.tools = [...]`, `agent.tools += [...]`, `agent.tools.append(t)` / `.extend([...])`."""
    if not group.binding or not group.framework.groups.tools_attr:
        return
    attr = f"{group.binding}.{group.framework.groups.tools_attr}"
    events: list[tuple[Loc, str, Value]] = []
    for a in _assignments_to(facts).get(attr, ()):
        if a.loc > group.call.loc:
            events.append((a.loc, "set" if a.op == "=" else "add", a.value))
    called = calls_by_text(facts)
    for method, op in group.framework.groups.add_methods.items():
        for _, call in called.get(f"{attr}.{method}", ()):
            if call.loc > group.call.loc and call.args:
                value = Seq(call.args if op == "items" else (call.args[0],), call.loc) if op != "add" else call.args[0]
                events.append((call.loc, "add", value))
    for loc, op, value in sorted(events, key=lambda e: e[0]):
        added = resolve_members(facts, value, group.scope, project)
        before = group.snapshots[-1].members if op == "add" else []
        group.snapshots.append(Snapshot(loc, before + added))


def _assignments_to(facts: ModuleFacts) -> dict[str, list]:
    def compute() -> dict[str, list]:
        table: dict[str, list] = {}
        for a in facts.assignments:
            if a.op in ("=", "+="):
                table.setdefault(a.target, []).append(a)
        return table

    return facts.derived("groups.assignments_to", compute)
