"""The JS runtime arms: one program each, what the real `@openai/agents` does when it runs against
the fake model, and what siblint must report on it.

`test_openai_agents_js.py` runs every entry and checks `outcome`; a lint check reads the same list:
`reports` is every SIB code siblint must report on the file, each with where: the `name` of the tool
or of the agent (the group) it is about. No other code is expected on the file.

Every program reads its services from the environment (`test_openai_agents_js.services`): a fraud
score that answers after 300 ms (`RISK_URL`), a shipping service that is down (`SHIPPING_URL`, 503,
its reply logged as the run's fatal failure), a payments sink that replies after 300 ms
(`SLOW_PAYMENTS_URL`, the charge made on arrival), a carrier slower than any timeout (`CARRIER_URL`), a
stdio MCP server whose tool fails (`INVENTORY_SERVER`, inventory_mcp_server.mjs) and the payments
sink (`PAYMENTS_URL`). The charging tool always reads the fraud score before it
charges, so a sibling's failure comes while it waits. Rows cite openai-agents-js.md section 1.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

ROOT = Path(__file__).resolve().parents[3]
PROGRAMS = Path(__file__).resolve().parent / "programs"


@dataclass(frozen=True)
class Outcome:
    raises: str | None  # the class `run()` rejects with; None: the run completes
    charges: bool  # a POST reached the payments sink
    recorded: bool = False  # the run's state keeps an output for the charging call
    # when the charge arrived against the fatal failure (the down service's reply, or the timeout);
    # None: not measured by this arm
    charge_vs_failure: Literal["after", "before"] | None = None


@dataclass(frozen=True)
class Arm:
    name: str
    file: Path
    reports: tuple[tuple[str, str], ...]  # (code, tool or agent name)
    outcome: Outcome
    why: str
    charging_tool: str = "charge_card"
    timeout_s: float | None = None  # the fatal tool's timeoutMs, when its failure is a timeout
    sends_parallel_tool_calls: bool | None = None  # what the model request must carry, when set
    model_requests: int = 1  # 1: the run ended in its first turn; 2: the tools' outputs reached the model


# What most arms have in common: the charge ignores its signal beside a fatal quote.
HAZARD = (("SIB101", "charge_card"), ("SIB201", "quote_shipping"), ("SIB301", "checkout"))
LOST = Outcome(raises="ToolCallError", charges=True, charge_vs_failure="after")
STOPPED = Outcome(raises="ToolCallError", charges=False)


def _program(name: str) -> Path:
    matches = sorted(PROGRAMS.glob(f"{name}.*"))
    assert len(matches) == 1, f"one program per arm: {name} -> {matches}"
    return matches[0]


def _arm(name: str, reports: tuple[tuple[str, str], ...], outcome: Outcome, why: str, **kw: Any) -> Arm:
    return Arm(name, _program(name), reports, outcome, why, **kw)


ARMS: tuple[Arm, ...] = (
    _arm("error_function_null", HAZARD, LOST,
         "`errorFunction: null`: the failure rethrows, the sibling's signal is aborted and ignored"),
    _arm("error_function_rethrows", HAZARD, LOST,
         "a handler that throws is rethrown (`dist/tool.js:942`): as fatal as null"),
    _arm("timeout_raise_exception", (("SIB101", "charge_card"), ("SIB203", "quote_shipping"), ("SIB301", "checkout")),
         Outcome(raises="ToolTimeoutError", charges=True, charge_vs_failure="after"),
         "`timeoutBehavior: 'raise_exception'` throws ToolTimeoutError", timeout_s=0.05),
    _arm("output_schema_responses", HAZARD, LOST,
         "`outputSchema` without `errorFunction` sets the handler to null; the default API is Responses"),
    _arm("self_sibling", (("SIB101", "pay_invoice"), ("SIB201", "pay_invoice"), ("SIB301", "billing")),
         Outcome(raises="ToolCallError", charges=True),
         "one fatal, side-effecting tool called twice in a turn is its own sibling", charging_tool="pay_invoice"),
    _arm("reads_signal_early", HAZARD, LOST,
         "the early-check trap: `signal.aborted` read only before the await, when it is still live"),
    _arm("passes_signal_early", HAZARD, LOST,
         "the signal given to a quick first step only: the abort comes during a later await without it"),
    _arm("parallel_tool_calls_false", HAZARD, LOST,
         "`parallelToolCalls: false` is only sent as `parallel_tool_calls`; the SDK runs what comes back "
         "together", sends_parallel_tool_calls=False),
    # Under a cap of 1 nothing is cancelled: the calls run one by one in the model's order. SIB301
    # is not expected (as in Python, a cap of 1 on the run serialises the group); SIB101 stays, it
    # is about the tool.
    _arm("max_concurrency_fatal_first", (("SIB101", "charge_card"), ("SIB201", "quote_shipping")), STOPPED,
         "`maxFunctionToolConcurrency: 1` on the Runner, fatal call first: the charge never starts"),
    _arm("max_concurrency_charge_first", (("SIB101", "charge_card"), ("SIB201", "quote_shipping")),
         Outcome(raises="ToolCallError", charges=True, charge_vs_failure="before"),
         "the same cap per run, charge first: it completes before the failure, which then drops its "
         "output from the state"),
    _arm("fix_abort_listener", (("SIB201", "quote_shipping"),), STOPPED,
         "fix: the charge rejects on its signal's 'abort' event while it waits"),
    _arm("fix_throw_if_aborted", (("SIB201", "quote_shipping"),), STOPPED,
         "fix: `signal.throwIfAborted()` after the last await, right before the charge"),
    _arm("fix_fetch_signal", (("SIB201", "quote_shipping"),), STOPPED,
         "fix: the signal is passed to the charging fetch, which has not been sent when the abort comes"),
    # What no static check can see: the signal is passed on, yet the request is already in flight
    # when the abort comes, and the service charges on arrival. Expected as for the fixes above.
    _arm("fetch_signal_in_flight", (("SIB201", "quote_shipping"),),
         Outcome(raises="ToolCallError", charges=True),
         "the signal passed to a charging fetch already sent: the client aborts, the service has charged"),
    _arm("mcp_config_null", (("SIB101", "charge_card"), ("SIB201", "checkout"), ("SIB301", "checkout")),
         Outcome(raises="ToolCallError", charges=True),
         "`mcpConfig: { errorFunction: null }`: the MCP server's JSON-RPC error rethrows"),
    # SIB201 still reports the agent's `mcpConfig` null: it is the handler of every server that does
    # not set its own (a server added later is fatal), as for Python's `mcp_config`.
    _arm("mcp_server_handler", (("SIB101", "charge_card"), ("SIB201", "checkout")),
         Outcome(raises=None, charges=True, recorded=True),
         "the server's own `errorFunction` wins over `mcpConfig`'s null", model_requests=2),
    _arm("default_handler", (("SIB101", "charge_card"),),
         Outcome(raises=None, charges=True, recorded=True, charge_vs_failure="after"),
         "twin with the default handler: the failure is text for the model, the charge is recorded",
         model_requests=2),
    _arm("timeout_default", (("SIB101", "charge_card"),),
         Outcome(raises=None, charges=True, recorded=True, charge_vs_failure="after"),
         "twin with the default timeout behaviour ('error_as_result'): the charge is recorded",
         timeout_s=0.05, model_requests=2),
)

# The shipped example and its fix: they run themselves (top-level `await run(...)`), and say how it
# went on stdout / stderr and in their exit code.
EXAMPLE = Arm("checkout_agent", ROOT / "examples" / "checkout_agent.ts", HAZARD, LOST,
              "the measured checkout case, as users write it")
EXAMPLE_FIXED = Arm("checkout_agent_fixed", ROOT / "examples" / "checkout_agent_fixed.ts", (),
                    Outcome(raises=None, charges=True, recorded=True, charge_vs_failure="after"),
                    "the default handler on the quote, the signal passed to the charging request",
                    model_requests=2)
EXAMPLES = (EXAMPLE, EXAMPLE_FIXED)
