"""SIB3xx: concurrent tool groups that mix a fatal tool with a tool cancellation cannot stop."""

from __future__ import annotations

from collections.abc import Iterator

from typing import TYPE_CHECKING

from siblint.diagnostics import Diagnostic, Related
from siblint.rule import Context, Invalid, Rule, Valid

if TYPE_CHECKING:
    from siblint.groups import Group, Member

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
        Valid(_ST_TOOLS + "\nagent = Agent(tools=[charge_card, lookup_tax])\n"),
        Valid(_ST_TOOLS + "\nagent = Agent(tools=[charge_card, lookup_tax], hooks=[reraise], "
              "tool_executor=SequentialToolExecutor())\n"),
    ]
    INVALID = [
        Invalid(_TOOLS + "\nagent = Agent(name='a', tools=[charge_card, lookup_tax])\n", lines=(17,)),
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
        Invalid(_ST_TOOLS + "\nagent = Agent(tools=[charge_card, lookup_tax], hooks=[reraise])\n", lines=(22,)),
    ]

    def check(self, ctx: Context) -> Iterator[Diagnostic]:
        for group in ctx.groups():
            if group.capped:
                continue
            found = self._first_mix(ctx, group)
            if found is not None:
                yield found

    def _first_mix(self, ctx: Context, group: "Group") -> Diagnostic | None:
        from siblint.cancellation import side_effects, unstoppable
        from siblint.error_policy import fatal_causes, group_policy, is_serial
        from siblint.fatality import fatal_reasons
        from siblint.hooks import group_hooks, member_reasons

        verdicts: dict[tuple, tuple[list, list]] = {}
        policy = group_policy(group, ctx.facts, ctx.project)
        hooks = group_hooks(group, ctx.facts, ctx.project)

        def verdict(m: "Member") -> tuple[list, list]:
            if m.tool.key not in verdicts:
                if is_serial(m.tool, group.framework):
                    verdicts[m.tool.key] = ([], [])  # runs alone: neither orphans nor is orphaned
                    return verdicts[m.tool.key]
                fatal = fatal_reasons(m.tool, m.facts, ctx.project, agent=group.call, agent_facts=ctx.facts,
                                      importer=ctx.facts)
                fatal += fatal_causes(m.tool, ctx.project, policy, group.framework, ctx.config)
                fatal += member_reasons(m, hooks, group, ctx.project, ctx.config)
                victims = unstoppable(m.tool, ctx.project, ctx.config)
                if not group.cancels_siblings:
                    # Nothing is cancelled: every side effect, awaiting ones included, lands after the raise.
                    known = {(h.path, h.loc) for h in victims}
                    victims += [h for h in side_effects(m.tool, ctx.project, ctx.config) if (h.path, h.loc) not in known]
                verdicts[m.tool.key] = (fatal, victims)
            return verdicts[m.tool.key]

        for snap in group.snapshots:
            fatal = [(m, r) for m in snap.members for r in verdict(m)[0]]
            victims = [(m, h) for m in snap.members for h in verdict(m)[1]]
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
            fix = group.fix.format(victim=vm.tool.name, fatal=fm.tool.name)
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

