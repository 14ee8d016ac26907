"""Which tools a module defines, read from its facts through the frameworks' data.

A tool is found where a framework's tool maker is applied: as a decorator (`@function_tool`,
`@function_tool(...)`), in call form (`function_tool(fn, ...)`), as a constructor
(`FunctionTool(...)`), or as a method on an object a framework built (`agent.as_tool(...)`). MCP
servers are tools too: every tool they serve joins the group of the agent they are given to.
"""

from __future__ import annotations

from dataclasses import dataclass
from siblint.diagnostics import Loc
from siblint.facts import Call, Const, FunctionFacts, ModuleFacts, Ref, Seq, Value
from siblint.frameworks import FRAMEWORKS
from siblint.frameworks.spec import Framework, ToolMaker
from siblint.model import binding, canonical, constructed_by
from siblint.project import ProjectIndex


@dataclass(frozen=True)
class Tool:
    name: str
    framework: str
    kind: str  # "function" | "constructed" | "agent" | "server"
    path: str
    module: str
    loc: Loc  # the function's `def` line when it is in this module, else the call that made the tool
    function: str  # dotted name of the function that runs when the tool is called ("" if unknown)
    options: Call | None  # the call that configures the tool (decorator call, call form, constructor)
    binding: str  # the module-level name bound to the tool ("" if none)
    scope: str = ""  # where the tool is made ("" = module level)
    # The name of the object a method decorator registered the tool on (`@agent.tool` -> "agent"):
    # the tool joins that object's group (siblint.groups).
    receiver: str = ""
    # For a class-based tool (`class Search(BaseTool)`), the class: `Search()` in a tools list is this tool.
    class_name: str = ""

    @property
    def key(self) -> tuple[str, Loc, Loc | None]:
        """Identity: several tools may wrap one function, each with its own options call."""
        return (self.path, self.loc, self.options.loc if self.options else None)


def _maker(name: str) -> tuple[Framework, ToolMaker] | None:
    fw, canon = canonical(name)
    if fw is not None and canon in fw.tool_makers:
        return fw, fw.tool_makers[canon]
    return None


def _method_maker(facts: ModuleFacts, call: Call, scope: str) -> tuple[Framework, ToolMaker] | None:
    return _method_maker_of(facts, call.func, scope)


def _method_maker_of(facts: ModuleFacts, func: Value, scope: str) -> tuple[Framework, ToolMaker] | None:
    """The tool maker `receiver.method` is, for a receiver a known constructor built (`agent.tool`)."""
    if not isinstance(func, Ref) or "." not in func.text:
        return None
    receiver, _, method = func.text.rpartition(".")
    built = constructed_by(facts, binding(facts, receiver, scope), scope) or _annotated_type(facts, receiver, scope)
    for fw in FRAMEWORKS:
        maker = fw.tool_methods.get((built, method))
        if maker is not None:
            return fw, maker
    return None


def local_function(facts: ModuleFacts, value: Value | None, scope: str = "") -> FunctionFacts | None:
    """The function of this module a name refers to from `scope`, innermost scope first."""
    if not isinstance(value, Ref):
        return None
    parts = scope.split(".") if scope else []
    for i in range(len(parts), -1, -1):
        fn = facts.functions.get(".".join([*parts[:i], value.text]))
        if fn is not None:
            return fn
    return None


def _annotated_type(facts: ModuleFacts, name: str, scope: str) -> str:
    """`def register(agent: Agent[Deps, str])`: the canonical class a parameter is annotated with."""
    fn = facts.functions.get(scope) if scope else None
    if fn is None or name not in fn.params or fn.params.index(name) >= len(fn.param_annotations):
        return ""
    for annotated in fn.param_annotations[fn.params.index(name)]:
        fw, canon = canonical(annotated)
        if fw is not None:
            return canon
    return ""


def callee_in_module(facts: ModuleFacts, fn: FunctionFacts, text: str) -> tuple[bool, FunctionFacts | None]:
    """The function of this module that `text(...)`, called inside `fn`, runs: a nested or
    module-level function (innermost scope first, never `fn` itself), or a method of `fn`'s class
    through `self.`/`cls.`. The flag says whether the answer is final (`self.m` of a class that
    has no `m` is not a project function elsewhere either)."""
    if "." not in text:
        found = local_function(facts, Ref(text, text, fn.loc), fn.name)
        return False, (found if found is not None and found.name != fn.name else None)
    head, _, rest = text.partition(".")
    if head in ("self", "cls") and fn.class_name and "." not in rest:
        return True, facts.functions.get(f"{fn.class_name}.{rest}")
    return False, None


def function_name(facts: ModuleFacts, value: Value | None, scope: str = "") -> str:
    """The absolute dotted name of the function `value` refers to ("" if it is not a name)."""
    if not isinstance(value, Ref):
        return ""
    local = local_function(facts, value, scope)
    if local is not None:
        return f"{facts.module}.{local.name}" if facts.module else local.name
    return value.name


def _const_str(value: Value | None) -> str:
    return value.value if isinstance(value, Const) and isinstance(value.value, str) else ""


def _binding_for(facts: ModuleFacts, call: Call) -> str:
    for a in facts.assignments:
        if a.scope == "" and a.op == "=" and isinstance(a.value, Call) and a.value.loc == call.loc and "." not in a.target:
            return a.target
    return ""


def _is_decorator_factory(call: Call, maker: ToolMaker) -> bool:
    """`function_tool(...)` used as `@function_tool(...)`: no function passed."""
    if maker.function is None:
        return False
    if maker.async_function is not None and call.arg(maker.async_function.position, maker.async_function.keyword):
        return False  # `StructuredTool.from_function(coroutine=f)`
    value = call.arg(maker.function.position, maker.function.keyword)
    return value is None or isinstance(value, Const)  # `tool("name")`: the name, not the function


def tools_in(facts: ModuleFacts) -> tuple[Tool, ...]:
    """Every tool the module makes, in source order."""
    return facts.derived("tools", lambda: tuple(_find_tools(facts)))


def _find_tools(facts: ModuleFacts) -> list[Tool]:
    found: list[Tool] = []
    decorator_calls: set[Loc] = set()
    module_prefix = f"{facts.module}." if facts.module else ""
    for fn in facts.functions.values():
        for deco in fn.decorators:
            target = deco.func if isinstance(deco, Call) else deco
            if not isinstance(target, Ref):
                continue
            outer = fn.name.rpartition(".")[0]
            made = _maker(target.name)
            receiver = ""
            if made is None:
                # `@agent.tool` / `@toolset.tool_plain(...)`: registers the function on the receiver's group.
                made = _method_maker_of(facts, target, outer)
                receiver = target.text.rpartition(".")[0] if made is not None else ""
            if made is None or made[1].kind != "decorator":
                continue
            fw, maker = made
            options = deco if isinstance(deco, Call) else None
            if options is not None:
                decorator_calls.add(options.loc)
            name = _const_str(options.arg(maker.name.position, maker.name.keyword)) if options and maker.name else ""
            top_level = "." not in fn.name
            found.append(Tool(name or fn.name.rsplit(".", 1)[-1], fw.name, "function", facts.path, facts.module, fn.loc,
                              module_prefix + fn.name, options, fn.name if top_level else "",
                              outer, receiver=receiver))
    for scope, call in facts.all_calls():
        if call.loc in decorator_calls or not isinstance(call.func, Ref):
            continue
        made = _maker(call.func.name) or _method_maker(facts, call, scope)
        if made is None:
            continue
        fw, maker = made
        if maker.kind == "decorator" and _is_decorator_factory(call, maker):
            continue  # `function_tool(**opts)(fn)`: the outer call is the tool, handled below
        fn_value = call.arg(maker.function.position, maker.function.keyword) if maker.function else None
        if maker.async_function is not None:
            # `StructuredTool.from_function(func=f, coroutine=af)`: async runs await `af`.
            fn_value = call.arg(maker.async_function.position, maker.async_function.keyword) or fn_value
        fn_name = function_name(facts, fn_value, scope)
        local = local_function(facts, fn_value, scope)
        name = _const_str(call.arg(maker.name.position, maker.name.keyword)) if maker.name else ""
        kind = "function" if maker.kind == "decorator" else ("agent" if maker.function is None else "constructed")
        registered = _method_maker(facts, call, scope) is not None and maker.kind == "decorator"
        found.append(Tool(name or fn_name.rsplit(".", 1)[-1] or call.func.text, fw.name, kind, facts.path, facts.module,
                          local.loc if local is not None and kind == "function" else call.loc, fn_name, call,
                          _binding_for(facts, call), scope,
                          receiver=call.func.text.rpartition(".")[0] if registered else ""))
    # `function_tool(**opts)(fn)`: a call whose callee is a decorator factory call.
    for scope, call in facts.all_calls():
        inner = call.func
        if isinstance(inner, Call) and isinstance(inner.func, Ref):
            made = _maker(inner.func.name)
            if made is not None and made[1].kind == "decorator" and call.args:
                fw, _ = made
                fn_name = function_name(facts, call.args[0], scope)
                local = local_function(facts, call.args[0], scope)
                found.append(Tool(fn_name.rsplit(".", 1)[-1] or "tool", fw.name, "function", facts.path, facts.module,
                                  local.loc if local is not None else call.loc, fn_name, inner, _binding_for(facts, call), scope))
    for scope, call in facts.all_calls():
        if isinstance(call.func, Ref):
            fw, canon = canonical(call.func.name)
            if fw is not None and canon in fw.server_makers:
                found.append(Tool(_const_str(call.kwarg("name")) or canon.rsplit(".", 1)[-1], fw.name, "server", facts.path,
                                  facts.module, call.loc, "", call, _binding_for(facts, call), scope))
    found.extend(_class_tools(facts))
    found.extend(_plain_function_tools(facts, found))
    found.extend(_copies(facts, found))
    found.sort(key=lambda t: (t.loc.line, t.loc.col))
    return found


def tool_base(facts: ModuleFacts, cls: str) -> tuple[Framework, tuple[str, str]] | None:
    """(framework, (sync method, async method)) when `cls` of this module subclasses a tool base class,
    directly or through other classes of the module."""
    seen: set[str] = set()
    todo = [cls]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        for base in facts.classes.get(current, ()):
            fw, canon = canonical(base)
            if fw is not None and canon in fw.tool_base_classes:
                return fw, fw.tool_base_classes[canon]
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
        if fn is None:
            continue
        out.append(Tool(cls.rsplit(".", 1)[-1], fw.name, "function", facts.path, facts.module, fn.loc,
                        prefix + fn.name, None, "", cls.rpartition(".")[0], class_name=cls))
    return out


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
        maker = fw.group_makers.get(canon)
        where = maker.tools if maker is not None and maker.plain_functions_are_tools else fw.toolset_makers.get(canon)
        if where is None:
            continue
        value = call.arg(where.position, where.keyword)
        if isinstance(value, Ref) and "." not in value.text:
            value = binding(facts, value.text, scope)  # `TOOLS = [a, b]; ToolNode(TOOLS)`
        items = value.items if isinstance(value, Seq) else ()
        for item in items:
            fn = local_function(facts, item, scope)
            if fn is None or fn.class_name or prefix + fn.name in known:
                continue
            known.add(prefix + fn.name)
            top_level = "." not in fn.name
            out.append(Tool(fn.name.rsplit(".", 1)[-1], fw.name, "function", facts.path, facts.module, fn.loc,
                            prefix + fn.name, None, fn.name if top_level else "", fn.name.rpartition(".")[0]))
    return out


def _copies(facts: ModuleFacts, found: list[Tool]) -> list[Tool]:
    """`T2 = dataclasses.replace(T, ...)` / `copy.copy(T)` of a tool bound in this module: another tool
    (kind "copy", `options` = the copy call) with T's policy (S11, S12). Copies of imported tools
    need the project: `siblint.fatality.copies_in`."""
    by_binding = {t.binding: t for t in found if t.binding}
    out: list[Tool] = []
    for scope, call in facts.all_calls():
        if not isinstance(call.func, Ref):
            continue
        for fw in FRAMEWORKS:
            copier = fw.copiers.get(call.func.name)
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


def function_of(tool: Tool, project: ProjectIndex) -> tuple[ModuleFacts, FunctionFacts] | None:
    """The facts of the function that runs when the tool is called, wherever it is defined."""
    return resolve_function(tool.function, project)


def resolve_function(dotted_name: str, project: ProjectIndex) -> tuple[ModuleFacts, FunctionFacts] | None:
    if not dotted_name:
        return None
    found = project.resolve(dotted_name)
    if found is None:
        return None
    facts, name = found
    fn = facts.functions.get(name)
    return (facts, fn) if fn is not None else None
