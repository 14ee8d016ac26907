"""SIB3xx: concurrent tool groups that mix a fatal tool with a tool cancellation cannot stop."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from siblint.common.diagnostics import Diagnostic, Loc, Related
from siblint.rule_api.fixes import UNSAFE, CapRuns, FixSpec
from siblint.rule_api.rule import Context, Invalid, Rule, Valid
from siblint.rules import examples_js, examples_langchain_js, examples_vercel, examples_wave3

if TYPE_CHECKING:
    from siblint.analyses.error_policy import GroupPolicy
    from siblint.analyses.fatality import FatalReason
    from siblint.model.groups import Group, Member
    from siblint.model.tools import Tool

_TOOLS = '''\
import requests
from agents import Agent, Runner, RunConfig, ToolExecutionConfig, function_tool

@function_tool
def charge_card(amount: int) -> str:
    requests.post("https://payments.example.com/charges", json={"amount": amount})
    return "charged"

@function_tool(failure_error_function=None)
async def lookup_tax(region: str) -> str:
    return "0.2"

@function_tool
async def lookup_rate(region: str) -> str:
    return "0.2"
'''


_LG_TOOLS = '''\
import httpx
import requests
from langchain_core.tools import tool
from langchain.agents import create_agent
from langchain.agents.middleware import ToolRetryMiddleware
from langgraph.prebuilt import ToolNode

@tool
def charge_card(amount: int) -> str:
    """Charge."""
    try:
        requests.post("https://payments.example.com/charges", json={"amount": amount})
    except Exception as exc:
        return f"charge failed: {exc}"
    return "charged"

@tool
async def send_receipt(to: str) -> str:
    """Send."""
    try:
        async with httpx.AsyncClient() as client:
            await client.post("https://mail.example.com", json={"to": to})
    except Exception as exc:
        return f"failed: {exc}"
    return "sent"

@tool
async def lookup_tax(region: str) -> str:
    """Tax."""
    raise RuntimeError("tax service down")
'''

_LI_TOOLS = '''\
import requests
from llama_index.core.agent.workflow import AgentWorkflow, FunctionAgent, ReActAgent

def charge_card(amount: int) -> str:
    requests.post("https://payments.example.com/charges", json={"amount": amount})
    return "charged"

async def lookup_rate(region: str) -> str:
    raise RuntimeError("rate service down")
'''

_CREW_TOOLS = '''\
import httpx
from crewai import Agent, Crew, Task
from crewai.tools import tool

@tool
async def charge_card(amount: int) -> str:
    """Charge (awaiting, yet crewai cancels nothing in flight)."""
    async with httpx.AsyncClient() as client:
        await client.post("https://payments.example.com/charges", json={"amount": amount})
    return "charged"

@tool(max_usage_count=1)
async def refund(amount: int) -> str:
    """Refund once: a turn calling it runs its calls one by one."""
    async with httpx.AsyncClient() as client:
        await client.post("https://payments.example.com/refunds", json={"amount": amount})
    return "refunded"

@tool
def lookup_tax(region: str) -> str:
    """Tax."""
    return "0.2"
'''

_ST_TOOLS = '''\
import requests
from strands import Agent, tool
from strands.hooks import AfterToolCallEvent
from strands.tools.executors import SequentialToolExecutor

@tool
def charge_card(amount: int) -> str:
    try:
        requests.post("https://payments.example.com/charges", json={"amount": amount})
    except Exception as exc:
        return f"charge failed: {exc}"
    return "charged"

@tool
async def lookup_tax(region: str) -> str:
    raise RuntimeError("tax service down")

def reraise(event: AfterToolCallEvent) -> None:
    if event.exception is not None:
        raise event.exception
'''

_PA_TOOLS = '''\
import requests
from pydantic_ai import Agent, ModelRetry, Tool

def charge_card(amount: int) -> str:
    try:
        requests.post("https://payments.example.com/charges", json={"amount": amount})
    except Exception as exc:
        return f"charge failed: {exc}"
    return "charged"

async def lookup_tax(region: str) -> str:
    raise RuntimeError("tax service down")

async def lookup_rate(region: str) -> str:
    raise ModelRetry("unknown region")
'''


_ADK_TOOLS = '''\
import asyncio
import requests
from google.adk.agents import Agent, RunConfig
from google.adk.agents.run_config import ToolThreadPoolConfig
from google.adk.runners import InMemoryRunner

POOL = RunConfig(tool_thread_pool_config=ToolThreadPoolConfig(max_workers=4))

def charge_card(amount: int) -> dict:
    return requests.post("https://payments.example.com/charges", json={"amount": amount}).json()

async def refund(amount: int) -> dict:
    return await asyncio.to_thread(requests.post, "https://payments.example.com/refunds", json={"amount": amount})

async def lookup_tax(region: str) -> dict:
    raise RuntimeError("tax service down")
'''


class FatalToolBesideUnstoppableTool(Rule):
    """
    ## What it does
    Flags an agent whose tools, callable together in one turn, include a tool whose failure is
    fatal (SIB2xx) and a tool that cancellation cannot stop (SIB101-SIB105, SIB105 included even
    when it is not selected). One finding per group, naming every fatal and every unstoppable tool
    (each with its related locations). One tool can be both: the model may call it twice in one
    turn, and the finding says so.

    ## Why is this bad?
    The SDK runs the calls of one turn concurrently. When the fatal tool fails, the SDK cancels
    its siblings and the run raises. The sibling that cannot observe cancellation (a sync tool in
    a worker thread, a shielded or thread-bound effect) finishes anyway: the card is charged after
    the run raised, its result is discarded, the model never hears of it, and
    `exc.run_data.new_items` is empty. Measured with openai-agents 0.24.0 (runtime scenarios
    `sync_charge`, `shielded_charge`, `to_thread_charge`, `timeout_raises`).

    ## Example
    ```python
    @function_tool
    def charge_card(amount: int) -> str:          # sync: runs in a worker thread
        requests.post(PAYMENTS, json={"amount": amount})
        return "charged"

    @function_tool(failure_error_function=None)   # its errors end the run
    async def lookup_tax(region: str) -> str: ...

    agent = Agent(name="checkout", tools=[charge_card, lookup_tax])
    ```

    Use instead (any one of):
    ```python
    result = await Runner.run(agent, text, run_config=RunConfig(
        tool_execution=ToolExecutionConfig(max_function_tool_concurrency=1)))
    ```
    or make `charge_card` `async def` and await an async client, or keep `lookup_tax`'s default
    failure handler so its errors reach the model.

    `ModelSettings(parallel_tool_calls=False)` does not fix this: it is only a hint to the
    provider, and the SDK still runs every call it receives concurrently (runtime scenario
    `parallel_tool_calls_false`).

    In LangGraph and pydantic-ai a tool's exception is fatal *by default*: a member can fail
    fatally when it raises an exception its group does not turn into a model-visible result, or
    does I/O outside a `try` whose handler catches `Exception`. `create_agent` /
    `create_react_agent` cancel awaiting async siblings (sync ones run on in their threads); a
    LangGraph `ToolNode` used directly as a graph node (or `create_react_agent(version="v1")`)
    cancels nothing, so any side-effecting sibling, awaiting ones included, lands after the run
    raised. pydantic-ai cancels async siblings; a sync one runs on in its thread (measured:
    tests/runtime/test_langgraph_runtime.py, test_pydantic_ai_runtime.py).

    ```python
    agent = create_agent(model, tools=[charge_card, lookup_tax])   # lookup_tax raises RuntimeError
    ```
    Use instead `create_agent(..., middleware=[ToolRetryMiddleware()])`, `ToolNode(...,
    handle_tool_errors=True)`, invoke with `config={"max_concurrency": 1}`, or in pydantic-ai raise
    `ModelRetry` / `ToolFailed`, declare the tool `sequential=True`, or run under
    `Agent.parallel_tool_call_execution_mode("sequential")`.

    google-adk ends the run on any tool exception unless an `on_tool_error_callback` (the agent's,
    or a plugin's) returns a dict; it cancels the unfinished siblings, awaits them, then raises.
    An async tool's `to_thread` or `shield`, and a sync tool when the run sets
    `RunConfig(tool_thread_pool_config=...)`, land after the raise with no function response in
    the session. A `before_tool_callback` / `after_tool_callback` (agent or plugin) that raises
    ends the run whichever tool it runs for, so it makes every member fatal. An inline sync tool (no pool), a blocking async tool and a CancelledError
    swallower finish during that wait and are kept, so they are not victims here (SIB103 /
    SIB104 still report them). `ToolThreadPoolConfig(max_workers=1)` runs sync tools one at a
    time, so it protects a sync tool only from sync siblings' failures (measured:
    tests/runtime/test_google_adk_runtime.py).

    ```python
    async def refund(amount: int) -> dict:
        await asyncio.to_thread(requests.post, REFUNDS, json={"amount": amount})
        return {"ok": True}

    agent = Agent(name="checkout", tools=[refund, lookup_tax])   # lookup_tax can raise
    ```
    Use instead `Agent(..., on_tool_error_callback=on_error)` with an `on_error` that returns a
    dict on every path, or await an async client in `refund`.

    In llama-index a tool's exception always reaches the model; the fatal failure is the run's
    deadline: `timeout=` on `FunctionAgent` / `AgentWorkflow` (or its `from_tools_or_functions`)
    raises `WorkflowTimeoutError` and cancels the calls in flight. Whichever call is still running
    can be the one it catches, so a single member cancellation cannot stop (a sync function, a
    `to_thread` or shielded effect) is enough, and the finding names the deadline. A `ReActAgent`
    asks for one call per step and is not reported. `allow_parallel_tool_calls=False` does not fix
    it: only some LLM integrations enforce it (OpenAI's does), and a lone slow call still outlives
    the deadline (measured: tests/runtime/test_llama_index_runtime.py).

    ```python
    agent = FunctionAgent(tools=[charge_card, lookup_rate], llm=llm, timeout=60)   # charge_card is sync
    ```
    Use instead an `async def charge_card` that awaits an async client (the deadline cancels it), or
    run without the deadline (`timeout=None`) and bound each slow call inside its tool.

    crewai cancels nothing in flight: every side-effecting member counts, awaiting async tools
    included. Its effect lands after the failure and before `kickoff()` raises, and it is in neither
    the crew's output nor the exception. Fatal members are those of SIB201 (the layered
    `tool_failure_policy`) and SIB202 (after-tool hooks raising `HookAborted`, also from a module
    the agent's module imports). A tool of the pair with `result_as_answer=True` or
    `max_usage_count` set makes crewai run the turn's calls one by one, so that pair is not reported
    (tests/runtime/test_crewai_runtime.py).

    In strands a tool's exception reaches the model, so a group is fatal only when a hook run
    around each call raises (SIB202): a before-call hook or an intervention makes every member
    fatal; an after-call hook that re-raises makes every member fatal that can fail (a `raise`,
    or I/O outside a `try` whose handler catches `Exception`). The default
    `ConcurrentToolExecutor` runs each call as a task and a sync tool in `asyncio.to_thread`:
    sync, thread-bound and shielded siblings land after the run raised; a blocking one lands
    before it and a swallowing one hangs the run, and in both cases nothing is recorded. Every
    result of the turn is dropped from `agent.messages` (measured:
    tests/runtime/test_strands_runtime.py).

    ```python
    agent = Agent(tools=[charge_card, lookup_tax], hooks=[reraise])   # reraise re-raises event.exception
    ```
    Use instead `Agent(..., tool_executor=SequentialToolExecutor())`, or set `event.cancel_tool`
    in the hook instead of raising.

    In Microsoft Agent Framework: `Agent(client=..., tools=[...], middleware=[...])` with a function
    middleware that raises `MiddlewareFailure` (SIB202); the batch is cancelled, and a sync tool
    (run in `asyncio.to_thread`), a thread-bound or shielded one lands after the raise. The chat
    client's `function_invocation_configuration={"allow_concurrent_invocation": False}` (or
    `.update({...})`) serialises the calls (tests/runtime/test_agent_framework_runtime.py).

    In haystack: `Agent(tools=[...], raise_on_tool_invocation_failure=True)` (SIB201). Nothing is
    cancelled, so every side-effecting member counts, awaiting ones too; `tool_concurrency_limit=1`
    is no fix (tests/runtime/test_haystack_runtime.py).

    In semantic-kernel: a `ChatCompletionAgent` whose kernel (`kernel=kernel`) has a raising
    `AUTO_FUNCTION_INVOCATION` filter (SIB202), its `@kernel_function` plugins given in
    `plugins=[...]` or `kernel.add_plugin(...)`. Nothing is cancelled: every side-effecting member
    counts, awaiting ones too, and a sync function runs inline (SIB103) and lands before the raise,
    unrecorded as well. No switch serialises the calls (tests/runtime/test_semantic_kernel_runtime.py).

    In claude-agent-sdk: `ClaudeAgentOptions(mcp_servers={...}, can_use_tool=cb)` where `cb` can
    return `PermissionResultDeny(interrupt=True)` (SIB202). The CLI runs together only tools
    annotated `readOnlyHint=True`, so only those are members; a side-effecting tool that carries
    the hint and offloads or shields its effect lands after the run ended
    (tests/runtime/test_claude_agent_sdk_runtime.py). Dropping the hint from a tool that writes runs it alone.
    A caller's `client.interrupt()` on a `ClaudeSDKClient` of those options stops the run the same
    way: a run stop, reported like a run deadline (no fatal tool needed).

    In TypeScript (`@openai/agents`): `new Agent({ tools: [...] })` (or `Agent.create`, `clone`,
    `agent.tools.push`) with a fatal tool and a side-effecting tool that does not observe
    `details.signal`. `toolExecution: { maxFunctionToolConcurrency: 1 }` on `new Runner({...})` or
    per run serialises the turn; `modelSettings.parallelToolCalls: false` is only a provider hint.
    ```ts
    const agent = new Agent({ name: 'checkout', tools: [chargeCard, lookupTax] });
    ```

    Use instead:
    ```ts
    await run(agent, input, { toolExecution: { maxFunctionToolConcurrency: 1 } });
    ```

    In LangChain.js / LangGraph.js: `createAgent({ tools, middleware })`, `createReactAgent({ tools })`
    and `new ToolNode([...])` with a member made fatal by its middleware (SIB202) or by
    `handleToolErrors: false` (SIB201), and a side-effecting member that never observes
    `config.signal` (the second parameter of a `tool(fn, ...)` function, the third of a
    `DynamicStructuredTool` `func` or a `StructuredTool`'s `_call`). `invoke` rejects at once and
    the member lands its effect after it, with no tool message. No switch serialises the calls:
    `{ maxConcurrency: 1 }` on `createAgent` drops the second call and every result
    (tests/runtime/js/test_langchain_js.py). Pass `config.signal` to the member's `fetch`, or let the
    errors reach the model.

    In the Vercel AI SDK (`ai`) no tool's failure is fatal, but the caller's `abortSignal` or run
    `timeout` (`5000`, `{ totalMs }`, `{ stepMs }`) on `generateText` / `streamText` is a run stop:
    a side-effecting tool that never observes `options.abortSignal` lands without a result for the
    caller (tests/runtime/js/test_vercel_ai.py). `timeout: { toolMs }` bounds each tool and keeps its
    result; `toolCallConcurrency: 1` is no fix (the running call still lands).
    ```ts
    streamText({ model, tools: { chargeCard }, prompt, abortSignal: AbortSignal.timeout(30000) });
    ```

    Use instead: pass `options.abortSignal` on from `chargeCard`'s `execute` (`fetch(url, { signal })`).

    ## Options
    Concurrency caps are recognised on `Runner.run` / `run_sync` / `run_streamed` calls of the same
    module that pass the agent, on `invoke` / `ainvoke` / `stream` / `astream` of the graph (or of
    the builder it was added to, once compiled) with `max_concurrency` 1, and on runs inside a
    sequential execution-mode block; a group run anywhere without the cap stays concurrent. A
    strands `Agent(tool_executor=SequentialToolExecutor())` (or a name bound to one) is serial.
    """

    code = "SIB301"
    concise = "{victim} can outlive {fatal}'s fatal failure: serialise the group or let that failure reach the model"
    name = "fatal-tool-beside-unstoppable-tool"
    summary = "a concurrent tool group mixes a tool whose failure is fatal with a tool cancellation cannot stop"
    message = (
        "{victim} ({victim_does}) can outlive {fatal}'s fatal failure ({fatal_why}): {fix}{note}"
    )
    # The tool is its own sibling: the model may call it twice in one turn.
    self_concise = "{victim} can outlive its own fatal failure when called twice in one turn: serialise the group"
    self_message = (
        "{victim} ({victim_does}) can outlive its own fatal failure ({fatal_why}) when called twice in one turn: "
        "{fix}{note}"
    )
    # A run deadline (`timeout=` on the agent or its workflow) is the fatal failure of every call.
    deadline_concise = "{victim} can land after the run's deadline ({deadline}) raised: {fix}"
    deadline_message = (
        "{victim} ({victim_does}) can outlive the run's deadline ({deadline}): when it fires, the run raises and "
        "cancels the calls in flight, but this one lands after the raise with nothing recorded: {fix}{note}"
    )
    fix = FixSpec(
        UNSAFE,
        'caps each run of the OpenAI Agents SDK agent in its module at one tool call at a time: '
        '`run_config=RunConfig(tool_execution=ToolExecutionConfig(max_function_tool_concurrency=1))` on '
        '`Runner.run` / `run_sync` / `run_streamed`, or the cap added to the `RunConfig(...)` it is given. '
        'Unsafe: every turn runs its tool calls one after another (slower), and a call after a fatal one '
        'never starts (tests/runtime/test_fix_runtime.py, scenario `sync_charge`). '
        '`ModelSettings(parallel_tool_calls=False)` is not used: it only asks the provider, the SDK still '
        'runs every returned call at once (runtime scenario `parallel_tool_calls_false`). No edit for an '
        'agent run in another module or given a run config built elsewhere, nor for other frameworks '
        '(`max_concurrency=1`, `SequentialToolExecutor()`): cap those runs by hand, or apply the fix of '
        'the SIB1xx / SIB2xx finding behind it',
        CapRuns(library="agents", runners=("Runner.run", "Runner.run_sync", "Runner.run_streamed"),
                agent_keyword="starting_agent", config_keyword="run_config", config="RunConfig",
                cap_keyword="tool_execution", cap="{ToolExecutionConfig}(max_function_tool_concurrency=1)",
                imported=("RunConfig", "ToolExecutionConfig")),
    )
    VALID = [
        Valid(_TOOLS + "\nagent = Agent(name='a', tools=[charge_card, lookup_rate])\n"),
        Valid(_TOOLS + "\nagent = Agent(name='a', tools=[lookup_tax, lookup_rate])\n"),
        Valid(
            _TOOLS + "\nagent = Agent(name='a', tools=[charge_card, lookup_tax])\n"
            "cfg = RunConfig(tool_execution=ToolExecutionConfig(max_function_tool_concurrency=1))\n"
            "Runner.run_sync(agent, 'hi', run_config=cfg)\n"
        ),
        Valid("from agents import Agent\nagent = Agent(name='a', tools=[])\n"),
        Valid(_LG_TOOLS + "\nagent = create_agent('m', tools=[charge_card, lookup_tax], middleware=[ToolRetryMiddleware()])\n"),
        Valid(_LG_TOOLS + "\nagent = create_agent('m', tools=[send_receipt, lookup_tax])\n"),
        Valid(_LG_TOOLS + "\nnode = ToolNode([send_receipt, lookup_tax], handle_tool_errors=True)\n"),
        Valid(_PA_TOOLS + "\nagent = Agent('test', tools=[charge_card, lookup_rate])\n"),
        Valid(_PA_TOOLS + "\nagent = Agent('test', tools=[Tool(charge_card, sequential=True), lookup_tax])\n"),
        Valid(_ADK_TOOLS + "\nagent = Agent(name='a', tools=[charge_card, lookup_tax])\n"),
        Valid(_ADK_TOOLS + "\nagent = Agent(name='a', tools=[refund, lookup_tax], on_tool_error_callback=lambda t, a, c, e: {})\n"),
        Valid(_LI_TOOLS + "\nagent = FunctionAgent(tools=[charge_card, lookup_rate])\n"),
        Valid(_LI_TOOLS + "\nagent = ReActAgent(tools=[charge_card, lookup_rate], timeout=60)\n"),
        Valid(_CREW_TOOLS + "\nshop = Agent(role='r', goal='g', backstory='b', tools=[charge_card, lookup_tax])\n"),
        Valid(_CREW_TOOLS + "\nshop = Agent(role='r', goal='g', backstory='b', tools=[refund, lookup_tax], "
              "tool_failure_policy='raise')\n"),
        Valid(_ST_TOOLS + "\nagent = Agent(tools=[charge_card, lookup_tax])\n"),
        Valid(_ST_TOOLS + "\nagent = Agent(tools=[charge_card, lookup_tax], hooks=[reraise], "
              "tool_executor=SequentialToolExecutor())\n"),
    ] + (examples_js.VALID["SIB301"] + examples_wave3.VALID + examples_langchain_js.VALID["SIB301"]
         + examples_vercel.VALID["SIB301"])
    INVALID = [
        Invalid(_ADK_TOOLS + "\nagent = Agent(name='a', tools=[refund, lookup_tax])\n", lines=(18,)),
        Invalid(_ADK_TOOLS + "\nagent = Agent(name='a', tools=[charge_card, lookup_tax])\nrunner = InMemoryRunner(agent=agent)\n"
                "\n\nasync def main():\n    async for _ in runner.run_async(user_id='u', session_id='s', run_config=POOL):\n        pass\n",
                lines=(18,)),
        Invalid(_TOOLS + "\nagent = Agent(name='a', tools=[charge_card, lookup_tax])\n", lines=(17,)),
        # Run here: the fix caps the run (tests/runtime/test_fix_runtime.py runs it).
        Invalid(_TOOLS + "\nagent = Agent(name='a', tools=[charge_card, lookup_tax])\nRunner.run_sync(agent, 'hi')\n",
                lines=(17,)),
        Invalid(
            _TOOLS + "\nagent = Agent(name='a', tools=[charge_card])\nagent.tools.append(lookup_tax)\n", lines=(18,)
        ),
        Invalid(
            _TOOLS + "\nagent = Agent(name='a', tools=[charge_card, lookup_tax])\n"
            "Runner.run_sync(agent, 'hi', run_config=RunConfig(tool_execution=ToolExecutionConfig(max_function_tool_concurrency=4)))\n",
            lines=(17,),
        ),
        Invalid(
            "from agents import Agent\nfrom .tools import charge_card, lookup_tax\n\n"
            "agent = Agent(name='a', tools=[charge_card, lookup_tax])\n",
            lines=(4,),
            files={"tools.py": _TOOLS, "__init__.py": ""},
        ),
        Invalid(_LG_TOOLS + "\nagent = create_agent('m', tools=[charge_card, lookup_tax])\n", lines=(32,)),
        Invalid(_LG_TOOLS + "\nnode = ToolNode([send_receipt, lookup_tax])\n", lines=(32,)),
        Invalid(_PA_TOOLS + "\nagent = Agent('test', tools=[charge_card, lookup_tax])\n", lines=(17,)),
        Invalid(_PA_TOOLS + "\nagent = Agent('test')\nagent.tool_plain(charge_card)\nagent.tool_plain(lookup_tax)\n",
                lines=(17,)),
        Invalid(_LI_TOOLS + "\nagent = FunctionAgent(tools=[charge_card, lookup_rate], timeout=60)\n", lines=(11,)),
        Invalid(_LI_TOOLS + "\nagent = FunctionAgent(tools=[charge_card, lookup_rate])\n"
                "flow = AgentWorkflow(agents=[agent], timeout=60)\n", lines=(11,)),
        Invalid(_CREW_TOOLS + "\nshop = Agent(role='r', goal='g', backstory='b', tools=[charge_card, lookup_tax])\n"
                "job = Task(description='d', expected_output='x', agent=shop)\n"
                "crew = Crew(agents=[shop], tasks=[job], tool_failure_policy='raise')\n", lines=(24,)),
        Invalid(_ST_TOOLS + "\nagent = Agent(tools=[charge_card, lookup_tax], hooks=[reraise])\n", lines=(22,)),
    ] + (examples_js.INVALID["SIB301"] + examples_wave3.INVALID + examples_langchain_js.INVALID["SIB301"]
         + examples_vercel.INVALID["SIB301"])

    def check(self, ctx: Context) -> Iterator[Diagnostic]:
        for group in ctx.groups():
            if group.capped:
                continue
            found = self._first_mix(ctx, group)
            if found is not None:
                yield found

    def _first_mix(self, ctx: Context, group: "Group") -> Diagnostic | None:
        from siblint.analyses import fatal_hooks, policy_levels
        from siblint.analyses.cancellation import RESULT_KEPT, side_effects, unstoppable
        from siblint.analyses.error_policy import (
            fatal_causes,
            group_policy,
            hook_reasons,
            is_serial,
        )
        from siblint.analyses.fatality import fatal_reasons
        from siblint.analyses.hooks import group_hooks, member_reasons
        from siblint.analyses.signal_flow import without_observed_run_signal
        from siblint.model.callgraph import walk

        verdicts: dict[tuple, tuple[list, list]] = {}
        policy = group_policy(group, ctx.facts, ctx.project)
        hooks = hook_reasons(group, ctx.facts, ctx.project)  # a raising hook makes every call fatal
        call_hooks = group_hooks(group, ctx.facts, ctx.project)  # raising tool-call hooks

        def verdict(m: "Member") -> tuple[list, list]:
            if m.tool.key not in verdicts:
                if is_serial(m.tool, group.framework, m.facts, m.instance):
                    verdicts[m.tool.key] = ([], [])  # runs alone: neither orphans nor is orphaned
                    return verdicts[m.tool.key]
                fatal = fatal_reasons(m.tool, m.facts, ctx.project, agent=group.call, agent_facts=ctx.facts,
                                      importer=ctx.facts)
                fatal += fatal_causes(m.tool, ctx.project, policy, group.framework, ctx.config) + hooks
                kept = group.framework.groups.kept_reasons
                victims = [h for h in unstoppable(m.tool, ctx.project, ctx.config, group.sync_threads)
                           if h.reason not in kept and h.reason not in RESULT_KEPT]  # recorded: not lost
                if group.deadline is not None and group.deadline.signal:
                    victims = without_observed_run_signal(victims, walk(m.tool, ctx.project, ctx.config, group.sync_threads),
                                                          frozenset({group.deadline.signal}))
                if group.framework.failure.layered is not None:
                    fatal += policy_levels.member_reasons(group, m, ctx.facts, ctx.project)
                if group.framework.failure.hooks:
                    fatal += fatal_hooks.member_reasons(m, ctx.facts, ctx.project)
                fatal += member_reasons(m, call_hooks, group, ctx.project, ctx.config)
                if not group.cancels_siblings:
                    # Nothing is cancelled: every side effect, awaiting ones included, lands after the raise.
                    known = {(h.path, h.loc) for h in victims}
                    victims += [h for h in side_effects(m.tool, ctx.project, ctx.config) if (h.path, h.loc) not in known]
                verdicts[m.tool.key] = (fatal, victims)
            return verdicts[m.tool.key]

        builtin = _builtin_fatal(group, policy, ctx)
        for snap in group.snapshots:
            fatal = [(m, r) for m in snap.members for r in verdict(m)[0]] + builtin
            victims = [(m, h) for m in snap.members for h in verdict(m)[1]]
            if group.sync_threads_serial and not any(_runs_async(m.tool, ctx) for m, _ in fatal):
                # One pool thread runs sync tools one at a time: only an async tool's failure orphans one.
                victims = [(m, h) for m, h in victims if h.reason != "sync_thread"]
            if group.deadline is not None and victims:
                return self._past_deadline(ctx, group, snap.loc, _unique_tools(victims))
            if not fatal or not victims:
                continue
            fatal_tools = _unique_tools(fatal)
            victim_tools = _unique_tools(victims)
            # A tool is its own sibling (the model calls it twice in one turn) only when nothing else pairs.
            others = [v for v in victim_tools if any(f[0].tool.key != v[0].tool.key for f in fatal_tools)]
            self_sibling = not others
            if not self_sibling:
                victim_tools = others
                # Name first the fatal tools that are not also the victims (a before-call hook makes every member fatal).
                victim_keys = {v[0].tool.key for v in victim_tools}
                fatal_tools = sorted(fatal_tools, key=lambda f: f[0].tool.key in victim_keys)
            related = tuple(
                Related(r.path, r.loc, f"{m.tool.name}: {r.label} makes its failure fatal") for m, r in fatal_tools
            ) + tuple(
                rel for m, h in victim_tools for rel in (
                    Related(m.tool.path, m.tool.loc, f"{m.tool.name}: {h.description}"),
                    Related(h.path, h.loc, f"{m.tool.name}'s side effect"))
            )
            (fm, reason), (vm, hazard) = fatal_tools[0], victim_tools[0]
            # A group policy's own causes carry no advice, but the maker's built-in tool does.
            own = reason.fix if reason.cause == "default_fatal" else ""
            fix = (own or group.fix).format(victim=vm.tool.name, fatal=fm.tool.name)
            note = group.framework.concurrency.hint_note if group.parallel_hint_off else ""
            if self_sibling:
                return self.finding(
                    ctx, snap.loc, related, template=self.self_message, concise=self.self_concise, victim=vm.tool.name,
                    victim_does=hazard.description, fatal_why=reason.label, fix=fix, note=note,
                )
            return self.finding(
                ctx, snap.loc, related,
                victim=_names(victim_tools), victim_does=hazard.description, fatal=_names(fatal_tools),
                fatal_why=reason.label, fix=fix, note=note,
            )
        return None


    def _past_deadline(self, ctx: Context, group: "Group", loc: Loc, victims: list) -> Diagnostic:
        """Under a run deadline every call can be the one still running when it fires: no fatal tool
        is needed, and a victim alone (its own slow call) is enough."""
        assert group.deadline is not None
        d = group.deadline
        related = (Related(d.path, d.loc, f"{d.label}: the run raises when it fires"),) + tuple(
            rel for m, h in victims for rel in (
                Related(m.tool.path, m.tool.loc, f"{m.tool.name}: {h.description}"),
                Related(h.path, h.loc, f"{m.tool.name}'s side effect"))
        )
        vm, hazard = victims[0]
        return self.finding(
            ctx, loc, related, template=self.deadline_message, concise=self.deadline_concise,
            victim=_names(victims), victim_does=hazard.description, deadline=d.label,
            fix=(d.fix or group.fix).format(victim=vm.tool.name, fatal="the slowest call"),
            note=group.framework.concurrency.hint_note if group.parallel_hint_off else "",
        )


def _builtin_fatal(group: "Group", policy: "GroupPolicy", ctx: Context) -> list[tuple["Member", "FatalReason"]]:
    """The tool the group's maker adds itself (deepagents' `task`), when its failure ends the run:
    the group's policy is fatal by default and no middleware covers it."""
    from siblint.analyses.fatality import FatalReason
    from siblint.model.groups import Member
    from siblint.model.tools import Tool

    builtin = group.maker.builtin if group.maker is not None else None
    if builtin is None or not policy.fatal_by_default:
        return []
    tool = Tool(builtin.name, group.framework.name, "prebuilt", group.path, ctx.facts.module, group.call.loc, "", None, "")
    if policy.covers_all(tool):
        return []
    reason = FatalReason("default_fatal", builtin.fatal, group.path, group.call.loc, fix=builtin.fix)
    return [(Member(tool, ctx.facts), reason)]


def _runs_async(tool: "Tool", ctx: Context) -> bool:
    from siblint.model.callgraph import walk

    found = walk(tool, ctx.project, ctx.config)
    return found is not None and not found.sync_tool


def _unique_tools(found: list) -> list:
    """The first (member, reason) of each tool, in order."""
    seen: dict[tuple, tuple] = {}
    for member, reason in found:
        seen.setdefault(member.tool.key, (member, reason))
    return list(seen.values())


def _names(found: list) -> str:
    """`a`, `a and b`, `a, b and 2 more`: every tool of the mix, named once, in a bounded line."""
    names = list(dict.fromkeys(m.tool.name for m, _ in found))
    if len(names) <= 3:
        return " and ".join(names) if len(names) <= 2 else f"{names[0]}, {names[1]} and {names[2]}"
    return f"{names[0]}, {names[1]} and {len(names) - 2} more"

