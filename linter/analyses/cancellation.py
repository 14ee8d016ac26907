"""Side effects of a tool that cancellation cannot stop, read from the tool's call-graph walk.

When a sibling call fails fatally, the SDK cancels the tool's task. Cancellation reaches an
`async def` only at an await, so a side effect still lands when (each reason is reported by one
rule of `siblint.rules.side_effects`; the runtime scenarios in tests/runtime/scenarios.py show it):

* "sync_thread": the tool is a sync `def` that the framework runs in a worker thread (scenario
  `sync_charge`);
* "handoff": an async tool hands it to a thread or executor (`asyncio.to_thread`,
  `run_in_executor`, `executor.submit`), or a library does (aiofiles): cancelling the await leaves
  the thread running (`to_thread_charge`);
* "blocking_late": an async tool does it through a blocking call after an await and awaits again
  later: the call holds the loop, so it lands; cancellation is delivered at the later await and
  the tool's result is discarded (the runtime's arm 4 records an `async def` that never awaits again);
* "blocking_last": an async tool does it through a blocking call after its last await: a cancellation
  delivered at an await before stops it, but once started nothing can, and every other call of the
  turn waits behind it. The tool then returns and its result is kept, so it orphans nothing (not a
  SIB301 victim, `RESULT_KEPT`); SIB103 reports it as it reports "blocking";
* "blocking": an async tool does it through a blocking call before any await, or a sync tool the
  framework runs inline on the event loop does it: the loop cannot deliver the cancellation
  (`blocking_async_charge`);
* "swallowed": an async tool swallows `CancelledError` (`except CancelledError/BaseException/:`
  without re-raising, `contextlib.suppress(CancelledError)`) around or before it
  (`swallow_base_exception`);
* "protected": it is shielded (`asyncio.shield`) or in `finally:` / `__exit__` / `__aexit__`: it
  completes during cancellation while the run records nothing (`shielded_charge`, `charge_in_finally`).

Each effect call gets one reason, the first that applies in the order above.

A framework that cancels by aborting a signal it hands the tool (`ToolSpec.signal`: @openai/agents
for JS) has none of these: there a side effect lands when the tool never observes that signal
(reason "ignores_signal", `siblint.analyses.signal_flow`); where only the caller's abort or a run
deadline aborts it (`ToolSpec.signal_aborted_by`, the Vercel AI SDK), "ignores_run_signal".
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from ..common.diagnostics import Loc
from ..frameworks import FRAMEWORKS
from ..frameworks.prebuilt import prebuilt_or_kit
from ..model.callgraph import Site, walk
from ..model.project import ProjectIndex
from ..model.tools import Tool, tool_function
from ..model.versions import sync_tools_in_threads
from ..settings.config import Config
from . import signal_flow

Reason = Literal["sync_thread", "handoff", "blocking", "blocking_late", "blocking_last", "swallowed", "protected", "lands",
                 "ignores_signal", "ignores_run_signal"]

# How a hazard's context is worded in messages and related locations.
CONTEXT_WORDS: dict[str, str] = {"sync_thread": "sync", "handoff": "in a worker thread", "blocking": "blocking",
                                 "blocking_late": "blocking between awaits", "blocking_last": "blocking after its last await",
                                 "swallowed": "swallows cancellation"}


# Reasons whose tool still returns its result to the run: the effect lands, but nothing is orphaned.
RESULT_KEPT: tuple[Reason, ...] = ("blocking_last",)


@dataclass(frozen=True)
class Hazard:
    """One side effect of `tool` that cancellation cannot stop, and why (`reason`)."""

    reason: Reason
    description: str  # "sync, POST via requests": the context, then the effect
    path: str  # where the effect call is (possibly another module)
    loc: Loc
    tool: Tool
    effect: str  # the effect alone: "POST via requests"
    via: tuple[str, ...] = ()  # functions between the tool and the effect, outermost first


def _reason(site: Site) -> tuple[Reason, str] | None:
    ctx, eff = site.ctx, site.effect
    if eff is None:
        return None
    if ctx.mode == "thread":
        if ctx.inline:
            return "blocking", ""  # handed off by a sync tool that holds the loop until it returns
        return ("handoff" if ctx.handoff else "sync_thread"), ""
    if ctx.mode == "loop" and eff.threaded:
        return "handoff", ""  # the library hands it to its own thread (aiofiles)
    if ctx.mode == "loop_sync" and not eff.blocking:
        return None  # a coroutine made in a sync helper runs (cancellably) where it is awaited
    if ctx.swallowed:
        return "swallowed", ""
    if ctx.protected:
        return "protected", ctx.protected
    if eff.blocking and ctx.awaits == 0:
        return "blocking", ""
    if eff.blocking:
        # On the loop, directly or in a sync helper. Cancellation cannot stop the call (it holds the
        # loop); when a later await of this function or of one that called it follows, it is
        # delivered there: the effect has landed, the result is lost. Else the tool returns it.
        return ("blocking_late" if ctx.awaits_later else "blocking_last"), ""
    return None


def unstoppable(tool: Tool, project: ProjectIndex, config: Config | None = None,
                sync_in_thread: bool = False) -> list[Hazard]:
    """Every side effect of `tool` that cancellation cannot stop ("protected" included), in walk order.
    `sync_in_thread`: a run moves the framework's sync tools into worker threads (`siblint.model.callgraph.walk`)."""
    if tool.kind == "prebuilt":
        return _prebuilt_hazards(tool, project, sync_in_thread)
    found = walk(tool, project, config, sync_in_thread)
    if found is None:
        return []
    fw = next((f for f in FRAMEWORKS if f.name == tool.framework), None)
    if fw is not None and fw.tools.signal is not None:
        own = tool_function(tool, project)
        return signal_flow.hazards(fw, found, *own) if own is not None else []
    out: list[Hazard] = []
    seen: set[tuple[str, str, Loc]] = set()
    for site in found.sites:
        judged = _reason(site)
        if judged is None or site.effect is None:
            continue
        reason, context = judged
        key = (reason, site.facts.path, site.call.loc)
        if key in seen:
            continue
        seen.add(key)
        words = context or CONTEXT_WORDS[reason]
        out.append(Hazard(reason, f"{words}, {site.effect.description}", site.facts.path, site.call.loc, tool,
                          site.effect.description, site.ctx.via))
    return out


def side_effects(tool: Tool, project: ProjectIndex, config: Config | None = None) -> list[Hazard]:
    """Every side effect of `tool`, cancellable or not (reason "lands"): in a group that cancels
    nothing, each of them lands after the run raised."""
    if tool.kind == "prebuilt":
        return [replace(h, reason="lands") for h in _prebuilt_hazards(tool, project, False)]
    found = walk(tool, project, config)
    if found is None:
        return []
    word = "sync" if found.sync_tool else "async"
    return [Hazard("lands", f"{word}, {site.effect.description}", site.facts.path, site.call.loc, tool,
                   site.effect.description, site.ctx.via) for site in found.effect_sites() if site.effect is not None]


def _prebuilt_hazards(tool: Tool, project: ProjectIndex, sync_in_thread: bool) -> list[Hazard]:
    """A prebuilt tool's effect (`siblint.frameworks.prebuilt`): each is a sync function the
    framework of its protocol runs in a worker thread, or inline on the event loop."""
    entry = prebuilt_or_kit(tool.function)
    if entry is None:
        return []
    fw = next((f for f in FRAMEWORKS if f.name == tool.framework), None)
    thread = sync_in_thread or sync_tools_in_threads(fw, tool.path, project)
    reason: Reason = "sync_thread" if thread else "blocking"
    effect = f"{tool.function} {entry.effect}"
    return [Hazard(reason, f"{CONTEXT_WORDS[reason]}, {effect}", tool.path, tool.loc, tool, effect)]
