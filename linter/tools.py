"""Which tools a module defines, read from its facts through the frameworks' data.

A tool is found where a framework's tool maker is applied: as a decorator (`@function_tool`,
`@function_tool(...)`), in call form (`function_tool(fn, ...)`), as a constructor
(`FunctionTool(...)`), or as a method on an object a framework built (`agent.as_tool(...)`). MCP
servers are tools too: every tool they serve joins the group of the agent they are given to.
"""

from __future__ import annotations

from dataclasses import dataclass
from siblint.diagnostics import Loc
from siblint.facts import Call, Const, FunctionFacts, ModuleFacts, Ref, Value
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
    if not isinstance(call.func, Ref) or "." not in call.func.text:
        return None
    receiver, _, method = call.func.text.rpartition(".")
    built = constructed_by(facts, binding(facts, receiver, scope), scope)
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
    return maker.function is not None and call.arg(maker.function.position, maker.function.keyword) is None


def tools_in(facts: ModuleFacts) -> tuple[Tool, ...]:
    """Every tool the module makes, in source order."""
    return tuple(_find_tools(facts))


def _find_tools(facts: ModuleFacts) -> list[Tool]:
    found: list[Tool] = []
    decorator_calls: set[Loc] = set()
    module_prefix = f"{facts.module}." if facts.module else ""
    for fn in facts.functions.values():
        for deco in fn.decorators:
            target = deco.func if isinstance(deco, Call) else deco
            if not isinstance(target, Ref):
                continue
            made = _maker(target.name)
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
                              fn.name.rpartition(".")[0]))
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
        fn_name = function_name(facts, fn_value, scope)
        local = local_function(facts, fn_value, scope)
        name = _const_str(call.arg(maker.name.position, maker.name.keyword)) if maker.name else ""
        kind = "function" if maker.kind == "decorator" else ("agent" if maker.function is None else "constructed")
        found.append(Tool(name or fn_name.rsplit(".", 1)[-1] or call.func.text, fw.name, kind, facts.path, facts.module,
                          local.loc if local is not None and kind == "function" else call.loc, fn_name, call,
                          _binding_for(facts, call), scope))
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
    found.extend(_copies(facts, found))
    found.sort(key=lambda t: (t.loc.line, t.loc.col))
    return found


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
