"""SIB402 / SIB403: payment calls reachable from a tool without an idempotency key, and keys that
are new on every call.

The model calls a tool again whenever it is told the call failed (the OpenAI Agents SDK's default
failure text ends "Please try again."). A repeated call after an unknown outcome moves money again
unless the request carries a key derived from the business action: Stripe's own automatic key is
random per request, and a `uuid4()` or the tool call's id is new on the model's next call
(../shared/reference/sib4-design.md §3.2-3.3, runtime arms B1-B3).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from ..common.diagnostics import Loc
from ..effects.checks import shown_name
from ..effects.keys import key_of, minted_in, moves_money
from ..model.callgraph import Site, walk
from ..model.project import ProjectIndex
from ..model.semantic import Scope, argument_values, is_tool_call_id
from ..model.tools import tool_function, tools_in
from ..settings.config import Config
from ..syntax.facts import ModuleFacts, Ref, Value


@dataclass(frozen=True)
class KeyFinding:
    reason: str  # "no_key" (SIB402) or "minted" (SIB403)
    loc: Loc  # where it is reported in this module
    call_text: str
    tool: str
    path: str  # the module of the call that sends (or lacks) the key
    call_loc: Loc
    minted: str = ""  # how the minting expression is named (SIB403)
    minted_loc: Loc | None = None


def _minted(site: Site, value: Value | None, project: ProjectIndex) -> tuple[str, Value] | None:
    """What makes the key new per call: inside the expression, or, for a parameter, at every call
    site of the function in its module (a key passed in from the tool)."""
    scope = site.scope
    found = minted_in(value, scope, partial(is_tool_call_id, scope))
    if found is not None or not isinstance(value, Ref) or "." in value.text:
        return found
    param = scope.param(value.text)
    if param is None:
        return None
    fn, index = param
    for caller, arg in argument_values(Scope(scope.facts, fn.name), fn, index, project):
        found = minted_in(arg, caller, partial(is_tool_call_id, caller))
        if found is not None:
            return found
    return None


def key_findings(facts: ModuleFacts, project: ProjectIndex, config: Config) -> list[KeyFinding]:
    found: dict[tuple[str, Loc], KeyFinding] = {}
    for tool in tools_in(facts):
        fn = tool_function(tool, project)
        w = walk(tool, project, config) if fn is not None and fn[0].path == facts.path else None
        if w is None:
            continue
        for site in w.sites:
            here = site.reported_at(facts.path)
            if here is None:
                continue
            key = key_of(site.call, site.scope)
            if key.presence == "absent":
                if site.effect is not None and site.effect.kind == "payment" and moves_money(site.call):
                    found.setdefault(("no_key", here), KeyFinding("no_key", here, shown_name(site.call), tool.name,
                                                                  site.facts.path, site.call.loc))
            elif key.presence == "present":
                minted = _minted(site, key.value, project)
                if minted is not None:
                    found.setdefault(("minted", here), KeyFinding("minted", here, shown_name(site.call), tool.name,
                                                                  site.facts.path, site.call.loc, minted[0],
                                                                  minted[1].loc))
    return sorted(found.values(), key=lambda f: (f.loc.line, f.loc.col, f.reason))
