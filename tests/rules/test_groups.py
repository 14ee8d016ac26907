"""SIB301: which tools form a concurrent group, across spellings and modules, and when it is capped."""

from __future__ import annotations

import pytest
from siblint.settings.config import Config
from support import CHECKOUT_TOOLS

TOOLS = CHECKOUT_TOOLS + """
@function_tool
async def lookup_rate(region: str) -> str:
    return "0.2"
"""

HEAD = TOOLS + "from agents import Agent, Runner, RunConfig, ToolExecutionConfig, ModelSettings\n"
FIRST = HEAD.count("\n") + 1  # the first line after HEAD


def sib301(lint, text: str, files: dict[str, str] | None = None, tmp_path=None):
    found = lint(text, files, Config(root=str(tmp_path), select=("SIB301",)))
    return [d for d in found if d.code == "SIB301"]


@pytest.fixture
def groups(lint, tmp_path):
    return lambda text, files=None: sib301(lint, text, files, tmp_path)


def test_agent_tools_keyword_mix_is_reported_at_tools_argument(groups):
    found = groups(HEAD + "agent = Agent(name='checkout', tools=[charge_card, lookup_tax])\n")
    assert [(d.loc.line, d.loc.col) for d in found] == [(FIRST, 37)]
    msg = found[0].message
    assert "charge_card" in msg and "lookup_tax" in msg and "failure_error_function=None" in msg
    assert "max_function_tool_concurrency=1" in msg
    # Related locations point at both tools: the fatal argument and the victim's def and effect.
    lines = [r.loc.line for r in found[0].related]
    assert 9 in lines and 5 in lines and 6 in lines


def test_positional_tools_index_2(groups):
    assert groups(HEAD + "agent = Agent('checkout', None, [charge_card, lookup_tax])\n")


def test_handoffs_are_not_members(groups):
    text = HEAD + "other = Agent(name='o', tools=[lookup_tax])\nagent = Agent(name='a', tools=[charge_card], handoffs=[other])\n"
    assert groups(text) == []


def test_list_constant_and_spread(groups):
    text = HEAD + "BASE = [charge_card]\nagent = Agent(name='a', tools=[*BASE, lookup_tax])\n"
    assert [d.loc.line for d in groups(text)] == [FIRST + 1]
    text = HEAD + "ALL = [charge_card] + [lookup_tax]\nagent = Agent(name='a', tools=ALL)\n"
    assert [d.loc.line for d in groups(text)] == [FIRST + 1]


def test_a_member_listed_through_an_alias(groups):
    text = HEAD + "pay = charge_card\nalso = pay\nagent = Agent(name='a', tools=[also, lookup_tax])\n"
    assert [d.loc.line for d in groups(text)] == [FIRST + 2]
    # An alias bound in a function, the list built there too.
    text = HEAD + "def build():\n    pay = charge_card\n    return Agent(name='a', tools=[pay, lookup_tax])\n"
    assert [d.loc.line for d in groups(text)] == [FIRST + 2]
    # Aliases that only name each other end without a member.
    text = HEAD + "a = b\nb = a\nagent = Agent(name='a', tools=[a, lookup_tax])\n"
    assert groups(text) == []


@pytest.mark.parametrize("tools", [
    "[charge_card if ONLINE else lookup_rate, lookup_tax]",  # a member chosen by a setting
    "[charge_card, lookup_tax] if ONLINE else []",
    "[lookup_tax, *([charge_card] if ONLINE else [])]",
    "EXTRA or [charge_card, lookup_tax]",
])
def test_a_conditional_tools_list_holds_either_arm(groups, tools):
    text = HEAD + f"ONLINE = EXTRA = None\nagent = Agent(name='a', tools={tools})\n"
    assert [d.loc.line for d in groups(text)] == [FIRST + 1]
    # The arm not taken alone holds no mix.
    quiet = tools.replace("charge_card", "lookup_rate")
    assert groups(HEAD + f"ONLINE = EXTRA = None\nagent = Agent(name='a', tools={quiet})\n") == []


@pytest.mark.parametrize(
    "mutation",
    [
        "agent.tools = [charge_card, lookup_tax]",
        "agent.tools += [lookup_tax]",
        "agent.tools.append(lookup_tax)",
        "agent.tools.extend([lookup_tax])",
    ],
)
def test_mutation_that_completes_the_mix_is_reported(groups, mutation):
    text = HEAD + f"agent = Agent(name='a', tools=[charge_card])\n{mutation}\n"
    assert [d.loc.line for d in groups(text)] == [FIRST + 1]


def test_replacing_tools_can_remove_the_mix(groups):
    text = HEAD + "agent = Agent(name='a', tools=[charge_card, lookup_tax])\nagent.tools = [lookup_rate]\n"
    # The mix existed between construction and replacement: reported where it was made.
    assert [d.loc.line for d in groups(text)] == [FIRST]


def test_clone_with_tools_is_a_new_group_and_clone_without_keeps_them(groups):
    text = HEAD + "base = Agent(name='a', tools=[charge_card])\nmixed = base.clone(tools=[charge_card, lookup_tax])\n"
    assert [d.loc.line for d in groups(text)] == [FIRST + 1]
    text = HEAD + "base = Agent(name='a', tools=[charge_card, lookup_tax])\ncopy = base.clone(name='b')\n"
    assert [d.loc.line for d in groups(text)] == [FIRST]  # once, not again at the clone


def test_a_tool_is_its_own_sibling(groups):
    text = """\
import requests
from agents import Agent, function_tool

@function_tool(failure_error_function=None)
def charge_card(amount: int) -> str:
    requests.post("https://payments.example.com/charges", json={"amount": amount})
    return "charged"

agent = Agent(name="a", tools=[charge_card])
"""
    found = groups(text)
    assert [d.loc.line for d in found] == [9]
    assert found[0].message.count("charge_card") >= 2


def test_concurrency_cap_on_every_run_makes_group_safe(groups):
    base = HEAD + "agent = Agent(name='a', tools=[charge_card, lookup_tax])\n"
    capped = [
        "Runner.run_sync(agent, 'hi', run_config=RunConfig(tool_execution=ToolExecutionConfig(max_function_tool_concurrency=1)))",
        "Runner.run_sync(agent, 'hi', run_config=RunConfig(tool_execution={'max_function_tool_concurrency': 1}))",
        "Runner.run_sync(agent, 'hi', run_config={'tool_execution': {'max_function_tool_concurrency': 1}})",
        "cfg = RunConfig(tool_execution=ToolExecutionConfig(max_function_tool_concurrency=1))\nRunner.run_sync(agent, 'x', run_config=cfg)",
    ]
    for run in capped:
        assert groups(base + run + "\n") == [], run
    # One uncapped run keeps it concurrent.
    mixed = base + capped[0] + "\nRunner.run_streamed(agent, 'hi')\n"
    assert [d.loc.line for d in groups(mixed)] == [FIRST]


def test_parallel_tool_calls_false_is_only_a_hint(groups):
    text = HEAD + (
        "agent = Agent(name='a', tools=[charge_card, lookup_tax], "
        "model_settings=ModelSettings(parallel_tool_calls=False))\n"
    )
    found = groups(text)
    assert len(found) == 1 and "only a provider hint" in found[0].message


def test_groups_inside_functions(groups):
    text = HEAD + "def build():\n    agent = Agent(name='a', tools=[charge_card, lookup_tax])\n    return agent\n"
    assert [d.loc.line for d in groups(text)] == [FIRST + 1]


def test_look_alikes_are_not_groups(groups):
    text = TOOLS + "def Agent(**kw):\n    return kw\n\nagent = Agent(name='a', tools=[charge_card, lookup_tax])\n"
    assert groups(text) == []
    text = TOOLS + "from mylib import Agent\nagent = Agent(name='a', tools=[charge_card, lookup_tax])\n"
    assert groups(text) == []


AGENT_MODULE_REL = "from agents import Agent\nfrom .tools import charge_card, lookup_tax\n\nagent = Agent(name='a', tools=[charge_card, lookup_tax])\n"


def test_cross_module_relative_import(groups):
    found = groups(AGENT_MODULE_REL, {"__init__.py": "", "tools.py": TOOLS})
    assert [d.loc.line for d in found] == [4]
    assert any(r.path.endswith("tools.py") for r in found[0].related)


def test_cross_module_absolute_import_and_reexport(lint, tmp_path):
    files = {
        "app/__init__.py": "",
        "app/tools/__init__.py": "from .payments import charge_card\nfrom .tax import lookup_tax\n",
        "app/tools/payments.py": TOOLS.split("@function_tool(failure_error_function=None)")[0],
        "app/tools/tax.py": "from agents import function_tool\n\n@function_tool(failure_error_function=None)\nasync def lookup_tax(region: str) -> str:\n    return '0.2'\n",
        "app/agent.py": "from agents import Agent\nfrom app.tools import charge_card, lookup_tax\nimport app.tools as t\n\n"
        "a1 = Agent(name='a', tools=[charge_card, lookup_tax])\na2 = Agent(name='b', tools=[t.charge_card, t.lookup_tax])\n",
    }
    from conftest import lint_files

    found = [d for d in lint_files(tmp_path, files, "app/agent.py", Config(root=str(tmp_path), select=("SIB301",)))]
    assert [d.loc.line for d in found] == [5, 6]


def test_tools_list_in_another_module(groups):
    files = {"__init__.py": "", "tools.py": TOOLS + "\nALL_TOOLS = [charge_card, lookup_tax]\n"}
    text = "from agents import Agent\nfrom .tools import ALL_TOOLS\n\nagent = Agent(name='a', tools=ALL_TOOLS)\n"
    assert [d.loc.line for d in groups(text, files)] == [4]


def test_inline_function_tool_call_form(groups):
    text = """\
import requests
from agents import Agent, function_tool

def charge_card(amount: int) -> str:
    requests.post("https://payments.example.com/charges", json={"amount": amount})
    return "charged"

async def lookup_tax(region: str) -> str:
    return "0.2"

agent = Agent(name="a", tools=[function_tool(charge_card), function_tool(lookup_tax, failure_error_function=None)])
"""
    assert [d.loc.line for d in groups(text)] == [11]


def test_one_finding_per_group_names_every_fatal_and_every_unstoppable_tool(groups):
    text = HEAD + (
        "import requests\n\n@function_tool\ndef send_receipt(to: str) -> str:\n"
        "    requests.post('https://mail.example.com/send', json={'to': to})\n    return 'sent'\n\n"
        "@function_tool(timeout=1, timeout_behavior='raise_exception')\nasync def lookup_fx(c: str) -> str:\n"
        "    return '1.0'\n\n"
        "agent = Agent(name='checkout', tools=[charge_card, send_receipt, lookup_tax, lookup_fx, lookup_rate])\n"
    )
    [finding] = groups(text)
    assert finding.message.startswith("charge_card and send_receipt (sync, POST to https://payments.example.com/charges")
    assert "outlive lookup_tax and lookup_fx's fatal failure" in finding.message
    # Each fatal setting, each victim and each side effect is a related location.
    texts = [r.message for r in finding.related]
    assert texts[:2] == ["lookup_tax: failure_error_function=None makes its failure fatal",
                         'lookup_fx: timeout_behavior="raise_exception" makes its failure fatal']
    assert "charge_card's side effect" in texts and "send_receipt's side effect" in texts
    assert "lookup_rate" not in " ".join(texts)


# evalQ1's imovel-match: the agent in one module, its tools registered from another module that
# imports it (`@agent.tool` after `from app.agent import agent`; the agent module imports the
# tools module back, at its end, to register them).
REGISTERED_AGENT = "from pydantic_ai import Agent\n\nagent = Agent('openai:gpt-4o', deps_type=dict)\n\nfrom app import tools  # noqa: E402\n"
REGISTERED_TOOLS = """\
import requests
from pydantic_ai import RunContext
from app.agent import agent


@agent.tool
def book(ctx: RunContext[dict], slot: str) -> str:
    return requests.post("https://visits.example.com/book", json={"slot": slot}).text


@agent.tool_plain
async def slots(day: str) -> str:
    raise KeyError(day)
"""


@pytest.mark.parametrize("target, expected", [("app/tools.py", [("SIB101", 7)]), ("app/agent.py", [("SIB301", 3)])])
def test_tools_registered_on_an_agent_another_module_builds(tmp_path, target, expected):
    from conftest import lint_files

    files = {"app/__init__.py": "", "app/agent.py": REGISTERED_AGENT, "app/tools.py": REGISTERED_TOOLS}
    found = lint_files(tmp_path, files, target, Config(root=str(tmp_path), select=("SIB101", "SIB301")))
    assert [(d.code, d.loc.line) for d in found] == expected


def test_a_decorator_of_another_modules_non_agent_object_makes_no_tool(tmp_path):
    from conftest import lint_files

    files = {"app/__init__.py": "", "app/agent.py": "import click\n\nagent = click.Group()\n",
             "app/tools.py": REGISTERED_TOOLS.replace("from pydantic_ai import RunContext\n", "RunContext = dict\n")}
    assert lint_files(tmp_path, files, "app/tools.py", Config(root=str(tmp_path), select=("SIB101",))) == []


def test_a_helper_a_star_import_brings(tmp_path):
    """evalR2's insurance chatbot: `from .config import *`, then `send_email(...)` in a tool; the
    function is config's. A name no star-imported module defines stays unknown."""
    from conftest import lint_files

    files = {"app/__init__.py": "",
             "app/config.py": "import smtplib\n\ndef send_email(to, body):\n"
                              "    with smtplib.SMTP('localhost') as s:\n        s.sendmail('a@example.com', to, body)\n",
             "app/tools.py": "from .config import *\nfrom langchain_core.tools import tool\n\n\n@tool\n"
                             "def mail(to: str) -> str:\n    \"\"\"Mail.\"\"\"\n    return str(send_email(to, 'x'))\n\n\n@tool\n"
                             "def other(to: str) -> str:\n    \"\"\"Other.\"\"\"\n    return str(send_fax(to, 'x'))\n"}
    found = lint_files(tmp_path, files, "app/tools.py", Config(root=str(tmp_path), select=("SIB101",)))
    assert [(d.code, d.loc.line) for d in found] == [("SIB101", 6)]


def test_a_tools_list_of_functions_a_star_import_brings(tmp_path):
    """evalS2's manager-ai: `from fintrack.services import *`, then `FunctionAgent(tools=[create_transaction])`."""
    from conftest import lint_files

    files = {"fintrack/__init__.py": "",
             "fintrack/services.py": "import requests\n\ndef create_transaction(title: str) -> str:\n"
                                     "    return requests.post('https://ledger.example.com/tx', json={'t': title}).text\n",
             "fintrack/agent.py": "from llama_index.core.agent.workflow import FunctionAgent\nfrom fintrack.services import *\n\n"
                                  "finance_agent = FunctionAgent(name='f', tools=[create_transaction])\n"}
    found = lint_files(tmp_path, files, "fintrack/services.py", Config(root=str(tmp_path), select=("SIB101",)))
    assert [(d.code, d.loc.line) for d in found] == [("SIB101", 3)]

