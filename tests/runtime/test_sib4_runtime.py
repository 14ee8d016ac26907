"""Runtime truth for SIB401, SIB402, SIB403 and SIB406: each INVALID module is run with the real
OpenAI Agents SDK (and, for the payment arms, the real stripe-python client) against loopback fakes
and must show its harm; its fixed twin must not. The same module text is then linted: the INVALID
one must carry the code, the twin must not.

The fake model (payments_api.model_answer) calls every tool once and calls again once when the tool
output reads like a failure, as a model does that takes the SDK's "Please try again." or "timed
out" at its word. The payments fake records a charge when the request arrives and answers late (the
"accepted, then slow" case), or holds or drops the connection unanswered, or answers 500 and
creates nothing. Design arms: A1/A2, B1-B3, E1-E4 of ../shared/reference/sib4-design.md. All runs
of the module overlap in one event loop (~7 s).
"""

from __future__ import annotations

import asyncio
import importlib.util
import logging
import sys
from dataclasses import dataclass
from pathlib import Path
from textwrap import dedent
from typing import Any

import pytest
from siblint.lint.engine import lint_text
from siblint.settings.config import Config

from .payments_api import PaymentsAPI

# stripe 16.1.0 hands httpx its form body as raw bytes, which httpx 0.28 deprecates.
pytestmark = [pytest.mark.runtime, pytest.mark.filterwarnings("ignore:Use 'content=<...>':DeprecationWarning")]
RUN_BOUND = 20.0  # seconds any one run may take


@dataclass(frozen=True)
class Arm:
    name: str
    design: str  # the design's arm
    source: str  # the module: its tools read PAY_URL, set by the test
    delay: float = 0.0  # the payments fake answers after this long ...
    fail_status: int = 0  # ... or answers this status and creates nothing
    unanswered: str = ""  # ... or never answers: "hold" (until the client hangs up) or "drop" (payments_api)
    codes: tuple[str, ...] = ()  # siblint must report these ...
    absent: tuple[str, ...] = ()  # ... and not these


# ---- SIB401: the tool's budget is 3.0 s; the payments fake records the charge and never answers -----
# (the design ran 0.5 s and 0.3 s, and a fake answering after 0.5 s; under load 9-11 a 1.0 s budget,
# and a 0.3 s child timeout, ran out before the request was even sent. A fake that never answers
# leaves only the timeouts to end the call, and wide ones let the request arrive first.)
BUDGET = '''\
import httpx
from agents import function_tool

PAY_URL = ""
LEDGER: list[str] = []


@function_tool(timeout=3.0)
async def charge_card(order: str, amount: int) -> str:
    """Charge the card for an order."""
    if f"unknown:{{order}}" in LEDGER:  # reconcile an unknown outcome before charging again
        async with httpx.AsyncClient(timeout=1.0) as c:
            found = (await c.get(f"{{PAY_URL}}/v1/charges", params={{"order": order}})).json()["data"]
        if found:
            LEDGER.append(f"reconciled:{{order}}")
            return f"already charged: {{found[0]['id']}}"
    try:
        async with httpx.AsyncClient(timeout={child}) as c:
            r = await c.post(f"{{PAY_URL}}/v1/charges", json={{"order": order, "amount": amount}})
        return f"charged {{r.json()['id']}}"
    except httpx.TimeoutException:
        LEDGER.append(f"unknown:{{order}}")
        return f"charge for {{order}}: outcome unknown (request sent, no answer); reconcile before retrying"
'''

# ---- SIB402 / SIB403: the fake records each charge and drops the connection, so the real Stripe ---
# client's network retry (same key) always follows, and fails the same way. (The fake used to answer
# after 0.5 s to a client that gave up after 0.2 s; under load the 0.2 s could run out before the
# request was even sent, and a retry went missing.) The generous timeout is only for load.
STRIPE = '''\
import uuid

import stripe
from agents import function_tool

PAY_URL = ""


@function_tool
async def charge_card(order: str, amount: int) -> str:
    """Charge the card for an order."""
    client = stripe.StripeClient("sk_test_dummy", base_addresses={{"api": PAY_URL}},
                                 http_client=stripe.HTTPXClient(timeout=10), max_network_retries=1)
    pi = await client.v1.payment_intents.create_async(
        params={{"amount": amount, "currency": "usd", "description": order}}{options})
    return f"charged {{pi.id}}"
'''

# ---- SIB406: the payments fake answers 500 -----------------------------------------------------
REFUND = '''\
import logging

import httpx
from agents import function_tool

PAY_URL = ""
log = logging.getLogger("support")


async def _post(order: str) -> None:
    async with httpx.AsyncClient(timeout=2) as c:
        r = await c.post(f"{{PAY_URL}}/v1/refunds", json={{"order": order}})
        r.raise_for_status()


@function_tool
async def refund(order: str) -> str:
    """Refund an order."""
{body}
'''
FALL_THROUGH = "    try:\n        await _post(order)\n    except Exception:\n        log.warning('refund failed')\n    return 'refund issued'"
SAME_LITERAL = "    try:\n        await _post(order)\n        return 'refund issued'\n    except Exception:\n        return 'refund issued'"
REPORTS = ("    try:\n        await _post(order)\n        return 'refund issued'\n    except Exception as e:\n"
           "        return f'refund failed: {type(e).__name__}; nothing was refunded'")
NO_TRY = "    await _post(order)\n    return 'refund issued'"

ARMS = [
    Arm("child_above_budget", "A1", BUDGET.format(child="5.0"), unanswered="hold", codes=("SIB401",)),
    Arm("child_below_budget", "A2", BUDGET.format(child="1.5"), unanswered="hold", absent=("SIB401",)),
    Arm("stripe_no_key", "B1", STRIPE.format(options=""), unanswered="drop", codes=("SIB402",), absent=("SIB403",)),
    Arm("stripe_uuid_key", "B2", STRIPE.format(options=', options={"idempotency_key": str(uuid.uuid4())}'),
        unanswered="drop", codes=("SIB403",), absent=("SIB402",)),
    Arm("stripe_order_key", "B3", STRIPE.format(options=', options={"idempotency_key": f"charge:{order}"}'),
        unanswered="drop", absent=("SIB402", "SIB403")),
    Arm("refund_falls_through", "E1", REFUND.format(body=FALL_THROUGH), fail_status=500, codes=("SIB406",)),
    Arm("refund_same_literal", "E2", REFUND.format(body=SAME_LITERAL), fail_status=500, codes=("SIB406",)),
    Arm("refund_reports_failure", "E3", REFUND.format(body=REPORTS), fail_status=500, absent=("SIB406",)),
    Arm("refund_without_try", "E4", REFUND.format(body=NO_TRY), fail_status=500, absent=("SIB406",)),
]
BY_NAME = {a.name: a for a in ARMS}


def load(arm: Arm, folder: Path) -> Any:
    path = folder / f"sib4_{arm.name}.py"
    path.write_text(arm.source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(f"sib4_{arm.name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


async def run_arm(arm: Arm, api: PaymentsAPI, folder: Path) -> dict[str, Any]:
    from agents import Agent, OpenAIChatCompletionsModel, Runner
    from openai import AsyncOpenAI

    module = load(arm, folder)
    module.PAY_URL = api.configure(arm.name, arm.delay, arm.fail_status, arm.unanswered)
    tool = next(v for v in vars(module).values() if type(v).__name__ == "FunctionTool")
    client = AsyncOpenAI(base_url=f"{module.PAY_URL}/v1", api_key="not-a-real-key", max_retries=0)
    agent = Agent(name="checkout", tools=[tool],
                  model=OpenAIChatCompletionsModel(model="fake/each-tool", openai_client=client))
    result = await asyncio.wait_for(Runner.run(agent, "do it", max_turns=6), RUN_BOUND)
    await asyncio.sleep(arm.delay + 0.2)  # let answers still in flight arrive (charges are recorded on arrival)
    run = api.run(arm.name)
    outputs = [i.output for i in result.new_items if type(i).__name__ == "ToolCallOutputItem"]
    return {"outputs": outputs, "posts": run.posts, "charges": run.charges,
            "ledger": list(getattr(module, "LEDGER", []))}


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, dict[str, Any]]:
    import stripe  # noqa: F401 - a test dependency: missing, the runtime tests fail, never skip
    from agents import set_tracing_disabled

    set_tracing_disabled(True)
    for name in ("openai.agents", "stripe", "support"):
        logging.getLogger(name).setLevel(logging.CRITICAL)
    folder = tmp_path_factory.mktemp("sib4-runtime")
    api = PaymentsAPI().start()
    try:
        async def all_arms() -> list[dict[str, Any]]:
            return list(await asyncio.gather(*(run_arm(a, api, folder) for a in ARMS)))

        results = asyncio.run(all_arms())
    finally:
        api.close()
        for arm in ARMS:
            sys.modules.pop(f"sib4_{arm.name}", None)
    return {a.name: r for a, r in zip(ARMS, results)}


# ---- what the SDK did ------------------------------------------------------------------------------
def test_child_timeout_above_the_budget(runs):
    """A1: the SDK cancels the tool before its own timeout handler can run; the model is told
    "timed out", calls again, and the card is charged twice. A2: the child's timeout fires first,
    the tool records the unknown outcome and reconciles on the re-call: one charge."""
    a1, a2 = runs["child_above_budget"], runs["child_below_budget"]
    assert a1["outputs"] == ["Tool 'charge_card' timed out after 3 seconds."] * 2, a1
    assert len(a1["charges"]) == 2 and a1["ledger"] == []
    assert len(a2["charges"]) == 1, a2
    assert "outcome unknown" in a2["outputs"][0] and a2["outputs"][1] == "already charged: pi_1"
    assert a2["ledger"] == ["unknown:x", "reconciled:x"]


def test_payment_keys(runs):
    """B1: Stripe's own per-request key protects only its network retry: one model re-call, two
    charges. B2: a uuid4 key per call is the same. B3: a key from the order: one charge."""
    for name in ("stripe_no_key", "stripe_uuid_key", "stripe_order_key"):
        r = runs[name]
        assert len(r["outputs"]) == 2 and all("Please try again" in o for o in r["outputs"]), (name, r["outputs"])
        assert len(r["posts"]) == 4, (name, r["posts"])  # two tool calls, each with one network retry
    for name in ("stripe_no_key", "stripe_uuid_key"):
        keys = [p["key"] for p in runs[name]["posts"]]
        assert len(set(keys)) == 2 and keys[0] == keys[1], (name, keys)
        assert len(runs[name]["charges"]) == 2, name
    b3 = runs["stripe_order_key"]
    assert {p["key"] for p in b3["posts"]} == {"charge:x"} and len(b3["charges"]) == 1


def test_failure_text(runs):
    """E1/E2: nothing was refunded (the fake answered 500) and the model was told "refund issued".
    E3 (a failure text) and E4 (no try: the SDK's default failure message) told it otherwise."""
    for name in ("refund_falls_through", "refund_same_literal"):
        r = runs[name]
        assert r["charges"] == [] and len(r["posts"]) == 1 and r["outputs"] == ["refund issued"], (name, r)
    e3, e4 = runs["refund_reports_failure"], runs["refund_without_try"]
    assert e3["charges"] == [] and e3["outputs"][0].startswith("refund failed: HTTPStatusError")
    assert e4["charges"] == [] and e4["outputs"][0].startswith("An error occurred while running the tool")


# ---- what siblint says of the same modules ----------------------------------------------------------
def lint_codes(arm: Arm, root: Path) -> set[str]:
    found = lint_text(arm.source, path=str(root / f"{arm.name}.py"),
                      config=Config(root=str(root), select=("SIB4",)))
    return {d.code for d in found}


@pytest.mark.parametrize("name", [a.name for a in ARMS])
def test_lint_matches_the_runtime(name, tmp_path):
    arm = BY_NAME[name]
    found = lint_codes(arm, tmp_path)
    assert set(arm.codes) <= found, (name, found)
    assert not set(arm.absent) & found, (name, found)


def test_every_harmful_arm_has_a_safe_twin():
    harmful = {a.name for a in ARMS if a.codes}
    assert harmful == {"child_above_budget", "stripe_no_key", "stripe_uuid_key", "refund_falls_through",
                       "refund_same_literal"}
    assert all(set(a.absent) & {"SIB401", "SIB402", "SIB403", "SIB406"} for a in ARMS if not a.codes)
