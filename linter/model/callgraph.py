"""One walk of a tool's call graph: every call it can reach, once, with the context it runs in.

The walk starts at the function a tool runs and follows calls into project functions (other
modules too, through `siblint.model.semantic.callees`) up to `MAX_DEPTH` levels, once per function and
context. For each call it records the context that decides what cancellation and failures do to it:

* `mode`: "thread" (a sync tool in its worker thread, or a function handed to `asyncio.to_thread`,
  `run_in_executor`, `executor.submit`: nothing can stop it), "loop" (async code on the event loop,
  cancellable at its awaits), "loop_sync" (sync code called from async code: it blocks the loop);
* `handoff`: the thread was entered through such a handoff (not because the tool itself is sync);
* `awaits`: awaits on the way here, at which cancellation can be delivered;
* `swallowed`: a caller swallows cancellation around or before this point;
* `protected`: "shielded" / "in finally" / "in __exit__" / "in __aexit__": it runs during cancellation;
* `guarded`: inside a `try` whose handler catches `Exception` or broader (its errors do not escape).

A callable passed as an argument is followed where it is called (`await in_thread(insert)` where
`in_thread(work)` runs `asyncio.to_thread(lambda: work(conn))`). The effects (`siblint.effects`) of
the calls that are not followed are classified once, here. SIB1xx (`siblint.analyses.cancellation`),
SIB206 and SIB301 (`siblint.analyses.error_policy`) read the same walk.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, replace
from typing import Literal

from ..common.diagnostics import Loc
from ..effects import (
    STAGED_WRITES,
    Effect,
    effect_of,
    is_bookkeeping,
    is_bookkeeping_listener,
    is_memoised_setup,
    is_pure,
    is_scope_commit,
    method_name,
    receiver_of,
)
from ..js import modules as js_modules
from ..settings.config import Config
from ..syntax.facts import (
    Attr,
    Call,
    CallSite,
    Constant,
    Const,
    FString,
    FunctionFacts,
    Handler,
    Lambda,
    Mapping,
    ModuleFacts,
    Ref,
    Seq,
    Value,
)
from .groups import Member
from .nested import invoked_handler, nested_members
from .prebuilt_tools import prebuilt_call_effect, prebuilt_effect
from .project import ProjectIndex
from .read_through import stores_what_it_read
from .receivers import ReceiverScope, dynamic_method_effect
from .routes import served_route
from .served_mcp import served_tool
from .semantic import OWN_CLASS, Scope, callees, classes_of, method_of
from .tools import Tool, tool_function

MAX_DEPTH = 4  # project functions followed below the tool

# Calls that run a function in another thread: callee or method name -> position of the function.
THREAD_HANDOFFS: dict[str, int] = {
    "asyncio.to_thread": 0,
    "anyio.to_thread.run_sync": 0,
    "starlette.concurrency.run_in_threadpool": 0,
    "fastapi.concurrency.run_in_threadpool": 0,
    "asgiref.sync.sync_to_async": 0,
}
THREAD_HANDOFF_METHODS: dict[str, int] = {"run_in_executor": 1, "submit": 0}  # loop.run_in_executor, executor.submit
# Threads and processes a tool starts: constructor -> (position, keyword) of the function; it runs
# with the `args=` tuple and `kwargs=` dict given beside it, and nothing cancels it.
THREAD_STARTERS: dict[str, tuple[int, str]] = {
    "threading.Thread": (1, "target"),
    "threading.Timer": (1, "function"),
    "multiprocessing.Process": (1, "target"),
}
SHIELDS = frozenset({"asyncio.shield"})
CONTEXT_COPIES = frozenset({"contextvars.copy_context"})
TASK_MAKERS = frozenset({"asyncio.create_task", "asyncio.ensure_future"})
PARTIALS = frozenset({"functools.partial"})
SUPPRESSORS = frozenset({"contextlib.suppress"})
# What `except X:` must name to catch cancellation ("*" is a bare `except:`). `Exception` does not.
CATCHES_CANCELLATION = frozenset({
    "asyncio.CancelledError", "asyncio.exceptions.CancelledError", "BaseException", "builtins.BaseException", "*",
})
# What `except X:` must name to keep every failure of the guarded calls inside the function.
BROAD = frozenset({"Exception", "BaseException", "builtins.Exception", "builtins.BaseException", "*"})

Mode = Literal["thread", "loop", "loop_sync"]


@dataclass(frozen=True)
class Context:
    mode: Mode
    handoff: bool = False
    awaits: int = 0
    swallowed: bool = False
    protected: str = ""
    guarded: bool = False
    via: tuple[str, ...] = ()  # functions between the tool and here, outermost first
    depth: int = 0
    # The call in the tool's own function this was reached through (None in the tool's function):
    # where a finding about a helper in another module is reported (SIB4xx).
    entry: Loc | None = None
    # Under a sync tool the framework runs inline on the event loop: nothing in it can be
    # cancelled, and a thread it hands work to runs while the tool itself still holds the loop.
    inline: bool = False
    # A function on the path awaits again after the call that leads here: a cancellation that
    # arrives while a blocking call holds the loop is delivered there, after the effect landed.
    awaits_later: bool = False
    # The exceptions (last dotted part) that a `try` around the call path catches, narrower than
    # `guarded`'s `except Exception`: a helper's `raise ValueError` under `except ValueError` ends nothing.
    caught: frozenset[str] = frozenset()
    # The `with` body around the call leading here stages ORM writes on what it yields (`db.add(row)`):
    # the unit of work's commit makes them land (`siblint.effects.incidental.STAGED_WRITES`).
    staged: bool = False


@dataclass(frozen=True)
class Site:
    """A call the walk did not follow into a project function: an effect, I/O, or anything else."""

    facts: ModuleFacts
    fn: FunctionFacts
    call: Call
    ctx: Context
    effect: Effect | None
    awaited: bool
    scope: Scope

    def reported_at(self, path: str) -> Loc | None:
        """Where a finding about this call goes in the tool's module `path`: the call itself when it
        is there, else the call of the tool's own function that leads to it."""
        return self.call.loc if self.facts.path == path else self.ctx.entry


@dataclass(frozen=True)
class Visit:
    """A function the walk entered, with the context it runs in (its raise sites are read from it)."""

    facts: ModuleFacts
    fn: FunctionFacts
    ctx: Context
    entered_at: Loc | None = None  # the caller's call that entered it (None for the tool's own function)


@dataclass
class Walk:
    tool: Tool
    events: list[Visit | Site]  # in walk order: a function entered, then its calls (and callees) in turn
    sync_tool: bool  # the tool's own function is sync

    @property
    def sites(self) -> list[Site]:
        return [e for e in self.events if isinstance(e, Site)]

    def effect_sites(self) -> list[Site]:
        """The sites that perform a side effect, one per call (a helper reached twice counts once)."""
        out: list[Site] = []
        seen: set[tuple[str, Loc]] = set()
        for site in self.sites:
            if site.effect is not None and (site.facts.path, site.call.loc) not in seen:
                seen.add((site.facts.path, site.call.loc))
                out.append(site)
        return out


def walk(tool: Tool, project: ProjectIndex, config: Config | None = None, sync_in_thread: bool = False) -> Walk | None:
    """The walk of `tool`'s call graph, or None for tools without a local body (`as_tool`, MCP
    servers, a function that cannot be found). Cached per project, tool and configuration.
    `sync_in_thread`: the run moves sync tools into worker threads whatever the framework's default
    (`ConcurrencySpec.sync_threads`)."""
    config = config or Config()
    cache = _CACHE.setdefault(project, {})
    key = (tool.key, tool.function, tool.kind, tool.class_name, config.extend_side_effect_calls, config.pure_calls,
           sync_in_thread)
    if key not in cache:
        cache[key] = _Walker(tool, project, config, sync_in_thread).run()
    return cache[key]


_CACHE: "weakref.WeakKeyDictionary[ProjectIndex, dict[tuple, Walk | None]]" = weakref.WeakKeyDictionary()


def forget_walks(project: ProjectIndex) -> None:
    """Drop `project`'s walks: they are keyed by a tool's position, not by the text they walked,
    so a project that outlives an edit (the language server's) must not reuse them."""
    _CACHE.pop(project, None)
    _HOLLOW.pop(project, None)
    _HOLLOW_AWAITS.pop(project, None)

Arguments = dict[str, tuple[Scope, Value]]


class _Walker:
    def __init__(self, tool: Tool, project: ProjectIndex, config: Config, sync_in_thread: bool = False) -> None:
        self.tool = tool
        self.sync_in_thread = sync_in_thread
        self.project = project
        self.extend = config.extend_side_effect_calls
        self.pure = config.pure_calls
        self.events: list[Visit | Site] = []
        self.visited: set[tuple] = set()
        self.own: tuple[Scope, Value] | None = None  # the tool's class, where its method is inherited (OWN_CLASS)
        # A unit of work's commit whose body stages nothing itself: kept when the walk stages an ORM
        # write elsewhere (a service the body hands the session to: `TaskService(session).create_task()`).
        self.pending_commits: set[tuple[str, Loc]] = set()

    def run(self) -> Walk | None:
        if self.tool.kind not in ("function", "constructed"):
            return None
        found = tool_function(self.tool, self.project)
        if found is None:
            return None
        facts, fn = found
        if self.tool.class_name and self.tool.class_name != fn.class_name:  # a method its class inherits
            made_in = self.project.facts_for_path(self.tool.path)
            if made_in is not None and self.tool.class_name in made_in.classes:
                self.own = (Scope(made_in), Ref(self.tool.class_name, self.tool.class_name, self.tool.loc))
        thread = self.sync_in_thread or _sync_in_thread(self.tool, self.project)
        if self.tool.kind == "function" and not fn.is_async:
            ctx = Context("thread") if thread else Context("loop_sync", inline=True)
        else:  # async tools, and FunctionTool's on_invoke_tool (awaited by the SDK)
            ctx = Context("loop" if fn.is_async else "loop_sync")
        self.enter(facts, fn, ctx, {})
        if self.pending_commits and not any(isinstance(e, Site) and _stages_orm_write(e) for e in self.events):
            self.events = [replace(e, effect=None) if isinstance(e, Site) and (e.facts.path, e.call.loc)
                           in self.pending_commits else e for e in self.events]
        return Walk(self.tool, self.events, not fn.is_async)

    # ---- one function --------------------------------------------------------------------------
    def enter(self, facts: ModuleFacts, fn: FunctionFacts, ctx: Context, args: Arguments, at: Loc | None = None) -> None:
        if self.own is not None:
            args = {**args, OWN_CLASS: self.own}
        key = (facts.path, fn.name, ctx.mode, ctx.handoff, ctx.swallowed, ctx.protected, ctx.guarded, ctx.awaits > 0,
               ctx.entry, ctx.awaits_later, tuple(sorted((k, v[1].loc) for k, v in args.items())))
        if key in self.visited:
            return
        self.visited.add(key)
        self.events.append(Visit(facts, fn, ctx, at))
        scope = ReceiverScope(facts, fn.name, self.project, args)
        shielded = _shielded_locs(fn, scope)
        swallowers = _swallowing_handlers(fn)
        thread_lambdas = [t.loc for t in (_handoff_target(s.call, scope) for s in fn.calls) if isinstance(t, Lambda)]
        hollow = _hollow_awaits(scope, fn, args, self.project)
        for site in fn.calls:
            call = site.call
            if is_pure(call, scope, self.pure) or _arm_not_taken(site, scope):
                continue
            if ctx.depth and stores_what_it_read(fn, scope, call):
                continue  # a helper's read-through cache (`siblint.model.read_through`)
            here = _context_at(site, ctx, shielded, swallowers, fn, hollow)
            if any(call.loc.within(r) for r in thread_lambdas):
                here = _threaded(here)
            target = _handoff_target(call, scope)
            if target is not None and not isinstance(target, Lambda):
                self.handoff(facts, fn, scope, site, target, _threaded(here), args)
                continue
            awaited = site.awaited or call.loc in shielded
            self.call(facts, fn, scope, call, here, awaited, args)
        for cm in _with_items(fn):
            for name, word in (("__exit__", "in __exit__"), ("__aexit__", "in __aexit__")):
                for cls in classes_of(scope, cm, self.project):
                    method = method_of(cls, name, self.project)
                    if method is not None:
                        self.follow(method, replace(ctx, protected=ctx.protected or word), {})

    def call(self, facts: ModuleFacts, fn: FunctionFacts, scope: Scope, call: Call, ctx: Context, awaited: bool,
             args: Arguments) -> None:
        eff = effect_of(call, scope, awaited=awaited, extend=self.extend, pure=self.pure) \
            or dynamic_method_effect(call, scope, awaited) or prebuilt_call_effect(call, scope) \
            or self._passed_method_effect(call, awaited, args)
        # A helper's credential or cache upkeep, also what it delegates (`_get_token()` calling
        # `_encrypt(password)`), and a unit of work's commit (`siblint.effects.incidental`).
        if eff is not None and ctx.depth and not eff.configured:
            if any(is_bookkeeping(eff, helper) for helper in ctx.via):
                eff = None
            elif not ctx.staged and is_scope_commit(eff, fn.name, _decorator_names(fn)):
                self.pending_commits.add((facts.path, call.loc))
        if eff is not None and eff.kind == "mcp" and not eff.configured and self._served_without_effect(eff, scope):
            eff = None  # the repository's own MCP server: its tool does nothing a tool's effect would be
        handler = None if eff is None or eff.configured else \
            invoked_handler(eff.method, call, scope, self.project) if eff.kind == "cloud" else \
            served_route(eff, facts, self.project) if eff.kind == "http" else None
        if handler is not None:  # a Lambda or a route of this repository: its handler's effects, not the request
            self.follow(handler, ctx if ctx.depth else replace(ctx, entry=call.loc), {}, call.loc)
            return
        targets = [] if eff is not None and eff.configured else callees(scope, call, self.project, arguments=args)
        # A once-a-process initializer's setup is not this call's effect (`siblint.effects.incidental`).
        targets = [t for t in targets if t[1].params or not t[1].decorators
                   or not is_memoised_setup(_decorator_names(t[1]), t[1].params)]
        if targets:
            inner = ctx if ctx.depth else replace(ctx, entry=call.loc)
            if not inner.staged and _stages_writes(fn, call):
                inner = replace(inner, staged=True)
            for target in targets:
                keywords = not target[0].module.startswith(js_modules.PREFIX)  # JS has no keyword arguments
                self.follow(target, inner, _bind(target[1], call, scope, args, keywords), call.loc)
        elif eff is None and (members := nested_members(call, scope, self.project)):
            self.run_agent(facts, fn, scope, call, ctx, awaited, members)
            self.events.append(Site(facts, fn, call, ctx, None, awaited, scope))  # the sub-run's own model call
        else:
            self.events.append(Site(facts, fn, call, ctx, eff, awaited, scope))
            if eff is None:
                # A function written in place as an argument runs: a Promise's executor, a `map` or
                # `forEach` callback, an event handler (`new Promise((resolve) => { spawn(...) })`).
                # It sees what the enclosing function's parameters were given, as its closure does.
                for callback in _inline_callbacks(scope, call):
                    closure = {name: given for name, given in args.items() if name not in callback.params}
                    self.follow((facts, callback), ctx if ctx.depth else replace(ctx, entry=call.loc), closure, call.loc)

    def _served_without_effect(self, eff: Effect, scope: Scope) -> bool:
        """Is the MCP tool `eff` calls one of this repository's servers' tools, whose own walk finds no
        effect (`siblint.model.served_mcp`)?"""
        tool = served_tool(eff, scope, self.project)
        found = walk(tool, self.project) if tool is not None and tool.key != self.tool.key else None
        return found is not None and not found.effect_sites()

    def run_agent(self, facts: ModuleFacts, fn: FunctionFacts, scope: Scope, call: Call, ctx: Context,
                  awaited: bool, members: list[Member]) -> None:
        """`sub(prompt)` of `sub = Agent(tools=[...])`: each member runs as if this call ran it."""
        inner = ctx if ctx.depth else replace(ctx, entry=call.loc)
        for member in members:
            if member.tool.kind == "prebuilt":
                self.events.append(Site(facts, fn, call, ctx, prebuilt_effect(member.tool.function, call),
                                        awaited, scope))
                continue
            target = tool_function(member.tool, self.project)
            if target is None or inner.depth >= MAX_DEPTH:
                continue
            # The sub-run runs each tool as its framework does: a sync one in a worker thread where
            # the framework does so, an async one on the sub-run's loop.
            sub_fn = target[1]
            mode: Mode = "loop" if sub_fn.is_async else ("thread" if _sync_in_thread(member.tool, self.project) else inner.mode)
            # From an async tool, that worker thread is a handoff: the tool itself is not sync.
            handoff = inner.handoff or (mode == "thread" and inner.mode != "thread")
            self.enter(*target, replace(inner, mode=mode, handoff=handoff, via=inner.via + (sub_fn.name,),
                                        depth=inner.depth + 1), {}, call.loc)

    def _passed_method_effect(self, call: Call, awaited: bool, args: Arguments) -> Effect | None:
        """`create_fn(namespace, doc)` where the caller passed a library client's method
        (`_create_or_patch(apps.create_namespaced_deployment, ...)`): that method's effect, its
        receiver read where it was passed."""
        passed = args.get(call.func.text) if isinstance(call.func, Ref) and "." not in call.func.text else None
        if passed is None or not isinstance(passed[1], (Ref, Attr)) or receiver_of(passed[1]) is None:
            return None
        where, method = passed
        as_call = Call(method, call.args, call.kwargs, call.loc, call.starred)
        return effect_of(as_call, where, awaited=awaited, extend=self.extend, pure=self.pure) \
            or dynamic_method_effect(as_call, where, awaited)

    def handoff(self, facts: ModuleFacts, fn: FunctionFacts, scope: Scope, site: CallSite, target: Value,
                ctx: Context, args: Arguments) -> None:
        """`asyncio.to_thread(f, *a)`: the call `f(*a)` runs in the thread; `threading.Thread(target=f,
        args=(a,))` runs `f(a)`."""
        if not isinstance(target, Ref):
            return
        if site.call.callee in THREAD_STARTERS:
            given_args = site.call.kwarg("args")
            given_kwargs = site.call.kwarg("kwargs")
            as_call = Call(target, given_args.items if isinstance(given_args, Seq) else (),
                           tuple((k.value, v) for k, v in given_kwargs.items if isinstance(k, Const)
                                 and isinstance(k.value, str)) if isinstance(given_kwargs, Mapping) else (),
                           site.call.loc)
        else:
            given = site.call.args
            index = given.index(target) if target in given else -1
            as_call = Call(target, given[index + 1:] if index >= 0 else (), site.call.kwargs, site.call.loc)
        if is_pure(as_call, scope, self.pure):
            return
        self.call(facts, fn, scope, as_call, ctx, False, args)

    def follow(self, callee: tuple[ModuleFacts, FunctionFacts], ctx: Context, args: Arguments,
               at: Loc | None = None) -> None:
        facts, fn = callee
        if ctx.depth >= MAX_DEPTH:
            return
        if ctx.mode == "loop" and not fn.is_async:
            mode: Mode = "loop_sync"
        elif ctx.mode == "loop_sync" and fn.is_async and not facts.module.startswith(js_modules.PREFIX):
            return  # calling an async function from sync code only makes a coroutine
        elif ctx.mode == "loop_sync" and fn.is_async:
            mode = "loop"  # a JS async function runs when called; its promise is only handed back
        else:
            mode = ctx.mode
        # A function written in place (`fn@7:23`, a JS arrow) has no name to show on the way, and is
        # no level below its enclosing function (`items.map(async (x) => post(x))` is that function's work).
        inline = "@" in fn.name.rpartition(".")[2]
        via = ctx.via if inline else ctx.via + (fn.name,)
        self.enter(facts, fn, replace(ctx, mode=mode, via=via, depth=ctx.depth + (0 if inline and ctx.depth else 1)), args, at)


def _inline_callbacks(scope: Scope, call: Call) -> list[FunctionFacts]:
    """Functions written inside the call's own arguments (a JS arrow or function expression), but a
    handler of a bookkeeping event (`BOOKKEEPING_EVENTS`)."""
    event = call.args[0] if call.args else None
    if isinstance(event, Const) and is_bookkeeping_listener(method_name(call.func), event.value):
        return []
    out: list[FunctionFacts] = []
    for value in call.args:
        fn = scope.function(value) if isinstance(value, Ref) else None
        if fn is not None and fn.loc.within(call.loc):
            out.append(fn)
    return out


# What a parameter can be bound to: a callable passed in (a name, a method of an object made in
# place, a lambda, a call), or data the callee's effects are read from (`_run_git(["status"])`,
# `_request("GET", path)`).
_BOUND = (Ref, Attr, Lambda, Call, Const, FString, Seq, Mapping)




def _decorator_names(fn: FunctionFacts) -> tuple[str, ...]:
    """`@contextmanager` and `@lru_cache(maxsize=1)` alike: the resolved name of what decorates."""
    refs = (d.func if isinstance(d, Call) else d for d in fn.decorators)
    return tuple(r.name for r in refs if isinstance(r, Ref))


def _bind(fn: FunctionFacts, call: Call, scope: Scope, outer: Arguments | None = None,
          keywords: bool = True) -> Arguments:
    """The callee's parameters bound to the caller's argument values (`_BOUND`), and the literal
    defaults of those the call leaves out (`_api("/events")` of `def _api(path, method="GET")`).
    A caller's parameter passed on is what the caller's own caller bound it to (`outer`): a callable
    handed down through helpers (`execute(name, func)` calling `with_retry(func)`) is the one given.
    Without `keywords` (JS), the keys of an object argument, which the call also lists as its
    keywords, bind no parameter of the same name (`gql(doc, { query })` of `gql(query, vars)`)."""
    params = list(fn.params[: len(fn.params) - fn.kwonly])  # those a positional argument can fill
    if fn.class_name and params and params[0] in ("self", "cls"):
        params = params[1:]
    out: Arguments = {}

    def bound(value: Value) -> tuple[Scope, Value]:
        if outer and isinstance(value, Ref) and value.text in outer and scope.param(value.text) is not None:
            return outer[value.text]
        return scope, value

    for i, value in enumerate(call.args):
        if i < len(params) and i not in call.starred and isinstance(value, _BOUND):
            out[params[i]] = bound(value)
    extra = call.args[len(params):]
    if fn.star_param and extra and not any(i in call.starred for i in range(len(params))):
        # `*args` receives the rest (`_run_git(repo, "branch", "-a")`), or the caller's own `*args`
        # passed on whole (`_run_git(repo, *args)`).
        if len(extra) == 1 and len(params) in call.starred:
            if isinstance(extra[0], Ref):
                out[fn.star_param] = bound(extra[0])
        elif not any(i in call.starred for i in range(len(params), len(call.args))):
            out[fn.star_param] = (scope, Seq(tuple(extra), call.loc))
    for key, value in call.kwargs if keywords else ():
        if key in fn.params and isinstance(value, _BOUND):
            out[key] = bound(value)
    if call.starred or any(key is None for key, _ in call.kwargs):
        return out  # `*args` / `**kwargs` may pass any parameter
    given = set(params[: len(call.args)]) | ({key for key, _ in call.kwargs} if keywords else set())
    for name, default in fn.param_defaults:
        if name not in given:
            out[name] = (scope, default)
    return out


def _sync_in_thread(tool: Tool, project: ProjectIndex) -> bool:
    """Does the tool's framework, at the release the project pins, run a sync tool in a worker
    thread (unknown frameworks: yes)?"""
    from ..frameworks import FRAMEWORKS
    from .versions import sync_tools_in_threads

    return sync_tools_in_threads(next((fw for fw in FRAMEWORKS if fw.name == tool.framework), None), tool.path, project)


def _arm_not_taken(site: CallSite, scope: ReceiverScope) -> bool:
    """The call is in an `if` arm that this call path does not take: the caller passed (or left at
    its literal default) the parameter the arm tests a value the test rejects (`_call_api("/slots",
    "GET")` never runs the POST of the `else:` arm; `folder_id(path)` never runs the `if create:`
    arm of `create=False`)."""
    for branch in site.branches:
        if branch.name not in scope.arguments:
            continue
        known, literal = _member(scope, branch.name) if branch.test == "member" \
            else _literal(scope, branch.name, site.call.loc)
        if known and not branch.allows(literal):
            return True
    return False


def _literal(scope: ReceiverScope, name: str, loc: Loc) -> tuple[bool, object]:
    """(True, value) when `name` holds a literal on this call path: a string (through bindings and
    f-strings), a number, a bool or None; else (False, None)."""
    text = scope.text(Ref(name, name, loc))
    if text is not None:
        return True, text
    value = scope.value(name)
    return (True, value.value) if isinstance(value, Const) else (False, None)


def _member(scope: ReceiverScope, name: str) -> tuple[bool, object]:
    """(True, Constant) when `name` holds a member of an imported constant or enum as written
    (`ACTION.DELETE`) on this call path, for a `switch` on it; else (False, None)."""
    value = scope.arguments[name][1] if name in scope.arguments else None
    if isinstance(value, Ref) and value.name != value.text and "." in value.text:
        return True, Constant(value.text)
    return False, None


def _context_at(site: CallSite, ctx: Context, shielded: set[Loc], swallowers: list[Handler],
                fn: FunctionFacts, hollow: tuple[int, ...] = ()) -> Context:
    """The context `site` runs in. `hollow`: the awaits of `fn` (by their index) of project coroutines
    that never yield to the event loop: no cancellation can be delivered there."""
    protected = ctx.protected
    if not protected and site.call.loc in shielded:
        protected = "shielded"
    if not protected and site.in_finally:
        protected = "in finally"
    swallowed = ctx.swallowed or _swallowed(site, swallowers)
    guarded = ctx.guarded or any(any(c in BROAD for c in h.catches) for h in site.guarded_by)
    caught = ctx.caught.union(c.rpartition(".")[2] for h in site.guarded_by for c in h.catches) \
        if site.guarded_by else ctx.caught
    own = site.awaits_before + (1 if site.awaited else 0)
    later = ctx.awaits_later or fn.awaits - own - sum(1 for h in hollow if h >= own) > 0
    before = max(0, site.surely_awaited_before - sum(1 for h in hollow if h < site.awaits_before))
    return replace(ctx, awaits=ctx.awaits + before, swallowed=swallowed, protected=protected,
                   guarded=guarded, awaits_later=later, caught=caught)


def _never_suspends(scope: Scope, call: Call, project: ProjectIndex, depth: int = 0) -> bool:
    """`await call` never yields to the event loop: every function it runs is a project coroutine
    whose own awaits are all such calls (`async def create_record(): client.create(...)` wrapping
    a sync client). A library's coroutine, or any other await, may suspend."""
    targets = callees(scope, call, project) if depth <= MAX_DEPTH else []
    return bool(targets) and all(fn.is_async and _hollow(facts, fn, project, depth + 1) for facts, fn in targets)


def _hollow_awaits(scope: Scope, fn: FunctionFacts, args: Arguments, project: ProjectIndex) -> tuple[int, ...]:
    """Where `fn`'s awaits of coroutines that never suspend stand (their `awaits_before`): once per
    function, arguments and project, since every walk entering `fn` so asks the same."""
    memo = _HOLLOW_AWAITS.setdefault(project, {})
    key = (scope.facts.path, fn.name, tuple(sorted((k, v[1].loc) for k, v in args.items())))
    if key not in memo:
        memo[key] = tuple(s.awaits_before for s in fn.calls if s.awaited and _never_suspends(scope, s.call, project))
    return memo[key]


def _hollow(facts: ModuleFacts, fn: FunctionFacts, project: ProjectIndex, depth: int) -> bool:
    """The coroutine function `fn` never suspends (memoised per project; a cycle counts as suspending)."""
    memo = _HOLLOW.setdefault(project, {})
    key = (facts.path, fn.name)
    if key not in memo:
        memo[key] = False
        awaited = [s for s in fn.calls if s.awaited]
        scope = Scope(facts, fn.name)
        memo[key] = len(awaited) == fn.awaits and all(_never_suspends(scope, s.call, project, depth) for s in awaited)
    return memo[key]


_HOLLOW: "weakref.WeakKeyDictionary[ProjectIndex, dict[tuple[str, str], bool]]" = weakref.WeakKeyDictionary()
_HOLLOW_AWAITS: "weakref.WeakKeyDictionary[ProjectIndex, dict[tuple, tuple[int, ...]]]" = weakref.WeakKeyDictionary()


def _threaded(ctx: Context) -> Context:
    return ctx if ctx.mode == "thread" else replace(ctx, mode="thread", handoff=True)


def _handoff_target(call: Call, scope: Scope | None = None) -> Value | None:
    """The function `call` runs in another thread (unwrapping `functools.partial`), else None."""
    index = THREAD_HANDOFFS.get(call.callee)
    keyword = None
    if index is None and call.callee in THREAD_STARTERS:
        index, keyword = THREAD_STARTERS[call.callee]
    if index is None and receiver_of(call.func) is not None:
        index = THREAD_HANDOFF_METHODS.get(method_name(call.func))
    if index is None:
        return None
    target = call.arg(index, keyword)
    while isinstance(target, Call) and target.callee in PARTIALS and target.args:
        target = target.args[0]
    if _runs_in_context(target, scope):
        target = call.arg(index + 1, None)  # `pool.submit(copy_context().run, fn)` runs `fn`
    return target


def _runs_in_context(target: Value | None, scope: Scope | None) -> bool:
    """`ctx.run` / `copy_context().run`: a `contextvars.Context` running the next argument."""
    if target is None or method_name(target) != "run":
        return False
    head = receiver_of(target)
    if isinstance(head, Ref) and scope is not None:
        head = scope.value(head.text)
    return isinstance(head, Call) and head.callee in CONTEXT_COPIES


# ---- per-function context ------------------------------------------------------------------------
def _shielded_locs(fn: FunctionFacts, scope: Scope) -> set[Loc]:
    """Locations of calls whose result is passed to `asyncio.shield`, directly or as a task."""
    out: set[Loc] = set()
    for site in fn.calls:
        if site.call.callee not in SHIELDS or not site.call.args:
            continue
        value: Value | None = site.call.args[0]
        for _ in range(3):
            if isinstance(value, Ref):
                value = scope.value(value.text)
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
    return cm.callee in SUPPRESSORS and any(isinstance(a, Ref) and a.name in CATCHES_CANCELLATION for a in cm.args)


def _swallowed(site: CallSite, swallowers: list[Handler]) -> bool:
    """Cancellation is swallowed around this call, or by an earlier `try` of the same function."""
    if site.in_handler is not None and _catches_cancellation(site.in_handler):
        return True
    if any(h in swallowers for h in site.guarded_by):
        return True
    if any(_suppresses_cancellation(cm) for cm in site.with_items):
        return True
    return any(site.call.loc.line > h.loc.end_line for h in swallowers)


def _stages_orm_write(site: Site) -> bool:
    """Does the call stage a write on an ORM session (`self.session.add(task)`, `db.delete(row)`):
    on a receiver built as a session, or of unknown kind for any staging method but `delete`?"""
    method = method_name(site.call.func)
    receiver = receiver_of(site.call.func)
    if method not in STAGED_WRITES or receiver is None:
        return False
    made = site.scope.constructor(receiver)
    return "session" in made.lower() if made else method != "delete"


def _stages_writes(fn: FunctionFacts, cm: Call) -> bool:
    """Is `cm` a `with` item of `fn` whose body stages an ORM write on the name it binds
    (`with get_db_session() as db: db.add(row)`)?"""
    names = {name for name, value in fn.with_bindings.items() if isinstance(value, Call) and value.loc == cm.loc}
    return bool(names) and any(
        method_name(site.call.func) in STAGED_WRITES and any(item.loc == cm.loc for item in site.with_items)
        and isinstance(receiver := receiver_of(site.call.func), Ref) and receiver.text in names
        for site in fn.calls)


def _with_items(fn: FunctionFacts) -> list[Call]:
    seen: dict[Loc, Call] = {}
    for site in fn.calls:
        for cm in site.with_items:
            seen.setdefault(cm.loc, cm)
    for value in fn.with_bindings.values():
        if isinstance(value, Call):
            seen.setdefault(value.loc, value)
    return list(seen.values())
