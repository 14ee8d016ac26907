"""SIB2xx: tool settings that turn one tool's failure into the end of the run.

A fatal failure makes the SDK cancel every sibling call of the same turn and raise out of the run.
Measured with openai-agents 0.24.0 by the runtime tests (tests/runtime/scenarios.py); every spelling
is a case of tests/rules/test_failure_policy.py. What is fatal is framework data; `siblint.analyses.fatality`
reads it and gives each setting a cause; each rule here reports one cause.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import TYPE_CHECKING, ClassVar

from siblint.common.diagnostics import Diagnostic, Loc, Related
from siblint.rule_api.fixes import DISPLAY_ONLY, UNSAFE, FixSpec, RewriteArgument
from siblint.rule_api.rule import Context, Invalid, Rule, Valid
from siblint.rules import examples_js, examples_langchain_js

if TYPE_CHECKING:
    from siblint.analyses.fatality import FatalReason
    from siblint.model.groups import Group
    from siblint.model.tools import Tool


class _FatalArgumentRule(Rule):
    """Shared check: report each fatal argument or assignment of this module with this rule's cause."""

    cause: ClassVar[str]  # the `siblint.analyses.fatality` cause this rule reports
    # For a reason that carries its own fix (a raising tool-call hook, `siblint.analyses.hooks`).
    fix_message: ClassVar[str] = "{setting}: it ends the run and cancels every sibling call; {fix}"
    fix_concise: ClassVar[str] = "{setting}: it ends the run and cancels every sibling call"
    # The same, where the module's frameworks cancel nothing in flight (crewai, haystack,
    # semantic-kernel): the siblings finish after the raise, and the run keeps no record of them.
    # (template, concise); ("", "") keeps the rule's own.
    uncancelled: ClassVar[tuple[str, str]] = ("", "")
    fix_uncancelled: ClassVar[tuple[str, str]] = (
        "{setting}: it ends the run while every sibling call finishes unrecorded; {fix}",
        "{setting}: it ends the run; its sibling calls finish unrecorded",
    )

    def check(self, ctx: Context) -> Iterator[Diagnostic]:
        from siblint.analyses.fatality import module_reasons
        from siblint.analyses.hooks import hook_reasons
        from siblint.model.groups import siblings_cancelled_in

        reasons = ctx.once("module_reasons", lambda: module_reasons(ctx.facts, ctx.project) + hook_reasons(ctx.facts, ctx.project))
        for reason in reasons:
            if reason.cause == self.cause:
                related: tuple[Related, ...] = ()
                if reason.origin:
                    related += (Related(reason.origin[0], reason.origin[1], "the handler behind it"),)
                if reason.written_at:
                    related += (Related(*reason.written_at, "the fatal value, in the shared options"),)
                related += _groups_behind(ctx, reason.path, reason.loc)
                cancelled = ctx.once("siblings_cancelled", lambda: siblings_cancelled_in(ctx.facts))
                if reason.fix:
                    template, concise = (self.fix_message, self.fix_concise) if cancelled else self.fix_uncancelled
                    yield self.finding(ctx, reason.loc, related, template=template, concise=concise,
                                       setting=reason.label, fix=reason.fix)
                else:
                    template, concise = ("", "") if cancelled else self.uncancelled
                    yield self.finding(ctx, reason.loc, related, template=template or None, concise=concise or None,
                                       setting=reason.label)
        for tool, reason, group in _set_by_groups_elsewhere(ctx):
            if reason.cause == self.cause:
                # The reader of this module cannot see that its tool's errors end the run: say so at its def.
                where = f"{os.path.basename(reason.path)}:{reason.loc.line}"
                template, concise = ("", "") if group.cancels_siblings else self.uncancelled
                yield self.finding(ctx, tool.loc, (Related(reason.path, reason.loc, f"{group.name}: the setting"),),
                                   template=template or None, concise=concise or None,
                                   setting=f"{reason.label} on {group.name} ({where}), which runs {tool.name}")


def _set_by_groups_elsewhere(ctx: Context) -> list[tuple["Tool", "FatalReason", "Group"]]:
    """Each fatal setting of a group in another module (`ToolNode(tools, handle_tool_errors=False)`
    in the agent's module) over a tool of this module, once per tool and setting."""
    from siblint.analyses.fatality import group_setting_reasons
    from siblint.model.groups import groups_elsewhere
    from siblint.model.tools import tools_in

    def compute() -> list[tuple["Tool", "FatalReason", "Group"]]:
        own = {(os.path.abspath(t.path), t.loc): t for t in tools_in(ctx.facts)}
        out: dict[tuple, tuple["Tool", "FatalReason", "Group"]] = {}
        for group, where in groups_elsewhere(ctx.facts, ctx.project) if own else ():
            reasons = group_setting_reasons(group.call, where, ctx.project)
            for m in group.members() if reasons else ():
                tool = own.get((os.path.abspath(m.tool.path), m.tool.loc))
                if tool is not None:
                    for reason in reasons:
                        out.setdefault((tool.key, reason.path, reason.loc), (tool, reason, group))
        return list(out.values())

    return ctx.once("failure_policy.set_by_groups_elsewhere", compute)


def _groups_behind(ctx: Context, path: str, loc: Loc) -> tuple[Related, ...]:
    """For `--output-format full`: the tool a fatal setting belongs to and each group of this module
    whose other calls its failure cancels (the setting alone says neither)."""
    out: dict[Related, None] = {}
    for tool, group, size in _members_by_options_line(ctx).get((path, loc.line), ()):
        if tool.options is not None and loc.within(tool.options.loc):
            out[Related(tool.path, tool.loc, f"{tool.name}: the tool this setting makes fatal")] = None
            if group.cancels_siblings and size > 1:
                out[Related(group.path, group.call.loc,
                            f"{group.name}: its other tool calls are cancelled when {tool.name} fails")] = None
    return tuple(out)


def _members_by_options_line(ctx: Context) -> dict[tuple[str, int], list[tuple[Tool, Group, int]]]:
    """(path, line) -> each group member whose tool's options span that line, with its group and the
    group's size, in group and then member order: once per module, where each fatal setting used to
    go through every member of every group (a group of 800 fatal tools: seconds)."""

    def compute() -> dict[tuple[str, int], list[tuple[Tool, Group, int]]]:
        index: dict[tuple[str, int], list[tuple[Tool, Group, int]]] = {}
        for group in ctx.groups():
            members = group.members()
            for m in members:
                options = m.tool.options
                for line in range(options.loc.line, options.loc.end_line + 1) if options is not None else ():
                    index.setdefault((m.tool.path, line), []).append((m.tool, group, len(members)))
        return index

    return ctx.once("failure_policy.members_by_options_line", compute)


class FailureHandlerDisabled(_FatalArgumentRule):
    """
    ## What it does
    Flags a tool whose failure handler is disabled: `failure_error_function=None` on
    `function_tool` (decorator or call form, any alias, a `**{...}` dict literal), on
    `Agent.as_tool` (keyword or positional index 11), on an MCP server (keyword or positional
    index 10; `super().__init__` of an `MCPServer` subclass, index 2), in
    `Agent(mcp_config=...)` / `MCPConfig(...)`, on `MCPUtil.to_function_tool` /
    `get_all_function_tools`, on `codex_tool`; `set_function_tool_failure_error_function(t, None)`;
    and `_use_default_failure_error_function=False` set on a tool (attribute, `setattr`,
    `dataclasses.replace`) without a handler given with it. In LangGraph, `ToolNode(...,
    handle_tool_errors=False)`: even argument-validation errors then end the run. (pydantic-ai
    has no such switch: its default is covered by SIB206.)

    A setting on a group (the `ToolNode`) is reported where it is written and, for each member tool
    defined in another module, at that tool's def too: that module does not show that the tool's
    errors end the run.

    ## Why is this bad?
    With the handler disabled, any exception the tool raises ends the run. The SDK then cancels
    every other tool call of the same turn. A sibling that cannot observe cancellation (a sync
    tool running in a worker thread, a shielded await) still lands its side effect after the run
    has raised, and the error carries no record of it: `exc.run_data.new_items == []`.

    ## Example
    ```python
    from agents import function_tool

    @function_tool(failure_error_function=None)
    async def lookup_tax(region: str) -> str: ...
    ```

    Use instead:
    ```python
    @function_tool
    async def lookup_tax(region: str) -> str: ...
    ```
    The default handler turns the exception into a message the model sees, and the run goes on.

    In crewai: `tool_failure_policy="raise"` (or `ToolFailurePolicy.RAISE`) on `Agent(...)`,
    `Task(...)` or `Crew(...)`, as a class attribute of a `BaseTool` subclass, on a tool class's
    constructor, or assigned to a tool (`t.tool_failure_policy = "raise"`). The most specific level
    that sets it wins (tool, task, agent, crew), so a crew-level "raise" that every agent or task
    under it overrides with "warn" or "ignore" is not reported. It is SIB201 because it is the same
    switch as `failure_error_function=None`: the default lets the model see the error, and the user
    turned that off. The crew raises once every call in flight has finished, and none of their
    results is in the output or the exception (tests/runtime/test_crewai_runtime.py).

    In haystack: `Agent(raise_on_tool_invocation_failure=True)` (default `False`: the model sees
    the error). Nothing in flight is cancelled: every running and queued call finishes after the
    failure, then the run raises with none of their results; `tool_concurrency_limit=1` is no fix,
    since the call queued behind the failing one still runs (tests/runtime/test_haystack_runtime.py).

    In TypeScript (`@openai/agents`): `errorFunction: null`, an `errorFunction` that throws, and
    `outputSchema` without `errorFunction` (the SDK then sets the handler to null: fatal on the
    Responses API, the default); `errorFunction: null` on an MCP server, and `mcpConfig: {
    errorFunction: null }` on the agent unless the server sets its own handler.
    ```ts
    const lookupTax = tool({ name: 'lookup_tax', parameters, execute, errorFunction: null });
    ```

    Use instead:
    ```ts
    const lookupTax = tool({ name: 'lookup_tax', parameters, execute });  // the default handler
    ```

    In LangGraph.js: `new ToolNode(tools, { handleToolErrors: false })` (the default, `true`, gives
    the model every error); a `createReactAgent` given that node runs it
    (tests/runtime/js/test_langchain_js.py).

    ## Options
    None.
    """

    code = "SIB201"
    severity = "warning"  # harm needs a sibling cancellation cannot stop (SIB301 is the certain loss)
    concise = "{setting}: this tool's errors end the run and cancel its siblings; keep the default handler"
    cause = "handler_disabled"
    name = "tool-failure-handler-disabled"
    summary = "a tool's failure handler is disabled, so its errors end the run and cancel its siblings"
    message = (
        "{setting}: this tool's errors end the run and cancel every sibling call; "
        "keep the default handler or pass one that returns a message for the model"
    )
    uncancelled = (
        "{setting}: this tool's errors end the run while every sibling call finishes unrecorded; "
        "keep the default handler or pass one that returns a message for the model",
        "{setting}: this tool's errors end the run; its siblings finish unrecorded; keep the default handler",
    )
    fix = FixSpec(
        UNSAFE,
        'drops `failure_error_function=None` (Python) / `errorFunction: null` or a throwing '
        '`errorFunction` (TS/JS), so the default handler turns the error into a message for the model; '
        'sets `handle_tool_errors=True` on a LangGraph `ToolNode` and `tool_failure_policy="warn"` in '
        "crewai. Unsafe: the tool's errors no longer end the run (what the rule asks). Spellings other "
        'than a keyword argument or an object property (a `**{...}` dict, an attribute assignment, a '
        'class attribute) get no edit',
        RewriteArgument((("failure_error_function", None), ("errorFunction", None),
                         ("handle_tool_errors", "True"), ("tool_failure_policy", '"warn"'))),
    )
    VALID = [
        Valid("from agents import function_tool\n\n@function_tool\nasync def f() -> str:\n    return 'x'\n"),
        Valid("from agents import function_tool\n\n@function_tool(failure_error_function=my_handler)\nasync def f() -> str:\n    return 'x'\n"),
        Valid("from mylib import function_tool\n\n@function_tool(failure_error_function=None)\nasync def f() -> str:\n    return 'x'\n"),
        Valid("class Cfg:\n    pass\n\nc = Cfg()\nc._use_default_failure_error_function = False\n"),
        Valid("from langgraph.prebuilt import ToolNode\n\nnode = ToolNode(tools, handle_tool_errors=True)\n"),
        Valid("from pydantic_ai import Agent\n\nagent = Agent('test', tools=tools)\n"),
        # crewai: the most specific level that sets the policy wins.
        Valid("from crewai import Agent, Crew\n\nshop = Agent(role='r', goal='g', backstory='b', tools=tools, "
              "tool_failure_policy='warn')\ncrew = Crew(agents=[shop], tasks=tasks, tool_failure_policy='raise')\n"),
        Valid("from haystack.components.agents import Agent\n\nagent = Agent(chat_generator=gen, tools=tools, "
              "raise_on_tool_invocation_failure=False)\n"),
    ] + examples_js.VALID["SIB201"] + examples_langchain_js.VALID["SIB201"]
    INVALID = [
        Invalid("from agents import function_tool\n\n@function_tool(failure_error_function=None)\nasync def f() -> str:\n    return 'x'\n", lines=(3,)),
        Invalid("from agents.decorators import tool as t\n\n@t(failure_error_function=None)\nasync def f() -> str:\n    return 'x'\n", lines=(3,)),
        Invalid("import agents\n\nasync def f() -> str:\n    return 'x'\n\nT = agents.function_tool(f, failure_error_function=None)\n", lines=(6,)),
        Invalid("from agents import function_tool\n\n@function_tool(**{'failure_error_function': None})\nasync def f() -> str:\n    return 'x'\n", lines=(3,)),
        Invalid("from agents import Agent\n\nagent = Agent(name='a', mcp_config={'failure_error_function': None})\n", lines=(3,)),
        Invalid(
            "from agents import function_tool\nfrom agents.tool import set_function_tool_failure_error_function\n\n"
            "@function_tool\nasync def f() -> str:\n    return 'x'\n\n"
            "set_function_tool_failure_error_function(f, None)\nf._use_default_failure_error_function = False\n",
            lines=(8, 9),
        ),
        Invalid("from langgraph.prebuilt import ToolNode\n\nnode = ToolNode(tools, handle_tool_errors=False)\n", lines=(3,)),
        Invalid("from langchain.tools import ToolNode\n\nnode = ToolNode(tools, **{'handle_tool_errors': False})\n", lines=(3,)),
        # The ToolNode is in the agent's module: the tool's own module is told at its def.
        Invalid("from langchain_core.tools import tool\n\n@tool\ndef lookup(q: str) -> str:\n    \"\"\"Look up.\"\"\"\n    return q\n",
                lines=(4,), files={"agent.py": "from langgraph.prebuilt import ToolNode, create_react_agent\n\nfrom main import lookup\n\n"
                                               "agent = create_react_agent('m', ToolNode([lookup], handle_tool_errors=False))\n"}),
        Invalid("from crewai import Agent, Crew\n\nshop = Agent(role='r', goal='g', backstory='b', tools=tools, "
                "tool_failure_policy='raise')\nclerk = Agent(role='c', goal='g', backstory='b', tools=tools)\n"
                "crew = Crew(agents=[shop, clerk], tasks=tasks, tool_failure_policy='raise')\n", lines=(3, 5)),
        Invalid("from crewai.tools import BaseTool, ToolFailurePolicy\n\nclass Tax(BaseTool):\n    name: str = 'tax'\n"
                "    tool_failure_policy: ToolFailurePolicy = ToolFailurePolicy.RAISE\n\n    def _run(self, region: str) -> str:\n"
                "        return '0.2'\n\nstrict = Tax()\nstrict.tool_failure_policy = 'raise'\n", lines=(5, 11)),
        Invalid("from haystack.components.agents import Agent\n\nagent = Agent(chat_generator=gen, tools=tools, "
                "raise_on_tool_invocation_failure=True, tool_concurrency_limit=1)\n", lines=(3,)),
    ] + examples_js.INVALID["SIB201"] + examples_langchain_js.INVALID["SIB201"]


class FailureHandlerReturnsNone(_FatalArgumentRule):
    """
    ## What it does
    Flags a custom failure handler (`failure_error_function=`, in every spelling SIB201 knows,
    and `_failure_error_function=` set with `_use_default_failure_error_function=False`) that can
    return `None` (annotated `-> None`, a bare `return`, `return None`, falling off the end, a
    `lambda ctx, e: None`) or that raises. The handler may live in another module.

    In google-adk: an `Agent(on_tool_error_callback=...)` / `LlmAgent(...)` that can return None
    or raises, the same method of a plugin class given in `plugins=[...]` of `Runner`,
    `InMemoryRunner` or `App`, and a `before_tool_callback` / `after_tool_callback` (agent or
    plugin) that raises: ADK re-raises the tool's error when the callbacks return None, and a
    raising before/after callback ends the run even beside an error callback
    (tests/runtime/test_google_adk_runtime.py).

    ```python
    def on_error(tool, args, tool_context, error):
        logger.warning("tool failed: %s", error)      # returns None: the error still ends the run

    agent = Agent(name="checkout", tools=[charge_card, lookup_tax], on_tool_error_callback=on_error)
    ```
    Use instead `return {"error": str(error)}` on every path.

    In strands, where a tool's exception reaches the model by default, the handler that can end
    the run is a tool-call hook that raises (a `raise` it does not catch itself): an
    `AfterToolCallEvent` or `BeforeToolCallEvent` callback in `Agent(hooks=[...])`, registered by
    `agent.add_hook(cb)`, `agent.hooks.add_callback(Event, cb)` or a provider's
    `register_hooks(registry)` (`registry.add_callback(Event, cb)`), reported at that
    registration; a `Plugin` method decorated with `@hook`, reported at its `def`; an
    `InterventionHandler`'s `before_tool_call` / `after_tool_call` that raises or can return
    None (the SDK raises `TypeError` then), unless the handler's `on_error` is `"proceed"` or
    `"deny"`, reported at its `def`. A callback for another event is not a tool-call hook.

    ## Why is this bad?
    The SDK re-raises the tool's exception when the handler returns `None`, and a handler that
    raises replaces it: either way the failure is as fatal as `failure_error_function=None`. The
    run ends and every sibling call of the turn is cancelled (runtime scenarios
    `handler_returns_none`, `handler_raises`).

    In strands a raising hook ends the run (`EventLoopException`), cancels every other call of
    the turn and drops every result of the turn from `agent.messages`, even under
    `SequentialToolExecutor` (tests/runtime/test_strands_runtime.py). A before-call hook and an
    intervention that raise are reported too, though the reference study left it open: they
    end the run the same way (measured), and the user's fix is the same, `event.cancel_tool =
    "..."` or `Deny(...)`, which the model sees.

    ## Example
    ```python
    def log_error(ctx, error):
        logger.warning("tool failed: %s", error)

    @function_tool(failure_error_function=log_error)
    async def lookup_tax(region: str) -> str: ...
    ```

    Use instead:
    ```python
    def log_error(ctx, error) -> str:
        logger.warning("tool failed: %s", error)
        return f"lookup failed: {error}"
    ```

    In crewai: an after-tool hook that raises `HookAborted` (`@after_tool_call`,
    `@on(InterceptionPoint.POST_TOOL_CALL)`, `register_after_tool_call_hook(fn)`,
    `register_hook(InterceptionPoint.POST_TOOL_CALL, fn)`), reported at the hook's `def` (or at the
    registration call), with its `raise` as the related location. It is SIB202 rather than SIB201
    because, as with a failure handler that raises, the fatal failure is code the user wrote, not a
    switch. A before-tool hook that raises `HookAborted` or returns `False` only blocks the call
    (the model is told), and any other exception raised in a hook is swallowed: neither is reported.

    In Microsoft Agent Framework: a function middleware that raises `MiddlewareFailure` (before or
    after `await call_next()`): `@function_middleware`, an `async def m(context:
    FunctionInvocationContext, call_next)`, or a `FunctionMiddleware` subclass's `process`, given in
    `Agent(middleware=[...])`. Any other exception from it is the call's own error, which the model
    sees. The batch is cancelled and a tool in a worker thread lands after the raise
    (tests/runtime/test_agent_framework_runtime.py). Use `MiddlewareTermination` or set
    `context.result` instead.

    In semantic-kernel: an `AUTO_FUNCTION_INVOCATION` filter that raises
    (`kernel.add_filter(FilterTypes.AUTO_FUNCTION_INVOCATION, f)`), reported once, where it is
    registered, with its `raise` as the related location. It cancels nothing: every other call of
    the turn, awaiting ones too, lands after the raise, and the thread keeps none of their results
    (tests/runtime/test_semantic_kernel_runtime.py). Set `context.terminate = True` instead. A
    `FUNCTION_INVOCATION` filter's exception reaches the model and is not reported.

    In claude-agent-sdk: a `ClaudeAgentOptions(can_use_tool=cb)` permission callback that can return
    `PermissionResultDeny(..., interrupt=True)`: the run ends and the handlers in flight are
    cancelled. A deny without `interrupt=True` reaches the model.

    In LangChain.js (`createAgent({ middleware })`): middleware that passes a tool's error on, which
    the agent's default handler would have given the model. A `createMiddleware({ wrapToolCall })`
    whose callback awaits `handler(request)` outside a `try` whose `catch` returns (a pass-through or
    timing wrapper too), `toolRetryMiddleware({ onFailure: 'error' })`, `toolRetryMiddleware({ tools:
    [...] })` for the agent's tools the list leaves out, and a `toolErrorMiddleware` whose `onError`
    can return undefined. Each is reported where it is built and where an agent registers it by name,
    once per place. Pregel aborts every sibling's `config.signal` and `invoke` rejects at once; a
    sibling that ignores the signal lands ~0.3 s later, with no tool message
    (tests/runtime/js/test_langchain_js.py). A catching middleware anywhere in the list saves the run.
    ```ts
    const audit = createMiddleware({ name: 'Audit', wrapToolCall: async (request, handler) => handler(request) });
    ```

    Use instead:
    ```ts
    const audit = createMiddleware({
      name: 'Audit',
      wrapToolCall: async (request, handler) => {
        try { return await handler(request); }
        catch (e) { return new ToolMessage({ content: `failed: ${e}`, tool_call_id: request.toolCall.id ?? '', status: 'error' }); }
      },
    });
    ```

    ## Options
    None.
    """

    code = "SIB202"
    severity = "warning"  # harm needs a sibling cancellation cannot stop (SIB301 is the certain loss)
    concise = "{setting}: its errors end the run; make the handler always return a message"
    cause = "handler_returns_none"
    name = "tool-failure-handler-returns-none"
    summary = "a tool's failure handler can return None or raises, so the tool's errors end the run"
    message = (
        "{setting}: the SDK then re-raises, ending the run and cancelling every sibling call; "
        "make the handler always return a message string for the model"
    )
    uncancelled = (
        "{setting}: the framework then re-raises, ending the run while every sibling call finishes "
        "unrecorded; make the handler always return a message string for the model",
        "",
    )
    fix = FixSpec(
        UNSAFE,
        "drops the custom `failure_error_function=` (Python) or `errorFunction` (TS/JS), so the SDK's "
        'default handler returns the error text to the model on every path. Unsafe: what the custom '
        'handler did besides (logging) is gone. google-adk callbacks, strands hooks and handlers given in '
        'other spellings get no edit: make them return a message on every path by hand',
        RewriteArgument((("failure_error_function", None), ("errorFunction", None))),
    )
    VALID = [
        Valid("from agents import function_tool\n\ndef h(ctx, e) -> str:\n    return str(e)\n\n"
              "@function_tool(failure_error_function=h)\nasync def f() -> str:\n    return 'x'\n"),
        Valid("from agents import function_tool\n\n@function_tool(failure_error_function=lambda ctx, e: str(e))\n"
              "async def f() -> str:\n    return 'x'\n"),
        Valid("from mylib import function_tool\n\ndef h(ctx, e):\n    pass\n\n"
              "@function_tool(failure_error_function=h)\nasync def f() -> str:\n    return 'x'\n"),
        Valid("from google.adk.agents import Agent\n\ndef on_error(tool, args, tool_context, error):\n"
              "    return {'error': str(error)}\n\nagent = Agent(name='a', tools=[], on_tool_error_callback=on_error)\n"),
        # crewai: before the call, HookAborted only blocks it.
        Valid("from crewai.hooks import HookAborted, InterceptionPoint, on\n\n@on(InterceptionPoint.PRE_TOOL_CALL)\n"
              "def guard(ctx):\n    raise HookAborted('not allowed')\n"),
        Valid("from strands import Agent\nfrom strands.hooks import BeforeToolCallEvent\n\n"
              "def policy(event: BeforeToolCallEvent) -> None:\n    event.cancel_tool = 'not allowed'\n\n"
              "agent = Agent(tools=tools, hooks=[policy])\n"),
        # Microsoft Agent Framework: only MiddlewareFailure ends the run.
        Valid("from agent_framework import Agent, function_middleware\n\n@function_middleware\n"
              "async def audit(context, call_next):\n    await call_next()\n    raise RuntimeError('seen by the model')\n\n"
              "agent = Agent(client=client, tools=tools, middleware=[audit])\n"),
        Valid("from semantic_kernel.filters import FilterTypes\n\nasync def stop(context, next):\n    await next(context)\n"
              "    context.terminate = True\n\nkernel.add_filter(FilterTypes.AUTO_FUNCTION_INVOCATION, stop)\n"),
        Valid("from claude_agent_sdk import ClaudeAgentOptions, PermissionResultDeny\n\nasync def guard(name, inp, ctx):\n"
              "    return PermissionResultDeny(message='no')\n\noptions = ClaudeAgentOptions(can_use_tool=guard)\n"),
    ] + examples_langchain_js.VALID["SIB202"]
    INVALID = [
        Invalid("from agents import function_tool\n\ndef h(ctx, e):\n    print(e)\n\n"
                "@function_tool(failure_error_function=h)\nasync def f() -> str:\n    return 'x'\n", lines=(6,)),
        Invalid("from agents import function_tool\n\n@function_tool(failure_error_function=lambda ctx, e: None)\n"
                "async def f() -> str:\n    return 'x'\n", lines=(3,)),
        Invalid("from agents import function_tool\nfrom handlers import h\n\n@function_tool(failure_error_function=h)\n"
                "async def f() -> str:\n    return 'x'\n", lines=(4,),
                files={"handlers.py": "def h(ctx, e):\n    raise RuntimeError(str(e))\n"}),
        Invalid("from agents import Agent\n\nasync def h(ctx, e) -> None:\n    return\n\n"
                "other = Agent(name='o')\nt = other.as_tool('o', 'd', failure_error_function=h)\n", lines=(7,)),
        Invalid("from google.adk.agents import Agent\n\ndef on_error(tool, args, tool_context, error):\n    print(error)\n\n"
                "agent = Agent(name='a', tools=[], on_tool_error_callback=on_error)\n", lines=(6,)),
        Invalid("from crewai.hooks import HookAborted, InterceptionPoint, on\n\n@on(InterceptionPoint.POST_TOOL_CALL)\n"
                "def guard(ctx):\n    if 'secret' in ctx.tool_result:\n        raise HookAborted('leak')\n", lines=(4,)),
        Invalid("from strands import Agent\nfrom strands.hooks import AfterToolCallEvent\n\n"
                "def reraise(event: AfterToolCallEvent) -> None:\n    if event.exception is not None:\n"
                "        raise event.exception\n\nagent = Agent(tools=tools, hooks=[reraise])\n"
                "agent.hooks.add_callback(AfterToolCallEvent, reraise)\n", lines=(8, 9)),
        Invalid("from agent_framework import Agent, MiddlewareFailure, function_middleware\n\n@function_middleware\n"
                "async def fail_closed(context, call_next):\n    try:\n        await call_next()\n"
                "    except Exception as e:\n        raise MiddlewareFailure('abort') from e\n\n"
                "agent = Agent(client=client, tools=tools, middleware=[fail_closed])\n", lines=(10,)),
        Invalid("from semantic_kernel.filters import FilterTypes\n\nasync def abort(context, next):\n    await next(context)\n"
                "    raise RuntimeError('abort')\n\nkernel.add_filter(FilterTypes.AUTO_FUNCTION_INVOCATION, abort)\n",
                lines=(7,)),
        Invalid("from claude_agent_sdk import ClaudeAgentOptions, PermissionResultDeny\n\nasync def guard(name, inp, ctx):\n"
                "    return PermissionResultDeny(message='no', interrupt=True)\n\n"
                "options = ClaudeAgentOptions(can_use_tool=guard)\n", lines=(6,)),
    ] + examples_langchain_js.INVALID["SIB202"]


class TimeoutRaises(_FatalArgumentRule):
    """
    ## What it does
    Flags a tool whose timeout raises: `timeout_behavior="raise_exception"` on `function_tool`,
    on `FunctionTool` (keyword or positional index 10), assigned after creation
    (`t.timeout_behavior = ...`, `setattr`) or set by `dataclasses.replace(t, ...)`; and a
    `timeout_error_function` that raises (keyword, `FunctionTool` index 11, attribute). A timeout
    handler that returns `None` is fine: the model sees the text "None".

    ## Why is this bad?
    When the timeout fires, `ToolTimeoutError` escapes the run: the timeout is enforced outside
    the failure handler, so no handler can turn it into a message. Every sibling call of the same
    turn is cancelled, and a sibling that cannot observe cancellation lands its side effect after
    the run has raised (runtime scenario `timeout_raises`). A timeout handler that raises ends the
    run the same way.

    A run deadline is not a tool's timeout and is not reported here: llama-index's `timeout=` on
    `FunctionAgent` / `AgentWorkflow` raises `WorkflowTimeoutError` for the whole run, and the
    framework offers no model-visible alternative, so flagging every deadline would only tell users
    to remove it. A deadline is reported by SIB301 instead, where a member cancellation cannot stop
    would land after it fired.

    ## Example
    ```python
    @function_tool(timeout=5, timeout_behavior="raise_exception")
    async def lookup_tax(region: str) -> str: ...
    ```

    Use instead:
    ```python
    @function_tool(timeout=5)  # default "error_as_result": the model is told it timed out
    async def lookup_tax(region: str) -> str: ...
    ```

    In TypeScript (`@openai/agents`): `timeoutBehavior: 'raise_exception'` (with `timeoutMs`), and
    `timeoutMs` with `outputSchema` and no `timeoutBehavior` (outputSchema makes raise_exception the
    default); the SDK throws ToolTimeoutError and aborts every sibling's signal.
    ```ts
    tool({ name: 'lookup_tax', parameters, execute, timeoutMs: 5000, timeoutBehavior: 'raise_exception' });
    ```

    Use instead:
    ```ts
    tool({ name: 'lookup_tax', parameters, execute, timeoutMs: 5000 });  // 'error_as_result'
    ```

    ## Options
    None.
    """

    code = "SIB203"
    severity = "warning"  # harm needs a sibling cancellation cannot stop (SIB301 is the certain loss)
    concise = "{setting}: a timeout ends the run and cancels its siblings; return the timeout as a result"
    cause = "timeout_raises"
    name = "tool-timeout-raises"
    summary = "a tool's timeout raises, so a slow call ends the run and cancels its siblings"
    message = (
        "{setting}: a timeout of this tool ends the run and cancels every sibling call; "
        'use the default timeout_behavior="error_as_result" and a timeout handler that returns a message'
    )
    fix = FixSpec(
        UNSAFE,
        'drops `timeout_behavior="raise_exception"` / `timeoutBehavior: \'raise_exception\'` (the default, '
        '`error_as_result`, returns the timeout to the model) and a raising `timeout_error_function`. '
        'Unsafe: a timeout no longer ends the run (what the rule asks)',
        RewriteArgument((("timeout_behavior", None), ("timeoutBehavior", None),
                         ("timeout_error_function", None))),
    )
    VALID = [
        Valid("from agents import function_tool\n\n@function_tool(timeout=5)\nasync def f() -> str:\n    return 'x'\n"),
        Valid("from agents import function_tool\n\n@function_tool(timeout=5, timeout_behavior='error_as_result')\nasync def f() -> str:\n    return 'x'\n"),
        Valid("from agents import function_tool\n\ndef th(ctx, e):\n    return None\n\n"
              "@function_tool(timeout=5, timeout_error_function=th)\nasync def f() -> str:\n    return 'x'\n"),
        Valid("from llama_index.core.agent.workflow import AgentWorkflow, FunctionAgent\n\nasync def f() -> str:\n"
              "    return 'x'\n\nagent = FunctionAgent(tools=[f], timeout=5)\nflow = AgentWorkflow(agents=[agent], timeout=5)\n"),
    ] + examples_js.VALID["SIB203"]
    INVALID = [
        Invalid("from agents import function_tool\n\n@function_tool(timeout=5, timeout_behavior='raise_exception')\nasync def f() -> str:\n    return 'x'\n", lines=(3,)),
        Invalid(
            "from agents import FunctionTool\n\n"
            "T = FunctionTool('t', 'd', {}, invoke, True, True, None, None, False, 0.05, 'raise_exception')\n",
            lines=(3,),
        ),
        Invalid(
            "import dataclasses\nfrom agents import function_tool\n\n@function_tool(timeout=5)\nasync def f() -> str:\n    return 'x'\n\n"
            "f.timeout_behavior = 'raise_exception'\nF2 = dataclasses.replace(f, timeout_behavior='raise_exception')\n",
            lines=(8, 9),
        ),
        Invalid("from agents import function_tool\n\ndef th(ctx, e):\n    raise TimeoutError()\n\n"
                "@function_tool(timeout=5, timeout_error_function=th)\nasync def f() -> str:\n    return 'x'\n", lines=(6,)),
    ] + examples_js.INVALID["SIB203"]


class FunctionToolWithoutHandler(_FatalArgumentRule):
    """
    ## What it does
    Flags a `FunctionTool(...)` built directly, at its `on_invoke_tool` argument (or at the call
    when that argument is not visible), and an `on_invoke_tool` replaced after creation
    (`t.on_invoke_tool = ...`, `setattr`, `dataclasses.replace`). Not reported when the invoker
    resolves to a function whose whole body is one `try` with an `except Exception` (or broader)
    handler that returns a value, or when it is another tool's `.on_invoke_tool`.

    ## Why is this bad?
    `function_tool` wraps the function in an invoker that applies the failure handler. A raw
    `on_invoke_tool` has no such wrapper, so any exception it lets escape ends the run and
    cancels every sibling call of the same turn (runtime scenario `function_tool_raises`).

    ## Example
    ```python
    async def invoke(ctx, args: str) -> str:
        return await lookup(args)

    tax = FunctionTool(name="lookup_tax", description="...", params_json_schema=SCHEMA, on_invoke_tool=invoke)
    ```

    Use instead:
    ```python
    async def invoke(ctx, args: str) -> str:
        try:
            return await lookup(args)
        except Exception as exc:
            return f"lookup failed: {exc}"
    ```
    or build the tool with `@function_tool`, which applies the default failure handler.

    ## Options
    None.
    """

    code = "SIB204"
    severity = "warning"  # harm needs a sibling cancellation cannot stop (SIB301 is the certain loss)
    concise = "{setting}: an escaping exception ends the run; catch Exception in the invoker"
    cause = "invoker_unguarded"
    name = "function-tool-without-failure-handler"
    summary = "a FunctionTool invoker has no failure handler, so any exception it lets escape ends the run"
    message = (
        "{setting}: any exception it lets escape ends the run and cancels every sibling call; "
        "catch Exception in on_invoke_tool and return a message, or use @function_tool"
    )
    fix = FixSpec(
        DISPLAY_ONLY,
        "wrap the invoker's body in `try: ... except Exception as e: return str(e)` (or build the tool "
        'with `function_tool`). Display-only: the invoker may be shared or re-raise on purpose',
    )
    VALID = [
        Valid("from agents import FunctionTool\n\nasync def invoke(ctx, args):\n    try:\n        return await run(args)\n"
              "    except Exception as exc:\n        return f'failed: {exc}'\n\n"
              "T = FunctionTool(name='t', description='d', params_json_schema={}, on_invoke_tool=invoke)\n"),
        Valid("from mylib import FunctionTool\n\nT = FunctionTool(name='t', description='d', params_json_schema={}, on_invoke_tool=invoke)\n"),
        Valid("from agents import FunctionTool, function_tool\n\n@function_tool\nasync def f() -> str:\n    return 'x'\n\n"
              "T = FunctionTool('t', 'd', {}, f.on_invoke_tool)\n"),
    ]
    INVALID = [
        Invalid("from agents import FunctionTool\n\nasync def invoke(ctx, args):\n    return await run(args)\n\n"
                "T = FunctionTool(name='t', description='d', params_json_schema={}, on_invoke_tool=invoke)\n", lines=(6,)),
        Invalid("from agents.tool import FunctionTool\n\nT = FunctionTool('t', 'd', {}, lambda ctx, a: run(a))\n", lines=(3,)),
        Invalid("from agents import function_tool\n\n@function_tool\nasync def f() -> str:\n    return 'x'\n\n"
                "async def raw(ctx, args):\n    raise RuntimeError()\n\nf.on_invoke_tool = raw\n", lines=(10,)),
        Invalid("import agents\n\nT = agents.FunctionTool(**spec)\n", lines=(3,)),
    ]


_LG_HEAD = """\
import requests
from langchain_core.tools import tool
from langgraph.prebuilt import ToolNode
from langchain.agents import create_agent
from langchain.agents.middleware import ToolRetryMiddleware

@tool
def get_rate(region: str) -> str:
    \"\"\"Current tax rate.\"\"\"
    return requests.get(f"https://rates.example.com/{region}").text

@tool
def add(a: int, b: int) -> int:
    \"\"\"Add.\"\"\"
    return a + b
"""

_PA_HEAD = """\
from pydantic_ai import Agent, ModelRetry

agent = Agent("test")

@agent.tool_plain
def lookup(region: str) -> str:
    if region not in ("eu", "us"):
        raise KeyError(region)
    return "0.2"
"""


_ADK_HEAD = """\
from google.adk.agents import Agent


def lookup(region: str) -> dict:
    raise KeyError(region)

agent = Agent(name="tax", tools=[lookup])
"""


class ErrorEndsRunByDefault(Rule):
    """
    ## What it does
    Flags a tool group whose error policy ends the run on a tool's exception by default, when
    one of its members can fail: an explicit `raise` of an exception the group does not turn
    into a model-visible result, or an I/O call (network, file, database, subprocess, SDK client)
    outside a `try` whose handler catches `Exception` or broader. A pure computation does not
    count. Off by default: it describes the framework's default more than a mistake.

    Default-fatal groups: a LangGraph `ToolNode(...)` without `handle_tool_errors=True` (or a
    string, a handler, exception types covering the error), `create_agent(...)` without a
    `ToolRetryMiddleware` / `ToolErrorMiddleware` covering the tool, `create_react_agent(...)`;
    every pydantic-ai `Agent(...)`, whose tools may only raise `ModelRetry`, `ToolFailed`,
    `CallDeferred` or `ApprovalRequired` without ending the run; every google-adk `Agent(...)` /
    `LlmAgent(...)` unless its `on_tool_error_callback` (or a plugin's, given to the `Runner` /
    `InMemoryRunner` / `App` that runs it in the same module) returns a value on every path.
    Reported at the group's call.

    ## Why is this bad?
    The tool's error does not reach the model: the run raises, and the other calls of the same
    turn are cancelled (or, in a `ToolNode` used as a graph node, left running). The model
    cannot retry or explain, and a sibling's side effect may land unrecorded (SIB301).

    ## Example
    ```python
    @tool
    def get_rate(region: str) -> str:
        return requests.get(f"https://rates.example.com/{region}").text

    agent = create_agent(model, tools=[get_rate])
    ```

    Use instead:
    ```python
    agent = create_agent(model, tools=[get_rate], middleware=[ToolRetryMiddleware()])
    ```
    or, in pydantic-ai, `raise ModelRetry(...)` instead of another exception.

    ## Options
    None.
    """

    code = "SIB206"
    severity = "warning"  # harm needs a sibling cancellation cannot stop (SIB301 is the certain loss)
    concise = "{tool} can fail ({why}) and this group ends the run on a tool error by default"
    name = "tool-error-ends-run-by-default"
    summary = "a group's default error policy ends the run when one of its tools can fail"
    message = "{tool} can fail ({why}) and this group ends the run on a tool error by default: {fix}"
    fix = FixSpec(
        DISPLAY_ONLY,
        'give the group an error policy that returns tool errors to the model (`handle_tool_errors=True`, '
        '`ModelRetry`, an `on_tool_error_callback` that returns a dict). Display-only: the policy differs '
        'per framework and may be set at another level',
    )
    VALID = [
        Valid(_LG_HEAD + "\nnode = ToolNode([get_rate, add], handle_tool_errors=True)\n"),
        Valid(_LG_HEAD + "\nagent = create_agent('m', tools=[get_rate], middleware=[ToolRetryMiddleware()])\n"),
        Valid(_LG_HEAD + "\nnode = ToolNode([add])\n"),
        Valid(_PA_HEAD.replace("raise KeyError(region)", "raise ModelRetry(f'unknown region {region}')")),
        Valid(_PA_HEAD.replace("agent = Agent", "from mylib import Agent\nagent = Agent")),
        Valid(_ADK_HEAD.replace("tools=[lookup]", "tools=[lookup], on_tool_error_callback=lambda t, a, c, e: {'error': str(e)}")),
    ]
    INVALID = [
        Invalid(_LG_HEAD + "\nnode = ToolNode([get_rate, add])\n", lines=(17,)),
        Invalid(_LG_HEAD + "\nagent = create_agent('m', tools=[get_rate], "
                "middleware=[ToolRetryMiddleware(on_failure='error')])\n", lines=(17,)),
        Invalid(_LG_HEAD + "\nagent = create_agent('m', tools=[get_rate, add], "
                "middleware=[ToolRetryMiddleware(tools=['add'])])\n", lines=(17,)),
        Invalid(_PA_HEAD, lines=(3,)),
        Invalid(_ADK_HEAD, lines=(7,)),
    ]

    def check(self, ctx: Context) -> Iterator[Diagnostic]:
        from siblint.analyses.error_policy import fatal_causes, group_policy

        for group in ctx.groups():
            policy = group_policy(group, ctx.facts, ctx.project)
            if not policy.fatal_by_default or group.maker is None:
                continue
            for m in group.members():
                causes = fatal_causes(m.tool, ctx.project, policy, group.framework, ctx.config)
                if not causes:
                    continue
                related = tuple(Related(c.path, c.loc, f"{m.tool.name}: {c.label}") for c in causes)
                fix = group.maker.policy.fix.format(tool=m.tool.name)
                yield self.finding(ctx, group.call.loc, related, tool=m.tool.name, why=causes[0].label, fix=fix)
                break
