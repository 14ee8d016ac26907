"""Which tools a module defines, read from its facts through the frameworks' data.

A tool is found where a framework's tool maker is applied: as a decorator (`@function_tool`,
`@function_tool(...)`), in call form (`function_tool(fn, ...)`), as a constructor
(`FunctionTool(...)`), or as a method on an object a framework built (`agent.as_tool(...)`). MCP
servers are tools too: every tool they serve joins the group of the agent they are given to.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from typing import Callable, Literal

from ..common.diagnostics import Loc
from ..frameworks import FRAMEWORKS, maker_words
from ..frameworks.spec import Framework, Param, ToolMaker
from ..js import modules as js_modules
from ..syntax.facts import (
    Attr,
    Call,
    Const,
    KEYED,
    FunctionFacts,
    Lambda,
    Mapping,
    ModuleFacts,
    Ref,
    Seq,
    TS_ABSTRACT,
    Value,
)
from .project import ProjectIndex
from .semantic import (
    OWN_OBJECT,
    Scope,
    ancestor_bases,
    argument_values,
    canonical,
    classes_of,
    constructed_by,
    elements,
    first_result_name,
    given,
    imports_framework,
    method_of,
    project_class,
    resolve_function,
    result_names,
    star_imported,
)

Kind = Literal["function", "constructed", "agent", "server", "copy", "prebuilt"]


@dataclass(frozen=True)
class Tool:
    name: str
    framework: str
    # "function": runs a function of the project; "constructed": a FunctionTool-style object whose
    # invoker is a function; "agent": another agent as a tool; "server": an MCP server; "copy": a
    # copy of another tool (`dataclasses.replace(t, ...)`), with that tool's policy.
    kind: Kind
    path: str
    module: str
    loc: Loc  # the function's `def` line when it is in this module, else the call that made the tool
    function: str  # dotted name of the function that runs when the tool is called ("" if unknown)
    options: Call | None  # the call that configures the tool (decorator call, call form, constructor)
    binding: str  # the module-level name bound to the tool ("" if none)
    scope: str = ""  # where the tool is made ("" = module level)
    # The name of the object a method decorator registered the tool on (`@agent.tool` -> "agent"):
    # the tool joins that object's group (siblint.model.groups).
    receiver: str = ""
    # For a class-based tool (`class Search(BaseTool)`), the class: `Search()` in a tools list is this tool.
    class_name: str = ""
    # For a method of a class holding several tools (`class Shop(BaseToolSpec)`), that class.
    toolset_class: str = ""

    @property
    def key(self) -> tuple[str, Loc, Loc | None]:
        """Identity: several tools may wrap one function, each with its own options call."""
        return (self.path, self.loc, self.options.loc if self.options else None)


def tool_maker(name: str) -> tuple[Framework, ToolMaker] | None:
    """The framework and tool maker a dotted callee name is (`agents.function_tool`), else None."""
    fw, canon = canonical(name)
    if fw is not None and canon in fw.tools.makers:
        return fw, fw.tools.makers[canon]
    return None


def _method_maker(facts: ModuleFacts, call: Call, scope: str) -> tuple[Framework, ToolMaker] | None:
    return _method_maker_of(facts, call.func, scope)


def _super_maker(facts: ModuleFacts, call: Call, scope: str) -> tuple[Framework, ToolMaker] | None:
    """`super({ name, func })` in the constructor of a JS class deriving from a tool maker
    (`class MailSendTool extends DynamicStructuredTool`): the maker, given the tool's options."""
    cls, _, method = scope.rpartition(".")
    if not isinstance(call.func, Ref) or call.func.text != "super" or method != "constructor":
        return None
    return next((made for base in facts.classes.get(cls, ()) if (made := tool_maker(base)) is not None), None)


def _method_maker_of(facts: ModuleFacts, func: Value, scope: str) -> tuple[Framework, ToolMaker] | None:
    """The tool maker `receiver.method` is, for a receiver a known constructor built (`agent.tool`)."""
    if not isinstance(func, Ref) or "." not in func.text:
        return None
    receiver, _, method = func.text.rpartition(".")
    built = constructed_by(Scope(facts, scope), Ref(receiver, receiver, func.loc))
    for fw in FRAMEWORKS:
        maker = fw.tools.methods.get((built, method))
        if maker is not None:
            return fw, maker
    return None


def local_function(facts: ModuleFacts, value: Value | None, scope: str = "") -> FunctionFacts | None:
    """The function of this module a name refers to from `scope`, innermost scope first; in a method,
    `self.create_event` is the method of its class (`agent.tool_plain(self.create_event)`), and
    `notes.add_note` the method of the class of this module that made `notes`."""
    where = Scope(facts, scope)
    found = where.function(value)
    if found is None and isinstance(value, Ref) and value.text.count(".") == 1:
        head, _, attr = value.text.partition(".")
        if head in OWN_OBJECT and where.class_name:
            found = facts.functions.get(f"{where.class_name}.{attr}")
        elif head not in OWN_OBJECT:  # `fn=notes.add_note` of `notes = Notes()`, a class of this module
            made = where.value(head)
            if isinstance(made, Call) and isinstance(made.func, Ref) and made.func.text in facts.classes:
                found = facts.functions.get(f"{made.func.text}.{attr}")
    return found


def function_name(facts: ModuleFacts, value: Value | None, scope: str = "") -> str:
    """The absolute dotted name of the function `value` refers to ("" if it is not a name)."""
    if not isinstance(value, Ref):
        return ""
    local = local_function(facts, value, scope)
    if local is not None:
        return f"{facts.module}.{local.name}" if facts.module else local.name
    return value.name


def _method_of_object(facts: ModuleFacts, value: Value | None, scope: str, method: str) -> Ref | None:
    """`Charge()` (or a name bound to it) -> a reference to `Charge.<method>`."""
    if isinstance(value, Ref) and "." not in value.text:
        value = Scope(facts, scope).value(value.text)
    if not isinstance(value, Call) or not isinstance(value.func, Ref):
        return None
    cls = value.func.name
    if cls in facts.classes and facts.module:  # a class of this module: its absolute name
        cls = f"{facts.module}.{cls}"
    return Ref(f"{cls}.{method}", f"{value.func.text}.{method}", value.func.loc)


def _keys_of_calls(facts: ModuleFacts) -> dict[Loc, str]:
    """Call location -> the key an object literal holds it under, where it is assigned, returned or
    passed (`return { kubectl_apply: tool({...}) }`, `streamText({ tools: { scheduleTask: tool({...}) } })`):
    the name a tool keyed by name goes by."""

    def compute() -> dict[Loc, str]:
        found: dict[Loc, str] = {}
        values = [a.value for a in facts.assignments]
        values += [v for fn in facts.functions.values() for v in fn.return_values]
        values += [v for _, call in facts.all_calls() for v in (*call.args, *(v for _, v in call.kwargs))]
        for value in values:  # in order (assigned, returned, passed); nested objects are appended
            if isinstance(value, Mapping):
                for key, item in value.items:
                    if isinstance(item, Call) and isinstance(key, Const) and isinstance(key.value, str):
                        found.setdefault(item.loc, key.value)
                    elif isinstance(item, Mapping):
                        values.append(item)
        return found

    return facts.derived("tools.keys_of_calls", compute)


def _object_tools(facts: ModuleFacts) -> list[Tool]:
    """Tools written as plain objects of a framework's tool shape (`ToolSpec.object_tool`) in a module
    importing it, each read as the maker's call of it: under a key of an object (`tools = { update:
    { description, inputSchema, execute } }`) or bound to a name. Their name is the key or the name."""
    js = facts.module.startswith(js_modules.PREFIX)
    shapes = [(fw, fw.tools.object_tool) for fw in FRAMEWORKS
              if fw.tools.object_tool and (fw.language == "js") == js and imports_framework(facts, fw)]
    if not shapes:
        return []
    out: list[Tool] = []
    todo: list[tuple[str, str, Value]] = [(a.scope, a.target, a.value) for a in facts.assignments]
    todo += [(fn.name, "", v) for fn in facts.functions.values() for v in fn.return_values]
    todo += [(scope, "", v) for scope, call in facts.all_calls() for v in (*call.args, *(v for _, v in call.kwargs))]
    seen: set[Loc] = set()
    while todo:
        scope, name, value = todo.pop(0)
        if not isinstance(value, Mapping) or value.loc in seen:
            continue
        seen.add(value.loc)
        keys = {k.value for k, _ in value.items if isinstance(k, Const) and isinstance(k.value, str)}
        made = next(((fw, shape) for fw, shape in shapes if set(shape[1]) <= keys and keys & set(shape[2])), None)
        if made is not None and name and "." not in name and not name.endswith(KEYED):
            fw, (maker, _, _) = made
            options = tuple((k.value, v) for k, v in value.items if isinstance(k, Const) and isinstance(k.value, str))
            call = Call(Ref(maker, maker.rpartition(".")[2], value.loc), (value,), options, value.loc)
            fn_name = function_name(facts, value.get("execute"), scope)
            out.append(Tool(name, fw.name, "constructed", facts.path, facts.module, value.loc, fn_name, call,
                            name if not scope else "", scope))
            continue
        todo += [(scope, k.value if isinstance(k, Const) and isinstance(k.value, str) else "", v) for k, v in value.items]
    return out


MAX_WRAPPERS = 3  # nested wrapper calls followed to the function they are handed


def _through_wrappers(facts: ModuleFacts, value: Value | None, scope: str) -> Value | None:
    """`tool(withTracing(cfg, async (input) => {...}), {...})`: a wrapper call's result runs the
    function of this module it is handed (through nested wrappers), so that function is the tool's.
    A Python lambda that only calls a function (`func=lambda phone: lookup_patient(phone, db=db)`)
    runs that function: it is the tool's, reported at its `def`."""
    if isinstance(value, Lambda) and isinstance(value.body, Call) and isinstance(value.body.func, Ref):
        return value.body.func
    for _ in range(MAX_WRAPPERS):
        if not isinstance(value, Call) or not isinstance(value.func, Ref) or tool_maker(value.func.name) is not None:
            break
        inner = next((a for a in value.args if local_function(facts, a, scope) is not None), None)
        if inner is None:
            break
        value = inner
    return value


def _const_str(value: Value | None) -> str:
    return value.value if isinstance(value, Const) and isinstance(value.value, str) else ""


def _binding_for(facts: ModuleFacts, call: Call) -> str:
    """The module-level plain name the call's result is bound to, also through the wrappers the tool
    is handed to first (`list_events = with_calendar_access(StructuredTool(...))`, and nested:
    `with_github(with_issue_approval(StructuredTool(...)))`: the wrapped tool)."""
    name = first_result_name(facts, call, plain=True, module_level=True)
    wrappers = _wrappers_of(facts)
    for _ in range(MAX_WRAPPERS):
        outer = wrappers.get(call.loc) if not name else None
        if outer is None:
            break
        call = outer
        name = first_result_name(facts, call, plain=True, module_level=True)
    return name


def _wrappers_of(facts: ModuleFacts) -> dict[Loc, Call]:
    """A call's location -> the call it is the first positional argument of."""
    return facts.derived("tool_wrappers", lambda: {c.args[0].loc: c for _, c in facts.all_calls()
                                                   if c.args and isinstance(c.args[0], Call)})


def _is_decorator_factory(call: Call, maker: ToolMaker) -> bool:
    """`function_tool(...)` used as `@function_tool(...)`: no function passed."""
    if maker.function is None:
        return False
    if maker.async_function is not None and call.arg(maker.async_function.position, maker.async_function.keyword):
        return False  # `StructuredTool.from_function(coroutine=f)`
    value = call.arg(maker.function.position, maker.function.keyword)
    return value is None or isinstance(value, Const)  # `tool("name")`: the name, not the function


# Plain-function tools are found per module, without the project (cached per module facts).
_NO_PROJECT = ProjectIndex()


def tools_in(facts: ModuleFacts) -> tuple[Tool, ...]:
    """Every tool the module makes, in source order."""
    return facts.derived("tools", lambda: tuple(_find_tools(facts)))


def _find_tools(facts: ModuleFacts) -> list[Tool]:
    found: list[Tool] = []
    decorator_calls: set[Loc] = set()
    for fn in facts.functions.values():
        for deco in fn.decorators:
            target = deco.func if isinstance(deco, Call) else deco
            if not isinstance(target, Ref):
                continue
            outer = fn.name.rpartition(".")[0]
            made = tool_maker(target.name)
            receiver = ""
            if made is None:
                # `@agent.tool` / `@toolset.tool_plain(...)`: registers the function on the receiver's group.
                made = _method_maker_of(facts, target, outer)
                receiver = target.text.rpartition(".")[0] if made is not None else ""
            if made is None or made[1].kind != "decorator":
                continue
            if isinstance(deco, Call):
                decorator_calls.add(deco.loc)
            found.append(_decorated(facts, fn, deco, *made, receiver))
    for scope, call in facts.all_calls():
        if call.loc in decorator_calls or not isinstance(call.func, Ref):
            continue
        made = tool_maker(call.func.name) or _method_maker(facts, call, scope) or _super_maker(facts, call, scope)
        if made is None:
            continue
        fw, maker = made
        if maker.kind == "decorator" and _is_decorator_factory(call, maker):
            continue  # `function_tool(**opts)(fn)`: the outer call is the tool, handled below
        fn_value = call.arg(maker.function.position, maker.function.keyword) if maker.function else None
        if maker.async_function is not None:
            # `StructuredTool.from_function(func=f, coroutine=af)`: async runs await `af`.
            fn_value = call.arg(maker.async_function.position, maker.async_function.keyword) or fn_value
        if maker.method:
            fn_value = _method_of_object(facts, fn_value, scope, maker.method)
        fn_value = _through_wrappers(facts, fn_value, scope)
        fn_name = function_name(facts, fn_value, scope)
        local = local_function(facts, fn_value, scope)
        name = _const_str(call.arg(maker.name.position, maker.name.keyword)) if maker.name else ""
        kind: Kind = "function" if maker.kind == "decorator" else ("agent" if maker.function is None else "constructed")
        registered = _method_maker(facts, call, scope) is not None and maker.kind == "decorator"
        binding = _binding_for(facts, call)
        own = fn_name.rsplit(".", 1)[-1]
        if "@" in own:  # a function written inline (`execute@12:4`): the tool's variable names it, at any level
            own = binding or first_result_name(facts, call, plain=True) or _keys_of_calls(facts).get(call.loc) \
                or _maker_function_tool(scope) or own
        found.append(Tool(name or own or call.func.text, fw.name, kind, facts.path, facts.module,
                          local.loc if local is not None and kind == "function" else call.loc, fn_name, call,
                          binding, scope,
                          receiver=call.func.text.rpartition(".")[0] if registered else ""))
    # `function_tool(**opts)(fn)`, `mcp.tool()(tools.cancel)`: a call whose callee is a decorator factory call.
    for scope, call in facts.all_calls():
        inner = call.func
        if isinstance(inner, Call) and isinstance(inner.func, Ref):
            method = _method_maker(facts, inner, scope)
            made = tool_maker(inner.func.name) or method
            if made is not None and made[1].kind == "decorator" and call.args:
                fn_name = function_name(facts, call.args[0], scope)
                local = local_function(facts, call.args[0], scope)
                found.append(Tool(fn_name.rsplit(".", 1)[-1] or "tool", made[0].name, "function", facts.path, facts.module,
                                  local.loc if local is not None else call.loc, fn_name, inner, _binding_for(facts, call), scope,
                                  receiver=inner.func.text.rpartition(".")[0] if method is not None else ""))
    for scope, call in facts.all_calls():
        if isinstance(call.func, Ref):
            server_fw, canon = canonical(call.func.name)
            if server_fw is not None and canon in server_fw.tools.servers:
                found.append(Tool(_const_str(call.kwarg("name")) or canon.rsplit(".", 1)[-1], server_fw.name, "server",
                                  facts.path, facts.module, call.loc, "", call, _binding_for(facts, call), scope))
    found.extend(_object_tools(facts))
    found.extend(_class_tools(facts))
    found.extend(_method_toolset_tools(facts))
    found.extend(_module_spec_tools(facts))
    found.extend(_plain_function_tools(facts, found))
    found.extend(_copies(facts, found))
    found.sort(key=lambda t: (t.loc.line, t.loc.col))
    return found


def _decorated(facts: ModuleFacts, fn: FunctionFacts, deco: Value, fw: Framework, maker: ToolMaker,
               receiver: str = "") -> Tool:
    """The tool a decorator (`@function_tool(...)`, `@agent.tool`) makes of `fn`."""
    options = deco if isinstance(deco, Call) else None
    name = _const_str(options.arg(maker.name.position, maker.name.keyword)) if options and maker.name else ""
    top_level = "." not in fn.name
    module_prefix = f"{facts.module}." if facts.module else ""
    return Tool(name or fn.name.rsplit(".", 1)[-1], fw.name, "function", facts.path, facts.module, fn.loc,
                module_prefix + fn.name, options, fn.name if top_level else "", fn.name.rpartition(".")[0],
                receiver=receiver)


def registered_from_imports(facts: ModuleFacts, project: ProjectIndex) -> list[Tool]:
    """`@agent.tool` on an object another project module builds (`from .agent import agent`, that
    module then importing this one to register its tools): a tool of that object's framework. Its
    `receiver` is the object's absolute name (`app.agent.agent`), the group it joins there."""
    memo: dict[str, list[Tool]] = project.memo.setdefault("tools.registered_from_imports", {})
    if facts.path not in memo:
        memo[facts.path] = _registered_from_imports(facts, project)
    return memo[facts.path]


def _registered_from_imports(facts: ModuleFacts, project: ProjectIndex) -> list[Tool]:
    out: list[Tool] = []
    for fn in facts.functions.values():
        for deco in fn.decorators:
            target = deco.func if isinstance(deco, Call) else deco
            if not isinstance(target, Ref) or tool_maker(target.name) is not None:
                continue  # a framework's own decorator (`tools_in`)
            if target.name == target.text:  # a name of this module: a parameter's object, or `tools_in`'s
                made = _made_on_a_parameter(facts, fn, target, project)
                if made is not None:
                    out.append(_decorated(facts, fn, deco, *made))
                continue
            owner, _, method = target.name.rpartition(".")
            found = project.resolve(owner, facts.path)
            if found is None or found[0] is facts:
                continue
            home, local = found
            made = _decorator_method(constructed_by(Scope(home), Ref(local, local, target.loc)), method)
            if made is not None:
                absolute = f"{home.module}.{local}" if home.module else local
                out.append(_decorated(facts, fn, deco, *made, receiver=absolute))
    return out


def _decorator_method(built: str, method: str) -> tuple[Framework, ToolMaker] | None:
    """The tool-making decorator `method` of an object `built` constructs (`FastMCP.tool`)."""
    made = next(((fw, m) for fw in FRAMEWORKS if (m := fw.tools.methods.get((built, method))) is not None), None)
    return made if made is not None and made[1].kind == "decorator" else None


def _made_on_a_parameter(facts: ModuleFacts, fn: FunctionFacts, target: Ref,
                         project: ProjectIndex) -> tuple[Framework, ToolMaker] | None:
    """`@mcp.tool(...)` inside `def register_tools(mcp):`, whose callers pass a server they build
    (`register_tools(FastMCP("todo"))`, in this module or another): that server's maker."""
    receiver, _, method = target.text.rpartition(".")
    outer_name = fn.name.rpartition(".")[0]
    outer = facts.functions.get(outer_name)
    if outer is None or "." in receiver or receiver not in outer.params:
        return None
    for caller, arg in argument_values(Scope(facts, outer_name), outer, outer.params.index(receiver), project):
        # Any value the caller gives the name: `mcp = register_tools(mcp)` rebinds it to the result.
        values = [a.value for a in caller.facts.assignments if isinstance(arg, Ref) and a.target == arg.text
                  and a.scope == caller.name] or [arg]
        made = next((m for v in values if (m := _decorator_method(constructed_by(caller, v), method)) is not None), None)
        if made is not None:
            return made
    return None


def tool_base(facts: ModuleFacts, cls: str) -> tuple[Framework, tuple[str, str]] | None:
    """(framework, (sync method, async method)) when `cls` of this module subclasses a tool base class,
    directly or through other classes of the module."""
    return _subclass_of(facts, cls, lambda fw: fw.tools.base_classes)


def _subclass_of(facts: ModuleFacts, cls: str,
                 table: Callable[[Framework], dict[str, tuple[str, str]]]) -> tuple[Framework, tuple[str, str]] | None:
    """(framework, entry) when `cls` subclasses a base class of `table`, directly or through other
    classes of the module."""
    seen: set[str] = set()
    todo = [cls]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        for base in facts.classes.get(current, ()):
            fw, canon = canonical(base)
            if fw is not None and canon in table(fw):
                return fw, table(fw)[canon]
            local = base[len(facts.module) + 1:] if facts.module and base.startswith(facts.module + ".") else base
            if local in facts.classes:
                todo.append(local)
    return None


def _class_tools(facts: ModuleFacts) -> list[Tool]:
    """`class Search(BaseTool)`: one tool per class, running its async method when it defines one
    (async invokes await it), else its sync method (in a worker thread)."""
    out: list[Tool] = []
    prefix = f"{facts.module}." if facts.module else ""
    for cls in facts.classes:
        found = tool_base(facts, cls)
        if found is None:
            continue
        fw, (sync_method, async_method) = found
        fn = facts.functions.get(f"{cls}.{async_method}") or facts.functions.get(f"{cls}.{sync_method}")
        # A subclass of a project tool class that inherits the method that runs (`class Charge(Base)`
        # overriding the `execute` hook `Base._run` calls) is a tool too, reported at its `class` line.
        ran = fn or _local_method(facts, cls, async_method) or _local_method(facts, cls, sync_method)
        if ran is None:
            continue
        loc = _reported_at(facts, cls, fn, sync_method) if ran is fn else facts.class_locs.get(cls, ran.loc)
        out.append(Tool(cls.rsplit(".", 1)[-1], fw.name, "function", facts.path, facts.module, loc,
                        prefix + ran.name, None, "", cls.rpartition(".")[0], class_name=cls))
    return out


def _reported_at(facts: ModuleFacts, cls: str, fn: FunctionFacts, sync_method: str) -> Loc:
    """Where a class tool whose method `fn` runs is reported: `fn`, but the sync method when `fn`
    only hands the call to it (`async def _arun(...): return self._run(...)`): its body holds the effects."""
    sync = facts.functions.get(f"{cls}.{sync_method}")
    return sync.loc if sync is not None and sync is not fn and _delegates(fn, sync_method) else fn.loc


# What fetches the loop a hand-off runs on (`asyncio.get_running_loop().run_in_executor(None, self._run)`).
_LOOP_GETTERS = frozenset({"asyncio.get_event_loop", "asyncio.get_running_loop"})


def _delegates(fn: FunctionFacts, method: str) -> bool:
    """Does the method only hand its call on to `self.<method>` (`return self._run(...)`, or through a
    thread hand-off the call graph knows: `asyncio.to_thread(self._run, ...)`, `run_in_executor`)? It
    still is what runs; the effects are in `method`."""
    from ..effects.resolve import method_name
    from .callgraph import PARTIALS, THREAD_HANDOFF_METHODS, THREAD_HANDOFFS  # the call graph imports this module

    target = f"self.{method}"
    named = False
    for site in fn.calls:
        call = site.call
        if isinstance(call.func, Ref) and call.func.text == target:
            named = True
        elif call.callee in THREAD_HANDOFFS or call.callee in PARTIALS or method_name(call.func) in THREAD_HANDOFF_METHODS:
            named = named or any(isinstance(a, Ref) and a.text == target for a in call.args)
        elif call.callee not in _LOOP_GETTERS:
            return False
    return named


def _local_method(facts: ModuleFacts, cls: str, method: str) -> FunctionFacts | None:
    """`method` as a base class of this module defines it for `cls`, nearest base first."""
    seen, todo = {cls}, list(facts.classes.get(cls, ()))
    while todo:
        base = todo.pop(0)
        local = base[len(facts.module) + 1:] if facts.module and base.startswith(facts.module + ".") else base
        if local in seen or local not in facts.classes:
            continue
        seen.add(local)
        fn = facts.functions.get(f"{local}.{method}")
        if fn is not None:
            return fn
        todo.extend(facts.classes[local])
    return None


def _method_toolset_tools(facts: ModuleFacts) -> list[Tool]:
    """`class Shop(BaseToolSpec): spec_functions = ["charge", ("sync", "async")]`: one tool per listed
    method (the async one of a pair: async runs await it), joining a group through `Shop().to_tool_list()`."""
    out: list[Tool] = []
    prefix = f"{facts.module}." if facts.module else ""
    for cls in facts.classes:
        found = _subclass_of(facts, cls, lambda fw: fw.tools.method_toolsets)
        if found is None:
            continue
        fw, (attribute, _) = found
        listed = next((a.value for a in facts.assignments if a.scope == cls and a.target == attribute), None)
        for item in listed.items if isinstance(listed, Seq) else ():
            names = [i.value for i in item.items if isinstance(i, Const)] if isinstance(item, Seq) else [_const_str(item)]
            fn = next((facts.functions.get(f"{cls}.{n}") for n in reversed(names) if facts.functions.get(f"{cls}.{n}")), None)
            if fn is not None:
                out.append(Tool(fn.name.rsplit(".", 1)[-1], fw.name, "function", facts.path, facts.module, fn.loc,
                                prefix + fn.name, None, "", cls.rpartition(".")[0], toolset_class=cls))
    return out


def method_toolset_members(facts: ModuleFacts, call: Call, scope: str,
                           project: ProjectIndex) -> list[tuple[Tool, ModuleFacts]] | None:
    """The tools `Shop().to_tool_list()` / `shop.to_tool_list()` returns, here or across modules; None
    when `call` is no such call."""
    func = call.func
    if isinstance(func, Attr):
        method, receiver = func.attr, func.receiver
    elif isinstance(func, Ref) and "." in func.text:
        head, _, method = func.text.rpartition(".")
        receiver = Scope(facts, scope).value(head) if "." not in head else None
    else:
        return None
    where = _class_called(facts, receiver, project) if isinstance(receiver, Call) else None
    if where is None:
        return None
    other, cls = where
    found = _subclass_of(other, cls, lambda fw: fw.tools.method_toolsets)
    if found is None or found[1][1] != method:
        return None
    return [(t, other) for t in tools_in(other) if t.toolset_class == cls]


def _module_spec_tools(facts: ModuleFacts) -> list[Tool]:
    """A module that declares its own tool (`TOOL_SPEC = {"name": "x", ...}` and `def x(tool, **kw)`),
    when it imports the framework whose convention that is."""
    out: list[Tool] = []
    for fw in FRAMEWORKS:
        if not fw.tools.module_spec or not imports_framework(facts, fw):
            continue
        spec = next((a.value for a in facts.assignments
                     if a.scope == "" and a.target == fw.tools.module_spec and a.op == "="), None)
        if spec is None:
            continue
        named = _const_str(spec.get("name")) if isinstance(spec, Mapping) else ""
        fn = facts.functions.get(named or facts.module.rpartition(".")[2])
        if fn is not None and not fn.class_name:
            prefix = f"{facts.module}." if facts.module else ""
            out.append(Tool(fn.name, fw.name, "function", facts.path, facts.module, fn.loc, prefix + fn.name, None, fn.name))
    return out


STATIC_DECORATORS = frozenset({"staticmethod", "classmethod", "builtins.staticmethod", "builtins.classmethod"})


def is_static(fn: FunctionFacts) -> bool:
    """A static or class method: read off its class (`tools=[Store.new_guest]`), a plain function."""
    return any(isinstance(d, Ref) and d.name in STATIC_DECORATORS for d in fn.decorators)


def _plain_function_tools(facts: ModuleFacts, found: list[Tool]) -> list[Tool]:
    """Plain functions of this module listed where a framework turns them into tools
    (`ToolNode([f])`, `create_agent(m, tools=[f])`, pydantic-ai `Agent(tools=[f])`, `FunctionToolset([f])`)."""
    known = {t.function for t in found}
    out: list[Tool] = []
    prefix = f"{facts.module}." if facts.module else ""
    for scope, call in facts.all_calls():
        if not isinstance(call.func, Ref):
            continue
        fw, canon = canonical(call.func.name)
        if fw is None:
            continue
        maker = fw.groups.makers.get(canon)
        where = maker.tools if maker is not None and maker.plain_functions_are_tools else fw.tools.toolsets.get(canon)
        if where is None:
            continue
        value = given(Scope(facts, scope), call, where.position, where.keyword)
        # `TOOLS = [a, b]; ToolNode(TOOLS)`, `list(TOOLS)`, `Agent(**options)`, ...: items of this module only.
        for item_scope, item in elements(Scope(facts, scope), value, _NO_PROJECT):
            if item_scope.facts is not facts:
                continue
            fn = item_scope.function(item)
            bound = _bound_method_here(item_scope, item) if fn is None else None
            if fn is None and isinstance(item, Ref) and item.text.count(".") == 1:
                fn = facts.functions.get(item.text)  # `Store.new_guest`, a static method of a class here
            fn = bound or fn
            if fn is None or (fn.class_name and not is_static(fn) and bound is None) or prefix + fn.name in known:
                continue
            known.add(prefix + fn.name)
            top_level = "." not in fn.name
            out.append(Tool(fn.name.rsplit(".", 1)[-1], fw.name, "function", facts.path, facts.module, fn.loc,
                            prefix + fn.name, None, fn.name if top_level else "", fn.name.rpartition(".")[0]))
    return out


def _bound_method_here(scope: Scope, item: Value) -> FunctionFacts | None:
    """`store.search` of `store = Store()`, or `self.search` in a method, where the class is this
    module's: the method that runs."""
    if not isinstance(item, Ref) or item.text.count(".") != 1:
        return None
    receiver, _, method = item.text.partition(".")
    cls = scope.class_name if receiver in ("self", "cls") else ""
    if not cls:
        made = scope.value(receiver)
        cls = made.func.text if isinstance(made, Call) and isinstance(made.func, Ref) else ""
    return scope.facts.functions.get(f"{cls}.{method}") if cls in scope.facts.classes else None


def _copies(facts: ModuleFacts, found: list[Tool]) -> list[Tool]:
    """`T2 = dataclasses.replace(T, ...)` / `copy.copy(T)` of a tool bound in this module: another tool
    (kind "copy", `options` = the copy call) with T's policy (S11, S12). Copies of imported tools
    need the project: `siblint.analyses.fatality.copies_in`."""
    by_binding = {t.binding: t for t in found if t.binding}
    out: list[Tool] = []
    for scope, call in facts.all_calls():
        if not isinstance(call.func, Ref):
            continue
        for fw in FRAMEWORKS:
            copier = fw.tools.copiers.get(call.func.name)
            source = call.arg(copier[0].position, copier[0].keyword) if copier else None
            if isinstance(source, Ref) and source.text in by_binding:
                src = by_binding[source.text]
                copy = Tool(src.name, src.framework, "copy", facts.path, facts.module, call.loc, src.function, call,
                            _binding_for(facts, call), scope)
                out.append(copy)
                if copy.binding:
                    by_binding[copy.binding] = copy
                break
    return out


# ---- tool identity: which tool a name, a call or a copy denotes ------------------------------------
MAX_DEPTH = 8  # hops through copies of copies and imports


def copier(call: Call) -> tuple[Param, bool] | None:
    """(where the source goes, whether keywords set fields) when `call` copies a tool with its policy."""
    if isinstance(call.func, Ref):
        for fw in FRAMEWORKS:
            if call.func.name in fw.tools.copiers:
                return fw.tools.copiers[call.func.name]
    return None


def visible(facts: ModuleFacts, name: str, bound_in: str, scope: str) -> bool:
    """Does `name` in `scope` mean the binding made in `bound_in` (not a local of the same name)?"""
    if scope == bound_in:
        return True
    if bound_in and not scope.startswith(bound_in + "."):
        return False
    fn = facts.functions.get(scope)
    if fn is not None and name in fn.params:
        return False
    return (name, scope) not in facts.last_assignments()


def names_of(tool: Tool, facts: ModuleFacts) -> list[tuple[str, str]]:
    """(name, scope) pairs bound to the tool in its module."""
    out: list[tuple[str, str]] = [(tool.binding, "")] if tool.binding else []
    if tool.options is not None:
        out.extend((t, s) for t, s in result_names(facts).get(tool.options.loc, ()) if "." not in t)
    if tool.kind == "function":
        for fn in _functions_by_loc(facts).get(tool.loc, ()):
            # Only the decorator form binds the function's own name to the tool (`B = function_tool(f)`
            # leaves `f` a plain function).
            if fn.decorators and (tool.options is None or tool.options in fn.decorators):
                out.append((fn.name.rsplit(".", 1)[-1], tool.scope))
    return list(dict.fromkeys(out))


def _functions_by_loc(facts: ModuleFacts) -> dict[Loc, list[FunctionFacts]]:
    def compute() -> dict[Loc, list[FunctionFacts]]:
        table: dict[Loc, list[FunctionFacts]] = {}
        for fn in facts.functions.values():
            table.setdefault(fn.loc, []).append(fn)
        return table

    return facts.derived("tools.functions_by_loc", compute)


def _tools_by_name(facts: ModuleFacts) -> dict[str, list[tuple[Tool, str]]]:
    """Name -> (tool, scope it is bound in), for every name bound to a tool of the module."""

    def compute() -> dict[str, list[tuple[Tool, str]]]:
        table: dict[str, list[tuple[Tool, str]]] = {}
        for tool in tools_in(facts):
            for bound, bound_in in names_of(tool, facts):
                table.setdefault(bound, []).append((tool, bound_in))
        return table

    return facts.derived("tools.by_name", compute)


def _tools_by_call(facts: ModuleFacts) -> dict[Loc, Tool]:
    def compute() -> dict[Loc, Tool]:
        return {t.options.loc: t for t in reversed(tools_in(facts)) if t.options is not None}

    return facts.derived("tools.by_call", compute)


def tool_named(facts: ModuleFacts, name: str, scope: str, project: ProjectIndex,
               depth: int = 0) -> tuple[Tool, ModuleFacts] | None:
    """The tool `name` refers to in `scope`: bound in this module, or imported from another one."""
    if depth > MAX_DEPTH or not name:
        return None
    if "." in name:
        return _class_attribute_tool(facts, name, scope, project, depth)
    for tool, bound_in in _tools_by_name(facts).get(name, ()):
        if visible(facts, name, bound_in, scope):
            return tool, facts
    # `name = copy.copy(imported_tool)`: a copy `tools_in` cannot see without the project.
    bound = Scope(facts, scope).value(name)
    how = copier(bound) if isinstance(bound, Call) else None
    if how is not None and isinstance(bound, Call):
        source = bound.arg(how[0].position, how[0].keyword)
        found = tool_named(facts, source.text, scope, project, depth + 1) if isinstance(source, Ref) else None
        if found is not None:
            return _copy(found[0], facts, bound, scope, name if _binding_for(facts, bound) == name else ""), facts
    target = facts.imports.get(name)
    if target is not None:
        resolved = project.resolve(target, facts.path)
        if resolved is not None and resolved[0] is not facts:
            other, attr = resolved
            return tool_named(other, attr, "", project, depth + 1)
    return None


def _class_attribute_tool(facts: ModuleFacts, name: str, scope: str, project: ProjectIndex,
                          depth: int) -> tuple[Tool, ModuleFacts] | None:
    """`Tools.search`, where the body of class `Tools` binds `search` to a tool: a method decorated
    with a tool decorator is a class attribute holding the tool (crewAI's examples list tools so:
    `tools=[SearchTools.search_internet]`). The class is defined here (in `scope` or around it) or
    imported."""
    owner, attr = name.rsplit(".", 1)
    if "." in owner:
        return None
    outer = scope
    while True:
        cls = f"{outer}.{owner}" if outer else owner
        if cls in facts.classes:
            found = [tool for tool, bound_in in _tools_by_name(facts).get(attr, ()) if bound_in == cls]
            return (found[0], facts) if found else None
        if not outer:
            break
        outer = outer.rpartition(".")[0]
    target = facts.imports.get(owner)
    if target is not None:
        resolved = project.resolve(target, facts.path)
        if resolved is not None and resolved[0] is not facts:
            other, cls = resolved
            return tool_named(other, f"{cls}.{attr}", "", project, depth + 1)
    return None


def _copy(src: Tool, facts: ModuleFacts, call: Call, scope: str, binding: str) -> Tool:
    return Tool(src.name, src.framework, "copy", facts.path, facts.module, call.loc, src.function, call, binding, scope)


def _copier_calls(facts: ModuleFacts) -> list[tuple[str, Call, tuple[Param, bool]]]:
    """Every `dataclasses.replace(...)` / `copy.copy(...)`-style call of the module, found once."""

    def compute() -> list[tuple[str, Call, tuple[Param, bool]]]:
        found = ((scope, call, copier(call)) for scope, call in facts.all_calls())
        return [(scope, call, how) for scope, call, how in found if how is not None]

    return facts.derived("tools.copier_calls", compute)


def copies_in(facts: ModuleFacts, project: ProjectIndex, depth: int = 0) -> tuple[Tool, ...]:
    """Copies of tools imported from other modules (`copy.copy(imported_tool)`), as kind "copy".
    `tools_in` already lists copies of the module's own tools."""
    if depth > MAX_DEPTH:
        return ()
    local = {t.options.loc for t in tools_in(facts) if t.kind == "copy" and t.options is not None}
    out: list[Tool] = []
    for scope, call, how in _copier_calls(facts):
        if call.loc in local:
            continue
        source = call.arg(how[0].position, how[0].keyword)
        if not isinstance(source, Ref) or source.text not in facts.imports:
            continue
        found = tool_named(facts, source.text, scope, project, depth + 1)
        if found is not None:
            out.append(_copy(found[0], facts, call, scope, _binding_for(facts, call)))
    return tuple(out)


def module_tools(facts: ModuleFacts, project: ProjectIndex) -> list[Tool]:
    return [*tools_in(facts), *copies_in(facts, project)]


def copy_source(tool: Tool, facts: ModuleFacts, project: ProjectIndex) -> tuple[Tool, ModuleFacts] | None:
    """The tool a copy was made from."""
    how = copier(tool.options) if tool.options is not None else None
    if how is None or tool.options is None:
        return None
    source = tool.options.arg(how[0].position, how[0].keyword)
    if not isinstance(source, Ref):
        return None
    for candidate, bound_in in _tools_by_name(facts).get(source.text, ()):
        if candidate.key != tool.key and visible(facts, source.text, bound_in, tool.scope):
            return candidate, facts
    return tool_named(facts, source.text, tool.scope, project)


def tool_configured_by(facts: ModuleFacts, call: Call | Mapping) -> Tool | None:
    """The tool whose options `call` is (a decorator call, the call form, `function_tool(...)(fn)`,
    or the plain object a framework reads as its maker's call: `ToolSpec.object_tool`)."""
    found = _tools_by_call(facts).get(call.loc)
    if isinstance(call, Mapping):
        return found
    if found is None and isinstance(call.func, Call):
        found = _tools_by_call(facts).get(call.func.loc)
    return found


def tool_for_call(facts: ModuleFacts, call: Call, project: ProjectIndex) -> Tool | None:
    """The tool an inline call makes: `function_tool(fn)`, `FunctionTool(...)`, `copy.copy(t)`, and
    `function_tool(name_override=n)(fn)` (its options are the inner call)."""
    found = tool_configured_by(facts, call)
    if found is not None:
        return found
    for t in copies_in(facts, project):
        if t.options is not None and t.options.loc == call.loc:
            return t
    return None


def class_tool(facts: ModuleFacts, call: Call, project: ProjectIndex, scope: str = "") -> tuple[Tool, ModuleFacts] | None:
    """`Search()` where `Search` subclasses a framework's tool base class, here (also a class defined
    in the enclosing function `scope`) or in another module."""
    where = _class_called(facts, call, project, scope)
    if where is None:
        return None
    other, cls = where
    by_class = {t.class_name: t for t in (*tools_in(other), *inherited_tool_classes(other, project)) if t.class_name}
    # A subclass that inherits the method that runs (`class Chatty(SlackTool)`) is that tool, with its
    # own class attributes (read through `class_name`).
    todo, seen = [cls], set()
    while todo:
        current = todo.pop(0)
        if current in by_class:
            found = by_class[current]
            return (found if current == cls else replace(found, name=cls.rsplit(".", 1)[-1], class_name=cls)), other
        seen.add(current)
        for base in other.classes.get(current, ()):
            local = base[len(other.module) + 1:] if other.module and base.startswith(other.module + ".") else base
            if local in other.classes and local not in seen:
                todo.append(local)
    return None


def inherited_tool_classes(facts: ModuleFacts, project: ProjectIndex) -> list[Tool]:
    """`class TurnOnLights(HABaseTool)` where the project class `HABaseTool`, in another module (or
    derived from one), subclasses a framework's tool base class: a tool per class, as `_class_tools`
    makes of a subclass whose chain stays in its module, running the method the framework names when
    the class defines it."""
    own = {t.class_name for t in tools_in(facts) if t.class_name}
    prefix = f"{facts.module}." if facts.module else ""
    out: list[Tool] = []
    for cls in facts.classes:
        if cls in own:  # a chain that stays in this module: `tools_in` made it
            continue
        made = _super_tool_subclass(facts, cls, project)
        if made is not None:
            out.append(made)
            continue
        found = next(((fw, fw.tools.base_classes[canon]) for fw, canon in map(canonical, ancestor_bases(facts, cls, project))
                      if fw is not None and canon in fw.tools.base_classes), None)
        if found is None:
            continue
        fw, (sync_method, async_method) = found
        fn = facts.functions.get(f"{cls}.{async_method}") or facts.functions.get(f"{cls}.{sync_method}")
        if fn is not None:
            out.append(Tool(cls.rsplit(".", 1)[-1], fw.name, "function", facts.path, facts.module,
                            _reported_at(facts, cls, fn, sync_method), prefix + fn.name, None, "",
                            cls.rpartition(".")[0], class_name=cls))
            continue
        # The method that runs, inherited from a project base class in another module.
        inherited = method_of((facts, cls), async_method, project) or method_of((facts, cls), sync_method, project)
        if inherited is not None and inherited[0].path != facts.path and cls in facts.class_locs:
            where, ran = inherited
            out.append(Tool(cls.rsplit(".", 1)[-1], fw.name, "function", facts.path, facts.module, facts.class_locs[cls],
                            f"{where.module}.{ran.name}" if where.module else ran.name, None, "",
                            cls.rpartition(".")[0], class_name=cls))
    return out


def _super_tool_subclass(facts: ModuleFacts, cls: str, project: ProjectIndex) -> Tool | None:
    """`class CreatePlaylist extends SpotifyTool` where a project base's constructor makes the tool
    with `super({ name, func })` (`_super_maker`): each subclass is that tool, named by what its own
    constructor passes for the name, its class's methods the ones `this.execute()` runs there. Or
    where a base's method makes it of `this.execute` (`_own_method_run`): each subclass overriding
    that method is a tool running its override."""
    if cls not in facts.class_locs or not facts.module.startswith(js_modules.PREFIX):
        return None
    for base in ancestor_bases(facts, cls, project):
        found = project_class(facts, base, project)
        if found is None:
            continue
        where, anc = found
        made = next((t for t in tools_in(where) if t.scope == f"{anc}.constructor" and t.options is not None
                     and isinstance(t.options.func, Ref) and t.options.func.text == "super"), None)
        if made is not None:
            return replace(made, name=_name_passed(facts, cls, where, anc, made) or cls.rsplit(".", 1)[-1],
                           path=facts.path, module=facts.module, loc=facts.class_locs[cls], binding="",
                           scope=cls.rpartition(".")[0], class_name=cls)
        for made in tools_in(where):
            method = _own_method_run(made, anc)
            ran = method_of((facts, cls), method, project) if method else None
            if ran is not None and ran != method_of((where, anc), method, project):  # an override, not the base's stub
                return replace(made, name=cls.rsplit(".", 1)[-1], kind="function", path=facts.path,
                               module=facts.module, loc=facts.class_locs[cls],
                               function=f"{ran[0].module}.{ran[1].name}", binding="",
                               scope=cls.rpartition(".")[0], class_name=cls)
    return None


def _own_method_run(made: Tool, cls: str) -> str:
    """The method of `cls` a tool made in one of its methods runs: `tool({ execute: this.execute.bind(this) })`
    in `toOpenAITool()` (a template method each subclass overrides), else ""."""
    if made.options is None or not made.scope.startswith(f"{cls}.") or made.kind != "constructed":
        return ""
    maker = tool_maker(made.options.callee)
    run = made.options.arg(maker[1].function.position, maker[1].function.keyword) \
        if maker is not None and maker[1].function is not None else None
    if isinstance(run, Call) and isinstance(run.func, Ref) and run.func.text.endswith(".bind"):
        text = run.func.text[:-len(".bind")]
    else:
        text = run.text if isinstance(run, Ref) else ""
    head, _, method = text.partition(".")
    return method if head == "this" and method and "." not in method else ""


def made_for_subclasses(tool: Tool, facts: ModuleFacts) -> bool:
    """A tool an `abstract class` makes in its constructor: only its subclasses are ever tools."""
    cls, _, method = tool.scope.rpartition(".")
    return method == "constructor" and TS_ABSTRACT in facts.classes.get(cls, ())


def _name_passed(facts: ModuleFacts, cls: str, where: ModuleFacts, anc: str, made: Tool) -> str:
    """The literal the subclass's constructor passes for the base constructor's parameter that
    names the tool (`super('createPlaylist', ...)` of `constructor(name, ...) { super({ name }) }`)."""
    given = made.options.kwarg("name") if made.options is not None else None
    ctor = where.functions.get(f"{anc}.constructor")
    if not isinstance(given, Ref) or ctor is None or given.text not in ctor.params:
        return ""
    index = ctor.params.index(given.text)
    own = facts.functions.get(f"{cls}.constructor")
    for site in own.calls if own is not None else ():
        if isinstance(site.call.func, Ref) and site.call.func.text == "super" and index < len(site.call.args):
            return _const_str(site.call.args[index])
    return ""


def _class_called(facts: ModuleFacts, call: Call, project: ProjectIndex,
                  scope: str = "") -> tuple[ModuleFacts, str] | None:
    """(module, class) of the project class `call` instantiates (`Search()`): here, in a function
    around `scope` (a class defined inside it), or imported."""
    if not isinstance(call.func, Ref):
        return None
    if call.func.text in facts.classes:
        return facts, call.func.text
    while scope:
        if f"{scope}.{call.func.text}" in facts.classes:
            return facts, f"{scope}.{call.func.text}"
        scope = scope.rpartition(".")[0]
    return project.resolve(call.func.name, facts.path) if call.func.name != call.func.text else None


def framework_of(tool: Tool) -> Framework | None:
    """The framework whose maker made `tool`."""
    return next((fw for fw in FRAMEWORKS if fw.name == tool.framework), None)


def plain_tool(facts: ModuleFacts, fn: FunctionFacts, framework: str) -> Tool:
    """A plain function that a framework turns into a tool where it is listed."""
    prefix = f"{facts.module}." if facts.module else ""
    return Tool(fn.name.rsplit(".", 1)[-1], framework, "function", facts.path, facts.module, fn.loc, prefix + fn.name,
                None, fn.name if "." not in fn.name else "", fn.name.rpartition(".")[0])


def decorated_by_project_makers(facts: ModuleFacts, project: ProjectIndex) -> list[Tool]:
    """Functions of this module decorated by a project function or method that makes a framework
    tool of the function it decorates (`@tool_registry.register`, whose body calls `tool(func)`):
    each is a tool of that framework, its `def` the tool's."""
    out: list[Tool] = []
    for fn in facts.functions.values():
        reexported = next(((deco, made) for deco in fn.decorators
                           if (made := _reexported_maker(facts, deco, project)) is not None), None)
        if reexported is not None:
            out.append(_decorated(facts, fn, reexported[0], *reexported[1]))
            continue
        fw = next((f for deco in fn.decorators if (f := _project_maker(facts, fn, deco, project)) is not None), None)
        if fw is not None:
            out.append(plain_tool(facts, fn, fw.name))
    return out


def _reexported_maker(facts: ModuleFacts, deco: Value, project: ProjectIndex) -> tuple[Framework, ToolMaker] | None:
    """The framework's maker a project module hands on under its own name: `@function_tool()` after
    `from app.common import function_tool` (or `from app.common import *`), where app/common.py
    imports it from the framework (evalT1's ta-agent)."""
    func = deco.func if isinstance(deco, Call) else deco
    if not isinstance(func, Ref) or func.text.rpartition(".")[2] not in maker_words() or tool_maker(func.name) is not None:
        return None
    name = func.name if func.name != func.text else star_imported(facts, func.text, project)
    library = project.library_name(name, facts.path) if name else None
    return tool_maker(library) if library else None


def _project_maker(facts: ModuleFacts, fn: FunctionFacts, deco: Value, project: ProjectIndex) -> Framework | None:
    """The framework a project decorator makes a tool of `fn` for (None for a framework's own one,
    read by `tools_in`, and for any other)."""
    from .semantic import callees

    scope = fn.name.rpartition(".")[0]
    if not isinstance(deco, Ref) or tool_maker(deco.name) is not None:
        return None
    where = Scope(facts, scope)
    if deco.name == deco.text and where.function(deco) is None and where.value(deco.text.partition(".")[0]) is None:
        return None  # neither imported nor defined here: a builtin (`property`) or an imported module's (`pytest.fixture`)
    if _method_maker_of(facts, deco, scope) is not None:
        return None
    return next((fw for _, wrapper in callees(Scope(facts, scope), Call(deco, (), (), deco.loc), project)
                 if (fw := _maker_of_parameter(wrapper)) is not None), None)


def _maker_of_parameter(wrapper: FunctionFacts) -> Framework | None:
    """The framework whose tool maker the function calls on its first parameter (`tool(func)`)."""
    params = [p for p in wrapper.params if p not in ("self", "cls")]
    if not params:
        return None
    for site in wrapper.calls:
        call = site.call
        made = tool_maker(call.func.name) if isinstance(call.func, Ref) else None
        if made is None or made[1].function is None:
            continue
        given = call.arg(made[1].function.position, made[1].function.keyword)
        if isinstance(given, Ref) and given.text == params[0]:
            return made[0]
    return None


def defined_elsewhere(tool: Tool, project: ProjectIndex) -> tuple[ModuleFacts, FunctionFacts] | None:
    """The function a call-form tool wraps, when another project file defines it
    (`FunctionTool(func=tickets.create_ticket)`, `function_tool(send)` after `from .mail import send`,
    `FunctionTool(on_invoke_tool=upsert_warnings)`)."""
    if tool.kind not in ("function", "constructed") or tool.options is None or not tool.function:
        return None
    found = tool_function(tool, project)
    if found is None or not found[0].path or os.path.abspath(found[0].path) == os.path.abspath(tool.path):
        return None
    return found


def tool_function(tool: Tool, project: ProjectIndex) -> tuple[ModuleFacts, FunctionFacts] | None:
    """The facts of the function a tool runs, including functions nested in other functions: from
    the tool's own file first (several files of a tree may bear its module name), then the function
    its name resolves to from there (a tool made of an imported function)."""
    facts = project.facts_for_path(tool.path) if tool.path and tool.function else None
    if facts is not None:
        if tool.function.startswith(tool.module + "."):
            fn = facts.functions.get(tool.function[len(tool.module) + 1:])
            if fn is not None:
                return facts, fn
        # `function_tool(run_sql)` inside `make_tools()`: `run_sql` is `make_tools.run_sql` in the facts.
        scope = tool.scope
        while scope and "." not in tool.function:
            fn = facts.functions.get(f"{scope}.{tool.function}")
            if fn is not None:
                return facts, fn
            scope = scope.rpartition(".")[0]
    if tool.function.startswith(js_modules.PREFIX):  # a TS/JS module's name holds no dot: the rest is local
        module, _, local = tool.function.partition(".")
        other = project.module(module, tool.path)
        fn = other.functions.get(local) if other is not None else None
        if other is not None and fn is not None:
            return other, fn
    found = resolve_function(tool.function, project, tool.path)
    return found if found is not None or facts is None else _bound_method(tool, facts, project)


def _bound_method(tool: Tool, facts: ModuleFacts, project: ProjectIndex) -> tuple[ModuleFacts, FunctionFacts] | None:
    """`FunctionTool.from_defaults(fn=notes.add_note)` of `notes = Notes()`: the method of the
    instance's class (or of a project base class) that the tool runs."""
    obj, _, method = tool.function.rpartition(".")
    if not obj:
        return None
    held = project.resolve(obj, tool.path)  # an instance another module holds (`from notes import notes`)
    scope, obj = (Scope(held[0]), held[1]) if held is not None else (Scope(facts, tool.scope), obj)
    for cls in classes_of(scope, Ref(obj, obj, tool.loc), project):
        found = method_of(cls, method, project)
        if found is not None:
            return found
    return None


def _maker_function_tool(scope: str) -> str:
    """The name for a tool a function makes with a name chosen at run time (`definitions.map((d) =>
    tool({ name: d.name, ... }))` in `createMoniTools`): "createMoniTools's tool"."""
    named = [part for part in scope.split(".") if part and "@" not in part]
    return f"{named[-1]}'s tool" if named else ""
