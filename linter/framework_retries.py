"""Retries a framework makes (SIB404's middleware form, SIB405): a tool-retry middleware re-runs a
failed tool call; a retry policy on the graph node that runs a ToolNode re-runs every tool call of
the turn, including the ones that already succeeded. What a framework offers is its `RetrySpec`
(`siblint.frameworks`); what makes a repeat harmless is `siblint.retries.repeat_is_harmful`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from siblint.callgraph import Site, walk
from siblint.config import Config
from siblint.diagnostics import Loc
from siblint.facts import Attr, Call, Const, ModuleFacts, Ref, Seq, Value
from siblint.frameworks import FRAMEWORKS
from siblint.frameworks.spec import Framework, NodeRetry
from siblint.project import ProjectIndex
from siblint.retries import Finding, Repeated, arg_value, bound, connect_only, exception_names, literal_none, repeat_is_harmful
from siblint.semantic import Scope, canonical, method_call
from siblint.tools import Tool

if TYPE_CHECKING:
    from siblint.groups import Group


def _harmful_sites(tool: Tool, project: ProjectIndex, config: Config) -> list[Site]:
    w = walk(tool, project, config)
    return [s for s in w.sites if repeat_is_harmful(s)] if w is not None else []


def _tool_names(scope: Scope, value: Value | None) -> frozenset[str] | None:
    value = bound(scope, value)
    if not isinstance(value, Seq):
        return None
    return frozenset(i.value if isinstance(i, Const) and isinstance(i.value, str) else (i.text if isinstance(i, Ref) else "")
                     for i in value.items)


def middleware_retries(facts: ModuleFacts, groups: "list[Group]", project: ProjectIndex, config: Config) -> list[Finding]:
    """SIB404 reasons for tool-retry middleware (`ToolRetryMiddleware()` in `create_agent(middleware=[...])`)
    among the module's groups (`siblint.groups.groups_in`)."""
    out: list[Finding] = []
    for group in groups:
        spec = group.framework.retries
        mw_param = group.maker.policy.middleware if group.maker is not None else None
        if not spec.tool_middlewares or mw_param is None:
            continue
        scope = Scope(facts, group.scope)
        listed = bound(scope, group.call.arg(mw_param.position, mw_param.keyword))
        for entry in listed.items if isinstance(listed, Seq) else ():
            item = bound(scope, entry)
            if not isinstance(item, Call) or not isinstance(item.func, Ref):
                continue
            mw = spec.tool_middlewares.get(canonical(item.func.name)[1])
            if mw is None:
                continue
            retries = arg_value(scope, item, mw.retries)
            if isinstance(retries, Const) and retries.value == 0:
                continue
            if mw.exceptions is not None and connect_only(exception_names(scope, item.arg(mw.exceptions.position, mw.exceptions.keyword))):
                continue
            names = _tool_names(scope, item.arg(mw.tools.position, mw.tools.keyword)) if mw.tools else None
            repeated = [Repeated(m.tool, s) for m in group.members()
                        if names is None or m.tool.name in names or m.tool.binding in names or m.tool.function.rpartition(".")[2] in names
                        for s in _harmful_sites(m.tool, project, config)]
            if repeated:
                out.append(Finding("repeats_effect", item.loc, facts.path, item.func.name.rpartition(".")[2], repeated))
    return out


def _policy_retries(fw: Framework, scope: Scope, value: Value | None) -> bool:
    """Does a node retry policy (a policy object, or a list of them) run the node again after a
    failure that may follow a side effect?"""
    value = bound(scope, value)
    if value is None or literal_none(value):
        return False
    if isinstance(value, Seq):
        return any(_policy_retries(fw, scope, item) for item in value.items)
    if isinstance(value, Call) and isinstance(value.func, Ref):
        policy = fw.retries.policies.get(canonical(value.func.name)[1])
        if policy is not None:
            attempts = arg_value(scope, value, policy.attempts)
            if isinstance(attempts, Const) and isinstance(attempts.value, int) and attempts.value <= 1:
                return False
            if attempts is None and policy.default_attempts <= 1:
                return False
            return not (policy.exceptions and connect_only(exception_names(scope, value.arg(policy.exceptions.position,
                                                                                     policy.exceptions.keyword))))
    return True  # a policy siblint cannot read: it retries by default


def _builder(call: Call) -> object:
    """What identifies the builder a method call is made on: its variable, or the constructor call a chain starts at."""
    func = call.func
    for _ in range(32):
        if isinstance(func, Ref):
            return func.text.rpartition(".")[0].partition(".")[0] or func.text
        receiver = getattr(func, "receiver", None)
        if not isinstance(receiver, Call):
            return receiver.text if isinstance(receiver, Ref) else None
        if isinstance(receiver.func, Ref) and "." not in receiver.func.text:
            return receiver.loc  # the chain starts at `StateGraph(S)`
        func = receiver.func
    return None


def node_retries(facts: ModuleFacts, module_groups: "list[Group]", project: ProjectIndex, config: Config) -> list[Finding]:
    """SIB405 reasons: a retry policy on a graph node whose runnable is a tool node (one of the
    module's groups) with a member whose side effect a repeat would repeat."""
    from siblint.error_policy import group_policy

    groups = {g.call.loc: g for g in module_groups}
    methods = {m for fw in FRAMEWORKS for m in (*fw.retries.node_methods, *fw.retries.default_methods)}
    nodes: list[tuple[NodeRetry, object, Scope, Call, Value | None]] = []  # (method, builder, scope, add_node call, policy)
    defaults: dict[object, tuple[Framework, Scope, Call, Value]] = {}
    for scope_name, call in facts.all_calls():
        name = call.func.attr if isinstance(call.func, Attr) else (call.func.text.rpartition(".")[2] if isinstance(call.func, Ref) else "")
        if name not in methods:
            continue  # only builder methods that attach a policy are worth resolving
        scope = Scope(facts, scope_name)
        built, method = method_call(scope, call)
        if not built:
            continue
        for fw in FRAMEWORKS:
            spec = fw.retries
            if built not in spec.builders:
                continue
            if method in spec.node_methods:
                nr = spec.node_methods[method]
                policy = next((call.kwarg(k) for k in nr.policies if call.kwarg(k) is not None), None)
                nodes.append((nr, _builder(call), scope, call, policy))
            elif method in spec.default_methods:
                policy = next((call.kwarg(k) for k in spec.default_methods[method] if call.kwarg(k) is not None), None)
                if policy is not None:
                    defaults[_builder(call)] = (fw, scope, call, policy)
    out: list[Finding] = []
    for nr, builder, scope, call, policy in nodes:
        runnable = next((v for v in (call.arg(p.position, p.keyword) for p in nr.runnable) if v is not None), None)
        if isinstance(runnable, Const):  # `add_node("tools")` alone names no runnable
            continue
        made = bound(scope, runnable)
        group = groups.get(made.loc) if isinstance(made, Call) else None
        if group is None:
            continue
        where: tuple[Loc, Value] | None = None
        if policy is not None:
            where = (policy.loc, policy) if _policy_retries(group.framework, scope, policy) else None
        elif builder in defaults:
            fw, dscope, dcall, dpolicy = defaults[builder]
            where = (dcall.loc, dpolicy) if _policy_retries(fw, dscope, dpolicy) else None
        if where is None:
            continue
        covers = group_policy(group, facts, project).covers
        if any(c.tools is None and c.exceptions is None for c in covers):
            continue  # every member's failure becomes a message: nothing raises past the node
        repeated = [Repeated(m.tool, s) for m in group.members() for s in _harmful_sites(m.tool, project, config)]
        if repeated:
            node = call.arg(0, "node")
            label = node.value if isinstance(node, Const) and isinstance(node.value, str) else group.name
            out.append(Finding("node_retry", where[0], facts.path, "retry policy", repeated, str(label)))
    return _once_per_loc(out)


def _once_per_loc(found: list[Finding]) -> list[Finding]:
    by_loc: dict[tuple[str, Loc, str], Finding] = {}
    for f in found:
        kept = by_loc.setdefault((f.reason, f.loc, f.detail), f)
        if kept is not f:
            kept.repeated.extend(f.repeated)
    return list(by_loc.values())
