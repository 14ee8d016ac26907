"""SIB402 / SIB403: money moved without an idempotency key, and keys minted per call.

The analysis is in `siblint.analyses.idempotency`; which calls move money, where a key is passed and what
mints one are data in `siblint.effects.keys`. Runtime evidence: tests/runtime/test_sib4_runtime.py
(arms B1-B3, with the real stripe-python client against a loopback fake).
"""

from __future__ import annotations

from collections.abc import Iterator

from siblint.common.diagnostics import Diagnostic, Related
from siblint.rule_api.fixes import DISPLAY_ONLY, FixSpec
from siblint.rule_api.rule import Context, Invalid, Rule, Valid
from siblint.rules.side_effects import in_every_framework

_HEAD = "import stripe\nfrom agents import function_tool\n\n"


def _findings(ctx: Context, reason: str):
    from siblint.analyses.idempotency import key_findings

    return [f for f in ctx.once("sib4-keys", lambda: key_findings(ctx.facts, ctx.project, ctx.config))
            if f.reason == reason]


class PaymentWithoutIdempotencyKey(Rule):
    """
    ## What it does
    Flags a payment SDK call that moves money, made in a tool or in a function a tool calls (other
    modules too), without an idempotency key: Stripe's `stripe.PaymentIntent.create(...)`,
    `stripe.Charge.create`, `stripe.Refund.create`, `stripe.Transfer.create`, `stripe.Payout.create`,
    `stripe.Invoice.pay`, `stripe.Subscription.create`, `PaymentIntent.confirm/capture`, and the
    same through a `StripeClient` (`client.v1.payment_intents.create(...)`, `..._async`). A key is
    `idempotency_key=...`, `options={"idempotency_key": ...}` or an `Idempotency-Key` header. Reads
    and state changes (`retrieve`, `list`, `modify`, `cancel`) are not flagged.

    ## Why is this bad?
    Agents repeat tool calls: the model calls a tool again whenever it is told the call failed, and
    the OpenAI Agents SDK's default failure text ends "Please try again." After a timeout the
    payment may have gone through. Stripe's client adds a random key per request, which protects
    only its own network retries: measured with stripe-python 16.1.0 against a loopback fake
    (runtime test `test_payment_keys`), one model re-call charged the card twice; a key derived
    from the order charged it once.

    ## Example
    ```python
    @function_tool
    async def charge(order_id: str, cents: int) -> str:
        pi = await client.v1.payment_intents.create_async(params={"amount": cents, "currency": "eur"})
        return pi.id
    ```

    Use instead:
    ```python
    @function_tool
    async def charge(order_id: str, cents: int) -> str:
        pi = await client.v1.payment_intents.create_async(
            params={"amount": cents, "currency": "eur"}, options={"idempotency_key": f"charge:{order_id}"})
        return pi.id
    ```

    ## Options
    None. A tool that deduplicates itself before calling (reads a ledger, returns early) is still
    reported: two concurrent calls both pass the check; add the key, or `# noqa: SIB402`. A helper in
    another module is reported at the tool's call into it.
    """

    code = "SIB402"
    name = "payment-without-idempotency-key"
    summary = "a payment call that moves money, reachable from a tool, sends no idempotency key"
    message = (
        "{call} moves money with no idempotency key: when the model calls {tool} again after an unknown "
        "outcome, it charges again; pass a key derived from the business action "
        "(idempotency_key=f\"charge:{{order_id}}\"), or `# noqa: SIB402` if the tool dedupes first"
    )
    fix = FixSpec(
        DISPLAY_ONLY,
        'send an idempotency key derived from the business key in scope '
        '(`idempotency_key=f"order-{order_id}"`). Display-only: only the author knows which value '
        'identifies the operation; a key made of all the tool\'s arguments would merge two intended '
        'identical charges (Stripe keeps a key for 24 h) and miss a retry whose arguments the model '
        'reworded',
    )
    VALID = in_every_framework([
        Valid(_HEAD + "@function_tool\ndef charge(order: str, cents: int) -> str:\n"
              "    return stripe.PaymentIntent.create(amount=cents, currency='eur', idempotency_key=f'charge:{order}').id\n"),
        Valid(_HEAD + "client = stripe.StripeClient('sk')\n\n@function_tool\nasync def refund(ret: str, pi: str) -> str:\n"
              "    r = await client.v1.refunds.create_async(params={'payment_intent': pi},\n"
              "                                             options={'idempotency_key': f'refund:{ret}'})\n    return r.id\n"),
        Valid(_HEAD + "@function_tool\ndef status(pi: str) -> str:\n    return stripe.PaymentIntent.retrieve(pi).status\n"),
        Valid(_HEAD + "@function_tool\ndef customer(email: str) -> str:\n    return stripe.Customer.create(email=email).id\n"),
        # Not reachable from a tool: a batch job.
        Valid("import stripe\n\ndef nightly(cents: int) -> str:\n"
              "    return stripe.PaymentIntent.create(amount=cents, currency='eur').id\n"),
        # Name trap: a project module called like the SDK.
        Valid("from billing import stripe\nfrom agents import function_tool\n\n@function_tool\n"
              "def charge(cents: int) -> str:\n    return stripe.PaymentIntent.create(amount=cents).id\n",
              files={"billing/__init__.py": "", "billing/stripe.py": "class PaymentIntent:\n"
                     "    @staticmethod\n    def create(amount):\n        return amount\n"}),
    ])
    INVALID = in_every_framework([
        Invalid(_HEAD + "@function_tool\ndef charge(cents: int) -> str:\n"
                "    return stripe.PaymentIntent.create(amount=cents, currency='eur').id\n", lines=(6,)),
        Invalid(_HEAD + "client = stripe.StripeClient('sk')\n\n@function_tool\nasync def refund(pi: str) -> str:\n"
                "    r = await client.v1.refunds.create_async(params={'payment_intent': pi})\n    return r.id\n",
                lines=(8,)),
        Invalid(_HEAD + "from shop.pay import take\n\n@function_tool\ndef checkout(order: str) -> str:\n"
                "    return take(order)\n", lines=(8,),
                files={"shop/__init__.py": "", "shop/pay.py": "import stripe\n\ndef take(order):\n"
                       "    return stripe.Charge.create(amount=100, currency='eur', description=order).id\n"}),
    ])

    def check(self, ctx: Context) -> Iterator[Diagnostic]:
        for f in _findings(ctx, "no_key"):
            related = () if f.path == ctx.path else (Related(f.path, f.call_loc, f"{f.call_text}, with no key"),)
            yield self.finding(ctx, f.loc, related, call=f.call_text, tool=f.tool)


class IdempotencyKeyMintedPerCall(Rule):
    """
    ## What it does
    Flags an idempotency key (`idempotency_key=`, `options={"idempotency_key": ...}`, an
    `Idempotency-Key` / `X-Idempotency-Key` header) sent from a tool, or a function a tool calls,
    whose value is new on every call: built from `uuid.uuid4()` / `uuid1()`, `secrets.token_*()`,
    `os.urandom()`, `random`, the clock (`time.time()`, `datetime.now()`, ...), or the tool call's
    id (`ToolContext.tool_call_id`, pydantic-ai `RunContext.tool_call_id`, LangGraph
    `ToolRuntime.tool_call_id` or an `InjectedToolCallId` parameter). The value is followed through
    local names and, for a parameter, to the calls of the function in its module.

    ## Why is this bad?
    A key minted per call cannot match the first call when the model calls the tool again, so it
    protects nothing; minted once outside a retry loop it protects only that call's own retries.
    The tool call id is new on every model turn as well. Measured with stripe-python 16.1.0
    (runtime test `test_payment_keys`): `str(uuid.uuid4())` charged twice after one re-call,
    exactly like no key; a key from the order charged once.

    ## Example
    ```python
    @function_tool
    async def label(parcel_id: str) -> str:
        key = f"label-{parcel_id}-{time.time_ns()}"
        r = await http.post(URL, json={"parcel": parcel_id}, headers={"Idempotency-Key": key})
        return r.text
    ```

    Use instead:
    ```python
    @function_tool
    async def label(parcel_id: str) -> str:
        r = await http.post(URL, json={"parcel": parcel_id}, headers={"Idempotency-Key": f"label:{parcel_id}"})
        return r.text
    ```

    ## Options
    None. `uuid.uuid5(NS, ...)` and hashes of the action's arguments are stable and not reported.
    """

    code = "SIB403"
    name = "idempotency-key-minted-per-call"
    summary = "an idempotency key sent from a tool is new on every call (uuid4, clock, tool call id)"
    message = (
        "the idempotency key of {call} is new on every call ({minted}): when the model calls {tool} again it "
        "cannot match the first call, so it protects this call's own retries at most; derive it from the "
        "action's arguments"
    )
    fix = FixSpec(
        DISPLAY_ONLY,
        'derive the key from the business key in scope instead of `uuid4()`, the clock or the tool call '
        'id. Display-only: only the author knows which value identifies the operation',
    )
    VALID = in_every_framework([
        Valid(_HEAD + "import uuid\nNS = uuid.UUID(int=1)\n@function_tool\ndef restock(sku: str, qty: int) -> str:\n"
              "    return stripe.Transfer.create(amount=qty, currency='eur', destination=sku,\n"
              "                                  idempotency_key=str(uuid.uuid5(NS, f'restock:{sku}:{qty}'))).id\n"),
        Valid(_HEAD + "import hashlib\n@function_tool\ndef voucher(code: str, email: str) -> str:\n"
              "    key = hashlib.sha256(f'voucher:{code}:{email}'.encode()).hexdigest()\n"
              "    return stripe.Charge.create(amount=1, currency='eur', idempotency_key=key).id\n"),
        # A random id that is not a key.
        Valid(_HEAD + "import httpx, uuid\n@function_tool\nasync def ping(x: str) -> str:\n"
              "    async with httpx.AsyncClient() as c:\n"
              "        r = await c.post('https://x', headers={'X-Correlation-Id': str(uuid.uuid4())})\n    return r.text\n"),
        # Name trap: a project function called uuid4.
        Valid(_HEAD + "def uuid4(order):\n    return f'charge:{order}'\n@function_tool\ndef charge(order: str) -> str:\n"
              "    return stripe.Charge.create(amount=1, currency='eur', idempotency_key=uuid4(order)).id\n"),
    ])
    INVALID = in_every_framework([
        Invalid(_HEAD + "import uuid\n@function_tool\ndef charge(cents: int) -> str:\n"
                "    return stripe.PaymentIntent.create(amount=cents, currency='eur', idempotency_key=uuid.uuid4().hex).id\n",
                lines=(7,)),
        Invalid(_HEAD + "import httpx, time\n@function_tool\nasync def label(parcel: str) -> str:\n"
                "    key = f'label-{parcel}-{time.time_ns()}'\n    async with httpx.AsyncClient() as c:\n"
                "        r = await c.post('https://x', json={}, headers={'Idempotency-Key': key})\n    return r.text\n",
                lines=(9,)),
        Invalid(_HEAD + "import secrets\nclient = stripe.StripeClient('sk')\n@function_tool\n"
                "async def refund(pi: str) -> str:\n    r = await client.v1.refunds.create_async(params={'payment_intent': pi},\n"
                "        options={'idempotency_key': secrets.token_hex(16)})\n    return r.id\n", lines=(8,)),
        # Passed in to a helper of the same module.
        Invalid(_HEAD + "import uuid\ndef _pay(cents, key):\n"
                "    return stripe.Charge.create(amount=cents, currency='eur', idempotency_key=key).id\n"
                "@function_tool\ndef charge(cents: int) -> str:\n    return _pay(cents, str(uuid.uuid4()))\n",
                lines=(6,)),
    ]) + [
        Invalid("import stripe\nfrom agents import RunContextWrapper, function_tool\nfrom agents.tool_context import ToolContext\n\n"
                "@function_tool\ndef charge(ctx: ToolContext, cents: int) -> str:\n"
                "    return stripe.Charge.create(amount=cents, currency='eur', idempotency_key=ctx.tool_call_id).id\n",
                lines=(7,)),
        Invalid("import stripe\nfrom pydantic_ai import Agent, RunContext\nagent = Agent('test')\n\n"
                "@agent.tool\ndef charge(ctx: RunContext[None], cents: int) -> str:\n"
                "    return stripe.Charge.create(amount=cents, currency='eur', idempotency_key=ctx.tool_call_id).id\n",
                lines=(7,)),
        Invalid("import stripe\nfrom typing import Annotated\nfrom langchain_core.tools import InjectedToolCallId, tool\n\n"
                "@tool\ndef charge(cents: int, call_id: Annotated[str, InjectedToolCallId]) -> str:\n"
                "    '''Charge.'''\n"
                "    return stripe.Charge.create(amount=cents, currency='eur', idempotency_key=call_id).id\n",
                lines=(8,)),
    ]

    def check(self, ctx: Context) -> Iterator[Diagnostic]:
        for f in _findings(ctx, "minted"):
            related: tuple[Related, ...] = ()
            if f.minted_loc is not None:
                related = (Related(f.path, f.minted_loc, f"minted here: {f.minted}"),)
            yield self.finding(ctx, f.loc, related, call=f.call_text, tool=f.tool, minted=f.minted)
