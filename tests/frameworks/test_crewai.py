"""crewai (issue 13): tool spellings, groups (Agent, Task), the layered tool_failure_policy (tool,
task, agent, crew; the most specific set level wins), fatal after-tool hooks, serialisers, and the
codes they map to (SIB101, SIB201, SIB202, SIB301).

Measured behaviour behind these expectations: tests/runtime/test_crewai_runtime.py.
"""

from __future__ import annotations

import pytest
from siblint.settings.config import Config

ALL = ("SIB101", "SIB102", "SIB103", "SIB104", "SIB105", "SIB201", "SIB202", "SIB206", "SIB301")

HEAD = '''\
import asyncio
import httpx
import requests
from crewai import Agent, Crew, Task
from crewai.tools import BaseTool, ToolFailurePolicy, tool


@tool("charge_card")
def charge_card(amount: int) -> str:
    """Sync: runs in a pool thread."""
    requests.post("https://payments.example.com/charges", json={"amount": amount})
    return "charged"


@tool
async def notify(to: str) -> str:
    """Async and awaiting: still not cancelled, crewai cancels nothing in flight."""
    async with httpx.AsyncClient() as client:
        await client.post("https://notify.example.com", json={"to": to})
    return "sent"


@tool
def lookup_rate(region: str) -> str:
    """Read-only."""
    return requests.get(f"https://rates.example.com/{region}").text
'''
FIRST = HEAD.count("\n") + 1

STRICT = '''
class StrictTax(BaseTool):
    name: str = "lookup_tax"
    description: str = "Tax."
    tool_failure_policy: ToolFailurePolicy = ToolFailurePolicy.RAISE

    def _run(self, region: str) -> str:
        raise RuntimeError("tax service down")
'''


@pytest.fixture
def codes(lint, tmp_path):
    def run(text: str, files: dict[str, str] | None = None, select: tuple[str, ...] = ALL) -> list[tuple[str, int]]:
        found = lint(text, files, Config(root=str(tmp_path), select=select))
        return sorted((d.code, d.loc.line) for d in found)

    return run


def only(found: list[tuple[str, int]], code: str) -> list[int]:
    return [line for c, line in found if c == code]


def line_of(text: str, needle: str) -> int:
    return text[:text.index(needle)].count("\n") + 1


# ---- tools ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("deco", ["@tool", '@tool("pay")', "@tool(result_schema=None)", "@base_tool.tool",
                                  "@crewai_tool"])
def test_tool_decorators_make_sync_tools(codes, deco):
    text = ("import requests\nfrom crewai.tools import base_tool\nfrom crewai.tools.base_tool import tool as crewai_tool\n"
            "from crewai.tools import tool\n\n" + deco + "\ndef pay(amount: int) -> str:\n    \"\"\"Pay.\"\"\"\n"
            "    requests.post('https://p.example.com', json={})\n    return 'ok'\n")
    assert codes(text) == [("SIB101", 7)]


def test_tool_call_form_and_name_factory(codes):
    text = ("import requests\nfrom crewai.tools import tool\n\ndef pay(amount: int) -> str:\n    \"\"\"Pay.\"\"\"\n"
            "    requests.post('https://p.example.com', json={})\n    return 'ok'\n\n"
            "PAY = tool(pay)\nPAY2 = tool('pay2')(pay)\n")
    assert only(codes(text), "SIB101") == [4]


def test_base_tool_subclass_sync_run_is_a_tool(codes):
    text = ("import requests\nfrom crewai.tools import BaseTool\n\nclass Pay(BaseTool):\n    name: str = 'pay'\n"
            "    description: str = 'Pay.'\n\n    def _run(self, amount: int) -> str:\n"
            "        requests.post('https://p.example.com', json={})\n        return 'ok'\n")
    assert codes(text) == [("SIB101", 8)]
    # `_arun` is what an async run awaits: no SIB101 for the class then.
    assert codes(text.replace("def _run", "async def _arun").replace("requests.post", "await httpx.AsyncClient().post")
                 .replace("import requests", "import httpx")) == []


def test_a_class_with_both_methods_runs_run_in_a_crew(codes):
    """crewAI's `BaseTool.run` calls `_run` (only its async API awaits `_arun`): a `_run` driving its
    async twin on a loop of its own (`loop.run_until_complete(self._arun(...))`) is what a crew runs,
    and the twin's awaited write cannot be cancelled there."""
    text = ("import asyncio\nimport httpx\nfrom crewai.tools import BaseTool\n\nclass Pay(BaseTool):\n"
            "    name: str = 'pay'\n    description: str = 'Pay.'\n\n    async def _arun(self, amount: int) -> str:\n"
            "        await httpx.AsyncClient().post('https://p.example.com', json={})\n        return 'ok'\n\n"
            "    def _run(self, amount: int) -> str:\n"
            "        return asyncio.new_event_loop().run_until_complete(self._arun(amount))\n")
    assert codes(text) == [("SIB101", 13)]


def test_read_only_sync_tool_is_not_reported(codes):
    assert codes(HEAD) == [("SIB101", line_of(HEAD, "def charge_card"))]


# ---- SIB201: the layered policy -------------------------------------------------------------------
@pytest.mark.parametrize("setting", ['tool_failure_policy="raise"', "tool_failure_policy=ToolFailurePolicy.RAISE",
                                     "tool_failure_policy=POLICY"])
def test_agent_level_raise_is_sib201_and_makes_every_member_fatal(codes, setting):
    text = HEAD + f'POLICY = "raise"\nshop = Agent(role="r", goal="g", backstory="b", tools=[charge_card, lookup_rate], {setting})\n'
    found = codes(text)
    assert only(found, "SIB201") == [FIRST + 1]
    assert only(found, "SIB301") == [FIRST + 1]


@pytest.mark.parametrize("value", ['"warn"', '"ignore"', "ToolFailurePolicy.WARN", "None", "policy_from_config"])
def test_other_policy_values_are_not_fatal(codes, value):
    text = HEAD + f"shop = Agent(role='r', goal='g', backstory='b', tools=[charge_card, lookup_rate], tool_failure_policy={value})\n"
    assert only(codes(text), "SIB201") == [] and only(codes(text), "SIB301") == []


def test_task_level_raise(codes):
    text = HEAD + ("shop = Agent(role='r', goal='g', backstory='b', tools=[charge_card, lookup_rate])\n"
                   "job = Task(description='d', expected_output='x', agent=shop, tool_failure_policy='raise')\n")
    found = codes(text)
    assert only(found, "SIB201") == [FIRST + 1]
    assert only(found, "SIB301") == [FIRST]


def test_crew_level_raise_through_agents_or_tasks(codes):
    agent = "shop = Agent(role='r', goal='g', backstory='b', tools=[charge_card, lookup_rate])\n"
    job = "job = Task(description='d', expected_output='x', agent=shop)\n"
    for crew in ("Crew(agents=[shop], tasks=[job], tool_failure_policy='raise')\n",
                 "Crew(agents=[], tasks=[job], tool_failure_policy=ToolFailurePolicy.RAISE)\n"):
        found = codes(HEAD + agent + job + crew)
        assert only(found, "SIB201") == [FIRST + 2], crew
        assert only(found, "SIB301") == [FIRST], crew


@pytest.mark.parametrize("more_specific", [
    ("shop = Agent(role='r', goal='g', backstory='b', tools=[charge_card, lookup_rate], tool_failure_policy='warn')\n"
     "job = Task(description='d', expected_output='x', agent=shop)\n"
     "crew = Crew(agents=[shop], tasks=[job], tool_failure_policy='raise')\n"),
    ("shop = Agent(role='r', goal='g', backstory='b', tools=[charge_card, lookup_rate], tool_failure_policy='raise')\n"
     "job = Task(description='d', expected_output='x', agent=shop, tool_failure_policy=ToolFailurePolicy.IGNORE)\n"),
])
def test_a_more_specific_level_wins(codes, more_specific):
    found = codes(HEAD + more_specific)
    assert only(found, "SIB201") == [] and only(found, "SIB301") == []


def test_one_task_raising_is_enough(codes):
    text = HEAD + ("shop = Agent(role='r', goal='g', backstory='b', tools=[charge_card, lookup_rate])\n"
                   "a = Task(description='d', expected_output='x', agent=shop, tool_failure_policy='warn')\n"
                   "b = Task(description='d', expected_output='x', agent=shop, tool_failure_policy='raise')\n")
    assert only(codes(text), "SIB301") == [FIRST]


def test_tool_class_attribute_raise(codes):
    text = HEAD + STRICT + "\nshop = Agent(role='r', goal='g', backstory='b', tools=[charge_card, StrictTax()])\n"
    found = codes(text)
    assert only(found, "SIB201") == [line_of(text, "tool_failure_policy: ToolFailurePolicy")]
    assert only(found, "SIB301") == [text.count("\n")]


def test_tool_level_warn_beats_the_agent(codes):
    text = HEAD + STRICT + ("\nshop = Agent(role='r', goal='g', backstory='b', tools=[charge_card, "
                            "StrictTax(tool_failure_policy='warn')], tool_failure_policy='raise')\n")
    # The agent-level raise still makes charge_card itself fatal: called twice, it is its own sibling.
    assert only(codes(text), "SIB301") == [text.count("\n")]
    safe = text.replace("tools=[charge_card, ", "tools=[notify, ").replace(", tool_failure_policy='raise')", ")")
    assert only(codes(safe), "SIB301") == []


def test_tool_constructor_keyword_and_assignment(codes):
    text = HEAD + STRICT.replace("    tool_failure_policy: ToolFailurePolicy = ToolFailurePolicy.RAISE\n", "") + (
        "\nshop = Agent(role='r', goal='g', backstory='b', tools=[charge_card, StrictTax(tool_failure_policy='raise')])\n")
    found = codes(text)
    assert only(found, "SIB201") == only(found, "SIB301") == [text.count("\n")]
    assigned = HEAD + STRICT.replace("    tool_failure_policy: ToolFailurePolicy = ToolFailurePolicy.RAISE\n", "") + (
        "\ntax = StrictTax()\ntax.tool_failure_policy = 'raise'\n"
        "shop = Agent(role='r', goal='g', backstory='b', tools=[charge_card, tax])\n")
    found = codes(assigned)
    assert only(found, "SIB201") == [assigned.count("\n") - 1]
    assert only(found, "SIB301") == [assigned.count("\n")]


def test_assignment_to_a_decorated_tool(codes):
    text = HEAD + ("\n@tool\ndef lookup_tax(region: str) -> str:\n    \"\"\"Tax.\"\"\"\n    raise RuntimeError('down')\n\n"
                   "lookup_tax.tool_failure_policy = 'raise'\n"
                   "shop = Agent(role='r', goal='g', backstory='b', tools=[notify, lookup_tax])\n")
    found = codes(text)
    assert only(found, "SIB201") == [text.count("\n") - 1]
    assert only(found, "SIB301") == [text.count("\n")]


def test_strict_tool_in_another_module(codes):
    tools = "from crewai.tools import BaseTool, ToolFailurePolicy\n" + STRICT
    main = HEAD + "from .strict import StrictTax\n\nshop = Agent(role='r', goal='g', backstory='b', tools=[notify, StrictTax()])\n"
    assert only(codes(main, {"strict.py": tools, "__init__.py": ""}), "SIB301") == [main.count("\n")]


def test_tools_and_agent_from_another_module(codes):
    main = ("from crewai import Crew, Task\nfrom .agents import shop\n\n"
            "job = Task(description='d', expected_output='x', agent=shop)\n"
            "crew = Crew(agents=[shop], tasks=[job], tool_failure_policy='raise')\n")
    agents = "from crewai import Agent\nfrom .tools import charge_card, lookup_rate\n\n" \
             "shop = Agent(role='r', goal='g', backstory='b', tools=[charge_card, lookup_rate], tool_failure_policy='raise')\n"
    found = codes(agents, {"tools.py": HEAD, "main.py": main, "__init__.py": ""})
    assert only(found, "SIB301") == [4]


def test_task_tools_are_a_group(codes):
    text = HEAD + ("shop = Agent(role='r', goal='g', backstory='b', tool_failure_policy='raise')\n"
                   "job = Task(description='d', expected_output='x', agent=shop, tools=[notify, lookup_rate])\n")
    assert only(codes(text), "SIB301") == [FIRST + 1]


def test_tools_appended_later(codes):
    # `add` has no side effect: the group mixes only once notify joins it.
    text = HEAD + ("\n@tool\ndef add(a: int, b: int) -> int:\n    \"\"\"Add.\"\"\"\n    return a + b\n\n"
                   "shop = Agent(role='r', goal='g', backstory='b', tools=[add], tool_failure_policy='raise')\n"
                   "shop.tools.append(notify)\n")
    assert only(codes(text), "SIB301") == [text.count("\n")]


PAY_TOOLS = '''
import requests
from crewai.tools import tool


class PayTools:
    @tool("charge_card")
    def charge_card(amount: int) -> str:
        """A method made a tool: `PayTools.charge_card` is the tool, a class attribute."""
        requests.post("https://payments.example.com/charges", json={"amount": amount})
        return "charged"

    def helper(amount: int) -> str:
        return str(amount)

    def tools():
        return [PayTools.charge_card]
'''


@pytest.mark.parametrize("where,listed", [
    ("here", "[lookup_rate, PayTools.charge_card]"),
    ("imported", "[lookup_rate, PayTools.charge_card]"),
    ("in_a_function", "[lookup_rate, PayTools.charge_card]"),
    ("here", "[lookup_rate, PayTools().charge_card]"),  # read off an instance: the same class attribute
    ("imported", "[lookup_rate, *PayTools.tools()]"),  # a static method returning the class's tools
    ("here", "PayTools.tools() + [lookup_rate]"),
    ("here", "[lookup_rate, pay]"),  # through a name bound to it (`pay = PayTools.charge_card`)
])
def test_a_tool_method_listed_through_its_class(codes, lint, tmp_path, where, listed):
    # crewAI's examples write tools so: `tools=[SearchTools.search_internet]`.
    agent = f"shop = Agent(role='r', goal='g', backstory='b', tools={listed}, tool_failure_policy='raise')\n"
    if "pay]" in listed:
        agent = "pay = PayTools.charge_card\n" + agent
    if where == "here":
        text, files = HEAD + PAY_TOOLS.split("\n", 3)[3] + agent, None
    elif where == "imported":
        text, files = HEAD + "from .pay import PayTools\n\n" + agent, {"pay.py": PAY_TOOLS, "__init__.py": ""}
    else:
        body = "".join(f"    {line}\n" if line else "\n" for line in (PAY_TOOLS.split("\n", 3)[3] + agent).splitlines())
        text, files = HEAD + "\ndef build():\n" + body, None
    last = text.rstrip().count("\n") + 1
    assert only(codes(text, files), "SIB301") == [last]
    # The tool's own finding knows its agent: the message names crewai's runner, not "no agent found".
    found = lint(text, files, Config(root=str(tmp_path)))
    found += lint(PAY_TOOLS, {**(files or {}), "main.py": text}, Config(root=str(tmp_path)), "pay.py") if files else []
    (method,) = [d for d in found if d.code == "SIB101" and d.loc.line == line_of(
        PAY_TOOLS if files else text, "def charge_card(amount: int) -> str:\n        ")]
    assert "no agent of this project" not in method.message, method.message


def test_a_class_attribute_that_is_no_tool_is_no_member(codes):
    text = HEAD + PAY_TOOLS.split("\n", 3)[3] + (
        "class Other:\n    charge_card = None\n\n"
        "shop = Agent(role='r', goal='g', backstory='b', tools=[lookup_rate, PayTools.helper, Other.charge_card], "
        "tool_failure_policy='raise')\n")
    assert only(codes(text), "SIB301") == []


def test_a_langchain_tool_in_a_crewai_agent_gets_crewai_advice(lint, tmp_path):
    # crewai runs it in its pool thread and cancels nothing in flight: `async def` would not help there.
    text = ("import requests\nfrom crewai import Agent\nfrom langchain.tools import tool\n\n\n"
            "@tool(\"charge_card\")\ndef charge_card(amount: int) -> str:\n    \"\"\"Charge.\"\"\"\n"
            "    requests.post('https://p.example.com', json={})\n    return 'ok'\n\n\n"
            "shop = Agent(role='r', goal='g', backstory='b', tools=[charge_card])\n")
    (found,) = [d for d in lint(text, None, Config(root=str(tmp_path))) if d.code == "SIB101"]
    assert "crewai cancels nothing in flight" in found.message and "make it `async def`" not in found.message
    # Run by LangGraph instead, it keeps LangChain's advice.
    alone = text.replace("from crewai import Agent", "from langgraph.prebuilt import create_react_agent").replace(
        "shop = Agent(role='r', goal='g', backstory='b', tools=[charge_card])", "shop = create_react_agent('m', [charge_card])")
    (found,) = [d for d in lint(alone, None, Config(root=str(tmp_path))) if d.code == "SIB101"]
    assert "make it `async def`" in found.message, found.message


def test_crew_base_class_with_self_agents(codes):
    text = HEAD + ('''
class Shop:
    def buyer(self) -> Agent:
        return Agent(role="r", goal="g", backstory="b", tools=[charge_card, lookup_rate])

    def crew(self) -> Crew:
        return Crew(agents=self.agents, tasks=self.tasks, tool_failure_policy="raise")
''')
    found = codes(text)
    assert only(found, "SIB201") == [text.count("\n")]
    assert only(found, "SIB301") == [line_of(text, "tools=[charge_card, lookup_rate])")]


# ---- SIB202: after-tool hooks raising HookAborted -------------------------------------------------
HOOK_TOOLS = HEAD + "shop = Agent(role='r', goal='g', backstory='b', tools=[notify, lookup_rate])\n"


@pytest.mark.parametrize("hook", [
    "@on(InterceptionPoint.POST_TOOL_CALL)\ndef guard(ctx):\n",
    "@on(InterceptionPoint.POST_TOOL_CALL, tools=['lookup_rate'])\ndef guard(ctx):\n",
    "@after_tool_call\ndef guard(ctx):\n",
    "@after_tool_call(tools=['notify'])\ndef guard(ctx):\n",
    "@dispatch.on(dispatch.InterceptionPoint.POST_TOOL_CALL)\ndef guard(ctx):\n",
])
def test_after_tool_hook_raising_hook_aborted(codes, hook):
    text = HOOK_TOOLS + ("from crewai.hooks import HookAborted, InterceptionPoint, after_tool_call, on\n"
                         "from crewai.hooks import dispatch\n\n" + hook +
                         "    if 'secret' in str(ctx.tool_result):\n        raise HookAborted('leak')\n    return None\n")
    found = codes(text)
    assert only(found, "SIB202") == [line_of(text, "def guard")]
    assert only(found, "SIB301") == [FIRST]


def test_call_form_registration_and_hook_in_another_module(codes):
    hooks = ("from crewai.hooks import HookAborted, register_after_tool_call_hook, register_hook, InterceptionPoint\n\n"
             "def guard(ctx):\n    raise HookAborted('no')\n\nregister_after_tool_call_hook(guard)\n")
    found = codes(HOOK_TOOLS + "from . import hooks\n", {"hooks.py": hooks, "__init__.py": ""})
    assert only(found, "SIB301") == [FIRST]
    assert only(codes(hooks), "SIB202") == [6]
    two = hooks.replace("register_after_tool_call_hook(guard)", "register_hook(InterceptionPoint.POST_TOOL_CALL, guard)")
    assert only(codes(two), "SIB202") == [6]
    pre = hooks.replace("register_after_tool_call_hook(guard)", "register_hook(InterceptionPoint.PRE_TOOL_CALL, guard)")
    assert codes(pre) == []


@pytest.mark.parametrize("hook", [
    # A before-tool hook only blocks the call; the model sees "Tool execution blocked by hook".
    "@on(InterceptionPoint.PRE_TOOL_CALL)\ndef guard(ctx):\n    raise HookAborted('no')\n",
    "@before_tool_call\ndef guard(ctx):\n    return False\n",
    # Any other exception in a hook is swallowed.
    "@after_tool_call\ndef guard(ctx):\n    raise RuntimeError('buggy hook')\n",
    # Caught in the hook.
    "@after_tool_call\ndef guard(ctx):\n    try:\n        raise HookAborted('no')\n    except HookAborted:\n        return None\n",
])
def test_hooks_that_are_not_fatal(codes, hook):
    text = HOOK_TOOLS + ("from crewai.hooks import HookAborted, InterceptionPoint, after_tool_call, before_tool_call, on\n\n"
                         + hook)
    assert only(codes(text), "SIB202") == [] and only(codes(text), "SIB301") == []


def test_a_hook_for_other_tools_is_fatal_for_those_only(codes):
    text = HOOK_TOOLS + ("from crewai.hooks import HookAborted, InterceptionPoint, on\n\n"
                         "@on(InterceptionPoint.POST_TOOL_CALL, tools=['charge_card'])\ndef guard(ctx):\n"
                         "    raise HookAborted('no')\n")
    found = codes(text)
    assert only(found, "SIB202") == [line_of(text, "def guard")]
    assert only(found, "SIB301") == []


# ---- SIB301: nothing is cancelled; serialisers -----------------------------------------------------
def test_awaiting_async_sibling_counts(codes, lint, tmp_path):
    text = HEAD + "shop = Agent(role='r', goal='g', backstory='b', tools=[notify, lookup_rate], tool_failure_policy='raise')\n"
    [d] = lint(text, None, Config(root=str(tmp_path), select=("SIB301",)))
    assert d.loc.line == FIRST and d.message.startswith("notify (")
    assert "crewai cancels nothing in flight" in d.message


@pytest.mark.parametrize("option", ["result_as_answer=True", "max_usage_count=3"])
def test_serialising_tool_options(codes, option):
    text = HEAD + (f"\n@tool({option})\ndef pay(amount: int) -> str:\n    \"\"\"Pay.\"\"\"\n"
                   "    requests.post('https://p.example.com', json={})\n    return 'ok'\n\n"
                   "shop = Agent(role='r', goal='g', backstory='b', tools=[pay, lookup_rate], tool_failure_policy='raise')\n")
    assert only(codes(text), "SIB301") == []
    off = text.replace(option, "result_as_answer=False" if "result" in option else "max_usage_count=None")
    assert only(codes(off), "SIB301") == [off.count("\n")]


def test_serialising_class_attribute_and_instance_keyword(codes):
    serial = STRICT.replace("    tool_failure_policy: ToolFailurePolicy = ToolFailurePolicy.RAISE\n",
                            "    tool_failure_policy: ToolFailurePolicy = ToolFailurePolicy.RAISE\n"
                            "    result_as_answer: bool = True\n")
    text = HEAD + serial + "\nshop = Agent(role='r', goal='g', backstory='b', tools=[notify, StrictTax()])\n"
    assert only(codes(text), "SIB301") == []
    assert only(codes(text.replace("result_as_answer: bool = True", "result_as_answer: bool = False")), "SIB301")
    keyword = HEAD + STRICT + "\nshop = Agent(role='r', goal='g', backstory='b', tools=[notify, StrictTax(max_usage_count=2)])\n"
    assert only(codes(keyword), "SIB301") == []


# ---- name traps -------------------------------------------------------------------------------------
def test_look_alikes_are_not_crewai(codes):
    text = ("import requests\nfrom mylib import Agent, tool\n\n@tool\ndef pay(amount: int) -> str:\n"
            "    requests.post('https://p.example.com', json={})\n    return 'ok'\n\n"
            "shop = Agent(role='r', tools=[pay], tool_failure_policy='raise')\n")
    assert codes(text) == []
    hooks = ("from mylib.hooks import HookAborted, after_tool_call\n\n@after_tool_call\ndef guard(ctx):\n"
             "    raise HookAborted('no')\n")
    assert codes(hooks) == []
    other_abort = ("from crewai.hooks import after_tool_call\nfrom mylib import HookAborted\n\n@after_tool_call\n"
                   "def guard(ctx):\n    raise HookAborted('no')\n")
    assert codes(other_abort) == []


def test_policy_on_a_look_alike_object_is_not_reported(codes):
    text = ("class Settings:\n    tool_failure_policy = 'raise'\n\ns = Settings()\ns.tool_failure_policy = 'raise'\n"
            "from crewai import Agent\n")
    assert codes(text) == []


def test_levels_link_by_binding_not_by_a_name_reused_in_another_function(codes):
    # Each function has its own `shop`: the second function's task does not override the first's agent.
    text = HEAD + ('''
def first():
    shop = Agent(role="r", goal="g", backstory="b", tools=[charge_card, lookup_rate], tool_failure_policy="raise")
    return shop


def second(shop):
    return Task(description="d", expected_output="x", agent=shop, tool_failure_policy="warn")
''')
    found = codes(text)
    assert only(found, "SIB201") == [line_of(text, 'tool_failure_policy="raise"')]
    assert only(found, "SIB301") == [line_of(text, 'tool_failure_policy="raise"')]


def test_an_agent_raise_every_member_overrides_is_not_reported(codes):
    text = HEAD + STRICT.replace("ToolFailurePolicy.RAISE", "ToolFailurePolicy.IGNORE") + (
        "\nshop = Agent(role='r', goal='g', backstory='b', tools=[StrictTax()], tool_failure_policy='raise')\n")
    assert only(codes(text), "SIB201") == []
    mixed = text.replace("tools=[StrictTax()]", "tools=[StrictTax(), notify]")
    assert only(codes(mixed), "SIB201") == [mixed.count("\n")]


def test_level_attribute_assignment(codes):
    text = HEAD + ("shop = Agent(role='r', goal='g', backstory='b', tools=[notify, lookup_rate])\n"
                   "job = Task(description='d', expected_output='x', agent=shop)\n"
                   "job.tool_failure_policy = ToolFailurePolicy.RAISE\n")
    found = codes(text)
    assert only(found, "SIB201") == [FIRST + 2]
    assert only(found, "SIB301") == [FIRST]
    later_warn = text + "job.tool_failure_policy = 'warn'\n"
    assert only(codes(later_warn), "SIB201") == [] and only(codes(later_warn), "SIB301") == []


def test_a_subclass_inheriting_the_run_method_is_that_tool_with_its_own_attributes(codes):
    # As crewai's own tests write it: the subclass is defined inside the test function.
    text = HEAD + STRICT.replace("    tool_failure_policy: ToolFailurePolicy = ToolFailurePolicy.RAISE\n", "") + ('''
def test_exempt():
    class Chatty(StrictTax):
        tool_failure_policy: ToolFailurePolicy = ToolFailurePolicy.IGNORE

    shop = Agent(role="r", goal="g", backstory="b", tools=[Chatty()], tool_failure_policy=ToolFailurePolicy.RAISE)
''')
    assert codes(text, select=("SIB201", "SIB301")) == []
    strict = text.replace("ToolFailurePolicy.IGNORE", "ToolFailurePolicy.RAISE").replace("tools=[Chatty()]",
                                                                                        "tools=[Chatty(), notify]")
    assert only(codes(strict), "SIB301") == [strict.count("\n")]


# A project base class builds the agent; each subclass passes its tools through `super().__init__`.
BASE_AGENT = STRICT + '''

class BaseAgent:
    def __init__(self, role: str, tools: list | None = None):
        self.agent = Agent(role=role, goal="g", backstory="b", tools=tools if tools else [])


class Cashier(BaseAgent):
    def __init__(self):
        super().__init__(role="cashier", tools={tools})
'''


@pytest.mark.parametrize("tools, reported", [("[charge_card, StrictTax()]", True), ("[lookup_rate, StrictTax()]", False)])
def test_tools_passed_through_super_init_to_a_base_class_agent(codes, tools, reported):
    text = HEAD + BASE_AGENT.format(tools=tools)
    assert bool(only(codes(text), "SIB301")) is reported
