"""Does a tool observe the abort signal its framework cancels it with? (The JS cancellation model.)

Where a framework cancels a turn's siblings by aborting a signal it hands each tool
(`ToolSpec.signal`: `execute(input, ctx, details)` and `details.signal` in @openai/agents), nothing
stops a tool that never looks at it: its side effect lands after the sibling failed, and the run's
error keeps no record of it (measured at @openai/agents 0.18.0 and 0.20.0). A tool observes the
signal when its function (or a function nested in it)

* passes it on to the call that performs or leads to the effect, inside an options object or
  `AbortSignal.any([...])` included (`fetch(url, { signal })`, `helper(x, { signal: details?.signal })`,
  or `details` itself), or anywhere in a function written inside the tool's (a callback);
* listens to it: `signal.addEventListener('abort', ...)` or `signal.onabort = ...`;
* or checks it (`signal.throwIfAborted()`, `signal.aborted`) after the last await before the effect,
  or gives it to that last await (`await fetchPage(url, signal)`, then the write): an abort during
  that await rejects it, and none can come between its end and the effect.
  A check before an await protects nothing after it: the abort may come during that await
  (measured: the early-check arm still charged). Nor does any of these protect an effect a helper
  performs after an await of its own (`storeArtifact()` uploading, then inserting the row).

Each effect of the tool's call-graph walk that the function does not protect this way is a hazard
with reason "ignores_signal". What observing does not do is said in SIB101's docs: a request
already sent (a POST in flight when the abort comes) still reaches the server.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..common.diagnostics import Loc
from ..frameworks.spec import Framework, Param
from ..model.callgraph import Site, Visit, Walk
from ..model.semantic import canonical
from ..syntax.facts import (
    Call,
    Either,
    FunctionFacts,
    Mapping,
    ModuleFacts,
    Ref,
    Seq,
    Starred,
    Value,
)

if TYPE_CHECKING:
    from ..model.tools import Tool
    from .cancellation import Hazard, Reason

MAX_ALIAS_ROUNDS = 4  # `const s = details.signal; const t = s;`


def _nested(facts: ModuleFacts, fn: FunctionFacts) -> list[FunctionFacts]:
    """`fn` and the functions written inside it (callbacks, `new Promise((res, rej) => ...)`)."""
    prefix = fn.name + "."
    return [fn, *(f for name, f in facts.functions.items() if name.startswith(prefix))]


def _signal_names(facts: ModuleFacts, fns: list[FunctionFacts], holder: str, attr: str) -> set[str]:
    """Names that hold the signal: `details.signal`, and locals bound from it (`const { signal } = details`,
    a destructured parameter `{ signal }`, `const s = details?.signal ?? other`)."""
    names = {f"{holder}.{attr}"}
    scopes = {f.name for f in fns}
    for _ in range(MAX_ALIAS_ROUNDS):
        grown = False
        for a in facts.assignments:
            if a.scope in scopes and a.op == "=" and a.target not in names and _holds(a.value, names | {holder}, attr):
                names.add(a.target)
                grown = True
        if not grown:
            break
    return names


def _mentions(value: Value | None, names: set[str], attr: str) -> bool:
    """Does `value` read one of `names` (or `<holder>.<attr>` of a holder in `names`)?"""
    if isinstance(value, Ref):
        return value.text in names or any(value.text == f"{n}.{attr}" for n in names)
    if isinstance(value, Call):
        return any(_mentions(a, names, attr) for a in value.args) or any(_mentions(v, names, attr) for _, v in value.kwargs)
    if isinstance(value, Mapping):
        return any(_mentions(v, names, attr) for _, v in value.items)
    if isinstance(value, (Seq,)):
        return any(_mentions(v, names, attr) for v in value.items)
    if isinstance(value, Starred):
        return _mentions(value.value, names, attr)
    if isinstance(value, Either):  # `details?.signal ?? context.signal`: the signal when there is one
        return any(_mentions(v, names, attr) for v in value.options)
    return False


def _holds(value: Value | None, names: set[str], attr: str) -> bool:
    """Does `value` hold the signal itself (`details?.signal ?? other`, `{ signal }`,
    `AbortSignal.any([signal, t])`)? What a call given the signal returns does not
    (`const currency = await loadCurrency(details?.signal)`)."""
    if isinstance(value, Call):
        return isinstance(value.func, Ref) and value.func.text == "AbortSignal.any" and \
            any(_mentions(a, names, attr) for a in value.args)
    return _mentions(value, names, attr)


class _Observation:
    """How the tool's function uses its signal: listened to, or passed on in a nested function
    (`handled`); where its own body passes it on, and where it checks it."""

    def __init__(self, facts: ModuleFacts, fn: FunctionFacts, holder: str, attr: str) -> None:
        fns = _nested(facts, fn)
        names = _signal_names(facts, fns, holder, attr)
        self.handled = False
        self.checks: list[tuple[int, Loc]] = []  # (awaits before, where) of checks in the tool's own body
        # (awaits before the next statement, where) of the calls of the tool's own body given the signal
        self.passes: list[tuple[int, Loc]] = []
        passes = names | {holder}
        for f in fns:
            for site in f.calls:
                func = site.call.func
                text = func.text if isinstance(func, Ref) else ""
                receiver, _, method = text.rpartition(".")
                if receiver in names and method == "throwIfAborted":
                    if f is fn:
                        self.checks.append((site.awaits_before, site.call.loc))
                    continue
                if receiver in names and method == "addEventListener":
                    self.handled = True
                    continue
                if any(_mentions(a, passes, attr) for a in site.call.args):
                    if f is fn:
                        self.passes.append((site.awaits_before + (1 if site.awaited else 0), site.call.loc))
                    else:
                        self.handled = True
            for read, awaits, loc in getattr(f, "state_reads", ()):
                if f is fn and read.rpartition(".")[0] in names:
                    self.checks.append((awaits, loc))
        for a in facts.assignments:
            if a.scope in {f.name for f in fns} and a.target.rpartition(".")[0] in names and a.target.endswith(".onabort"):
                self.handled = True

    def uses(self) -> bool:
        """Does the tool's body pass its signal on or check it anywhere?"""
        return bool(self.passes or self.checks)

    def protects(self, awaits_before: int, at: Loc, inner: int = 0) -> bool:
        """Is an effect reached at `at`, after `awaits_before` awaits of the tool's body and `inner`
        awaits of the helpers on the way, protected?"""
        if self.handled or any(loc == at for _, loc in self.passes):
            return True
        if inner > 0:
            return False
        before = (at.line, at.col)
        return any(awaits == awaits_before and (loc.line, loc.col) < before for awaits, loc in self.checks + self.passes)


def _position(site: Site, fn: FunctionFacts) -> tuple[int, Loc, int] | None:
    """(awaits before, location) in the tool's own body of the call that performs or leads to the
    effect, and the awaits of the helpers on the way before the effect."""
    if site.fn is fn:
        return next(((s.awaits_before, s.call.loc, 0) for s in fn.calls if s.call.loc == site.call.loc), None)
    if site.ctx.entry is not None:
        return next(((s.awaits_before, s.call.loc, site.ctx.awaits - s.surely_awaited_before)
                     for s in fn.calls if s.call.loc == site.ctx.entry), None)
    return None


def _signal_param(fw: Framework, tool: "Tool", fn: FunctionFacts, facts: ModuleFacts) -> Param | None:
    """Where the tool's function takes the signal holder: its maker's or tool base class's own place
    (`ToolSpec.signal_by_maker`), else the framework's. A tool made by `super({...})` in a
    subclass's constructor is made by the class's base (`extends DynamicStructuredTool`)."""
    own = fw.tools.signal_by_maker
    if own:
        made_by = [tool.options.func.name] if tool.options is not None and isinstance(tool.options.func, Ref) else []
        if made_by == ["super"]:
            made_by = list(facts.classes.get(tool.scope.rpartition(".")[0], ()))
        for name in (*made_by, *fn.bases):
            found = own.get(canonical(name)[1])
            if found is not None:
                return found
    return fw.tools.signal


def without_observed_run_signal(hazards: list["Hazard"], found: Walk | None, signals: frozenset[str]) -> list["Hazard"]:
    """`hazards` less those of a tool ignoring its own signal ("ignores_run_signal") whose walk passes
    one of the callers' own abort `signals` on (`halFetch(path, { abortSignal: config.abortSignal })`
    in a closure over the caller's `config`): its requests observe the signal the caller aborts, as a
    tool passing its `options.abortSignal` on does (tests/runtime/js/test_vercel_ai.py,
    stream_caller_signal_passed_on). For SIB101 and SIB301 alike."""
    if not signals or found is None or not any(h.reason == "ignores_run_signal" for h in hazards):
        return hazards
    names = set(signals)
    if not any(_mentions(arg, names, "") for event in found.events if isinstance(event, Visit)
               for site in event.fn.calls for arg in (*site.call.args, *(v for _, v in site.call.kwargs))):
        return hazards
    return [h for h in hazards if h.reason != "ignores_run_signal"]


def hazards(fw: Framework, found: Walk, facts: ModuleFacts, fn: FunctionFacts) -> list["Hazard"]:
    """Every side effect of the walked tool that its function does not protect by observing its signal."""
    from .cancellation import Hazard

    spec = _signal_param(fw, found.tool, fn, facts)
    if spec is None:
        return []
    position = spec.position if spec.position is not None else len(fn.params)
    takes = position < len(fn.params)
    observed = _Observation(facts, fn, fn.params[position], fw.tools.signal_attr) if takes else None
    word = f"{spec.keyword}.{fw.tools.signal_attr}"
    out: list[Hazard] = []
    for site in found.effect_sites():
        if site.effect is None:
            continue
        where = _position(site, fn)
        if observed is not None and (where is None or observed.protects(*where)):
            continue
        context = f"never takes {spec.keyword} (so never sees {word})" if not takes else \
            f"does not observe {word} after its last await" if observed is not None and observed.uses() else \
            f"never observes {word}"
        reason: Reason = "ignores_run_signal" if fw.tools.signal_aborted_by == "run" else "ignores_signal"
        out.append(Hazard(reason, f"{context}, {site.effect.description}", site.facts.path, site.call.loc,
                          found.tool, site.effect.description, site.ctx.via))
    return out
