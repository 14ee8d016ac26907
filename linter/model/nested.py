"""Agents run inside a tool (issue 23): `sub = Agent(tools=[shell, file_write]); sub(prompt)`,
`sub.run_sync(prompt)`, `Runner.run_sync(sub, prompt)`. What the sub-agent's tools do, the calling
tool does: the walk follows each member's function (or takes a prebuilt member's effect) as if the
tool had called it. Which calls run an agent is the frameworks' data (`ConcurrencySpec.runners`,
`run_methods`); calling the agent object itself runs it too (strands' `Agent.__call__`).

A sub-agent deployed as a Lambda function of the same repository and invoked by name
(`lambda_client.invoke(FunctionName="budget-agent")`) runs its handler: what the handler does is
the invoke's effect, in place of "another deployment's code" (`siblint.effects.cloud`)."""

from __future__ import annotations

import os

from ..frameworks import FRAMEWORKS
from ..syntax.facts import Call, FunctionFacts, ModuleFacts, Ref, Value
from .groups import Member, members_made_by
from .project import ProjectIndex
from .semantic import Scope, canonical, elements


def agent_run_by(call: Call) -> Value | None:
    """The agent object `call` runs, when its shape is a run: `agent(...)`, `agent.run_sync(...)`,
    `Runner.run(agent, ...)`. Whether that object is an agent is for `nested_members` to decide."""
    func = call.func
    if isinstance(func, Call):  # `make_writer()(prompt)`: the object a call returns, called
        return func
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
    """The tools of the agent `call` runs, when the project makes that agent."""
    return agent_members(call, scope, project) or []


def agent_members(call: Call, scope: Scope, project: ProjectIndex) -> list[Member] | None:
    """The tools of the agent `call` runs (made in this function, class or module, imported from
    another module, or returned by a project factory); None when `call` runs no agent the project makes."""
    agent = agent_run_by(call)
    if isinstance(agent, Call):
        return _members_of_agent(scope, agent, project)
    if not isinstance(agent, Ref):
        return None
    bound = scope.binding(agent.text)
    if bound is None and agent.name != agent.text:  # `from .agents import writer`: bound in its module
        target = project.resolve(agent.name, scope.facts.path)
        bound = Scope(target[0]).binding(target[1]) if target is not None else None
    if bound is None:
        return None
    where, made = bound
    return _members_of_agent(where, made, project) if isinstance(made, Call) else None


def _members_of_agent(where: Scope, made: Call, project: ProjectIndex) -> list[Member] | None:
    """The members of the agent `made` builds, or, for a project factory (`payments =
    make_payments_agent()`), of the agent it returns, built in the return or bound to the name returned."""
    members = members_made_by(where.facts, made, where.name, project)
    if members is not None:
        return members
    found: list[Member] | None = None
    for inner, value in elements(where, made, project):
        # `writer = Agent(...); return writer`: what the name returned is bound to
        returned = inner.value(value.text) if isinstance(value, Ref) and "." not in value.text else value
        if returned is not made and isinstance(returned, Call):
            more = members_made_by(inner.facts, returned, inner.name, project)
            if more is not None:
                found = (found or []) + more
    return found


# A Lambda function of this repository: its handler file, and the handler in it.
HANDLER_FILES = ("lambda_handler.py", "lambda_function.py", "handler.py", "app.py", "main.py", "index.py")
HANDLER_FUNCTIONS = ("lambda_handler", "handler", "main")
MIN_NAME = 4  # shorter folder names match too much


def invoked_handler(verb: str, call: Call, scope: Scope,
                    project: ProjectIndex) -> tuple[ModuleFacts, FunctionFacts] | None:
    """The handler of `lambda_client.invoke(FunctionName="budget-agent", ...)` when it is in this
    repository (a sub-agent deployed as its own Lambda): the one handler file whose folder the
    function's name names (`budget_agent/lambda_handler.py`, `budget-agent/handler.py`)."""
    if verb != "invoke":
        return None
    name = scope.text(call.kwarg("FunctionName"))
    if not name:
        return None
    wanted = _normal(name.rpartition(":function:")[2].partition(":")[0])
    if len(wanted) < MIN_NAME:
        return None
    found: list[tuple[int, str]] = []
    for paths in project.scan.names.values():
        for path in paths:
            folder, file = os.path.split(path)
            own = _normal(os.path.basename(folder))
            if file in HANDLER_FILES and len(own) >= MIN_NAME and own in wanted:
                found.append((len(own), path))
    found.sort(reverse=True)
    if not found or (len(found) > 1 and found[0][0] == found[1][0]):
        return None  # none, or two folders that match as well
    facts = project.facts_for_path(found[0][1])
    if facts is None:
        return None
    fn = next((facts.functions[h] for h in HANDLER_FUNCTIONS if h in facts.functions), None)
    return (facts, fn) if fn is not None else None


def _normal(name: str) -> str:
    return name.lower().replace("-", "_")
