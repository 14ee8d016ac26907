"""SIB406: a tool that tells the model its side effect succeeded when it failed.

The model reports what the tool returned. When a `try` around a side effect has a handler that
swallows the failure and ends in the same text as the happy path (by returning that text, or by
falling through to the return the success path takes too), the model confirms an action that never
happened (../shared/reference/sib4-design.md §3.6, runtime arms E1-E4).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..common.diagnostics import Loc
from ..model.callgraph import Site, walk
from ..model.project import ProjectIndex
from ..model.tools import tool_function, tools_in
from ..settings.config import Config
from ..syntax.facts import (
    Const,
    FString,
    FunctionFacts,
    ModuleFacts,
    ReturnSite,
    TrySite,
)


@dataclass(frozen=True)
class SameText:
    loc: Loc  # the `try` statement
    tool: str
    text: str  # the text both paths return
    effect: str  # the side effect of the try body (first one)
    handler: Loc
    success: Loc  # the return the success path takes


def _text(ret: ReturnSite, binds: tuple[str, ...] = ()) -> str | None:
    """The text a return gives back when it is fixed: a string literal, or an f-string that reads
    none of the names the handler binds (so its wording cannot say what failed)."""
    if isinstance(ret.value, Const) and isinstance(ret.value.value, str):
        return ret.value.value
    if isinstance(ret.value, FString) and not set(ret.reads) & set(binds):
        return ret.value.text
    return None


def _effect_sites(fn: FunctionFacts, sites: list[Site], inside) -> list[Site]:
    """Effects of the calls of `fn` for which `inside(call_site)` holds, directly or through the
    project functions those calls lead to."""
    locs = {cs.call.loc for cs in fn.calls if inside(cs)}
    return [s for s in sites if s.effect is not None and
            ((s.fn is fn and s.ctx.depth == 0 and s.call.loc in locs) or s.ctx.entry in locs)]


def same_text(facts: ModuleFacts, project: ProjectIndex, config: Config) -> list[SameText]:
    out: dict[Loc, SameText] = {}
    for tool in tools_in(facts):
        found = tool_function(tool, project)
        if found is None or found[0].path != facts.path:
            continue
        fn = found[1]
        w = walk(tool, project, config)
        if w is None:
            continue
        by_loc = {r.loc: r for r in fn.return_sites}
        for t in fn.try_sites:
            if t.loc in out:
                continue
            hit = _check_try(fn, t, w.sites, by_loc)
            if hit is not None:
                out[t.loc] = SameText(t.loc, tool.name, *hit)
    return sorted(out.values(), key=lambda s: (s.loc.line, s.loc.col))


def _check_try(fn: FunctionFacts, t: TrySite, sites: list[Site],
               by_loc: dict[Loc, ReturnSite]) -> tuple[str, str, Loc, Loc] | None:
    mine = set(t.handlers)
    effects = _effect_sites(fn, sites, lambda cs: any(h in mine for h in cs.guarded_by))
    if not effects:
        return None
    # A side effect outside this `try` (the tool's main action, done before or after it) makes the
    # guarded one look like a best-effort extra (a history or cache write): the success text may
    # still be true, so only a `try` that holds every side effect of the tool is judged.
    handled = _effect_sites(fn, sites, lambda cs: cs.in_handler in mine)
    if any(s.effect is not None for s in sites if s not in effects and s not in handled):
        return None
    after = by_loc.get(t.next_return) if t.next_return is not None else None
    success = [r for r in fn.return_sites if any(h in mine for h in r.guarded_by)]
    if t.body_falls_through and after is not None:
        success.append(after)
    for i, h in enumerate(t.handlers):
        if h.reraises or _effect_sites(fn, sites, lambda cs, h=h: cs.in_handler == h):
            continue  # it raises (ModelRetry, ToolException, re-raise), or records the failure itself
        binds = t.handler_binds[i] if i < len(t.handler_binds) else ()
        ends: list[ReturnSite] = [r for r in fn.return_sites if r.in_handler == h]
        if t.handler_falls_through[i] and after is not None:
            ends.append(after)
        for end in ends:
            text = _text(end, binds)
            if text is None:
                continue
            for ok in success:
                if _text(ok) == text:
                    return text, effects[0].effect.description if effects[0].effect else "", h.loc, ok.loc
    return None
