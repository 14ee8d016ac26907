"""Prebuilt tools of tool packages (`siblint.frameworks.prebuilt`) where the project uses them: as
members of a group (`Agent(tools=[shell])`, `tools=toolkit.get_tools()`), and run by hand inside a
tool of the project (`GmailCreateDraft(api_resource=r)({...})`), which is then that tool's effect."""

from __future__ import annotations

from ..effects import Effect, method_name, receiver_of
from ..frameworks.prebuilt import (
    RUN_METHODS,
    TOOLKIT_METHODS,
    TOOLKITS,
    Prebuilt,
    prebuilt,
)
from ..syntax.facts import Call, Ref, Value
from .semantic import Scope
from .tools import Tool

MAX_HOPS = 4


def prebuilt_member(where: Scope, item: Value, depth: int = 0) -> Tool | None:
    """The prebuilt tool a tools-list item is: a tool object or module (`shell`, `ShellTool()`), a
    toolkit's tools (`FileManagementToolkit(...).get_tools()`), or a name bound to one of those."""
    if depth > MAX_HOPS:
        return None
    if isinstance(item, Ref):
        found = prebuilt(item.name) if item.name != item.text else None
        if found is not None:
            return _tool(where, item, item.name, found)
        bound = where.value(item.text)
        return prebuilt_member(where, bound, depth + 1) if bound is not None else None
    if isinstance(item, Call):
        found = prebuilt(item.callee) if item.callee else None
        if found is not None:
            return _tool(where, item, item.callee, found)
        if method_name(item.func) in TOOLKIT_METHODS:
            kit = where.constructor(receiver_of(item.func))
            found = prebuilt(kit, TOOLKITS) if kit else None
            if found is not None:
                return _tool(where, item, kit, found)
    return None


def _tool(where: Scope, item: Value, name: str, found: Prebuilt) -> Tool:
    short = name.rpartition(".")[2]
    return Tool(short, found.framework, "prebuilt", where.facts.path, where.facts.module, item.loc, name,
                item if isinstance(item, Call) else None, "", where.name)


def prebuilt_call_effect(call: Call, scope: Scope) -> Effect | None:
    """`GmailCreateDraft(...)({...})`, `draft = GmailCreateDraft(...); draft({...})`, `tool.run(cmd)`: a prebuilt tool run
    inside a tool of the project performs that tool's effect, in the calling thread."""
    func = call.func
    if isinstance(func, Call):
        name = func.callee
    elif isinstance(func, Ref) and "." not in func.text:  # `draft = GmailCreateDraft(...); draft({...})`
        name = scope.constructor(func)
    elif method_name(func) in RUN_METHODS:
        name = scope.constructor(receiver_of(func))
    else:
        return None
    return prebuilt_effect(name, call, method_name(func))


def prebuilt_effect(name: str, call: Call, method: str = "") -> Effect | None:
    """What running the prebuilt tool `name` (`strands_tools.shell`) at `call` does, None if it is none."""
    found = prebuilt(name) if name else None
    if found is None:
        return None
    short = name.rpartition(".")[2]
    return Effect(f"{short} ({found.effect})", True, call, kind="prebuilt", method=method)
