"""Agents run inside a tool (issue 23): `sub = Agent(tools=[shell, file_write]); sub(prompt)`,
`sub.run_sync(prompt)`, `Runner.run_sync(sub, prompt)`. What the sub-agent's tools do, the calling
tool does: the walk follows each member's function (or takes a prebuilt member's effect) as if the
tool had called it. Which calls run an agent is the frameworks' data (`ConcurrencySpec.runners`,
`run_methods`); calling the agent object itself runs it too (strands' `Agent.__call__`)."""

from __future__ import annotations

from ..frameworks import FRAMEWORKS
from ..syntax.facts import Call, Ref, Value
from .groups import Member, members_made_by
from .project import ProjectIndex
from .semantic import Scope, canonical


def agent_run_by(call: Call) -> Value | None:
    """The agent object `call` runs, when its shape is a run: `agent(...)`, `agent.run_sync(...)`,
    `Runner.run(agent, ...)`. Whether that object is an agent is for `nested_members` to decide."""
    func = call.func
    if not isinstance(func, Ref):
        return None
    if "." not in func.text:
        return func
    _, canon = canonical(func.name)
    head, _, method = func.text.rpartition(".")
    for fw in FRAMEWORKS:
        runner = fw.concurrency.runners.get(canon)
        if runner is not None:
            return call.arg(runner[0].position, runner[0].keyword)
        if method in fw.concurrency.run_methods:
            return Ref(func.name.rpartition(".")[0], head, func.loc)
    return None


def nested_members(call: Call, scope: Scope, project: ProjectIndex) -> list[Member]:
    """The tools of the agent `call` runs, when the agent is made in this function, class or module."""
    agent = agent_run_by(call)
    if not isinstance(agent, Ref):
        return []
    bound = scope.binding(agent.text)
    if bound is None or not isinstance(bound[1], Call):
        return []
    where, made = bound
    return members_made_by(where.facts, made, where.name, project) or []
