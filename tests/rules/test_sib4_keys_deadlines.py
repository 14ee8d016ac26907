"""SIB401, SIB402, SIB403: the smallest code that shows each, its fixed twin, name traps, and the
spellings the rule examples do not cover (cross-module, parameters, phase objects, messages)."""

from __future__ import annotations

import textwrap

import pytest
from siblint.settings.config import Config


def codes(found, code):
    return [(d.loc.line, d.message) for d in found if d.code == code]


def run(lint, tmp_path, code, text, files=None):
    return codes(lint(textwrap.dedent(text), files, Config(root=str(tmp_path), select=(code,))), code)


# ---- SIB401 -------------------------------------------------------------------------------------
BUDGET_TOOL = """\
import httpx
from agents import function_tool

@function_tool(timeout=6)
async def book(p: str) -> str:
    async with httpx.AsyncClient(timeout={child}) as http:
        r = await http.post("https://couriers.example.com", json={{"p": p}})
    return r.text
"""


@pytest.mark.parametrize("child,reported", [("20", True), ("6", True), ("5.9", False), ("None", True),
                                            ("httpx.Timeout(3, read=8)", True), ("httpx.Timeout(3, connect=1)", False),
                                            ("(1, 3)", False), ("(1, 7)", True)])
def test_sib401_compares_the_largest_phase_with_the_budget(lint, tmp_path, child, reported):
    found = run(lint, tmp_path, "SIB401", BUDGET_TOOL.format(child=child))
    assert bool(found) == reported, found
    if reported:
        assert found[0][0] == 6


def test_sib401_message_names_both_numbers(lint, tmp_path):
    [(line, message)] = run(lint, tmp_path, "SIB401", BUDGET_TOOL.format(child="20"))
    assert "may wait 20 s" in message and "book is cancelled after 6 s" in message
    [(_, unbounded)] = run(lint, tmp_path, "SIB401", BUDGET_TOOL.format(child="None"))
    assert "may wait without limit" in unbounded


def test_sib401_per_request_timeout_on_a_module_client(lint, tmp_path):
    text = """\
    import httpx
    from agents import function_tool
    CLIENT = httpx.AsyncClient()

    @function_tool(timeout=2)
    async def book(p: str) -> str:
        r = await CLIENT.post("https://x", json={"p": p}, timeout=10)
        return r.text
    """
    assert [line for line, _ in run(lint, tmp_path, "SIB401", text)] == [7]
    assert run(lint, tmp_path, "SIB401", text.replace("timeout=10", "timeout=1")) == []


def test_sib401_function_tool_class_timeout_seconds(lint, tmp_path):
    text = """\
    import asyncio
    from agents import FunctionTool

    async def invoke(ctx, args: str) -> str:
        await asyncio.wait_for(asyncio.sleep(1), timeout=30)
        return "ok"

    t = FunctionTool(name="n", description="d", params_json_schema={}, on_invoke_tool=invoke, timeout_seconds=10)
    """
    assert [line for line, _ in run(lint, tmp_path, "SIB401", text)] == [5]
    assert run(lint, tmp_path, "SIB401", text.replace("timeout=30", "timeout=3")) == []


def test_sib401_smallest_budget_of_the_tools_that_reach_a_helper(lint, tmp_path):
    text = """\
    import httpx
    from agents import function_tool

    async def _post(p):
        async with httpx.AsyncClient(timeout=8) as http:
            return (await http.post("https://x", json={"p": p})).text

    @function_tool(timeout=9)
    async def slow(p: str) -> str:
        return await _post(p)

    @function_tool(timeout=4)
    async def fast(p: str) -> str:
        return await _post(p)
    """
    [(line, message)] = run(lint, tmp_path, "SIB401", text)
    assert line == 5 and "fast is cancelled after 4 s" in message


def test_sib401_name_trap_a_project_httpx(lint, tmp_path):
    text = """\
    from agents import function_tool
    from mine import httpx

    @function_tool(timeout=2)
    async def book(p: str) -> str:
        async with httpx.AsyncClient(timeout=20) as http:
            return "ok"
    """
    assert run(lint, tmp_path, "SIB401", text, {"mine/__init__.py": "", "mine/httpx.py": "class AsyncClient: pass\n"}) == []


# ---- SIB402 -------------------------------------------------------------------------------------
def test_sib402_every_money_moving_verb_and_not_the_others(lint, tmp_path):
    flagged = ["stripe.PaymentIntent.create(amount=1)", "stripe.PaymentIntent.confirm('pi')", "stripe.Charge.capture('ch')",
               "stripe.Refund.create(charge='ch')", "stripe.Transfer.create(amount=1)", "stripe.Payout.create(amount=1)",
               "stripe.Invoice.pay('in')", "stripe.Subscription.create(customer='c')",
               "client.v1.payment_intents.create(params={})", "client.payment_intents.capture_async('pi')"]
    quiet = ["stripe.PaymentIntent.retrieve('pi')", "stripe.PaymentIntent.modify('pi', metadata={})",
             "stripe.Refund.list()", "stripe.Customer.create(email='e')", "client.v1.refunds.cancel('re')",
             "stripe.PaymentIntent.cancel('pi')"]
    for call, expected in [(c, True) for c in flagged] + [(c, False) for c in quiet]:
        text = f"import stripe\nfrom agents import function_tool\nclient = stripe.StripeClient('sk')\n\n" \
               f"@function_tool\ndef pay(x: str) -> str:\n    return str({call})\n"
        assert bool(run(lint, tmp_path, "SIB402", text)) == expected, call


@pytest.mark.parametrize("key", [
    "idempotency_key=f'charge:{order}'",
    "options={'idempotency_key': f'charge:{order}'}",
    "options=dict(idempotency_key=order)",
    "options=OPTS",
    "**extra",
])
def test_sib402_fixed_twins_carry_a_key(lint, tmp_path, key):
    text = f"import stripe\nfrom agents import function_tool\nclient = stripe.StripeClient('sk')\n" \
           f"OPTS = {{'idempotency_key': 'fixed'}}\nextra = {{}}\n\n" \
           f"@function_tool\ndef pay(order: str) -> str:\n    return client.v1.charges.create(params={{}}, {key}).id\n"
    assert run(lint, tmp_path, "SIB402", text) == []
    assert run(lint, tmp_path, "SIB402", text.replace(f", {key}", "")) != []


def test_sib402_helper_in_another_module_is_reported_at_the_tools_call(lint, tmp_path):
    files = {"billing/__init__.py": "", "billing/pay.py": "import stripe\n\ndef take(order):\n"
             "    return stripe.PaymentIntent.create(amount=100, currency='eur').id\n"}
    text = "from agents import function_tool\nfrom billing.pay import take\n\n@function_tool\ndef checkout(o: str) -> str:\n" \
           "    x = 1\n    return take(o)\n"
    found = lint(text, files, Config(root=str(tmp_path), select=("SIB402",)))
    [d] = [d for d in found if d.code == "SIB402"]
    assert d.loc.line == 7 and d.related and d.related[0].path.endswith("billing/pay.py") and d.related[0].loc.line == 4


def test_sib402_message_says_what_to_do(lint, tmp_path):
    text = "import stripe\nfrom agents import function_tool\n\n@function_tool\ndef pay(n: int) -> str:\n" \
           "    return stripe.Charge.create(amount=n).id\n"
    [(_, message)] = run(lint, tmp_path, "SIB402", text)
    assert "stripe.Charge.create moves money with no idempotency key" in message
    assert 'idempotency_key=f"charge:{order_id}"' in message


# ---- SIB403 -------------------------------------------------------------------------------------
@pytest.mark.parametrize("key,minted", [
    ("str(uuid.uuid4())", "uuid4()"), ("uuid.uuid1().hex", "uuid1()"), ("f'k-{time.time()}'", "time.time()"),
    ("datetime.now().isoformat()", "datetime.now()"), ("'k' + str(random.random())", "random"),
    ("os.urandom(8).hex()", "os.urandom()"), ("secrets.token_urlsafe()", "secrets.token_urlsafe()"),
    ("'{}-{}'.format(order, uuid.uuid4())", "uuid4()"),
])
def test_sib403_each_minting_expression(lint, tmp_path, key, minted):
    text = "import os, random, secrets, time, uuid\nfrom datetime import datetime\nimport httpx\n" \
           "from agents import function_tool\n\n@function_tool\nasync def pay(order: str) -> str:\n" \
           "    async with httpx.AsyncClient() as c:\n" \
           f"        r = await c.post('https://x', json={{}}, headers={{'X-Idempotency-Key': {key}}})\n    return r.text\n"
    [(line, message)] = run(lint, tmp_path, "SIB403", text)
    assert line == 9 and f"({minted})" in message
    twin = text.replace(key, "f'pay:{order}'")
    assert run(lint, tmp_path, "SIB403", twin) == []


def test_sib403_tool_call_id_of_a_look_alike_context_is_not_the_call_id(lint, tmp_path):
    text = "import stripe\nfrom agents import function_tool\nfrom mylib import ToolContext\n\n@function_tool\n" \
           "def charge(ctx: ToolContext, n: int) -> str:\n" \
           "    return stripe.Charge.create(amount=n, idempotency_key=ctx.tool_call_id).id\n"
    assert run(lint, tmp_path, "SIB403", text) == []
    real = text.replace("from mylib import ToolContext", "from agents.tool_context import ToolContext")
    assert [line for line, _ in run(lint, tmp_path, "SIB403", real)] == [7]


def test_sib403_langgraph_tool_runtime(lint, tmp_path):
    text = "import stripe\nfrom langchain.tools import ToolRuntime, tool\n\n@tool\n" \
           "def charge(n: int, runtime: ToolRuntime) -> str:\n    '''Charge.'''\n" \
           "    return stripe.Charge.create(amount=n, idempotency_key=runtime.tool_call_id).id\n"
    assert [line for line, _ in run(lint, tmp_path, "SIB403", text)] == [7]


def test_sib402_and_sib403_do_not_both_fire(lint, tmp_path):
    text = "import stripe, uuid\nfrom agents import function_tool\n\n@function_tool\ndef pay(n: int) -> str:\n" \
           "    return stripe.Charge.create(amount=n, idempotency_key=str(uuid.uuid4())).id\n"
    found = lint(text, None, Config(root=str(tmp_path), select=("SIB402", "SIB403")))
    assert sorted(d.code for d in found) == ["SIB403"]


def test_sib401_pydantic_ai_agent_tool_timeout_and_the_tools_own_precedence(lint, tmp_path):
    text = """\
    import httpx
    from pydantic_ai import Agent
    agent = Agent("test", tool_timeout=3)

    @agent.tool_plain
    async def book(p: str) -> str:
        async with httpx.AsyncClient(timeout=10) as http:
            return (await http.post("https://x", json={"p": p})).text
    """
    [(line, message)] = run(lint, tmp_path, "SIB401", text)
    assert line == 7 and "cancelled after 3 s" in message
    # "Per-tool timeout takes precedence over toolset timeout": timeout=12 under tool_timeout=3.
    assert run(lint, tmp_path, "SIB401", text.replace("@agent.tool_plain", "@agent.tool_plain(timeout=12)")) == []
    assert run(lint, tmp_path, "SIB401", text.replace(", tool_timeout=3", "")) == []


@pytest.mark.parametrize("budget,reported", [("timeout=2", True), ("timeout=20", False),
                                             ("timeout=TimeoutPolicy(run_timeout=2)", True),
                                             ("timeout=TimeoutPolicy(idle_timeout=2)", False), ("", False)])
def test_sib401_langgraph_node_timeout_is_every_tool_node_members_budget(lint, tmp_path, budget, reported):
    """Measured with langgraph 1.2.24: add_node("tools", ToolNode([slow]), timeout=0.5) cancels the
    async tool at 0.5 s (NodeTimeoutError)."""
    text = f"""\
import httpx
from langchain_core.tools import tool
from langgraph.graph import StateGraph
from langgraph.prebuilt import ToolNode
from langgraph.types import TimeoutPolicy

@tool
async def book(p: str) -> str:
    '''Book a courier.'''
    async with httpx.AsyncClient(timeout=10) as http:
        return (await http.post("https://x", json={{"p": p}})).text

tools = ToolNode([book])
builder = StateGraph(dict)
builder.add_node("tools", tools{', ' + budget if budget else ''})
"""
    found = run(lint, tmp_path, "SIB401", text)
    assert [line for line, _ in found] == ([10] if reported else []), found


def test_sib401_pydantic_ai_explicit_none_falls_back_to_the_agents_budget(lint, tmp_path):
    text = """\
    import httpx
    from pydantic_ai import Agent
    agent = Agent("test", tool_timeout=3)

    @agent.tool_plain(timeout=None)
    async def book(p: str) -> str:
        async with httpx.AsyncClient(timeout=10) as http:
            return (await http.post("https://x", json={"p": p})).text
    """
    assert [line for line, _ in run(lint, tmp_path, "SIB401", text)] == [7]
