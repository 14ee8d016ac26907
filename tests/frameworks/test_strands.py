"""strands-agents (issue 13): tool spellings, groups (agent tools + plugin tools), raising
tool-call hooks in every registration form (SIB202), the mix they make (SIB301), and the
SequentialToolExecutor serialiser.

Measured behaviour behind these expectations: tests/runtime/test_strands_runtime.py.
"""

from __future__ import annotations

import pytest
from siblint.settings.config import Config

from tests.frameworks.wave3_lint import found, lines  # noqa: F401  (found is a fixture)

HEAD = '''\
import asyncio
import httpx
import requests
from strands import Agent, tool
from strands.hooks import AfterToolCallEvent, BeforeToolCallEvent


@tool
def charge_card(amount: int) -> str:
    """Sync: runs in a worker thread. Its own errors reach the model."""
    try:
        requests.post("https://payments.example.com/charges", json={"amount": amount})
    except Exception as exc:
        return f"charge failed: {exc}"
    return "charged"


@tool
async def lookup_tax(region: str) -> str:
    """Raises: fatal only when a hook re-raises it."""
    raise RuntimeError("tax service down")


def reraise(event: AfterToolCallEvent) -> None:
    if event.exception is not None:
        raise event.exception
'''
FIRST = HEAD.count("\n") + 1




# ---- tools ------------------------------------------------------------------------------------
SYNC_BODY = "    requests.post('https://p.example.com', json={})\n    return 'ok'\n"


@pytest.mark.parametrize("spelling", [
    "from strands import tool\n\n@tool\n",
    "from strands import tool\n\n@tool()\n",
    "from strands import tool\n\n@tool(name='pay', description='Pay.', inputSchema={'json': {}}, context=True)\n",
    "from strands.tools.decorator import tool\n\n@tool\n",
    "from strands.tools import tool as t\n\n@t\n",
    "import strands\n\n@strands.tool\n",
])
def test_tool_decorator_spellings(found, spelling):
    text = f"import requests\n{spelling}def pay(x: int) -> str:\n{SYNC_BODY}"
    at = text.count("\n", 0, text.index("def pay")) + 1
    assert lines(found(text), "SIB101") == [at]


def test_call_form_and_python_agent_tool(found):
    text = ("import requests\nfrom strands import tool\nfrom strands.tools import PythonAgentTool\n\n"
            f"def pay(x: int) -> str:\n{SYNC_BODY}\n"
            f"def refund(tool_use, **kw):\n{SYNC_BODY}\n"
            "PAY = tool(pay)\nREFUND = PythonAgentTool('refund', {'name': 'refund'}, refund)\n")
    assert lines(found(text), "SIB101") == [5, 9]


def test_agent_tool_subclass_runs_its_stream(found):
    text = ("import httpx\nfrom strands.types.tools import AgentTool\n\n"
            "class Refund(AgentTool):\n    async def stream(self, tool_use, invocation_state, **kw):\n"
            "        await asyncio.to_thread(httpx.post, 'https://p.example.com', json={})\n"
            "        yield {'status': 'success'}\n")
    assert lines(found("import asyncio\n" + text), "SIB102") == [6]


def test_module_tool_with_tool_spec(found):
    text = ("import requests\nfrom strands.types.tools import ToolResult, ToolUse\n\n"
            "TOOL_SPEC = {'name': 'send_invoice', 'description': 'Send.', 'inputSchema': {'json': {}}}\n\n"
            f"def send_invoice(tool: ToolUse, **kwargs) -> ToolResult:\n{SYNC_BODY}")
    assert lines(found(text), "SIB101") == [6]
    # Without a strands import the same names are someone else's convention.
    assert found(text.replace("from strands.types.tools import ToolResult, ToolUse\n", "")) == []


def test_read_only_sync_tool_and_stub_name_trap_are_clean(found):
    text = ("import requests\nfrom strands import tool\n\n@tool\ndef get_rate(region: str) -> str:\n"
            "    return requests.get(f'https://rates.example.com/{region}').text\n\n"
            "@tool\ndef put_payment(amount: int) -> str:\n    return f'paid {amount}'\n")
    assert found(text) == []


def test_tool_of_another_library_is_not_a_strands_tool(found):
    text = f"import requests\nfrom mylib import tool\n\n@tool\ndef pay(x: int) -> str:\n{SYNC_BODY}"
    assert found(text) == []


# ---- groups and the hooks that make them fatal -----------------------------------------------
def test_raising_after_hook_makes_the_mix(found):
    text = HEAD + "\nagent = Agent(tools=[charge_card, lookup_tax], hooks=[reraise])\n"
    got = found(text)
    assert lines(got, "SIB301") == [FIRST + 1]
    assert lines(got, "SIB202") == [FIRST + 1]  # at the hook in hooks=[...]
    assert lines(got, "SIB101") == [9]


def test_sib301_message_names_the_hook_and_the_fix(lint, tmp_path):
    text = HEAD + "\nagent = Agent(tools=[charge_card, lookup_tax], hooks=[reraise])\n"
    [d] = lint(text, None, Config(root=str(tmp_path), select=("SIB301",)))
    assert "charge_card (sync, POST" in d.message
    assert "lookup_tax's fatal failure (raises RuntimeError, re-raised by the after-call hook reraise)" in d.message
    assert "SequentialToolExecutor()" in d.message
    [h] = lint(text, None, Config(root=str(tmp_path), select=("SIB202",)))
    assert "after-call hook reraise raises" in h.message and "cancel_tool" in h.message


def test_positional_tools_and_no_hook_is_no_mix(found):
    # Agent(model, messages, tools): without a raising hook every tool error reaches the model.
    text = HEAD + "\nagent = Agent(None, None, [charge_card, lookup_tax])\n"
    assert lines(found(text), "SIB301") == []
    text = HEAD + "\nagent = Agent(None, None, [charge_card, lookup_tax], hooks=[reraise])\n"
    assert lines(found(text), "SIB301") == [FIRST + 1]


@pytest.mark.parametrize("register", [
    "agent.add_hook(reraise)",
    "agent.add_hook(reraise, AfterToolCallEvent)",
    "agent.hooks.add_callback(AfterToolCallEvent, reraise)",
])
def test_hooks_registered_on_the_agent(found, register):
    text = HEAD + f"\nagent = Agent(tools=[charge_card, lookup_tax])\n{register}\n"
    got = found(text)
    assert lines(got, "SIB301") == [FIRST + 1]
    assert lines(got, "SIB202") == [FIRST + 2]


def test_registration_for_another_event_is_not_a_tool_hook(found):
    text = HEAD.replace("from strands.hooks import", "from strands.hooks import BeforeInvocationEvent,") + (
        "\nagent = Agent(tools=[charge_card, lookup_tax])\nagent.hooks.add_callback(BeforeInvocationEvent, reraise)\n")
    got = found(text)
    assert lines(got, "SIB301") == [] and lines(got, "SIB202") == []


PROVIDER = '''
class FailFast:
    def register_hooks(self, registry, **kwargs):
        registry.add_callback(AfterToolCallEvent, self.on_after)

    def on_after(self, event: AfterToolCallEvent) -> None:
        if event.exception is not None:
            raise event.exception
'''


def test_hook_provider_in_hooks(found):
    text = HEAD + PROVIDER + "\nagent = Agent(tools=[charge_card, lookup_tax], hooks=[FailFast()])\n"
    got = found(text)
    assert lines(got, "SIB301") == [FIRST + 9]
    assert lines(got, "SIB202") == [FIRST + 3]  # at the registration in register_hooks


PLUGIN = '''
from strands.plugins import Plugin, hook


class FailFast(Plugin):
    name = "fail-fast"

    @hook
    def on_after(self, event: AfterToolCallEvent) -> None:
        if event.exception is not None:
            raise event.exception

    @tool
    def refund(self, amount: int) -> str:
        """A plugin tool: joins the agent's group."""
        try:
            requests.post("https://payments.example.com/refunds", json={"amount": amount})
        except Exception as exc:
            return f"refund failed: {exc}"
        return "refunded"
'''


def test_plugin_hooks_and_plugin_tools(found):
    text = HEAD + PLUGIN + "\nagent = Agent(tools=[lookup_tax], plugins=[FailFast()])\n"
    got = found(text)
    # The plugin's @tool method is the victim; its @hook method the fatal hook (SIB202 at its def).
    assert lines(got, "SIB301") == [FIRST + 21]
    assert lines(got, "SIB202") == [FIRST + 8]
    assert lines(got, "SIB101") == [9, FIRST + 13]  # charge_card is a tool of no group: still SIB101


def test_plugin_and_provider_from_another_module(found):
    hooks = "from strands.hooks import AfterToolCallEvent\nfrom strands import tool\nimport requests\n" + PLUGIN
    main = ("from strands import Agent\nfrom .hooks import FailFast\nfrom .tools import lookup_tax\n\n"
            "agent = Agent(tools=[lookup_tax], plugins=[FailFast()])\n")
    got = found(main, {"hooks.py": hooks, "tools.py": HEAD, "__init__.py": ""})
    assert lines(got, "SIB301") == [5]
    provider = "from strands.hooks import AfterToolCallEvent\n" + PROVIDER
    main = ("from strands import Agent\nfrom .hooks import FailFast\nfrom .tools import charge_card, lookup_tax\n\n"
            "agent = Agent(tools=[charge_card, lookup_tax], hooks=[FailFast()])\n")
    assert lines(found(main, {"hooks.py": provider, "tools.py": HEAD, "__init__.py": ""}), "SIB301") == [5]


def test_hook_callable_from_another_module(found):
    main = ("from strands import Agent\nfrom .tools import charge_card, lookup_tax\nfrom .policy import reraise\n\n"
            "agent = Agent(tools=[charge_card, lookup_tax], hooks=[reraise])\n")
    got = found(main, {"tools.py": HEAD, "policy.py": HEAD, "__init__.py": ""})
    assert lines(got, "SIB301") == [5] and lines(got, "SIB202") == [5]


def test_before_hook_makes_every_member_fatal(found):
    text = HEAD + ("\n@tool\nasync def lookup_rate(region: str) -> str:\n    return '0.2'\n\n"
                   "def policy(event: BeforeToolCallEvent) -> None:\n    if event.tool_use['name'] == 'lookup_rate':\n"
                   "        raise PermissionError('policy service down')\n\n"
                   "agent = Agent(tools=[charge_card, lookup_rate], hooks=[policy])\n")
    got = found(text)
    assert lines(got, "SIB301") == [FIRST + 9]
    assert lines(got, "SIB202") == [FIRST + 9]


INTERVENTION = '''
from strands.interventions import InterventionHandler, Proceed


class Auth(InterventionHandler):
    name = "auth"{on_error}

    def before_tool_call(self, event):
        if event.tool_use["name"] == "lookup_rate":
            raise ConnectionError("authz service down")
        return Proceed()
'''


def test_raising_intervention(found):
    text = HEAD + INTERVENTION.format(on_error="") + "\nagent = Agent(tools=[charge_card], interventions=[Auth()])\n"
    got = found(text)
    assert lines(got, "SIB202") == [FIRST + 7]
    assert lines(got, "SIB301") == [FIRST + 12]


@pytest.mark.parametrize("on_error", ['\n    on_error = "deny"', '\n    on_error = "proceed"',
                                      '\n\n    @property\n    def on_error(self):\n        return "deny"'])
def test_intervention_that_denies_on_error_is_not_fatal(found, on_error):
    text = HEAD + INTERVENTION.format(on_error=on_error) + "\nagent = Agent(tools=[charge_card], interventions=[Auth()])\n"
    got = found(text)
    assert lines(got, "SIB202") == [] and lines(got, "SIB301") == []


def test_intervention_that_can_return_none(found):
    text = HEAD + ("from strands.interventions import InterventionHandler, Proceed\n\n"
                   "class Audit(InterventionHandler):\n    name = 'audit'\n\n    def after_tool_call(self, event):\n"
                   "        print(event.tool_use)\n")
    assert lines(found(text), "SIB202") == [FIRST + 5]


def test_fixed_twins(found):
    # A hook that only logs, cancel_tool instead of raising, and the serialising executor.
    logs = HEAD.replace("        raise event.exception", "        print('failed', event.exception)")
    assert found(logs + "\nagent = Agent(tools=[charge_card, lookup_tax], hooks=[reraise])\n") == [("SIB101", 9)]
    cancel = HEAD + ("\ndef policy(event: BeforeToolCallEvent) -> None:\n    event.cancel_tool = 'not allowed'\n\n"
                     "agent = Agent(tools=[charge_card, lookup_tax], hooks=[policy])\n")
    assert lines(found(cancel), "SIB301") == []
    serial = HEAD + ("from strands.tools.executors import SequentialToolExecutor\n\n"
                     "agent = Agent(tools=[charge_card, lookup_tax], hooks=[reraise], tool_executor=SequentialToolExecutor())\n")
    got = found(serial)
    assert lines(got, "SIB301") == [] and lines(got, "SIB202") == [FIRST + 2]
    shared = serial.replace("\nagent = Agent(", "\nEXECUTOR = SequentialToolExecutor()\nagent = Agent(").replace(
        "tool_executor=SequentialToolExecutor()", "tool_executor=EXECUTOR")
    assert lines(found(shared), "SIB301") == []
    concurrent = serial.replace("SequentialToolExecutor", "ConcurrentToolExecutor")
    assert lines(found(concurrent), "SIB301") == [FIRST + 2]


def test_awaiting_async_sibling_is_not_a_victim(found):
    text = HEAD.replace('''@tool
def charge_card(amount: int) -> str:
    """Sync: runs in a worker thread. Its own errors reach the model."""
    try:
        requests.post''', '''@tool
async def charge_card(amount: int) -> str:
    """Async and awaiting: cancelled with the run."""
    try:
        async with httpx.AsyncClient() as client:
            await client.post''') + "\nagent = Agent(tools=[charge_card, lookup_tax], hooks=[reraise])\n"
    got = found(text)
    assert lines(got, "SIB301") == [] and lines(got, "SIB202") == [text.count("\n")]


def test_look_alike_registrations_are_not_hooks(found):
    text = ("from mylib import Agent, AfterToolCallEvent\n\ndef reraise(event: AfterToolCallEvent) -> None:\n"
            "    raise RuntimeError('x')\n\nagent = Agent(hooks=[reraise])\nagent.add_hook(reraise)\n"
            "button.add_callback(AfterToolCallEvent, reraise)\n")
    assert found(text) == []
    plugin = PLUGIN.replace("from strands.plugins import Plugin, hook", "from mylib import Plugin, hook")
    assert lines(found(HEAD + plugin), "SIB202") == []


def test_agent_as_a_tool_is_a_member_without_a_body(found):
    text = HEAD + "\nhelper = Agent(name='helper')\nagent = Agent(tools=[charge_card, helper, lookup_tax], hooks=[reraise])\n"
    assert lines(found(text), "SIB301") == [FIRST + 2]


@pytest.mark.parametrize("event", [
    "from strands.hooks.events import AfterToolCallEvent",
    "from strands.experimental.hooks import AfterToolInvocationEvent as AfterToolCallEvent",
])
def test_event_spellings(found, event):
    text = HEAD.replace("from strands.hooks import AfterToolCallEvent, BeforeToolCallEvent", event)
    text += "\nagent = Agent(tools=[charge_card, lookup_tax], hooks=[reraise])\n"
    assert lines(found(text), "SIB301") == [text.count("\n")]


def test_plugin_hook_decorator_with_parentheses(found):
    text = HEAD + PLUGIN.replace("    @hook\n", "    @hook()\n") + "\nagent = Agent(tools=[lookup_tax], plugins=[FailFast()])\n"
    assert lines(found(text), "SIB202") == [FIRST + 8]
