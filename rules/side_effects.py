"""SIB1xx: tool side effects that cancellation cannot stop.

When one tool call of a turn fails fatally, the SDK cancels its siblings and the run raises. A
sibling that cannot observe the cancellation still lands its side effect (a card charged, an email
sent) after the run has raised, and the error records nothing (`exc.run_data.new_items == []`).
Measured with openai-agents 0.24.0 by the runtime tests (tests/runtime/scenarios.py).

Each rule reports at the tool's `def` line, with the side-effecting call (possibly in a helper of
another module) as a related location. The analysis is in `siblint.analyses.cancellation` (each hazard has a
reason; each rule reports one reason); what counts as a side effect is `siblint.effects`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, ClassVar, NamedTuple

from siblint.common.diagnostics import Diagnostic, Loc, Related
from siblint.frameworks import FRAMEWORKS
from siblint.rule_api.fixes import DISPLAY_ONLY, FixSpec
from siblint.rule_api.rule import Context, Invalid, Rule, Valid
from siblint.rules import examples_js, examples_langchain_js, examples_vercel

if TYPE_CHECKING:
    from siblint.analyses.cancellation import Hazard
    from siblint.model.tools import Tool
    from siblint.syntax.facts import ModuleFacts


def in_every_framework(examples: list) -> list:
    """The same examples in each framework's spelling (line numbers unchanged), so every rule's
    documentation shows, and its tests prove, that the analysis does not depend on the framework."""
    out = list(examples)
    for fw in FRAMEWORKS:
        if fw.example is None:
            continue
        header, decorator = fw.example
        out += [replace(ex, code=_spelled(ex.code, header, decorator, fw.example_group)) for ex in examples]
    return out


_DECORATED = re.compile(r"^@function_tool\n(?:@.*\n)*(?:async )?def (\w+)", re.MULTILINE)


def _spelled(code: str, header: str, decorator: str, group: str) -> str:
    """`code` in one framework's spelling; without a decorator, the tools join a group appended at the end."""
    spelled = code.replace("from agents import function_tool", header)
    tools = _DECORATED.findall(code) if group and header in spelled else []
    spelled = spelled.replace("@function_tool", decorator)
    return f"{spelled.rstrip()}\n\n{group.format(tools=', '.join(tools))}\n" if tools else spelled


class _Made(NamedTuple):
    """A tool this module reports, with its hazards: `at` its `def` here, `maker` the module making
    it (its own, or an importer wrapping a function defined here: `FunctionTool(func=mod.f)`), from
    where the groups running it are looked for."""

    tool: "Tool"
    hazards: list["Hazard"]
    at: Loc
    maker: ModuleFacts


def _hazards(ctx: Context) -> list[_Made]:
    """Hazards of every tool this module defines, computed once per file for the five rules. A tool of
    a group this module runs with sync tools in worker threads (`RunConfig(tool_thread_pool_config=...)`)
    is judged as running in one."""
    from siblint.analyses.cancellation import unstoppable
    from siblint.model.tools import tools_in

    def compute() -> list[_Made]:
        from siblint.model.groups import (
            groups_in,
            hands_out_beside_agent_code,
            hands_out_plain_functions,
            listed_by_importers,
            reported_at_def,
            wrapped_by_importers,
        )
        from siblint.model.tools import (
            decorated_by_project_makers,
            defined_elsewhere,
            inherited_tool_classes,
            made_for_subclasses,
            registered_from_imports,
        )

        threaded = {m.tool.key for g in ctx.groups() if g.sync_threads for m in g.members()}
        # A tool made of a function another module defines is reported at that `def`, by that module.
        made = [_Made(t, [], t.loc, ctx.facts) for t in tools_in(ctx.facts)
                if not reported_at_def(t, ctx.project) and not made_for_subclasses(t, ctx.facts)]
        made += [_Made(t, [], t.loc, ctx.facts) for t in decorated_by_project_makers(ctx.facts, ctx.project)]
        made += [_Made(t, [], t.loc, ctx.facts) for t in inherited_tool_classes(ctx.facts, ctx.project)]
        made += [_Made(t, [], t.loc, ctx.facts) for t in registered_from_imports(ctx.facts, ctx.project)]
        pooled = {t.key for t in (m.tool for m in made) if t.key in threaded}
        for tool, maker in wrapped_by_importers(ctx.facts, ctx.project):
            found = defined_elsewhere(tool, ctx.project)
            if found is not None and found[1].loc not in {m.at for m in made}:  # one finding however many wrap it
                made.append(_Made(tool, [], found[1].loc, maker))
                if any(g.sync_threads and any(m.tool.key == tool.key for m in g.members())
                       for g in groups_in(maker, ctx.project)):
                    pooled.add(tool.key)
        # A module that names no framework, or only what a framework hands a tool (a `ToolContext`
        # annotation): its plain functions are tools where importers list them.
        if hands_out_plain_functions(ctx.facts) or hands_out_beside_agent_code(ctx.facts, ctx.project):
            seen = {m.at for m in made}
            for t, threads in listed_by_importers(ctx.facts, ctx.project):
                if t.loc not in seen:
                    made.append(_Made(t, [], t.loc, ctx.facts))
                    if threads:
                        pooled.add(t.key)
        return [m._replace(hazards=_under_run_stop(m, ctx, unstoppable(m.tool, ctx.project, ctx.config,
                                                                       m.tool.key in pooled)))
                for m in made]

    return ctx.once("hazards", compute)


def _under_run_stop(made: _Made, ctx: Context, hazards: list["Hazard"]) -> list["Hazard"]:
    """A tool whose signal only the caller's abort or a run deadline aborts (the Vercel AI SDK) is a
    hazard only where a group with such a stop runs it (a sibling's failure never stops it), and
    only where its requests do not observe the caller's own signal instead."""
    from siblint.analyses.signal_flow import without_observed_run_signal
    from siblint.model.callgraph import walk
    from siblint.model.groups import run_signals, run_under_deadline

    if not any(h.reason == "ignores_run_signal" for h in hazards):
        return hazards
    if run_under_deadline(made.tool, made.maker, ctx.project):
        return without_observed_run_signal(hazards, walk(made.tool, ctx.project, ctx.config),
                                           run_signals(made.tool, made.maker, ctx.project))
    return [h for h in hazards if h.reason != "ignores_run_signal"]


class _SideEffectRule(Rule):
    """One finding per tool: at its `def` line, each effect call of this rule's reason as a related location."""

    reason: ClassVar[str]  # the `siblint.analyses.cancellation` reason this rule reports
    # Other reasons it reports, each with its own (message, concise) templates: the same hazard in
    # another cancellation model (a JS tool that never observes its abort signal).
    also: ClassVar[dict[str, tuple[str, str]]] = {}

    def check(self, ctx: Context) -> Iterator[Diagnostic]:
        for tool, hazards, at, maker in _hazards(ctx):
            mine = [h for h in hazards if h.reason == self.reason or h.reason in self.also]
            if not mine:
                continue
            template, concise = self.also.get(mine[0].reason, (None, None))
            first = mine[0]
            more = f" (and {len(mine) - 1} more)" if len(mine) > 1 else ""
            via = f" in {first.via[-1]}" if first.via else ""
            related = tuple(
                Related(h.path, h.loc, f"{tool.name}: {h.description}" + (f" (via {' -> '.join(h.via)})" if h.via else ""))
                for h in mine
            )
            fix = self.framework_fix(ctx, tool, maker)
            if template is None:
                unrun = self.unrun(ctx, tool, maker)  # no group was found running it: claim no runner
                if fix:  # the framework's own advice replaces the rule's
                    template = concise = (unrun[0] if unrun else self.message).rpartition(";")[0] + "; {fix}"
                elif unrun:
                    template, concise = unrun
            yield self.finding(ctx, at, related, template=template, concise=concise,
                               tool=tool.name, effect=first.effect + via + more,
                               context=first.description.split(",", 1)[0], fix=fix)

    def framework_fix(self, ctx: Context, tool: "Tool", maker: ModuleFacts) -> str:
        """The framework's own advice, where the rule's would not help there ("" keeps the rule's)."""
        return ""

    def unrun(self, ctx: Context, tool: "Tool", maker: ModuleFacts) -> tuple[str, str] | None:
        """(message, concise) templates for a tool no framework's group was found running, where the
        rule's message would claim how the framework runs it; None keeps the rule's."""
        return None


class SyncToolSideEffect(_SideEffectRule):
    """
    ## What it does
    Flags a sync (`def`) tool that has a side effect: a mutating HTTP request, an email, a
    subprocess, a file write, SQL that is not a SELECT, an ORM write, a payment, a message, an
    upload. Side effects in project functions the tool calls count too (followed across modules).

    ## Why is this bad?
    The SDK runs a sync tool in a worker thread (`asyncio.to_thread`). When a sibling call of the
    same turn fails fatally, the SDK cancels the tool, but a thread cannot be cancelled: once it
    has started, the side effect lands after the run has raised, and the error records nothing.

    google-adk runs a sync tool in a thread only when the run's
    `RunConfig(tool_thread_pool_config=ToolThreadPoolConfig(...))` says so (recognised on
    `runner.run_async` / `run` / `run_live` of a `Runner` / `InMemoryRunner` / `App` wrapping the
    agent in the module that makes the agent); without it the tool runs inline on the event loop
    and is SIB103 instead (tests/runtime/test_google_adk_runtime.py).

    ## Example
    ```python
    @function_tool
    def charge_card(amount: int) -> str:
        requests.post("https://payments.example.com/charges", json={"amount": amount})
        return "charged"
    ```

    Use instead:
    ```python
    @function_tool
    async def charge_card(amount: int) -> str:
        async with httpx.AsyncClient() as client:
            await client.post("https://payments.example.com/charges", json={"amount": amount})
        return "charged"
    ```

    crewai runs every call of a turn in a pool thread and cancels nothing in flight, so an
    `async def` tool would land all the same: there the advice is to keep the agent's tools from
    failing fatally (SIB201, SIB202), and SIB301 names the pair (tests/runtime/test_crewai_runtime.py).
    The advice follows the framework whose agents run the tool: a LangChain `@tool` in a crewai
    `Agent` gets crewai's.

    In TypeScript (`@openai/agents`), the SDK aborts the sibling's `details.signal` instead: a
    side-effecting `execute` that does not check, listen to or pass on `details.signal` before the
    effect lands its effect after the sibling failed, unrecorded. A check, or the signal given to a
    call, only before an await that precedes the effect protects nothing (the abort comes during that
    await), nor does it protect what a helper writes after an await of its own; `fetch(url, { signal
    })` stops a request not yet sent, but a POST already in flight still reaches the server.
    ```ts
    const chargeCard = tool({
      name: 'charge_card', parameters: z.object({ amount: z.number() }),
      async execute({ amount }) {
        await fetch(PAYMENTS, { method: 'POST', body: JSON.stringify({ amount }) });
        return 'charged';
      },
    });
    ```

    Use instead:
    ```ts
      async execute({ amount }, _ctx, details) {
        details?.signal?.throwIfAborted();  // after the last await before the effect
        await fetch(PAYMENTS, { method: 'POST', body: JSON.stringify({ amount }), signal: details?.signal });
        return 'charged';
      },
    ```

    In LangChain.js / LangGraph.js the signal is `config.signal`: the second parameter of a
    `tool(fn, {...})` function, the third of a `DynamicStructuredTool` / `DynamicTool` `func`, and
    `_call`'s `parentConfig` in a `StructuredTool` subclass. Pregel aborts it when a sibling fails
    fatally, and `invoke` rejects without waiting for this tool (tests/runtime/js/test_langchain_js.py).
    ```ts
    const chargeCard = tool(async ({ amount }, config) => {
      await fetch(PAYMENTS, { method: 'POST', body: JSON.stringify({ amount }), signal: config.signal });
      return 'charged';
    }, { name: 'charge_card', description: 'Charge the card', schema: z.object({ amount: z.number() }) });
    ```

    In the Vercel AI SDK (`ai`) a sibling's failure never aborts anything (a tool's error reaches the
    model); the caller does: `abortSignal` or a run `timeout` (`5000`, `{ totalMs }`, `{ stepMs }`) on
    `generateText` / `streamText` aborts every running tool's `options.abortSignal` and ends the call
    without their results (v7 `streamText` at once). So a side-effecting `execute` that never observes
    `options.abortSignal` is reported only where such a call runs it:
    ```ts
    const chargeCard = tool({
      description: 'Charge the card', inputSchema: z.object({ amount: z.number() }),
      execute: async ({ amount }) => {
        await fetch(PAYMENTS, { method: 'POST', body: JSON.stringify({ amount }) });
        return 'charged';
      },
    });
    streamText({ model, tools: { chargeCard }, prompt, timeout: { totalMs: 30000 } });
    ```

    Use instead:
    ```ts
      execute: async ({ amount }, { abortSignal }) => {
        await fetch(PAYMENTS, { method: 'POST', body: JSON.stringify({ amount }), signal: abortSignal });
        return 'charged';
      },
    ```

    ## Options
    `extend-side-effect-calls` (list of dotted names): more calls that write to the outside world,
    compared with the resolved callee (`myapp.billing.charge`) or with `<constructor>.<method>` for a
    method on an object of a known constructor (`mylib.Client.send`); `mylib.*` matches every name
    under `mylib`. `pure-calls` (same form): calls that never write, even when the built-in table
    says otherwise; a pure project function is not followed.
    """

    code = "SIB101"
    severity = "warning"  # harm needs a sibling that fails fatally (SIB301 is the certain loss)
    concise = "{tool} is sync and performs {effect}: make it `async def` and await an async client"
    reason = "sync_thread"
    also = {"ignores_signal": (
        "{tool} performs {effect} and {context}: when a sibling call of the same turn fails fatally, the framework "
        "aborts that signal and the run fails, and this tool still lands its effect, unrecorded; "
        "call throwIfAborted() on the signal after the last await before the effect, listen for 'abort', "
        "or pass the signal to the call that performs the effect (fetch(url, {{ signal }}))",
        "{tool} {context} and performs {effect}: observe that signal before the effect",
    ), "ignores_run_signal": (
        "{tool} performs {effect} and {context}: the caller's abortSignal or run timeout on the generateText / "
        "streamText call that runs it aborts that signal and ends the call without this tool's result, and the "
        "tool still lands its effect, unrecorded; pass options.abortSignal on (fetch(url, {{ signal: abortSignal }})) "
        "or call abortSignal?.throwIfAborted() after the last await before the effect",
        "{tool} {context} and performs {effect} under a caller abortSignal / run timeout: observe "
        "options.abortSignal before the effect",
    )}
    name = "sync-tool-side-effect"
    summary = ("a sync tool has a side effect that runs in a worker thread cancellation cannot stop "
               "(TS/JS: a side-effecting tool that never observes its abort signal)")
    message = (
        "{tool} is sync and performs {effect}: the SDK runs it in a worker thread that cancellation "
        "cannot stop; make it `async def` and await an async client"
    )
    unrun_message = (
        "{tool} is sync and performs {effect}: no agent of this project was found running it; where a framework "
        "runs it beside other tools, that is a worker thread cancellation cannot stop; make it `async def` and "
        "await an async client"
    )

    def framework_fix(self, ctx: Context, tool: "Tool", maker: ModuleFacts) -> str:
        from siblint.model.groups import running_framework
        from siblint.model.tools import framework_of

        # The framework that runs the tool decides what would help: a LangChain `@tool` in a crewAI agent
        # runs in crewAI's pool thread, where an async tool lands all the same.
        fw = running_framework(tool, maker, ctx.project) or framework_of(tool)
        return fw.tools.sync_fix if fw is not None else ""

    def unrun(self, ctx: Context, tool: "Tool", maker: ModuleFacts) -> tuple[str, str] | None:
        from siblint.model.groups import run_by_a_group

        return None if run_by_a_group(tool, maker, ctx.project) else (self.unrun_message, self.concise)

    no_fix = (
        'the tool must become `async def` around an async client for its effect (httpx, aiohttp, the '
        "SDK's async client), and which client, and what else awaits it, is the author's choice"
    )
    VALID = in_every_framework([
        Valid("import requests\nfrom agents import function_tool\n\n@function_tool\ndef weather(city: str) -> str:\n"
              "    return requests.get(f'https://wttr.in/{city}').text\n"),
        Valid("from agents import function_tool\n\n@function_tool\ndef send_email(to: str) -> str:\n"
              "    return f'(demo) would send an email to {to}'\n"),
        Valid("import requests\nfrom mylib import function_tool\n\n@function_tool\ndef charge(n: int) -> str:\n"
              "    requests.post('https://pay.example.com', json={'n': n})\n    return 'ok'\n"),
    ]) + examples_js.VALID["SIB101"] + examples_langchain_js.VALID["SIB101"] + examples_vercel.VALID["SIB101"]
    INVALID = in_every_framework([
        Invalid("import requests\nfrom agents import function_tool\n\n@function_tool\ndef charge(n: int) -> str:\n"
                "    requests.post('https://pay.example.com', json={'n': n})\n    return 'ok'\n", lines=(5,)),
        Invalid("import smtplib\nfrom agents import function_tool\n\n@function_tool\ndef notify(to: str) -> str:\n"
                "    with smtplib.SMTP('localhost') as s:\n        s.sendmail('me@x', [to], 'hi')\n    return 'sent'\n",
                lines=(5,)),
    ]) + examples_js.INVALID["SIB101"] + examples_langchain_js.INVALID["SIB101"] + examples_vercel.INVALID["SIB101"]


class ThreadedSideEffect(_SideEffectRule):
    """
    ## What it does
    Flags an async tool that hands a side effect to a thread or an executor:
    `await asyncio.to_thread(fn)`, `loop.run_in_executor(None, fn)`, `executor.submit(fn)`,
    `anyio.to_thread.run_sync(fn)`, where `fn` (or a function it calls) has a side effect; and
    file writes through aiofiles, which runs each operation in the loop's executor
    (`async with aiofiles.open(p, "w") as f: await f.write(text)`, `await aiofiles.os.remove(p)`).

    ## Why is this bad?
    Cancelling the await does not stop the thread. When a sibling call fails fatally, the tool's
    await is cancelled but the thread runs on and lands the side effect after the run has raised
    (runtime scenario `to_thread_charge`); the error records nothing.

    ## Example
    ```python
    @function_tool
    async def charge_card(amount: int) -> str:
        await asyncio.to_thread(requests.post, URL, json={"amount": amount})
        return "charged"
    ```

    Use instead:
    ```python
    @function_tool
    async def charge_card(amount: int) -> str:
        async with httpx.AsyncClient() as client:
            await client.post(URL, json={"amount": amount})
        return "charged"
    ```

    ## Options
    `extend-side-effect-calls` and `pure-calls` in `[tool.siblint]` add to or remove from the
    side-effect table (see `siblint explain SIB101`).
    """

    code = "SIB102"
    severity = "warning"  # harm needs a sibling that fails fatally (SIB301 is the certain loss)
    concise = "{tool} hands {effect} to a worker thread: await an async client instead"
    reason = "handoff"
    name = "threaded-tool-side-effect"
    summary = "an async tool hands a side effect to a thread or executor that cancellation cannot stop"
    message = (
        "{tool} hands {effect} to a worker thread: cancelling the await leaves the thread running; "
        "await an async client instead of to_thread/run_in_executor"
    )
    no_fix = (
        'the threaded call must be replaced by an async client the author picks; no edit of the call '
        'alone does it'
    )
    VALID = in_every_framework([
        Valid("import asyncio, json\nfrom agents import function_tool\n\n@function_tool\nasync def parse(s: str) -> str:\n"
              "    return await asyncio.to_thread(json.loads, s)\n"),
        Valid("import asyncio, httpx\nfrom agents import function_tool\n\n@function_tool\nasync def charge(n: int) -> str:\n"
              "    async with httpx.AsyncClient() as c:\n        await c.post('https://pay.example.com', json={'n': n})\n"
              "    return 'ok'\n"),
    ])
    INVALID = in_every_framework([
        Invalid("import asyncio, requests\nfrom agents import function_tool\n\n@function_tool\n"
                "async def charge(n: int) -> str:\n"
                "    await asyncio.to_thread(requests.post, 'https://pay.example.com', json={'n': n})\n"
                "    return 'ok'\n", lines=(5,)),
        Invalid("import asyncio, subprocess\nfrom agents import function_tool\n\ndef deploy() -> None:\n"
                "    subprocess.run(['make', 'deploy'])\n\n@function_tool\nasync def release() -> str:\n"
                "    loop = asyncio.get_running_loop()\n    await loop.run_in_executor(None, deploy)\n    return 'ok'\n",
                lines=(8,)),
    ])


class BlockingSideEffect(_SideEffectRule):
    """
    ## What it does
    Flags an async tool that performs a side effect through a blocking call before any await:
    `requests`, `smtplib`, sync database drivers (`cursor.execute("INSERT ...")`),
    `subprocess.run`, a file write, directly or in a sync helper it calls. "Before any await"
    means on some path: an await in an `if` arm, a loop body or a `try` body that the blocking call
    comes after, not inside, may not have run (`if slot is None: slot = await free_slot()`).
    After an await it is reported too, each case in its own words: between awaits (the effect lands
    and the cancellation, delivered at the later await, discards the result: a SIB301 victim) and
    after the tool's last await (a cancellation during the awaits before stops it, but once it has
    started nothing can; the tool then returns, so it orphans nothing and is no SIB301 victim).

    ## Why is this bad?
    Cancellation reaches a coroutine only at an await. A blocking call holds the event loop, so the
    SDK cannot deliver the cancellation of a fatal sibling failure before the side effect lands, and the other tools of the turn stall meanwhile.

    What the runtime tests measured (openai-agents 0.24.0, `tests/runtime`): the blocking tool
    finishes before the failing sibling can even run, so the run still raises but this tool's
    call and output *are* kept in `exc.run_data.new_items`. The lost-record hazard of SIB101/102
    does not reproduce here; what remains is that nothing can stop the effect once the tool has
    started, while every other call of the turn stalls behind it. In strands the record *is*
    lost: the effect lands before the raise, but a fatal failure drops every result of the turn
    from `agent.messages` (tests/runtime/test_strands_runtime.py).

    In google-adk a sync tool without the tool thread pool runs inline on the event loop: its
    blocking side effect is reported here too. Its result is kept (ADK awaits it before raising),
    so it is not a SIB301 victim there, but the call blocks every other call and cannot be
    stopped once started: a user wants to know, and the fix (`async def` with an async client) is
    the same. A CancelledError-swallowing tool (SIB104) is likewise kept by ADK.

    ## Example
    ```python
    @function_tool
    async def charge_card(amount: int) -> str:
        requests.post(URL, json={"amount": amount})
        return "charged"
    ```

    Use instead:
    ```python
    @function_tool
    async def charge_card(amount: int) -> str:
        async with httpx.AsyncClient() as client:
            await client.post(URL, json={"amount": amount})
        return "charged"
    ```

    ## Options
    `extend-side-effect-calls` and `pure-calls` in `[tool.siblint]` add to or remove from the
    side-effect table (see `siblint explain SIB101`).
    """

    code = "SIB103"
    severity = "warning"  # harm needs a sibling that fails fatally (SIB301 is the certain loss)
    concise = "{tool} performs {effect} with a blocking call: use an async client and await it"
    reason = "blocking"
    also = {"blocking_late": (
        "{tool} performs {effect} with a blocking call after an await and awaits again later: the call holds the "
        "event loop, so the effect lands, and a cancellation delivered at the later await discards the tool's "
        "result; use an async client and await it",
        "{tool} performs {effect} with a blocking call between awaits: use an async client and await it",
    ), "blocking_last": (
        "{tool} performs {effect} with a blocking call after its last await: once the call starts nothing can "
        "stop it, and every other call of the turn waits behind it; use an async client and await it",
        "{tool} performs {effect} with a blocking call after its last await: use an async client and await it",
    )}
    name = "blocking-tool-side-effect"
    summary = "an async tool performs a side effect through a blocking call the event loop cannot cancel"
    message = (
        "{tool} performs {effect} with a blocking call before any await: the event loop cannot deliver "
        "the cancellation; use an async client and await it"
    )
    no_fix = (
        'the blocking call must be replaced by an async client the author picks; no edit of the call '
        'alone does it'
    )
    VALID = in_every_framework([
        Valid("import sqlite3\nfrom agents import function_tool\n\n@function_tool\nasync def orders(c: str) -> str:\n"
              "    cur = sqlite3.connect('db').cursor()\n    cur.execute('SELECT * FROM orders WHERE c = ?', (c,))\n"
              "    return str(cur.fetchall())\n"),
        Valid("import httpx\nfrom agents import function_tool\n\nclient = httpx.AsyncClient()\n\n@function_tool\n"
              "async def refund(order: str) -> str:\n    await client.post('https://pay.example.com/refunds', json={'o': order})\n"
              "    return 'ok'\n"),
    ])
    INVALID = in_every_framework([
        Invalid("import requests\nfrom agents import function_tool\n\n@function_tool\nasync def charge(n: int) -> str:\n"
                "    requests.post('https://pay.example.com', json={'n': n})\n    return 'ok'\n", lines=(5,)),
        Invalid("import sqlite3\nfrom agents import function_tool\n\n@function_tool\nasync def save(note: str) -> str:\n"
                "    conn = sqlite3.connect('db')\n    conn.execute('INSERT INTO notes VALUES (?)', (note,))\n"
                "    conn.commit()\n    return 'saved'\n", lines=(5,)),
        # The await runs only when no slot is given: the other path reaches the POST first.
        Invalid("import asyncio, requests\nfrom agents import function_tool\n\n@function_tool\n"
                "async def book(slot: str = '') -> str:\n    if not slot:\n        await asyncio.sleep(0)\n"
                "    requests.post('https://cal.example.com/events', json={'slot': slot})\n    return 'booked'\n",
                lines=(5,)),
    ]) + [
        # After the tool's last await: a cancellation during the await stops it, but once started nothing can.
        Invalid("import asyncio, requests\nfrom agents import function_tool\n\n@function_tool\n"
                "async def book(slot: str) -> str:\n    await asyncio.sleep(0)\n"
                "    requests.post('https://cal.example.com/events', json={'slot': slot})\n    return 'booked'\n",
                lines=(5,)),
    ]


class SwallowedCancellation(_SideEffectRule):
    """
    ## What it does
    Flags an async tool that swallows cancellation around or before a side effect:
    `except asyncio.CancelledError:`, `except BaseException:` or a bare `except:` (or a tuple holding
    one of them) that does not re-raise, or `contextlib.suppress(asyncio.CancelledError)`.
    `except Exception:` does not catch cancellation and is fine.

    ## Why is this bad?
    The SDK cancels the tool because a sibling failed fatally. Swallowing the `CancelledError` lets
    the tool carry on and land its side effect; when that takes longer than the SDK's 0.25 s drain
    window, it lands after the run has raised and nothing records it (runtime scenario
    `swallow_base_exception`). In strands it is worse: the run never raises, it hangs, waiting
    for the swallowing task to be consumed, and the effect lands unrecorded
    (tests/runtime/test_strands_runtime.py).

    ## Example
    ```python
    @function_tool
    async def charge_card(amount: int) -> str:
        try:
            await asyncio.sleep(1)
        except asyncio.CancelledError:
            pass
        await client.post(URL, json={"amount": amount})
        return "charged"
    ```

    Use instead:
    ```python
    @function_tool
    async def charge_card(amount: int) -> str:
        try:
            await asyncio.sleep(1)
        except asyncio.CancelledError:
            log.info("cancelled before charging")
            raise
        await client.post(URL, json={"amount": amount})
        return "charged"
    ```

    ## Options
    `extend-side-effect-calls` and `pure-calls` in `[tool.siblint]` add to or remove from the
    side-effect table (see `siblint explain SIB101`).
    """

    code = "SIB104"
    severity = "warning"  # harm needs a sibling that fails fatally (SIB301 is the certain loss)
    concise = "{tool} swallows cancellation around or before {effect}: re-raise CancelledError"
    reason = "swallowed"
    name = "tool-swallows-cancellation"
    summary = "an async tool swallows cancellation around or before a side effect"
    message = (
        "{tool} swallows cancellation around or before {effect}: the side effect lands although the run "
        "was cancelled; re-raise CancelledError (or catch Exception instead)"
    )
    fix = FixSpec(
        DISPLAY_ONLY,
        'end the handler that catches the cancellation with a bare `raise` (after its clean-up), so the '
        'cancel reaches the tool before its side effect. Display-only: what the handler does before '
        "re-raising is the author's to decide",
    )
    VALID = in_every_framework([
        Valid("import asyncio, httpx\nfrom agents import function_tool\n\nclient = httpx.AsyncClient()\n\n"
              "@function_tool\nasync def charge(n: int) -> str:\n    try:\n"
              "        await client.post('https://pay.example.com', json={'n': n})\n"
              "    except Exception:\n        return 'failed'\n    return 'ok'\n"),
        Valid("import asyncio, httpx\nfrom agents import function_tool\n\nclient = httpx.AsyncClient()\n\n"
              "@function_tool\nasync def charge(n: int) -> str:\n    try:\n        await asyncio.sleep(1)\n"
              "    except asyncio.CancelledError:\n        print('cancelled')\n        raise\n"
              "    await client.post('https://pay.example.com', json={'n': n})\n    return 'ok'\n"),
    ])
    INVALID = in_every_framework([
        Invalid("import asyncio, httpx\nfrom agents import function_tool\n\nclient = httpx.AsyncClient()\n\n"
                "@function_tool\nasync def charge(n: int) -> str:\n    try:\n        await asyncio.sleep(1)\n"
                "    except asyncio.CancelledError:\n        pass\n"
                "    await client.post('https://pay.example.com', json={'n': n})\n    return 'ok'\n", lines=(7,)),
        Invalid("import asyncio, contextlib, httpx\nfrom agents import function_tool\n\nclient = httpx.AsyncClient()\n\n"
                "@function_tool\nasync def charge(n: int) -> str:\n"
                "    with contextlib.suppress(asyncio.CancelledError):\n"
                "        await client.post('https://pay.example.com', json={'n': n})\n    return 'ok'\n", lines=(7,)),
    ])


class ShieldedSideEffect(_SideEffectRule):
    """
    ## What it does
    Flags an async tool whose side effect is shielded (`asyncio.shield(...)`) or placed in
    `finally:`, `__exit__` or `__aexit__`. Off by default: these are often deliberate.

    ## Why is this bad?
    The side effect completes during cancellation, by design, but the run then raises and its
    error records nothing (runtime scenarios `shielded_charge`, `charge_in_finally`): the caller cannot tell that the card was charged. If that
    is intended, record the effect somewhere the caller can read (an outbox, an idempotency key).

    ## Example
    ```python
    @function_tool
    async def charge_card(amount: int) -> str:
        await asyncio.shield(client.post(URL, json={"amount": amount}))
        return "charged"
    ```

    Use instead:
    ```python
    @function_tool
    async def charge_card(amount: int) -> str:
        await client.post(URL, json={"amount": amount}, headers={"Idempotency-Key": key(amount)})
        return "charged"
    ```

    ## Options
    Off by default; enable with `extend-select = ["SIB105"]`.
    `extend-side-effect-calls` and `pure-calls` in `[tool.siblint]` add to or remove from the
    side-effect table (see `siblint explain SIB101`).
    """

    code = "SIB105"
    severity = "warning"  # harm needs a sibling that fails fatally (SIB301 is the certain loss)
    concise = "{tool} performs {effect} {context}: make it idempotent and recorded"
    reason = "protected"
    name = "shielded-tool-side-effect"
    summary = "a tool's side effect is shielded or in finally/__aexit__: it completes during cancellation unrecorded"
    message = (
        "{tool} performs {effect} {context}: it completes during cancellation while the run records nothing; "
        "make it idempotent and recorded, or let cancellation stop it"
    )
    no_fix = (
        'a shielded or `finally:` effect is usually shielded on purpose; making it idempotent and '
        'recorded is a design change'
    )
    VALID = in_every_framework([
        Valid("import asyncio, httpx\nfrom agents import function_tool\n\nclient = httpx.AsyncClient()\n\n"
              "@function_tool\nasync def charge(n: int) -> str:\n"
              "    await client.post('https://pay.example.com', json={'n': n})\n    return 'ok'\n"),
        Valid("import asyncio, httpx\nfrom agents import function_tool\n\nclient = httpx.AsyncClient()\n\n"
              "@function_tool\nasync def status(n: int) -> str:\n"
              "    return (await asyncio.shield(client.get('https://pay.example.com'))).text\n"),
    ])
    INVALID = in_every_framework([
        Invalid("import asyncio, httpx\nfrom agents import function_tool\n\nclient = httpx.AsyncClient()\n\n"
                "@function_tool\nasync def charge(n: int) -> str:\n"
                "    await asyncio.shield(client.post('https://pay.example.com', json={'n': n}))\n    return 'ok'\n",
                lines=(7,)),
        Invalid("import asyncio, httpx\nfrom agents import function_tool\n\nclient = httpx.AsyncClient()\n\n"
                "@function_tool\nasync def charge(n: int) -> str:\n    try:\n        await asyncio.sleep(1)\n"
                "    finally:\n        await client.post('https://audit.example.com', json={'n': n})\n    return 'ok'\n",
                lines=(7,)),
    ])
