"""Microsoft Agent Framework (issue 25): tool spellings, function middleware that raises
`MiddlewareFailure` (SIB202) and the mix it makes (SIB301), `allow_concurrent_invocation=False`.

Measured behaviour behind these expectations: tests/runtime/test_agent_framework_runtime.py.
"""

from __future__ import annotations

import pytest

from tests.frameworks.wave3_lint import found, line_of, lines  # noqa: F401  (found is a fixture)

IMPORTS = '''\
import httpx
import requests
from agent_framework import Agent, FunctionInvocationContext, MiddlewareFailure, function_middleware, tool
from agent_framework.openai import OpenAIChatCompletionClient
'''

TOOLS = '''

@tool
def charge_card(customer_id: str, amount_cents: int) -> str:
    """Sync: runs in a worker thread."""
    return requests.post("https://payments.example.com/charges", json={"c": customer_id}).text


@tool
async def lookup_customer(customer_id: str) -> str:
    async with httpx.AsyncClient() as c:
        r = await c.get(f"https://crm.example.com/customers/{customer_id}")
        r.raise_for_status()
        return r.text
'''

FAIL_CLOSED = '''

@function_middleware
async def fail_closed(context, call_next):
    try:
        await call_next()
    except Exception as e:
        raise MiddlewareFailure(f"{context.function.name} failed") from e
'''

AGENT = '''
client = OpenAIChatCompletionClient(model="m"{config})
agent = Agent(client=client, tools=[lookup_customer, charge_card], middleware=[fail_closed])
'''


def _agent(config: str = "") -> str:
    return AGENT.format(config=config)


SYNC_BODY = "    requests.post('https://p.example.com', json={})\n    return 'ok'\n"


@pytest.mark.parametrize("spelling", [
    "from agent_framework import tool\n\n@tool\n",
    "from agent_framework import tool\n\n@tool(name='pay', description='Pay.', approval_mode='never_require')\n",
    "from agent_framework._tools import tool as t\n\n@t\n",
    "import agent_framework\n\n@agent_framework.tool\n",
    # The pre-1.0 name (evalW16's IT-operations agents): `@ai_function`.
    "from agent_framework import ai_function\n\n@ai_function\n",
    "from agent_framework import ai_function\n\n@ai_function(name='pay', description='Pay.')\n",
])
def test_tool_decorator_spellings(found, spelling):
    text = f"import requests\n{spelling}def pay(x: int) -> str:\n{SYNC_BODY}"
    assert lines(found(text), "SIB101") == [line_of(text, "def pay")]


def test_call_forms_and_plain_functions(found):
    text = ("import requests\nfrom agent_framework import Agent, FunctionTool, tool\n\n"
            f"def pay(x: int) -> str:\n{SYNC_BODY}\n"
            f"def refund(x: int) -> str:\n{SYNC_BODY}\n"
            f"def void(x: int) -> str:\n{SYNC_BODY}\n"
            "PAY = tool(pay)\nREFUND = FunctionTool(name='refund', func=refund)\n"
            "agent = Agent(client=None, tools=[void])\n")
    assert lines(found(text), "SIB101") == [line_of(text, "def pay"), line_of(text, "def refund"),
                                            line_of(text, "def void")]


def test_read_only_tool_and_stub_name_trap_are_clean(found):
    text = ("import requests\nfrom agent_framework import tool\n\n@tool\ndef get_rate(region: str) -> str:\n"
            "    return requests.get(f'https://rates.example.com/{region}').text\n\n"
            "@tool\ndef post_payment(amount: int) -> str:\n    return f'paid {amount}'\n")
    assert found(text) == []


def test_tool_of_another_library_is_not_an_agent_framework_tool(found):
    text = f"import requests\nfrom mylib import tool\n\n@tool\ndef pay(x: int) -> str:\n{SYNC_BODY}"
    assert found(text) == []


# ---- the agent's other makers --------------------------------------------------------------------
AGENT_SPELLINGS = [
    "agent = Agent(client=client, tools=[lookup_customer, charge_card], middleware=[fail_closed])",
    # every chat client's as_agent(), create_agent() before 1.0: the client is the receiver
    "agent = client.as_agent(name='a', tools=[lookup_customer, charge_card], middleware=[fail_closed])",
    "agent = client.create_agent(name='a', tools=[lookup_customer, charge_card], middleware=[fail_closed])",
    # ChatAgent, Agent's name before 1.0
    "agent = ChatAgent(chat_client=client, tools=[lookup_customer, charge_card], middleware=[fail_closed])",
]


@pytest.mark.parametrize("make", AGENT_SPELLINGS)
def test_agent_makers_make_the_group(found, make):
    text = (IMPORTS.replace("import Agent,", "import Agent, ChatAgent,") + TOOLS + FAIL_CLOSED
            + '\nclient = OpenAIChatCompletionClient(model="m")\n' + make + "\n")
    got = found(text)
    assert lines(got, "SIB301") == [line_of(text, "agent = ")], got
    assert lines(got, "SIB101") == [line_of(text, "def charge_card")]


@pytest.mark.parametrize("make", AGENT_SPELLINGS)
def test_the_serialised_client_serialises_each_maker(found, make):
    text = (IMPORTS.replace("import Agent,", "import Agent, ChatAgent,") + TOOLS + FAIL_CLOSED
            + '\nclient = OpenAIChatCompletionClient(model="m", function_invocation_configuration='
            '{"allow_concurrent_invocation": False})\n' + make + "\n")
    assert lines(found(text), "SIB301") == []


@pytest.mark.parametrize("receiver", [
    "other = Thing()\nagent = other.as_agent(tools=[lookup_customer, charge_card], middleware=[fail_closed])",
    "from mylib import FakeClient\nagent = FakeClient().create_agent(tools=[lookup_customer, charge_card], "
    "middleware=[fail_closed])",
])
def test_as_agent_of_another_object_makes_no_group(found, receiver):
    text = IMPORTS + TOOLS + FAIL_CLOSED + "\n" + receiver + "\n"
    assert lines(found(text), "SIB301") == []


# ---- middleware that ends the run ---------------------------------------------------------------
def test_fail_closed_middleware_makes_the_mix(found):
    text = IMPORTS + TOOLS + FAIL_CLOSED + _agent()
    got = found(text)
    agent_line = line_of(text, "agent = Agent")
    assert lines(got, "SIB202") == [agent_line]  # once, at its registration in middleware=[...]
    assert lines(got, "SIB301") == [agent_line]
    assert lines(got, "SIB101") == [line_of(text, "def charge_card")]


@pytest.mark.parametrize("middleware", [
    # annotated instead of decorated
    FAIL_CLOSED.replace("@function_middleware\n", "").replace("(context,", "(context: FunctionInvocationContext,"),
    # a policy check that refuses before the call
    '\n\n@function_middleware\nasync def fail_closed(context, call_next):\n'
    '    if context.function.name == "charge_card":\n        raise MiddlewareFailure("blocked")\n'
    '    await call_next()\n',
])
def test_other_raising_middleware_spellings(found, middleware):
    text = IMPORTS + TOOLS + middleware + _agent()
    assert lines(found(text), "SIB301") == [line_of(text, "agent = Agent")]


def test_middleware_class_process(found):
    text = (IMPORTS.replace("tool\n", "tool, FunctionMiddleware\n") + TOOLS +
            "\n\nclass FailClosed(FunctionMiddleware):\n    async def process(self, context, call_next):\n"
            "        await call_next()\n        if context.result is None:\n"
            "            raise MiddlewareFailure('no result')\n\n"
            "agent = Agent(client=None, tools=[lookup_customer, charge_card], middleware=[FailClosed()])\n")
    got = found(text)
    assert lines(got, "SIB202") == [line_of(text, "async def process")]
    assert lines(got, "SIB301") == [line_of(text, "agent = Agent")]


@pytest.mark.parametrize("middleware", [
    # a plain exception from middleware is the call's error: the model sees it
    FAIL_CLOSED.replace("raise MiddlewareFailure(", "raise RuntimeError("),
    # logs only
    '\n\n@function_middleware\nasync def fail_closed(context, call_next):\n    await call_next()\n'
    '    print(context.function.name)\n',
    # MiddlewareFailure caught inside the middleware itself
    '\n\n@function_middleware\nasync def fail_closed(context, call_next):\n    try:\n'
    '        raise MiddlewareFailure("x")\n    except MiddlewareFailure:\n        pass\n    await call_next()\n',
    # a MiddlewareFailure of another library
    FAIL_CLOSED.replace("raise MiddlewareFailure(", "raise other.MiddlewareFailure("),
])
def test_benign_middleware_is_clean(found, middleware):
    text = IMPORTS + "import other\n" + TOOLS + middleware + _agent()
    got = found(text)
    assert lines(got, "SIB202") == [] and lines(got, "SIB301") == []
    assert lines(got, "SIB101") == [line_of(text, "def charge_card")]


def test_agent_middleware_is_not_a_function_middleware(found):
    """An agent middleware (`AgentContext`) runs around the whole run, not around each call."""
    text = (IMPORTS + TOOLS + "\n\nasync def fail_closed(context: AgentContext, call_next):\n"
            "    raise MiddlewareFailure('no')\n" + _agent())
    assert lines(found(text), "SIB301") == []


# ---- the serialiser ---------------------------------------------------------------------------
@pytest.mark.parametrize("config, extra", [
    (', function_invocation_configuration={"allow_concurrent_invocation": False}', ""),
    ("", 'client.function_invocation_configuration.update({"allow_concurrent_invocation": False})\n'),
    ("", 'client.function_invocation_configuration["allow_concurrent_invocation"] = False\n'),
])
def test_allow_concurrent_invocation_false_serialises(found, config, extra):
    text = IMPORTS + TOOLS + FAIL_CLOSED + _agent(config) + extra
    got = found(text)
    assert lines(got, "SIB301") == []
    assert lines(got, "SIB202") == [line_of(text, "agent = Agent")]  # still ends the run


@pytest.mark.parametrize("config, extra", [
    (', function_invocation_configuration={"allow_concurrent_invocation": True}', ""),
    (', function_invocation_configuration={"max_iterations": 1}', ""),
    ("", 'other.function_invocation_configuration.update({"allow_concurrent_invocation": False})\n'),
    ("", 'client.function_invocation_configuration["allow_concurrent_invocation"] = True\n'),
    ("", 'other.function_invocation_configuration["allow_concurrent_invocation"] = False\n'),
    ("", 'client.function_invocation_configuration["max_iterations"] = 1\n'),
])
def test_other_configuration_keeps_the_mix(found, config, extra):
    text = IMPORTS + TOOLS + FAIL_CLOSED + _agent(config) + extra
    assert lines(found(text), "SIB301") == [line_of(text, "agent = Agent")]


@pytest.mark.parametrize("value, serial", [("False", True), ("True", False)])
def test_configuration_dict_set_by_key(found, value, serial):
    text = IMPORTS + TOOLS + FAIL_CLOSED + "\ncfg = {}\ncfg[\"allow_concurrent_invocation\"] = " + value + "\n" + \
        _agent(", function_invocation_configuration=cfg")
    assert lines(found(text), "SIB301") == ([] if serial else [line_of(text, "agent = Agent")])


# ---- a tool that raises MiddlewareFailure itself ----------------------------------------------
RAISING_LOOKUP = '''

@tool
async def lookup_customer(customer_id: str) -> str:
    async with httpx.AsyncClient() as c:
        r = await c.get(f"https://crm.example.com/customers/{customer_id}")
    if r.status_code >= 500:
        {action}
    return r.text
'''


def _raising(action: str = 'raise MiddlewareFailure("crm down")') -> str:
    return TOOLS.split("@tool\nasync def lookup_customer")[0] + RAISING_LOOKUP.replace("{action}", action)


def test_a_tool_raising_middleware_failure_is_fatal(found):
    text = IMPORTS + _raising() + "\nagent = Agent(client=None, tools=[lookup_customer, charge_card])\n"
    got = found(text)
    assert lines(got, "SIB202") == [line_of(text, "raise MiddlewareFailure")]
    assert lines(got, "SIB301") == [line_of(text, "agent = Agent")]


@pytest.mark.parametrize("action", [
    'raise RuntimeError("crm down")',  # an ordinary exception: "Error: Function failed." to the model
    'return "crm down"',
    'try:\n            raise MiddlewareFailure("x")\n        except MiddlewareFailure:\n            return "crm down"',
])
def test_benign_twins_of_the_raising_tool(found, action):
    text = IMPORTS + _raising(action) + "\nagent = Agent(client=None, tools=[lookup_customer, charge_card])\n"
    got = found(text)
    assert not [c for c, _ in got if c in ("SIB202", "SIB301")], got


def test_a_look_alike_middleware_failure_is_not_fatal(found):
    text = IMPORTS.replace("MiddlewareFailure, ", "") + "\n\nclass MiddlewareFailure(Exception):\n    pass\n" + _raising() + \
        "\nagent = Agent(client=None, tools=[lookup_customer, charge_card])\n"
    assert not [c for c, _ in found(text) if c in ("SIB202", "SIB301")]


def test_the_raising_tool_from_another_module(found):
    tools = IMPORTS + _raising()
    main = IMPORTS + "from tools import charge_card, lookup_customer\n\nagent = Agent(client=None, tools=[lookup_customer, charge_card])\n"
    assert lines(found(main, {"tools.py": tools}), "SIB301") == [line_of(main, "agent = Agent")]
    assert lines(found(tools, {"app.py": main}), "SIB202") == [line_of(tools, "raise MiddlewareFailure")]


# ---- across modules ---------------------------------------------------------------------------
def test_middleware_and_tools_from_other_modules(found):
    main = ("from agent_framework import Agent\nfrom app.guards import fail_closed\nfrom app.tools import "
            "charge_card, lookup_customer\n\nagent = Agent(client=None, tools=[lookup_customer, charge_card], "
            "middleware=[fail_closed])\n")
    files = {"app/__init__.py": "", "app/tools.py": IMPORTS + TOOLS, "app/guards.py": IMPORTS + FAIL_CLOSED}
    got = found(main, files)
    assert lines(got, "SIB301") == [5]
    assert lines(got, "SIB202") == [5]
    benign = {**files, "app/guards.py": IMPORTS + FAIL_CLOSED.replace("raise MiddlewareFailure(", "raise RuntimeError(")}
    assert lines(found(main, benign), "SIB301") == []
