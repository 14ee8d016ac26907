"""Exceptions that end the run when a tool raises them itself (`FailureSpec.fatal_exceptions`: the
Microsoft Agent Framework re-raises `MiddlewareFailure` past its per-call `except Exception`).

* `tool_reasons(tool, project)`: each unguarded `raise` of such an exception in the tool or the
  project functions it calls (SIB301 reads them as the member's fatal causes);
* `module_reasons(facts, project)`: those of this module's tools written in this module (SIB202,
  reported at the `raise`);
* `may_raise(tool, classes, project)`: can the tool let out an error of one of these project
  classes (a handler that passes only them on is fatal for that tool alone)?
"""

from __future__ import annotations

from ..model.callgraph import BROAD, Visit, walk
from ..model.project import ProjectIndex
from ..model.semantic import Scope, ancestor_bases, canonical, project_class
from ..model.tools import Tool, framework_of, tools_in
from ..syntax.facts import Call, ModuleFacts, RaiseSite, Ref
from .fatality import FatalReason


def tool_reasons(tool: Tool, project: ProjectIndex) -> list[FatalReason]:
    fw = framework_of(tool)
    if fw is None or not fw.failure.fatal_exceptions:
        return []
    found = walk(tool, project)
    if found is None:
        return []
    out: list[FatalReason] = []
    for event in found.events:
        if not isinstance(event, Visit) or event.ctx.guarded:
            continue
        for rs in event.fn.raise_sites:
            name = _raised_name(rs)
            if name in fw.failure.fatal_exceptions and not _caught(rs, name):
                short = name.rpartition(".")[2]
                out.append(FatalReason("handler_returns_none", f"raises {short}, which the framework re-raises past its "
                                       "tool error handling", event.facts.path, rs.loc, fix=fw.failure.fatal_exceptions_fix))
    return out


def module_reasons(facts: ModuleFacts, project: ProjectIndex) -> list[FatalReason]:
    return [r for t in tools_in(facts) for r in tool_reasons(t, project) if r.path == facts.path]


def _raised_name(rs: RaiseSite) -> str:
    target = rs.exc.func if isinstance(rs.exc, Call) else rs.exc
    return canonical(target.name)[1] if isinstance(target, Ref) else ""


def _caught(rs: RaiseSite, name: str) -> bool:
    """Raised inside a `try` whose handler catches it (the tool's own business, not the run's)."""
    short = name.rpartition(".")[2]
    return any(c in BROAD or c.rpartition(".")[2] == short for h in rs.guarded_by for c in h.catches)


def may_raise(tool: Tool, classes: list[tuple[ModuleFacts, str]], project: ProjectIndex) -> bool:
    """Can `tool` let out an error of one of `classes` (or of a subclass)? Each `raise` its call graph
    leaves uncaught is judged: a bare `raise` or a raised variable may be anything; a raised class
    counts when it is one of them or derives from one. A tool whose body is not found may."""
    found = walk(tool, project)
    if found is None:
        return True
    wanted = {(facts.path, name) for facts, name in classes}
    short = {name.rpartition(".")[2] for _, name in classes}
    for event in found.events:
        if not isinstance(event, Visit) or event.ctx.guarded:
            continue
        for rs in event.fn.raise_sites:
            if rs.in_handler is None and any(c in BROAD for h in rs.guarded_by for c in h.catches):
                continue
            target = rs.exc.func if isinstance(rs.exc, Call) else rs.exc
            if not isinstance(target, Ref):
                return True  # a bare `raise`, or `raise make_error()`: whatever it is
            raised = project_class(event.facts, target.name, project)
            if raised is None:
                scope = Scope(event.facts, event.fn.name)
                if scope.binding(target.text) is not None or scope.param(target.text) is not None:
                    return True  # `raise error`: a variable holds it
                continue  # a library class (`ValueError`) is none of the project's
            if (raised[0].path, raised[1]) in wanted or any(
                    base.rpartition(".")[2] in short and project_class(raised[0], base, project) in classes
                    for base in ancestor_bases(raised[0], raised[1], project)):
                return True
    return False
