"""Runtime scenarios: complete modules that the tests both run with the real SDK and lint.

Each scenario is the text of one module: tools, an `Agent` on the fake model, and
`async def main()` returning `await Runner.run(...)`. The module reads two addresses from the
environment (FAKE_MODEL_URL, FAKE_PAYMENTS_URL); its side effects are real HTTP POSTs to the fake
payments service, spelled as siblint recognises them (`requests.post`, `httpx.AsyncClient().post`).

Fixed timings, as in ../shared/reference/openai-agents-runtime.md (arms 1-16):

* `charge_card` takes CHARGE = 0.3 s before it posts the charge;
* the failing tool awaits FAIL_AFTER = 0.05 s before it raises. Raising at its very first step
  would make it a race whether a thread-based sibling starts at all (arm 2i: 11/20); 50 ms lets
  the worker thread pick the call up first (see `Scenario.attempts`).

Unless a scenario says otherwise, the model calls every tool once, in the order of `tools=[...]`.
"""

from __future__ import annotations

from dataclasses import dataclass
from textwrap import dedent

CHARGE = 0.3
FAIL_AFTER = 0.05


@dataclass(frozen=True)
class Runtime:
    """What the real SDK does with the scenario (asserted by test_runtime.py::test_sdk_behaviour)."""

    raises: bool
    exc_type: str | None = None  # type name of the exception out of Runner.run
    message: str = ""  # a substring of str(exception), or of the final output when it resolves
    # "after": every charge lands after Runner.run has raised;
    # "before": the charge lands before the run ends (raise or return);
    # "landed": a charge lands, ordering not asserted (it lands while the raise propagates);
    # "none": no charge at all.
    effect: str = "none"
    recorded: bool = False  # charge_card's output is in new_items (result or exc.run_data)
    min_end: float = 0.0  # s from the first model request before which the run cannot end
    parallel_tool_calls_sent: object = "<absent>"  # as seen in the first model request body


@dataclass(frozen=True)
class Scenario:
    name: str
    arm: str  # the reference's arm or spelling id
    title: str
    source: str
    hazard: bool  # a charge lands after/while the run raises and exc.run_data keeps no record of it
    runtime: Runtime
    codes: tuple[str, ...] = ()  # must be reported
    absent: tuple[str, ...] = ()  # must not be reported
    twin: str = ""  # the scenario showing the fix (for INVALID) or the hazard (for VALID)
    # The hazard is an existence claim; when it rests on a worker thread starting within
    # FAIL_AFTER (a race, arm 2i), the run is repeated up to this many times until it shows.
    attempts: int = 1



# ------------------------------------------------------------------------------ module text
HEADER = '''\
"""Runtime scenario {name} (reference {arm}): {title}"""

import asyncio
import logging
import os
import time

import httpx
import requests
from openai import AsyncOpenAI

from agents import (
    Agent,
    FunctionTool,
    ModelSettings,
    OpenAIChatCompletionsModel,
    RunConfig,
    Runner,
    ToolExecutionConfig,
    function_tool,
    set_tracing_disabled,
)

PAYMENTS_URL = os.environ["FAKE_PAYMENTS_URL"]
set_tracing_disabled(True)
logger = logging.getLogger("checkout")
'''

FOOTER = '''

model = OpenAIChatCompletionsModel(
    model="{mode}",
    openai_client=AsyncOpenAI(base_url=os.environ["FAKE_MODEL_URL"], api_key="x", max_retries=0),
)
agent = Agent(
    name="checkout",
    instructions="Charge the card and look up the tax.",
    model=model,
    tools=[{tools}],{agent_extra}
)


async def main():
    return await Runner.run(
        agent,
        "Charge order 1 and look up the tax.",
        run_config={run_config},
    )


if __name__ == "__main__":
    print(asyncio.run(main()).final_output)
'''


def module(name: str, arm: str, title: str, pieces: tuple[str, ...], *, tools: str = "charge_card, lookup_tax",
           mode: str = "fake/each-tool", agent_extra: str = "",
           run_config: str = "RunConfig(tracing_disabled=True)") -> str:
    extra = f"\n    {agent_extra}," if agent_extra else ""
    body = "\n\n\n".join(dedent(p).strip("\n") for p in pieces)
    return (HEADER.format(name=name, arm=arm, title=title) + "\n\n" + body + "\n"
            + FOOTER.format(mode=mode, tools=tools, agent_extra=extra, run_config=run_config))


# ------------------------------------------------------------------------------ tool texts
SYNC_CHARGE = f'''
@function_tool
def charge_card(order_id: int) -> str:
    """Charge the customer's card (a sync def: the SDK runs it in a worker thread)."""
    time.sleep({CHARGE})  # the payment provider is slow
    requests.post(PAYMENTS_URL, json={{"order_id": order_id}}, timeout=5)
    return "charged"
'''

ASYNC_CHARGE = f'''
@function_tool
async def charge_card(order_id: int) -> str:
    """Charge the customer's card; cancellation reaches it at the await."""
    await asyncio.sleep({CHARGE})  # the payment provider is slow
    async with httpx.AsyncClient() as client:
        await client.post(PAYMENTS_URL, json={{"order_id": order_id}})
    return "charged"
'''


def lookup(decorator: str = "@function_tool(failure_error_function=None)", *, sleep: float = FAIL_AFTER) -> str:
    return f'''
{decorator}
async def lookup_tax(region: str) -> str:
    """Look up the sales tax rate for a region."""
    await asyncio.sleep({sleep})
    raise RuntimeError("tax service down")
'''


FATAL_LOOKUP = lookup()
FATAL_MESSAGE = "Error running tool lookup_tax: tax service down"

# Every code a tool shape can earn for not observing cancellation.
SIB1XX = ("SIB101", "SIB102", "SIB103", "SIB104", "SIB105")
# siblint's own failures: never expected on these ordinary modules.
INTERNAL = ("SIB900", "SIB901")


def _scenario(name: str, arm: str, title: str, *pieces: str, **kw) -> Scenario:
    module_kw = {k: kw.pop(k) for k in ("tools", "mode", "agent_extra", "run_config") if k in kw}
    absent = list(kw.get("absent", ())) + list(INTERNAL)
    # Precision: where a scenario names the SIB1xx code of its tool shape, that is the only one.
    if any(c in SIB1XX for c in kw.get("codes", ())):
        absent += [c for c in SIB1XX if c not in kw["codes"] and c not in absent]
    kw["absent"] = tuple(absent)
    return Scenario(name=name, arm=arm, title=title, source=module(name, arm, title, pieces, **module_kw), **kw)


# After the raise the run is over: the charge that lands then is the hazard.
HAZARD = Runtime(raises=True, exc_type="UserError", message=FATAL_MESSAGE, effect="after")
CANCELLED = Runtime(raises=True, exc_type="UserError", message=FATAL_MESSAGE, effect="none")

SCENARIOS: list[Scenario] = [
    # ---------------------------------------------------------------- SIB101 + SIB201 -> SIB301
    _scenario(
        "sync_charge", "arm 2",
        "a sync def charge_card beside lookup_tax(failure_error_function=None)",
        SYNC_CHARGE, FATAL_LOOKUP,
        hazard=True, runtime=HAZARD, attempts=3,
        codes=("SIB101", "SIB201", "SIB301"), twin="async_charge",
    ),
    _scenario(
        "async_charge", "arm 3",
        "charge_card is async and awaits: the cancel reaches it before it charges",
        ASYNC_CHARGE, FATAL_LOOKUP,
        hazard=False, runtime=CANCELLED,
        codes=("SIB201",), absent=SIB1XX + ("SIB301",), twin="sync_charge",
    ),
    _scenario(
        "sync_charge_default_handler", "arm 1",
        "the same sync charge_card, lookup_tax keeps the default failure handler",
        SYNC_CHARGE, lookup("@function_tool"),
        hazard=False,
        runtime=Runtime(raises=False, message="An error occurred while running the tool", effect="before",
                        recorded=True),
        absent=("SIB201", "SIB202", "SIB203", "SIB204", "SIB301"), twin="sync_charge",
    ),
    _scenario(
        "sync_charge_serialised_lookup_first", "arm 11b",
        "the sync_charge code, run one tool at a time; the model calls lookup_tax first",
        SYNC_CHARGE, FATAL_LOOKUP,
        mode="fake/each-tool-reversed",
        run_config="RunConfig(\n            tracing_disabled=True,\n"
                   "            tool_execution=ToolExecutionConfig(max_function_tool_concurrency=1),\n        )",
        hazard=False, runtime=CANCELLED,  # charge_card never starts
        codes=("SIB201",), absent=("SIB301",), twin="sync_charge",
    ),
    _scenario(
        "sync_charge_serialised_charge_first", "arm 11a",
        "the sync_charge code, run one tool at a time; the model calls charge_card first",
        SYNC_CHARGE, FATAL_LOOKUP,
        run_config="RunConfig(\n            tracing_disabled=True,\n"
                   "            tool_execution=ToolExecutionConfig(max_function_tool_concurrency=1),\n        )",
        hazard=False,
        # charge_card completes before lookup_tax starts: it lands before the raise, and is recorded.
        runtime=Runtime(raises=True, exc_type="UserError", message=FATAL_MESSAGE, effect="before",
                        recorded=True, min_end=CHARGE + FAIL_AFTER),
        codes=("SIB201",), absent=("SIB301",), twin="sync_charge",
    ),
    _scenario(
        "parallel_tool_calls_false", "arm 10a",
        "the sync_charge code with ModelSettings(parallel_tool_calls=False): the SDK still runs both",
        SYNC_CHARGE, FATAL_LOOKUP,
        agent_extra="model_settings=ModelSettings(parallel_tool_calls=False)",
        hazard=True,
        runtime=Runtime(raises=True, exc_type="UserError", message=FATAL_MESSAGE, effect="after",
                        parallel_tool_calls_sent=False),
        attempts=3,
        codes=("SIB101", "SIB201", "SIB301"), twin="sync_charge_serialised_lookup_first",
    ),
    # ---------------------------------------------------------------- SIB203
    _scenario(
        "timeout_raises", "arm 7a",
        'lookup_tax(timeout=0.05, timeout_behavior="raise_exception") beside a sync charge_card',
        SYNC_CHARGE,
        lookup('@function_tool(timeout=0.05, timeout_behavior="raise_exception")', sleep=5),
        hazard=True,
        runtime=Runtime(raises=True, exc_type="ToolTimeoutError",
                        message="Tool 'lookup_tax' timed out after 0.05 seconds", effect="after"),
        attempts=3,
        codes=("SIB101", "SIB203", "SIB301"), twin="timeout_as_result",
    ),
    _scenario(
        "timeout_as_result", "arm 8",
        "lookup_tax(timeout=0.05) with the default timeout behaviour: the model is told",
        SYNC_CHARGE, lookup("@function_tool(timeout=0.05)", sleep=5),
        hazard=False,
        runtime=Runtime(raises=False, message="timed out after 0.05 seconds", effect="before", recorded=True),
        absent=("SIB203", "SIB301"), twin="timeout_raises",
    ),
    # ---------------------------------------------------------------- SIB102
    _scenario(
        "to_thread_charge", "arm 6b",
        "an async charge_card that awaits asyncio.to_thread(blocking_charge)",
        f'''
        def blocking_charge(order_id: int) -> str:
            time.sleep({CHARGE})
            requests.post(PAYMENTS_URL, json={{"order_id": order_id}}, timeout=5)
            return "charged"


        @function_tool
        async def charge_card(order_id: int) -> str:
            """Charge the card without blocking the event loop."""
            return await asyncio.to_thread(blocking_charge, order_id)
        ''', FATAL_LOOKUP,
        hazard=True, runtime=HAZARD, attempts=3,  # its worker thread must start within FAIL_AFTER (2i)
        codes=("SIB102", "SIB201", "SIB301"), twin="async_charge",
    ),
    # ---------------------------------------------------------------- SIB103
    _scenario(
        "blocking_async_charge", "arm 4",
        "an async def charge_card that blocks the loop (time.sleep, requests.post)",
        f'''
        @function_tool
        async def charge_card(order_id: int) -> str:
            """Charge the card (async def, but every call in it blocks)."""
            time.sleep({CHARGE})
            requests.post(PAYMENTS_URL, json={{"order_id": order_id}}, timeout=5)
            return "charged"
        ''', FATAL_LOOKUP,
        # Not the unrecorded hazard: the loop is blocked, so charge_card runs to completion before
        # lookup_tax even starts; the charge lands before the raise and exc.run_data records it.
        hazard=False,
        runtime=Runtime(raises=True, exc_type="UserError", message=FATAL_MESSAGE, effect="before",
                        recorded=True, min_end=CHARGE + FAIL_AFTER),
        codes=("SIB103", "SIB201", "SIB301"), twin="async_charge",
    ),
    # ---------------------------------------------------------------- SIB104
    _scenario(
        "swallow_base_exception", "arm 5b",
        "charge_card catches BaseException (the cancel), waits, then charges anyway",
        '''
        @function_tool
        async def charge_card(order_id: int) -> str:
            """Charge the card, retrying once after an interruption."""
            try:
                await asyncio.sleep(0.3)
            except BaseException:
                logger.warning("charge interrupted; retrying")
                await asyncio.sleep(0.5)
            async with httpx.AsyncClient() as client:
                await client.post(PAYMENTS_URL, json={"order_id": order_id})
            return "charged"
        ''', FATAL_LOOKUP,
        # The SDK waits up to 0.25 s for a cancelled sibling with a pending timer, then raises
        # (at ~0.30 s); the retry sleeps 0.5 s so the charge (~0.55 s) is clearly after the raise.
        hazard=True,
        runtime=Runtime(raises=True, exc_type="UserError", message=FATAL_MESSAGE, effect="after",
                        min_end=FAIL_AFTER + 0.25),
        codes=("SIB104", "SIB201", "SIB301"), twin="swallow_exception_only",
    ),
    _scenario(
        "swallow_exception_only", "arm 5d",
        "charge_card catches Exception only: CancelledError goes through",
        '''
        @function_tool
        async def charge_card(order_id: int) -> str:
            """Charge the card, retrying once after an error."""
            try:
                await asyncio.sleep(0.3)
            except Exception:
                logger.warning("charge interrupted; retrying")
                await asyncio.sleep(0.5)
            async with httpx.AsyncClient() as client:
                await client.post(PAYMENTS_URL, json={"order_id": order_id})
            return "charged"
        ''', FATAL_LOOKUP,
        hazard=False, runtime=CANCELLED,
        codes=("SIB201",), absent=SIB1XX + ("SIB301",), twin="swallow_base_exception",
    ),
    # ---------------------------------------------------------------- SIB105
    _scenario(
        "shielded_charge", "arm 6",
        "charge_card shields the charge with asyncio.shield",
        f'''
        async def submit_charge(order_id: int) -> None:
            await asyncio.sleep({CHARGE})
            async with httpx.AsyncClient() as client:
                await client.post(PAYMENTS_URL, json={{"order_id": order_id}})


        @function_tool
        async def charge_card(order_id: int) -> str:
            """Charge the card; never leave a charge half-done."""
            await asyncio.shield(submit_charge(order_id))
            return "charged"
        ''', FATAL_LOOKUP,
        hazard=True, runtime=HAZARD,
        codes=("SIB105", "SIB201", "SIB301"), twin="async_charge",
    ),
    _scenario(
        "charge_in_finally", "arm 5e",
        "charge_card posts the charge in a finally: block",
        f'''
        @function_tool
        async def charge_card(order_id: int) -> str:
            """Reserve, then always capture the charge."""
            try:
                await asyncio.sleep({CHARGE})  # reserve the amount
            finally:
                async with httpx.AsyncClient() as client:
                    await client.post(PAYMENTS_URL, json={{"order_id": order_id}})
            return "charged"
        ''', FATAL_LOOKUP,
        # The finally: runs during the cancellation, so the charge lands while the failure is
        # being raised (the reference saw both at 68 ms); the order of the two is not asserted.
        # The tool then re-raises CancelledError, so nothing of the turn is recorded.
        hazard=True,
        runtime=Runtime(raises=True, exc_type="UserError", message=FATAL_MESSAGE, effect="landed"),
        codes=("SIB105", "SIB201", "SIB301"), twin="async_charge",
    ),
    # ---------------------------------------------------------------- SIB202
    _scenario(
        "handler_returns_none", "S4",
        "lookup_tax's failure handler only logs (returns None) beside a sync charge_card",
        SYNC_CHARGE, '''

        def log_tool_error(ctx, error):
            logger.warning("tool failed: %s", error)
        ''', lookup("@function_tool(failure_error_function=log_tool_error)"),
        hazard=True, runtime=HAZARD, attempts=3,
        codes=("SIB101", "SIB202", "SIB301"), absent=("SIB201",), twin="handler_returns_message",
    ),
    _scenario(
        "handler_raises", "arm 9",
        "lookup_tax's failure handler raises beside a sync charge_card",
        SYNC_CHARGE, '''

        def explain_tool_error(ctx, error):
            raise ValueError(f"formatter exploded while formatting: {error}")
        ''', lookup("@function_tool(failure_error_function=explain_tool_error)"),
        hazard=True,
        runtime=Runtime(raises=True, exc_type="UserError",
                        message="Error running tool lookup_tax: formatter exploded while formatting: tax service down",
                        effect="after"),
        attempts=3,
        codes=("SIB101", "SIB202", "SIB301"), absent=("SIB201",), twin="handler_returns_message",
    ),
    _scenario(
        "handler_returns_message", "S0 with a handler",
        "lookup_tax's failure handler returns a message for the model",
        SYNC_CHARGE, '''

        def explain_tool_error(ctx, error):
            return f"tax lookup failed ({error}); quote the price without tax"
        ''', lookup("@function_tool(failure_error_function=explain_tool_error)"),
        hazard=False,
        runtime=Runtime(raises=False, message="tax lookup failed (tax service down)", effect="before",
                        recorded=True),
        absent=("SIB201", "SIB202", "SIB301"), twin="handler_returns_none",
    ),
    # ---------------------------------------------------------------- SIB204
    _scenario(
        "function_tool_raises", "arm 14d",
        "lookup_tax is a FunctionTool(...) built directly whose on_invoke_tool raises",
        SYNC_CHARGE, f'''

        async def invoke_lookup_tax(ctx, args: str) -> str:
            await asyncio.sleep({FAIL_AFTER})
            raise RuntimeError("tax service down")


        lookup_tax = FunctionTool(
            name="lookup_tax",
            description="Look up the sales tax rate for a region.",
            params_json_schema={{
                "type": "object",
                "properties": {{"region": {{"type": "string"}}}},
                "required": ["region"],
                "additionalProperties": False,
            }},
            on_invoke_tool=invoke_lookup_tax,
        )
        ''',
        hazard=True, runtime=HAZARD, attempts=3,
        codes=("SIB101", "SIB204", "SIB301"), twin="function_tool_guarded",
    ),
    _scenario(
        "function_tool_guarded", "arm 14d fixed",
        "the FunctionTool's on_invoke_tool turns its errors into a message",
        SYNC_CHARGE, f'''

        async def invoke_lookup_tax(ctx, args: str) -> str:
            try:
                await asyncio.sleep({FAIL_AFTER})
                raise RuntimeError("tax service down")
            except Exception as error:
                return f"tax lookup failed: {{error}}"


        lookup_tax = FunctionTool(
            name="lookup_tax",
            description="Look up the sales tax rate for a region.",
            params_json_schema={{
                "type": "object",
                "properties": {{"region": {{"type": "string"}}}},
                "required": ["region"],
                "additionalProperties": False,
            }},
            on_invoke_tool=invoke_lookup_tax,
        )
        ''',
        hazard=False,
        runtime=Runtime(raises=False, message="tax lookup failed: tax service down", effect="before", recorded=True),
        absent=("SIB204", "SIB301"), twin="function_tool_raises",
    ),
    # ---------------------------------------------------------------- a tool is its own sibling
    _scenario(
        "same_tool_twice_sync", "arm 16 (sync)",
        "ONE sync tool, called twice in one turn: order 1 is declined, order 2 is charged",
        f'''
        DECLINED_ORDERS = {{1}}


        @function_tool(failure_error_function=None)
        def charge_card(order_id: int) -> str:
            """Charge the customer's card for one order."""
            if order_id in DECLINED_ORDERS:
                time.sleep({FAIL_AFTER})
                raise RuntimeError("card declined")
            time.sleep({CHARGE})
            requests.post(PAYMENTS_URL, json={{"order_id": order_id}}, timeout=5)
            return "charged"
        ''',
        tools="charge_card", mode="fake/each-tool-twice",
        hazard=True,
        runtime=Runtime(raises=True, exc_type="UserError", message="Error running tool charge_card: card declined",
                        effect="after"),
        attempts=3,
        codes=("SIB101", "SIB201", "SIB301"), twin="same_tool_twice_async",
    ),
    _scenario(
        "same_tool_twice_async", "arm 16",
        "ONE async tool, called twice in one turn: the second call is cancelled at its await",
        f'''
        DECLINED_ORDERS = {{1}}


        @function_tool(failure_error_function=None)
        async def charge_card(order_id: int) -> str:
            """Charge the customer's card for one order."""
            if order_id in DECLINED_ORDERS:
                await asyncio.sleep({FAIL_AFTER})
                raise RuntimeError("card declined")
            await asyncio.sleep({CHARGE})
            async with httpx.AsyncClient() as client:
                await client.post(PAYMENTS_URL, json={{"order_id": order_id}})
            return "charged"
        ''',
        tools="charge_card", mode="fake/each-tool-twice",
        hazard=False,
        runtime=Runtime(raises=True, exc_type="UserError", message="Error running tool charge_card: card declined"),
        codes=("SIB201",), absent=SIB1XX + ("SIB301",), twin="same_tool_twice_sync",
    ),
]

BY_NAME = {s.name: s for s in SCENARIOS}
assert len(BY_NAME) == len(SCENARIOS), "scenario names must be unique"
assert all(not s.twin or s.twin in BY_NAME for s in SCENARIOS), "a twin names an unknown scenario"
