"""Side effects of a tool that cancellation cannot stop (SIB1xx), found by walking its call tree.

When a sibling call fails fatally, the SDK cancels the tool's task. Cancellation reaches an
`async def` only at an await, so a side effect still lands when (runtime reference, section B):

* SIB101: the tool is a sync `def`: the SDK runs it in a worker thread (arms 2, 2r, 7a);
* SIB102: an async tool hands it to a thread or executor (`asyncio.to_thread`, `run_in_executor`,
  `executor.submit`): cancelling the await leaves the thread running (arm 6b);
* SIB103: an async tool does it through a blocking call before any await: the loop cannot deliver
  the cancellation (arms 4, 4r);
* SIB104: an async tool swallows `CancelledError` (`except CancelledError/BaseException/:` without
  re-raising, `contextlib.suppress(CancelledError)`) around or before it (arms 5a-5c);
* SIB105: it is shielded (`asyncio.shield`) or in `finally:` / `__exit__` / `__aexit__`: it completes
  during cancellation while the run records nothing (arms 5e, 6).

The walk follows calls into project functions (other modules too) up to `MAX_DEPTH` levels below
the tool, once per function and context. An awaited async helper is cancellable like the tool
itself; a sync helper called from async code blocks the loop; a function handed to a thread runs
to completion. Each effect call gets one code, the first that applies in the order above.

Not analysed: `Agent.as_tool` (the nested agent's own tools are linted where they are defined;
following them into the nested group is future work) and MCP servers (no local body).
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, replace

from siblint.config import Config
from siblint.diagnostics import Loc
from siblint.effects import LIBRARY_ROOTS, Bindings, Effect, effect_of, is_pure, method_name, receiver_of
from siblint.facts import Call, CallSite, FunctionFacts, Handler, Lambda, ModuleFacts, Ref, Value
from siblint.project import ProjectIndex
from siblint.tools import Tool, callee_in_module, resolve_function

MAX_DEPTH = 3  # project functions followed below the tool

# Calls that run a function in another thread: callee or method name -> position of the function.
THREAD_HANDOFFS: dict[str, int] = {
    "asyncio.to_thread": 0,
    "anyio.to_thread.run_sync": 0,
    "starlette.concurrency.run_in_threadpool": 0,
    "fastapi.concurrency.run_in_threadpool": 0,
    "asgiref.sync.sync_to_async": 0,
}
THREAD_HANDOFF_METHODS: dict[str, int] = {"run_in_executor": 1, "submit": 0}  # loop.run_in_executor, executor.submit
SHIELDS = frozenset({"asyncio.shield"})
TASK_MAKERS = frozenset({"asyncio.create_task", "asyncio.ensure_future"})
PARTIALS = frozenset({"functools.partial"})
SUPPRESSORS = frozenset({"contextlib.suppress"})
# What `except X:` must name to catch cancellation ("*" is a bare `except:`). `Exception` does not.
CATCHES_CANCELLATION = frozenset({
    "asyncio.CancelledError", "asyncio.exceptions.CancelledError", "BaseException", "builtins.BaseException", "*",
})

CONTEXT_WORDS = {"SIB101": "sync", "SIB102": "in a worker thread", "SIB103": "blocking", "SIB104": "swallows cancellation"}


@dataclass(frozen=True)
class Hazard:
    """One side effect of `tool` that cancellation cannot stop, and why (`code`)."""

    code: str  # SIB101..SIB105
    description: str  # "sync, POST via requests": the context, then the effect
    path: str  # where the effect call is (possibly another module)
    loc: Loc
    tool: Tool
    effect: str  # the effect alone: "POST via requests"
    via: tuple[str, ...] = ()  # functions between the tool and the effect, outermost first


@dataclass(frozen=True)
class _State:
    mode: str  # "thread" | "loop" (async code on the event loop) | "loop_sync" (sync code on the loop)
    thread_code: str = ""  # SIB101 or SIB102 in thread mode
    awaits: int = 0  # awaits on the way here: cancellation can be delivered at any of them
    swallowed: bool = False  # a caller swallows cancellation around or before this point
    protected: str = ""  # "shielded" / "in finally" / "in __aexit__": runs during cancellation
    via: tuple[str, ...] = ()
    depth: int = 0


def unstoppable(tool: Tool, project: ProjectIndex, config: Config | None = None) -> list[Hazard]:
    """Every side effect of `tool` that cancellation cannot stop, SIB105 included, in walk order.

    Empty for tools without a local body (`as_tool`, MCP servers) and for tools whose function
    cannot be found. Results are cached per project, tool and configuration.
    """
    config = config or Config()
    cache = _CACHE.setdefault(project, {})
    key = (tool.key, tool.function, tool.kind, config.extend_side_effect_calls, config.pure_calls)
    if key not in cache:
        cache[key] = _Walk(tool, project, config).run()
    return list(cache[key])


_CACHE: "weakref.WeakKeyDictionary[ProjectIndex, dict[tuple, list[Hazard]]]" = weakref.WeakKeyDictionary()


def tool_function(tool: Tool, project: ProjectIndex) -> tuple[ModuleFacts, FunctionFacts] | None:
    """The facts of the function a tool runs, including functions nested in other functions."""
    found = resolve_function(tool.function, project)
    if found is not None:
        return found
    facts = project.module(tool.module) if tool.module else None
    if facts is None or not tool.function:
        return None
    if tool.function.startswith(tool.module + "."):
        fn = facts.functions.get(tool.function[len(tool.module) + 1 :])
        if fn is not None:
            return facts, fn
    # `function_tool(run_sql)` inside `make_tools()`: `run_sql` is `make_tools.run_sql` in the facts.
    scope = tool.scope
    while scope and "." not in tool.function:
        fn = facts.functions.get(f"{scope}.{tool.function}")
        if fn is not None:
            return facts, fn
        scope = scope.rpartition(".")[0]
    return None


class _Walk:
    def __init__(self, tool: Tool, project: ProjectIndex, config: Config) -> None:
        self.tool = tool
        self.project = project
        self.extend = config.extend_side_effect_calls
        self.pure = config.pure_calls
        self.hazards: list[Hazard] = []
        self.seen_hazards: set[tuple[str, str, Loc]] = set()
        self.visited: set[tuple] = set()

    def run(self) -> list[Hazard]:
        if self.tool.kind not in ("function", "constructed"):
            return []
        found = tool_function(self.tool, self.project)
        if found is None:
            return []
        facts, fn = found
        if self.tool.kind == "function" and not fn.is_async:
            state = _State("thread", "SIB101")
        else:  # async tools, and FunctionTool's on_invoke_tool (awaited by the SDK)
            state = _State("loop" if fn.is_async else "loop_sync")
        self.walk(facts, fn, state)
        return self.hazards

    # ---- one function --------------------------------------------------------------------------
    def walk(self, facts: ModuleFacts, fn: FunctionFacts, state: _State) -> None:
        key = (facts.path, fn.name, state.mode, state.thread_code, state.swallowed, state.protected, state.awaits > 0)
        if key in self.visited:
            return
        self.visited.add(key)
        b = Bindings(facts, fn)
        shielded = _shielded_locs(fn, b)
        swallowers = _swallowing_handlers(fn)
        thread_lambdas: list[Loc] = []
        for site in fn.calls:
            target = self._handoff_target(site.call, b)
            if isinstance(target, Lambda):
                thread_lambdas.append(target.loc)
        for site in fn.calls:
            call = site.call
            if is_pure(call, b, self.pure):
                continue
            here = self._state_at(site, state, shielded, swallowers, fn)
            if any(_inside(call.loc, r) for r in thread_lambdas):
                here = self._threaded(here)
            target = self._handoff_target(call, b)
            if target is not None and not isinstance(target, Lambda):
                self._handoff(facts, fn, site, target, self._threaded(here), b)
                continue
            eff = effect_of(call, b, awaited=site.awaited or call.loc in shielded, extend=self.extend, pure=self.pure)
            callee = None if eff is not None and eff.configured else self._resolve(facts, fn, call, b)
            if callee is not None:
                self._follow(callee, here, fn)
            elif eff is not None:
                self._record(facts, eff, here)
        for cm in _with_items(fn):
            for name, word in (("__exit__", "in __exit__"), ("__aexit__", "in __aexit__")):
                method = self._class_method(facts, fn, cm, name, b)
                if method is not None:
                    self._follow(method, replace(state, protected=state.protected or word), fn)

    def _state_at(self, site: CallSite, state: _State, shielded: set[Loc], swallowers: list[Handler],
                  fn: FunctionFacts) -> _State:
        protected = state.protected
        if not protected and site.call.loc in shielded:
            protected = "shielded"
        if not protected and site.in_finally:
            protected = "in finally"
        swallowed = state.swallowed or _swallowed(site, swallowers)
        return replace(state, awaits=state.awaits + site.awaits_before, swallowed=swallowed, protected=protected)

    def _threaded(self, state: _State) -> _State:
        if state.mode == "thread":
            return state
        return replace(state, mode="thread", thread_code="SIB102")

    # ---- hazards -------------------------------------------------------------------------------
    def _record(self, facts: ModuleFacts, eff: Effect, state: _State) -> None:
        code, context = "", ""
        if state.mode == "thread":
            code = state.thread_code
        elif state.mode == "loop_sync" and not eff.blocking:
            return  # a coroutine made in a sync helper runs (cancellably) where it is awaited
        elif state.swallowed:
            code = "SIB104"
        elif state.protected:
            code, context = "SIB105", state.protected
        elif eff.blocking and state.awaits == 0:
            code = "SIB103"
        if not code:
            return
        key = (code, facts.path, eff.call.loc)
        if key in self.seen_hazards:
            return
        self.seen_hazards.add(key)
        context = context or CONTEXT_WORDS[code]
        self.hazards.append(Hazard(code, f"{context}, {eff.description}", facts.path, eff.call.loc, self.tool,
                                   eff.description, state.via))

    # ---- following calls -----------------------------------------------------------------------
    def _follow(self, callee: tuple[ModuleFacts, FunctionFacts], state: _State, caller: FunctionFacts) -> None:
        facts, fn = callee
        if state.depth >= MAX_DEPTH:
            return
        if state.mode == "loop" and not fn.is_async:
            mode = "loop_sync"
        elif state.mode == "loop_sync" and fn.is_async:
            return  # calling an async function from sync code only makes a coroutine
        else:
            mode = state.mode
        self.walk(facts, fn, replace(state, mode=mode, via=state.via + (fn.name,), depth=state.depth + 1))

    def _handoff_target(self, call: Call, b: Bindings) -> Value | None:
        """The function `call` runs in another thread (unwrapping `functools.partial`), else None."""
        index = THREAD_HANDOFFS.get(call.callee)
        if index is None and receiver_of(call.func) is not None:
            index = THREAD_HANDOFF_METHODS.get(method_name(call.func))
        if index is None:
            return None
        target = call.arg(index, None)
        while isinstance(target, Call) and target.callee in PARTIALS and target.args:
            target = target.args[0]
        return target

    def _handoff(self, facts: ModuleFacts, fn: FunctionFacts, site: CallSite, target: Value, state: _State,
                 b: Bindings) -> None:
        if not isinstance(target, Ref):
            return
        args = site.call.args
        index = args.index(target) if target in args else -1
        as_call = Call(target, args[index + 1 :] if index >= 0 else (), site.call.kwargs, site.call.loc)
        if is_pure(as_call, b, self.pure):
            return
        eff = effect_of(as_call, b, extend=self.extend, pure=self.pure)
        callee = None if eff is not None and eff.configured else self._resolve(facts, fn, as_call, b)
        if callee is not None:
            self._follow(callee, state, fn)
        elif eff is not None:
            self._record(facts, eff, state)

    def _resolve(self, facts: ModuleFacts, fn: FunctionFacts, call: Call,
                 b: Bindings) -> tuple[ModuleFacts, FunctionFacts] | None:
        """The project function `call` runs: local, nested, a method of `self`, an object of a project
        class, or an import (other modules included)."""
        func = call.func
        if not isinstance(func, Ref):
            return None
        text, name = func.text, func.name
        final, local = callee_in_module(facts, fn, text)
        if local is not None or final:
            return (facts, local) if local is not None else None
        if "." in text:
            receiver = text.rpartition(".")[0]
            owner = self._class_method(facts, fn, b.value(receiver) or _annotated_object(facts, fn, receiver, func.loc),
                                       method_name(func), b)
            if owner is not None:
                return owner
        # Only names that came through an import can be project functions of other modules.
        if text.partition(".")[0] not in facts.imports or "." not in name or name.split(".")[0] in LIBRARY_ROOTS:
            return None
        return resolve_function(name, self.project)

    def _class_method(self, facts: ModuleFacts, fn: FunctionFacts, value: Value | None, method: str,
                      b: Bindings) -> tuple[ModuleFacts, FunctionFacts] | None:
        """`Cls.method` when `value` is `Cls(...)` for a project class `Cls`."""
        if not isinstance(value, Call) or not isinstance(value.func, Ref):
            return None
        cls_text, cls_name = value.func.text, value.func.name
        if cls_text in facts.classes:
            found = facts.functions.get(f"{cls_text}.{method}")
            return (facts, found) if found is not None else None
        if cls_name.split(".")[0] in LIBRARY_ROOTS or "." not in cls_name:
            return None
        resolved = self.project.resolve(cls_name)
        if resolved is None:
            return None
        other, local = resolved
        if local not in other.classes:
            return None
        found = other.functions.get(f"{local}.{method}")
        return (other, found) if found is not None else None


# ---- per-function helpers ------------------------------------------------------------------------

def _annotated_object(facts: ModuleFacts, fn: FunctionFacts, name: str, loc: Loc) -> Call | None:
    """`db` in `def make(db: Store)` (this function or an enclosing one) as if it were `Store()`."""
    scope = fn.name
    while scope:
        outer = facts.functions.get(scope)
        if outer is not None and name in outer.params:
            index = outer.params.index(name)
            names = outer.param_annotations[index] if index < len(outer.param_annotations) else ()
            return Call(Ref(names[0], names[0], loc), (), (), loc) if names else None
        scope = scope.rpartition(".")[0]
    return None


def _inside(loc: Loc, outer: Loc) -> bool:
    return (outer.line, outer.col) <= (loc.line, loc.col) and (loc.end_line, loc.end_col) <= (outer.end_line, outer.end_col)


def _shielded_locs(fn: FunctionFacts, b: Bindings) -> set[Loc]:
    """Locations of calls whose result is passed to `asyncio.shield`, directly or as a task."""
    out: set[Loc] = set()
    for site in fn.calls:
        if site.call.callee not in SHIELDS or not site.call.args:
            continue
        value: Value | None = site.call.args[0]
        for _ in range(3):
            if isinstance(value, Ref):
                value = b.value(value.text)
            elif isinstance(value, Call) and (value.callee in TASK_MAKERS or method_name(value.func) == "create_task") and value.args:
                out.add(value.loc)
                value = value.args[0]
            else:
                break
        if isinstance(value, Call):
            out.add(value.loc)
    return out


def _catches_cancellation(h: Handler) -> bool:
    return not h.reraises and any(c in CATCHES_CANCELLATION for c in h.catches)


def _swallowing_handlers(fn: FunctionFacts) -> list[Handler]:
    """Handlers that swallow cancellation and guard an await (where cancellation is delivered)."""
    out: list[Handler] = []
    for site in fn.calls:
        if site.awaited:
            out.extend(h for h in site.guarded_by if _catches_cancellation(h) and h not in out)
    return out


def _suppresses_cancellation(cm: Call) -> bool:
    return cm.callee in SUPPRESSORS and any(
        isinstance(a, Ref) and a.name in CATCHES_CANCELLATION for a in cm.args
    )


def _swallowed(site: CallSite, swallowers: list[Handler]) -> bool:
    """Cancellation is swallowed around this call, or by an earlier `try` of the same function."""
    if site.in_handler is not None and _catches_cancellation(site.in_handler):
        return True
    if any(h in swallowers for h in site.guarded_by):
        return True
    if any(_suppresses_cancellation(cm) for cm in site.with_items):
        return True
    return any(site.call.loc.line > h.loc.end_line for h in swallowers)


def _with_items(fn: FunctionFacts) -> list[Call]:
    seen: dict[Loc, Call] = {}
    for site in fn.calls:
        for cm in site.with_items:
            seen.setdefault(cm.loc, cm)
    for value in fn.with_bindings.values():
        if isinstance(value, Call):
            seen.setdefault(value.loc, value)
    return list(seen.values())
