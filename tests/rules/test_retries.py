"""SIB404, SIB405, SIB407-SIB409: retries that repeat a side effect, never stop, or do nothing.

Each rule: the smallest code that shows it, its fixed twin, name traps, and (where a tool can reach
a helper) the same shape across modules.
"""

from __future__ import annotations

import textwrap

import pytest
from siblint.settings.config import Config

CODES = ("SIB404", "SIB405", "SIB407", "SIB408", "SIB409")


@pytest.fixture
def sib4(lint, tmp_path):
    """sib4(text, files=None) -> sorted [(code, line)] of this family's findings in main.py."""

    def run(text: str, files: dict[str, str] | None = None) -> list[tuple[str, int]]:
        config = Config(root=str(tmp_path), select=CODES)
        found = lint(textwrap.dedent(text), {k: textwrap.dedent(v) for k, v in (files or {}).items()}, config)
        return sorted((d.code, d.loc.line) for d in found if d.code in CODES)

    return run


@pytest.fixture
def findings(lint, tmp_path):
    def run(text: str, files: dict[str, str] | None = None):
        config = Config(root=str(tmp_path), select=CODES)
        return lint(textwrap.dedent(text), {k: textwrap.dedent(v) for k, v in (files or {}).items()}, config)

    return run


# A tool that calls a tenacity-wrapped helper; {retry} is the decorator's arguments, {call} the request.
TICKET = """\
import httpx, uuid
import tenacity
from tenacity import retry, stop_after_attempt, retry_if_exception_type
from agents import function_tool

@retry({retry})
async def _open_ticket(subject: str) -> str:
    async with httpx.AsyncClient(timeout=5) as http:
        r = await http.{call}
    return r.text

@function_tool
async def open_ticket(subject: str) -> str:
    return await _open_ticket(subject)
"""
POST = 'post("https://helpdesk.example.com/tickets", json={"subject": subject})'


def ticket(retry: str = "stop=stop_after_attempt(3)", call: str = POST) -> str:
    return TICKET.format(retry=retry, call=call)


# ---- SIB404 -----------------------------------------------------------------------------------
def test_sib404_tenacity_around_a_post(sib4):
    assert sib4(ticket()) == [("SIB404", 6)]


def test_sib404_message_names_the_wrapper_the_effect_and_the_tool(findings):
    [d] = findings(ticket())
    assert d.message.startswith("tenacity.retry re-runs POST to https://helpdesk.example.com/tickets via httpx in open_ticket")
    assert [r.loc.line for r in d.related] == [9]


@pytest.mark.parametrize("retry", [
    "stop=stop_after_attempt(3), retry=retry_if_exception_type(httpx.ConnectError)",
    "stop=stop_after_attempt(3), retry=tenacity.retry_if_exception_type((httpx.ConnectError, httpx.ConnectTimeout))",
    "stop=stop_after_attempt(3), retry=retry_if_exception_type(exception_types=httpx.ConnectTimeout)",
])
def test_sib404_connect_phase_only_is_exempt(sib4, retry):
    assert sib4(ticket(retry)) == []


@pytest.mark.parametrize("retry", [
    "stop=stop_after_attempt(3), retry=retry_if_exception_type((httpx.ConnectError, httpx.ReadTimeout))",
    "stop=stop_after_attempt(3), retry=retry_if_exception_type(httpx.TransportError)",
    # requests.ConnectionError is raised after the request may have left, too.
    "stop=stop_after_attempt(3), retry=retry_if_exception_type(ConnectionError)",
    # A predicate siblint cannot read is no exemption.
    "stop=stop_after_attempt(3), retry=tenacity.retry_if_exception(lambda e: True)",
])
def test_sib404_other_retried_errors_are_reported(sib4, retry):
    assert sib4(ticket(retry)) == [("SIB404", 6)]


def test_sib404_connect_errors_through_a_module_constant(sib4):
    code = ticket("stop=stop_after_attempt(3), retry=retry_if_exception_type(SAFE)")
    code = code.replace("from agents import function_tool\n", "from agents import function_tool\n\nSAFE = (httpx.ConnectError,)\n")
    assert sib4(code) == []


@pytest.mark.parametrize("call", [
    'put("https://helpdesk.example.com/tickets/1", json={"subject": subject})',
    'delete("https://helpdesk.example.com/tickets/1")',
    'patch("https://helpdesk.example.com/tickets/1", json={"status": "closed"})',
    'get("https://helpdesk.example.com/tickets")',
    'post("https://helpdesk.example.com/tickets", json={}, headers={"Idempotency-Key": f"ticket:{subject}"})',
    'post("https://helpdesk.example.com/tickets", json={}, headers={"x-idempotency-key": subject})',
])
def test_sib404_safe_repeats_are_not_reported(sib4, call):
    assert sib4(ticket(call=call)) == []


@pytest.mark.parametrize("key", ["str(uuid.uuid4())", "uuid.uuid4().hex"])
def test_sib404_a_key_minted_per_attempt_is_no_key(sib4, key):
    call = f'post("https://helpdesk.example.com/tickets", json={{}}, headers={{"Idempotency-Key": {key}}})'
    assert sib4(ticket(call=call)) == [("SIB404", 6)]


def test_sib404_headers_bound_to_a_name(sib4):
    code = ticket(call='post("https://helpdesk.example.com/tickets", json={}, headers=headers)')
    code = code.replace("    async with httpx", '    headers = {"Idempotency-Key": f"ticket:{subject}"}\n    async with httpx')
    assert sib4(code) == []


def test_sib404_stripe_with_and_without_key(sib4):
    base = """\
        import stripe
        from tenacity import retry, stop_after_attempt
        from agents import function_tool

        @function_tool
        @retry(stop=stop_after_attempt(3))
        def charge(order: str, cents: int) -> str:
            stripe.PaymentIntent.create(amount=cents, currency="eur"{key})
            return "ok"
    """
    assert sib4(base.format(key="")) == [("SIB404", 6)]
    assert sib4(base.format(key=', idempotency_key=f"charge:{order}"')) == []


@pytest.mark.parametrize("imports", [
    "from myretry import retry, stop_after_attempt, retry_if_exception_type",
    "from tenacity import stop_after_attempt, retry_if_exception_type\nfrom mylib import retry",
])
def test_sib404_look_alike_retry_is_not_a_wrapper(sib4, imports):
    code = ticket().replace("from tenacity import retry, stop_after_attempt, retry_if_exception_type", imports)
    assert sib4(code) == []


def test_sib404_a_local_function_named_retry_is_not_a_wrapper(sib4):
    code = ticket().replace("from tenacity import retry, stop_after_attempt, retry_if_exception_type\n",
                            "from tenacity import stop_after_attempt\n\ndef retry(**kw):\n    return lambda f: f\n")
    assert sib4(code) == []


def test_sib404_not_reached_from_a_tool(sib4):
    code = ticket().split("@function_tool")[0]
    assert sib4(code) == []


def test_sib404_across_modules_reported_at_the_tool(findings, sib4):
    helper = ticket().split("@function_tool")[0].replace("from agents import function_tool\n", "")
    main = """\
        from agents import function_tool
        from helpers import _open_ticket

        @function_tool
        async def open_ticket(subject: str) -> str:
            return await _open_ticket(subject)
    """
    assert sib4(main, {"helpers.py": helper}) == [("SIB404", 5)]
    [d] = findings(main, {"helpers.py": helper})
    assert {(r.path.rsplit("/", 1)[-1], r.loc.line) for r in d.related} == {("helpers.py", 5), ("helpers.py", 8)}


@pytest.mark.parametrize("loop,body_call,code", [
    ("for attempt in tenacity.Retrying(stop=tenacity.stop_after_attempt(3)):", "requests.post(URL)", [("SIB404", 8)]),
    ("for attempt in tenacity.Retrying(stop=tenacity.stop_after_attempt(3)):", "requests.get(URL)", []),
    ("for attempt in tenacity.Retrying(stop=tenacity.stop_after_attempt(3), "
     "retry=tenacity.retry_if_exception_type(requests.exceptions.ConnectTimeout)):", "requests.post(URL)", []),
    ("for attempt in stamina.retry_context(on=requests.RequestException):", "requests.post(URL)", [("SIB404", 8)]),
    ("for attempt in stamina.retry_context(on=requests.exceptions.ConnectTimeout):", "requests.post(URL)", []),
])
def test_sib404_loop_form_retries_only_its_body(sib4, loop, body_call, code):
    assert sib4(f"""\
        import requests, stamina, tenacity
        from agents import function_tool

        URL = "https://crm.example.com/notes"

        @function_tool
        def add_note(text: str) -> str:
            {loop}
                with attempt:
                    {body_call}
            requests.post(URL)  # after the loop: run once
            return "ok"
    """) == code


def test_sib404_loop_form_through_a_helper(sib4):
    assert sib4("""\
        import requests, tenacity
        from agents import function_tool

        def send(text):
            requests.post("https://crm.example.com/notes", json={"t": text})

        @function_tool
        def add_note(text: str) -> str:
            for attempt in tenacity.Retrying(stop=tenacity.stop_after_attempt(3)):
                with attempt:
                    send(text)
            return "ok"
    """) == [("SIB404", 9)]


@pytest.mark.parametrize("decorator,code", [
    ("@backoff.on_exception(backoff.expo, requests.RequestException, max_tries=3)", [("SIB404", 5)]),
    ("@backoff.on_exception(backoff.expo, requests.exceptions.ConnectTimeout, max_tries=3)", []),
    ("@backoff.on_predicate(backoff.expo, max_tries=3)", [("SIB404", 5)]),
    ("@stamina.retry(on=requests.RequestException, attempts=3)", [("SIB404", 5)]),
    ("@stamina.retry(on=(requests.exceptions.ConnectTimeout,), attempts=3)", []),
])
def test_sib404_backoff_and_stamina(sib4, decorator, code):
    assert sib4(f"""\
        import backoff, requests, stamina
        from agents import function_tool

        @function_tool
        {decorator}
        def charge(order: str) -> str:
            requests.post("https://pay.example.com/charges", json={{"order": order}})
            return "ok"
    """) == code


AGENT = """\
import httpx
from langchain_core.tools import tool
from langchain.agents import create_agent
from langchain.agents.middleware import ToolRetryMiddleware

@tool
async def post_message(text: str) -> str:
    \"\"\"Post a message.\"\"\"
    async with httpx.AsyncClient() as c:
        await c.post("https://chat.example.com/m", json={{"t": text}})
    return "posted"

@tool
def search_wiki(q: str) -> str:
    \"\"\"Search.\"\"\"
    return q

retrying = ToolRetryMiddleware({args})
agent = create_agent("m", tools=[post_message, search_wiki], middleware=[retrying])
"""


@pytest.mark.parametrize("args,code", [
    ("", [("SIB404", 18)]),
    ("max_retries=3, tools=[post_message]", [("SIB404", 18)]),
    ("tools=[search_wiki]", []),
    ('tools=["search_wiki"]', []),
    ("max_retries=0", []),
    ("retry_on=(httpx.ConnectError,)", []),
    ("retry_on=(httpx.HTTPError,)", [("SIB404", 18)]),
])
def test_sib404_tool_retry_middleware(sib4, args, code):
    assert sib4(AGENT.format(args=args)) == code


def test_sib404_tool_retry_middleware_look_alike(sib4):
    text = AGENT.format(args="").replace("from langchain.agents.middleware import ToolRetryMiddleware",
                                         "from mylib import ToolRetryMiddleware")
    assert sib4(text) == []


# ---- SIB409 -----------------------------------------------------------------------------------
GET = 'get("https://helpdesk.example.com/tickets")'


@pytest.mark.parametrize("deco", ["@retry", "@retry()", "@retry(wait=tenacity.wait_fixed(2))",
                                  "@retry(stop=tenacity.stop_never)"])
def test_sib409_tenacity_without_stop(sib4, deco):
    code = ticket(call=GET).replace("@retry(stop=stop_after_attempt(3))", deco)
    assert sib4(code) == [("SIB409", 6)]


@pytest.mark.parametrize("retry", ["stop=stop_after_attempt(3)", "stop=tenacity.stop_after_delay(20)", "stop=STOP"])
def test_sib409_tenacity_with_a_stop(sib4, retry):
    assert sib4(ticket(retry, call=GET)) == []


def test_sib409_and_sib404_both_fire_on_a_bare_retry_around_a_post(sib4):
    code = ticket().replace("@retry(stop=stop_after_attempt(3))", "@retry")
    assert sib4(code) == [("SIB404", 6), ("SIB409", 6)]


@pytest.mark.parametrize("decorator,code", [
    ("@backoff.on_exception(backoff.expo, requests.RequestException)", [("SIB409", 5)]),
    ("@backoff.on_exception(backoff.expo, requests.RequestException, max_tries=None, max_time=None)", [("SIB409", 5)]),
    ("@backoff.on_exception(backoff.expo, requests.RequestException, max_time=30)", []),
    ("@backoff.on_predicate(backoff.constant)", [("SIB409", 5)]),
    ("@stamina.retry(on=requests.RequestException)", []),
    ("@stamina.retry(on=requests.RequestException, attempts=None)", []),
    ("@stamina.retry(on=requests.RequestException, attempts=None, timeout=None)", [("SIB409", 5)]),
])
def test_sib409_backoff_and_stamina(sib4, decorator, code):
    assert sib4(f"""\
        import backoff, requests, stamina
        from agents import function_tool

        @function_tool
        {decorator}
        def rates() -> str:
            return requests.get("https://fx.example.com").text
    """) == code


def test_sib409_message_names_the_tool(findings):
    [d] = findings(ticket(call=GET).replace("@retry(stop=stop_after_attempt(3))", "@retry"))
    assert d.message == ("tenacity.retry never stops retrying: open_ticket cannot finish while the dependency fails; "
                         "add stop=stop_after_delay(...) / max_time=...")


def test_sib409_across_modules_and_not_without_a_tool(sib4):
    helper = ticket(call=GET).replace("@retry(stop=stop_after_attempt(3))", "@retry").split("@function_tool")[0]
    main = """\
        from agents import function_tool
        from helpers import _open_ticket

        @function_tool
        async def open_ticket(subject: str) -> str:
            return await _open_ticket(subject)
    """
    assert sib4(main, {"helpers.py": helper}) == [("SIB409", 5)]
    assert sib4(helper) == []


# ---- SIB405 -----------------------------------------------------------------------------------
GRAPH = """\
import httpx
from langchain_core.tools import tool
from langgraph.graph import StateGraph, MessagesState
from langgraph.prebuilt import ToolNode
from langgraph.types import RetryPolicy

@tool
async def place_order(sku: str) -> str:
    \"\"\"Order an item.\"\"\"
    async with httpx.AsyncClient() as c:
        await c.post("https://shop.example.com/orders", json={{"sku": sku}}{key})
    return "ordered"

@tool
def check_stock(sku: str) -> str:
    \"\"\"Stock level.\"\"\"
    return "3"

orders = StateGraph(MessagesState)
{lines}
"""


def graph(lines: str, key: str = "") -> str:
    return GRAPH.format(lines=lines, key=key)


@pytest.mark.parametrize("lines,code", [
    ('orders.add_node("tools", ToolNode([place_order, check_stock]), retry_policy=RetryPolicy(max_attempts=3))', [20]),
    ('orders.add_node("tools", ToolNode([place_order]), retry=RetryPolicy())', [20]),
    ('orders.add_node(ToolNode([place_order]), retry_policy=RetryPolicy())', [20]),
    ('node = ToolNode([place_order])\npolicy = RetryPolicy(max_attempts=5)\norders.add_node("tools", node, retry_policy=policy)', [22]),
    ('orders.add_node("tools", ToolNode([place_order]), retry_policy=[RetryPolicy(max_attempts=1), RetryPolicy()])', [20]),
    ('orders.set_node_defaults(retry_policy=RetryPolicy())\norders.add_node("tools", ToolNode([place_order]))', [20]),
    ('orders.set_node_defaults(retry_policy=RetryPolicy()).add_node("tools", ToolNode([place_order]))', [20]),
    ('g = StateGraph(MessagesState).add_node("m", check_stock).add_node("tools", ToolNode([place_order]), '
     'retry_policy=RetryPolicy()).compile()', [20]),
])
def test_sib405_retry_policy_on_a_tool_node(sib4, lines, code):
    assert sib4(graph(lines)) == [("SIB405", line) for line in code]


@pytest.mark.parametrize("lines", [
    'orders.add_node("tools", ToolNode([place_order, check_stock]))',
    'orders.add_node("tools", ToolNode([check_stock]), retry_policy=RetryPolicy())',
    'orders.add_node("tools", ToolNode([place_order]), retry_policy=RetryPolicy(max_attempts=1))',
    'orders.add_node("tools", ToolNode([place_order]), retry_policy=None)',
    'orders.add_node("tools", ToolNode([place_order], handle_tool_errors=True), retry_policy=RetryPolicy())',
    'orders.add_node("tools", ToolNode([place_order]), retry_policy=RetryPolicy(retry_on=(httpx.ConnectError,)))',
    'orders.add_node("model", check_stock, retry_policy=RetryPolicy())\norders.add_node("tools", ToolNode([place_order]))',
    # StateGraph(..., retry_policy=...) is swallowed by **kwargs: nothing retries.
    'other = StateGraph(MessagesState, retry_policy=RetryPolicy())\nother.add_node("tools", ToolNode([place_order]))',
    # a default on another builder does not apply
    'other = StateGraph(MessagesState)\nother.set_node_defaults(retry_policy=RetryPolicy())\n'
    'orders.add_node("tools", ToolNode([place_order]))',
    # a node's own policy wins over the default
    'orders.set_node_defaults(retry_policy=RetryPolicy())\n'
    'orders.add_node("tools", ToolNode([place_order]), retry_policy=RetryPolicy(max_attempts=1))',
])
def test_sib405_not_flagged(sib4, lines):
    assert sib4(graph(lines)) == []


def test_sib405_stable_key_member_is_exempt(sib4):
    lines = 'orders.add_node("tools", ToolNode([place_order]), retry_policy=RetryPolicy())'
    assert sib4(graph(lines, key=', headers={"Idempotency-Key": f"order:{sku}"}')) == []


def test_sib405_look_alike_builder(sib4):
    text = graph('orders.add_node("tools", ToolNode([place_order]), retry_policy=RetryPolicy())')
    text = text.replace("from langgraph.graph import StateGraph, MessagesState",
                        "from mygraph import StateGraph\nfrom langgraph.graph import MessagesState")
    assert sib4(text) == []


def test_sib405_tools_from_another_module(sib4, findings):
    tools = GRAPH.split("orders =")[0].format(key="", lines="")
    main = """\
        from langgraph.graph import StateGraph, MessagesState
        from langgraph.prebuilt import ToolNode
        from langgraph.types import RetryPolicy
        from shop_tools import place_order, check_stock

        orders = StateGraph(MessagesState)
        orders.add_node("tools", ToolNode([place_order, check_stock]), retry_policy=RetryPolicy())
    """
    assert sib4(main, {"shop_tools.py": tools}) == [("SIB405", 7)]
    [d] = findings(main, {"shop_tools.py": tools})
    assert "retrying the 'tools' node re-runs every tool call of the turn, including POST to " \
           "https://shop.example.com/orders via httpx in place_order" in d.message
    assert [(r.path.rsplit("/", 1)[-1], r.loc.line) for r in d.related] == [("shop_tools.py", 11)]


# ---- SIB407 -----------------------------------------------------------------------------------
@pytest.mark.parametrize("text,code", [
    ("from agents import ModelRetrySettings, ModelSettings\n\nR = ModelRetrySettings(max_retries=3)\nS = ModelSettings(retry=R)\n", [3]),
    ("from agents import ModelRetrySettings, ModelSettings\n\nS = ModelSettings(retry=ModelRetrySettings())\n", [3]),
    ("import agents\n\nS = agents.ModelSettings(retry=agents.ModelRetrySettings(max_retries=3, policy=None))\n", [3]),
    ("from agents import Agent, ModelSettings\nfrom agents.retry import ModelRetrySettings as MRS\n\n"
     "a = Agent(name='a', model_settings=ModelSettings(retry=MRS(max_retries=2)))\n", [4]),
    # Not given to a settings object (a test of the class itself, an internal API): not judged.
    ("from agents import ModelRetrySettings\n\nR = ModelRetrySettings(max_retries=3)\n", []),
    # A policy elsewhere in the module may be the run-level half the runner merges in.
    ("from agents import Agent, ModelRetrySettings, ModelSettings, RunConfig, retry_policies\n\n"
     "a = Agent(name='a', model_settings=ModelSettings(retry=ModelRetrySettings(max_retries=2)))\n"
     "RUN = RunConfig(model_settings=ModelSettings(retry=ModelRetrySettings(policy=retry_policies.network_error())))\n", []),
    ("from agents import ModelRetrySettings, ModelSettings, retry_policies\n\nR = ModelRetrySettings(max_retries=3)\n"
     "R.policy = retry_policies.network_error()\nS = ModelSettings(retry=R)\n", []),
    ("from agents import ModelSettings\n\nS = ModelSettings(temperature=0,\n    retry={'max_retries': 4})\n", [4]),
    ("from agents import ModelSettings\n\nRETRY = {'max_retries': 4}\nS = ModelSettings(retry=RETRY)\n", [3]),
    ("from agents import ModelRetrySettings, ModelSettings, retry_policies\n\n"
     "S = ModelSettings(retry=ModelRetrySettings(3, None, retry_policies.network_error()))\n", []),
    ("from agents import ModelRetrySettings, ModelSettings\n\nS = ModelSettings(retry=ModelRetrySettings(max_retries=0))\n", []),
    ("from agents import ModelSettings\n\nS = ModelSettings(retry={'max_retries': 0})\n", []),
    ("import dataclasses\nfrom agents import ModelRetrySettings, ModelSettings, retry_policies\n\nR = ModelRetrySettings(max_retries=3)\n"
     "S = ModelSettings(retry=R)\nR2 = dataclasses.replace(R, policy=retry_policies.network_error())\n", []),
    ("from agents import ModelSettings\n\nBASE = ModelSettings(retry={'max_retries': 4})\n"
     "def settings(override):\n    return BASE.resolve(override)\n", []),
    ("from other import ModelRetrySettings, ModelSettings\n\nS = ModelSettings(retry=ModelRetrySettings(max_retries=3))\n", []),
])
def test_sib407(sib4, text, code):
    assert sib4(text) == [("SIB407", line) for line in code]


# ---- SIB408 -----------------------------------------------------------------------------------
@pytest.mark.parametrize("text,code", [
    ("from agents import retry_policies\n\nP = retry_policies.http_status([400, 503])\n", [3]),
    ("from agents import retry_policies\n\nP = retry_policies.http_status(statuses=(401,))\n", [3]),
    ("from agents import retry_policies\n\nCODES = [404, 429]\nP = retry_policies.http_status(CODES)\n", [4]),
    ("import agents\n\nP = agents.retry_policies.http_status({410})\n", [3]),
    ("from agents import retry_policies\n\nP = retry_policies.http_status([408, 409, 425, 429, 500, 502, 503, 504])\n", []),
    ("from agents import retry_policies\n\ndef p(codes):\n    return retry_policies.http_status(codes)\n", []),
    ("from mylib import retry_policies\n\nP = retry_policies.http_status([400])\n", []),
])
def test_sib408(sib4, text, code):
    assert sib4(text) == [("SIB408", line) for line in code]


def test_sib408_is_a_warning_naming_the_statuses(findings):
    [d] = findings("from agents import retry_policies as rp\n\nP = rp.any(rp.http_status([503, 422, 403]))\n")
    assert d.severity == "warning"
    assert d.message.startswith("http_status retries 403, 422:")


# ---- a project function that returns the wrapper ------------------------------------------------
RETRY_HELPERS = """\
import httpx
from tenacity import retry, retry_if_exception_type, stop_after_attempt

def with_retries(attempts: int = 3):
    return retry(stop=stop_after_attempt(attempts), retry=retry_if_exception_type(httpx.TransportError))

def connect_retries():
    return retry(stop=stop_after_attempt(3), retry=retry_if_exception_type(httpx.ConnectError))

def forever():
    return retry()
"""


@pytest.mark.parametrize("decorator,code", [
    ("@with_retries()", [("SIB404", 5)]),
    ("@connect_retries()", []),
    ("@forever()", [("SIB404", 5), ("SIB409", 5)]),
])
def test_wrapper_returned_by_a_project_function(sib4, decorator, code):
    main = f"""\
        import httpx
        from agents import function_tool
        from retry_helpers import connect_retries, forever, with_retries

        {decorator}
        async def _post(text: str) -> None:
            async with httpx.AsyncClient() as c:
                await c.post("https://chat.example.com/m", json={{"t": text}})

        @function_tool
        async def post_message(text: str) -> str:
            await _post(text)
            return "posted"
    """
    assert sib4(main, {"retry_helpers.py": RETRY_HELPERS}) == code
