"""haystack (issue 25): tool spellings (`@tool`, `Tool(function=...)`, `ComponentTool`, `Toolset`),
`Agent(raise_on_tool_invocation_failure=True)` as SIB201 and the mix it makes (SIB301), and
`tool_concurrency_limit=1`, which is no fix: a queued call still runs before the raise.

Measured behaviour behind these expectations: tests/runtime/test_haystack_runtime.py.
"""

from __future__ import annotations

import pytest
from siblint.settings.config import Config

from tests.frameworks.wave3_lint import found, line_of, lines  # noqa: F401  (found is a fixture)

HEAD = '''\
import requests
from haystack.components.agents import Agent
from haystack.components.generators.chat import OpenAIChatGenerator
from haystack.tools import tool


@tool
def charge_card(customer_id: str, amount_cents: int) -> str:
    """Sync: runs in the agent's thread pool."""
    return requests.post("https://payments.example.com/charges", json={"c": customer_id}).text


@tool
def lookup_customer(customer_id: str) -> str:
    """Raises on a 503."""
    r = requests.get(f"https://crm.example.com/customers/{customer_id}")
    r.raise_for_status()
    return r.text
'''

AGENT = '''
agent = Agent(chat_generator=OpenAIChatGenerator(), tools=[lookup_customer, charge_card]{options})
'''

SYNC_BODY = "    requests.post('https://p.example.com', json={})\n    return 'ok'\n"


def _agent(options: str = ", raise_on_tool_invocation_failure=True") -> str:
    return AGENT.format(options=options)


@pytest.mark.parametrize("spelling", [
    "from haystack.tools import tool\n\n@tool\n",
    "from haystack.tools import tool\n\n@tool(name='pay', description='Pay.', outputs_to_state={'p': {}})\n",
    "from haystack.tools.from_function import tool as t\n\n@t\n",
    "import haystack.tools\n\n@haystack.tools.tool\n",
])
def test_tool_decorator_spellings(found, spelling):
    text = f"import requests\n{spelling}def pay(x: int) -> str:\n{SYNC_BODY}"
    assert lines(found(text), "SIB101") == [line_of(text, "def pay")]


def test_call_forms(found):
    text = ("import requests\nfrom haystack.tools import Tool, create_tool_from_function, tool\n\n"
            f"def pay(x: int) -> str:\n{SYNC_BODY}\n"
            f"def refund(x: int) -> str:\n{SYNC_BODY}\n"
            f"def void(x: int) -> str:\n{SYNC_BODY}\n"
            "PAY = tool(pay)\nREFUND = create_tool_from_function(refund)\n"
            "VOID = Tool(name='void', description='Void.', parameters={}, function=void)\n")
    assert lines(found(text), "SIB101") == [line_of(text, "def pay"), line_of(text, "def refund"),
                                            line_of(text, "def void")]


def test_tool_with_an_async_function_runs_it(found):
    """run_async awaits async_function: the sync function is not what a gathered run calls."""
    text = ("import httpx, requests\nfrom haystack.tools import Tool\n\n"
            f"def pay(x: int) -> str:\n{SYNC_BODY}\n"
            "async def apay(x: int) -> str:\n    async with httpx.AsyncClient() as c:\n"
            "        await c.post('https://p.example.com', json={})\n    return 'ok'\n\n"
            "PAY = Tool(name='pay', description='Pay.', parameters={}, function=pay, async_function=apay)\n")
    assert lines(found(text), "SIB101") == []


@pytest.mark.parametrize("component", ["ComponentTool(component=Charge(), name='charge')",
                                       "ComponentTool(charger)"])
def test_component_tool_runs_the_components_run(found, component):
    text = ("import requests\nfrom haystack import component\nfrom haystack.tools import ComponentTool\n\n\n"
            "@component\nclass Charge:\n    @component.output_types(reply=str)\n"
            "    def run(self, amount: int):\n        requests.post('https://p.example.com', json={})\n"
            "        return {'reply': 'ok'}\n\n\ncharger = Charge()\n"
            f"TOOL = {component}\n")
    assert lines(found(text), "SIB101") == [line_of(text, "TOOL =")]


def test_read_only_tool_and_stub_name_trap_are_clean(found):
    text = ("import requests\nfrom haystack.tools import tool\n\n@tool\ndef get_rate(region: str) -> str:\n"
            "    return requests.get(f'https://rates.example.com/{region}').text\n\n"
            "@tool\ndef post_payment(amount: int) -> str:\n    return f'paid {amount}'\n")
    assert found(text) == []


def test_tool_of_another_library_is_not_a_haystack_tool(found):
    text = f"import requests\nfrom mylib import tool\n\n@tool\ndef pay(x: int) -> str:\n{SYNC_BODY}"
    assert found(text) == []


# ---- the fatal setting --------------------------------------------------------------------------
def test_raise_on_tool_invocation_failure_makes_the_mix(found):
    text = HEAD + _agent()
    got = found(text)
    assert lines(got, "SIB201") == [line_of(text, "agent = Agent")]
    assert lines(got, "SIB301") == [line_of(text, "agent = Agent")]
    assert lines(got, "SIB101") == [line_of(text, "def charge_card")]


@pytest.mark.parametrize("options", [", raise_on_tool_invocation_failure=True, tool_concurrency_limit=1",
                                     ", raise_on_tool_invocation_failure=FAIL_FAST"])
def test_one_worker_is_no_fix_and_names_are_followed(found, options):
    text = HEAD + "FAIL_FAST = True\n" + _agent(options)
    assert lines(found(text), "SIB301") == [line_of(text, "agent = Agent")]


def test_awaiting_async_member_counts_too(found):
    """Nothing in flight is cancelled: an awaiting charge finishes after the failure as well."""
    text = HEAD.replace('@tool\ndef charge_card(customer_id: str, amount_cents: int) -> str:\n'
                        '    """Sync: runs in the agent\'s thread pool."""\n'
                        '    return requests.post(',
                        '@tool\nasync def charge_card(customer_id: str, amount_cents: int) -> str:\n'
                        '    async with httpx.AsyncClient() as c:\n        return await c.post(') + _agent()
    text = "import httpx\n" + text
    got = found(text)
    assert lines(got, "SIB301") == [line_of(text, "agent = Agent")]
    assert lines(got, "SIB101") == []


@pytest.mark.parametrize("options", ["", ", raise_on_tool_invocation_failure=False", ", tool_concurrency_limit=1"])
def test_default_policy_is_clean(found, options):
    got = found(HEAD + _agent(options))
    assert lines(got, "SIB201") == [] and lines(got, "SIB301") == []


def test_agent_of_another_library_is_not_a_haystack_agent(found):
    text = HEAD.replace("from haystack.components.agents import Agent", "from mylib import Agent") + _agent()
    got = found(text)
    assert lines(got, "SIB201") == [] and lines(got, "SIB301") == []


def test_toolset_members(found):
    text = (HEAD.replace("import tool\n", "import Toolset, tool\n")
            + "\nagent = Agent(chat_generator=OpenAIChatGenerator(), tools=Toolset([lookup_customer, charge_card]),"
              " raise_on_tool_invocation_failure=True)\n")
    assert lines(found(text), "SIB301") == [line_of(text, "agent = Agent")]


# ---- across modules ---------------------------------------------------------------------------
def test_tools_from_another_module(found):
    main = ("from haystack.components.agents import Agent\nfrom app.tools import charge_card, lookup_customer\n\n"
            "agent = Agent(chat_generator=None, tools=[lookup_customer, charge_card], "
            "raise_on_tool_invocation_failure=True)\n")
    files = {"app/__init__.py": "", "app/tools.py": HEAD}
    got = found(main, files)
    assert lines(got, "SIB301") == [4] and lines(got, "SIB201") == [4]
    assert lines(found(main.replace("True", "False"), files), "SIB301") == []


# ---- PipelineTool / AgentTool -----------------------------------------------------------------
NESTED = '''
from haystack import Pipeline
from haystack.tools import AgentTool, PipelineTool

research = Agent(chat_generator=OpenAIChatGenerator(), tools=[lookup_customer])
search = PipelineTool(Pipeline(), name="search", description="Search the catalogue.")
delegate = AgentTool(research, name="research", description="Research the customer.")
agent = Agent(chat_generator=OpenAIChatGenerator(), tools=[{members}, charge_card]{options})
'''


@pytest.mark.parametrize("member, name", [("search", "search"), ("delegate", "research")])
def test_pipeline_and_agent_tools_are_members(lint, tmp_path, member, name):
    text = HEAD + NESTED.format(members=member, options=", raise_on_tool_invocation_failure=True")
    found = [d for d in lint(text, config=Config(root=str(tmp_path), select=("SIB301",)))]
    assert [d.loc.line for d in found] == [line_of(text, "agent = Agent")], found
    # The pair is the nested tool's failure and the charge (not the charge as its own sibling).
    assert f"{name}'s" in found[0].message or f"{name} " in found[0].message, found[0].message


@pytest.mark.parametrize("member", ["search", "delegate"])
def test_pipeline_and_agent_tools_under_the_default_policy(found, member):
    text = HEAD + NESTED.format(members=member, options="")
    assert lines(found(text), "SIB301") == []
