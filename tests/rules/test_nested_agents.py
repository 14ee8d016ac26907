"""A tool that runs another agent (issue 23) performs what that agent's tools do: prebuilt tools
(`strands_tools.shell`) and the project's own tools, whether the agent is called (`sub(prompt)`)
or run by a framework's run method. Each shape beside its read-only twin."""

from __future__ import annotations

import textwrap

import pytest

from siblint.settings.config import Config

STRANDS = """\
    from strands import Agent, tool
    from strands_tools import {members}

    @tool
    def code_writer(code: str) -> str:
        writer = Agent(system_prompt="Write the files.", tools=[{members}])
        writer(f"Write this code:\\n{{code}}")
        return "done"
"""

PYDANTIC = """\
    import requests
    from pydantic_ai import Agent

    helper = Agent("openai:gpt-4o")

    @helper.tool_plain
    def file_ticket(title: str) -> str:
        return requests.{verb}("https://tickets.example/api/issues", json={{"title": title}}).text

    sub = Agent("openai:gpt-4o", tools=[file_ticket])
    boss = Agent("openai:gpt-4o")

    @boss.tool_plain
    def delegate(task: str) -> str:
        return sub.run_sync(task).output
"""


def _sib101(lint, tmp_path, text: str) -> dict[int, str]:
    found = lint(textwrap.dedent(text), None, Config(root=str(tmp_path)))
    return {d.loc.line: d.message for d in found if d.code == "SIB101"}


def test_a_tool_running_an_agent_of_prebuilt_writers(lint, tmp_path):
    found = _sib101(lint, tmp_path, STRANDS.format(members="shell, file_write"))
    assert list(found) == [5]
    assert "shell (runs shell commands)" in found[5]


def test_a_tool_running_an_agent_of_prebuilt_readers_is_quiet(lint, tmp_path):
    assert _sib101(lint, tmp_path, STRANDS.format(members="file_read")) == {}


def test_a_tool_running_an_agent_of_project_tools(lint, tmp_path):
    found = _sib101(lint, tmp_path, PYDANTIC.format(verb="post"))
    assert 14 in found and "POST to https://tickets.example/api/issues via requests in file_ticket" in found[14]


def test_a_tool_running_an_agent_of_project_readers_is_quiet(lint, tmp_path):
    assert 14 not in _sib101(lint, tmp_path, PYDANTIC.format(verb="get"))


SUPERVISOR = """\
    import json
    import boto3
    from strands import tool

    lambda_client = boto3.client("lambda")

    @tool
    def budget_agent(query: str) -> str:
        r = lambda_client.invoke(FunctionName="{name}", InvocationType="RequestResponse",
                                 Payload=json.dumps({{"query": query}}))
        return r["Payload"].read().decode()
"""

HANDLER = {"budget_management_agent/lambda_handler.py": """\
    import boto3

    def lambda_handler(event, context):
        budgets = boto3.client("budgets")
        found = budgets.describe_budgets(AccountId="1")
        {write}
        return {{"body": str(found)}}
"""}


def test_lambda_sub_agent_of_this_repository_that_only_reads_is_quiet(lint, tmp_path):
    files = {k: v.format(write="pass") for k, v in HANDLER.items()}
    found = lint(textwrap.dedent(SUPERVISOR.format(name="budget-management-agent:PROD")),
                 {k: textwrap.dedent(v) for k, v in files.items()}, Config(root=str(tmp_path)))
    assert [d for d in found if d.code == "SIB101"] == []


def test_lambda_sub_agent_of_this_repository_that_writes(lint, tmp_path):
    files = {k: v.format(write='budgets.create_budget(AccountId="1", Budget={})') for k, v in HANDLER.items()}
    found = lint(textwrap.dedent(SUPERVISOR.format(name="budget-management-agent")),
                 {k: textwrap.dedent(v) for k, v in files.items()}, Config(root=str(tmp_path)))
    [message] = [d.message for d in found if d.code == "SIB101"]
    assert "budgets.create_budget (AWS) in lambda_handler" in message


def test_lambda_function_of_another_deployment_stays_an_effect(lint, tmp_path):
    files = {k: v.format(write="pass") for k, v in HANDLER.items()}
    found = lint(textwrap.dedent(SUPERVISOR.format(name="billing-service")),
                 {k: textwrap.dedent(v) for k, v in files.items()}, Config(root=str(tmp_path)))
    [message] = [d.message for d in found if d.code == "SIB101"]
    assert "lambda_client.invoke (AWS)" in message


FACTORY = """\
    import requests
    from langchain.agents import create_agent
    from langchain.tools import tool

    def make_payments_agent():
        @tool
        def charge(amount: int) -> str:
            \"\"\"Charge the card.\"\"\"
            requests.{verb}("https://pay.example.com/charges", json={{"amount": amount}}, timeout=10)
            return "charged"

        return create_agent(model="openai:gpt-4o", tools=[charge])

    payments = make_payments_agent()

    @tool
    def pay_event(request: str) -> str:
        \"\"\"Hand a payment request to the payments agent.\"\"\"
        return payments.invoke({{"messages": [{{"role": "user", "content": request}}]}})
"""


def test_a_tool_running_an_agent_a_project_factory_made(lint, tmp_path):
    found = lint(textwrap.dedent(FACTORY.format(verb="post")), config=Config(root=str(tmp_path), select=("SIB101",)))
    assert sorted(d.loc.line for d in found) == [7, 17]
    quiet = lint(textwrap.dedent(FACTORY.format(verb="get")), config=Config(root=str(tmp_path), select=("SIB101",)))
    assert quiet == []


WRITER = """\
    import requests
    from strands import Agent, tool

    @tool
    def save(note: str) -> str:
        requests.{verb}("https://notes.example/api", json={{"note": note}})
        return "saved"

    def make_writer():
        writer = Agent(tools=[save])
        return writer

    writer = Agent(tools=[save])
"""


@pytest.mark.parametrize("runner, main", [
    ("make_writer()(query)", "from app.agents import make_writer\n"),  # a factory returning a name bound to the agent
    ("writer(query)", "from app.agents import writer\n"),  # an agent of another module
])
def test_a_tool_running_an_agent_made_elsewhere(lint, tmp_path, runner, main):
    text = main + f"from strands import tool\n\n@tool\ndef delegate(query: str) -> str:\n    return str({runner})\n"
    for verb, reported in (("post", [5]), ("get", [])):
        files = {"app/__init__.py": "", "app/agents.py": textwrap.dedent(WRITER.format(verb=verb))}
        found = lint(text, files, Config(root=str(tmp_path), select=("SIB101",)))
        assert [d.loc.line for d in found] == reported


SUPERVISED = """\
    import requests
    from langchain.agents import create_agent
    from langchain.tools import tool

    @tool
    def save(note: str) -> str:
        \"\"\"Save.\"\"\"
        try:
            requests.post("https://notes.example/api", json={{"note": note}})
        except Exception as e:
            return f"failed: {{e}}"
        return "saved"

    writer = create_agent(model="openai:gpt-4o", tools=[save])
    reader = create_agent(model="openai:gpt-4o", tools=[])

    @tool
    def delegate(query: str) -> str:
        \"\"\"Ask the {agent} agent.\"\"\"
        {body}

    supervisor = create_agent(model="openai:gpt-4o", tools=[delegate, save])
"""


@pytest.mark.parametrize("agent, body, reported", [
    ("reader", "return str(reader.invoke({'messages': [query]}))", True),  # its model call can raise
    ("reader", "try:\n        return str(reader.invoke({'messages': [query]}))\n    except Exception:\n"
               "        return 'unavailable'", False),
])
def test_a_tool_running_another_agent_can_fail_as_that_agents_model_call_can(lint, tmp_path, agent, body, reported):
    text = textwrap.dedent(SUPERVISED).format(agent=agent, body=body)
    compile(text, "main.py", "exec")  # both shapes are valid Python: the quiet one is quiet for its try
    found = lint(text, config=Config(root=str(tmp_path), select=("SIB301",)))
    assert bool(found) is reported


def test_an_async_tool_awaiting_an_agent_with_a_sync_writer_hands_it_to_a_thread(lint, tmp_path):
    # evalT1's smart_csv_agent: an async tool awaits a sub-agent whose sync tool the framework runs
    # in a worker thread; cancelling the await leaves that thread writing (SIB102), and the outer
    # tool is not itself sync (it was reported as "is sync", SIB101).
    text = textwrap.dedent("""\
        import requests
        from pydantic_ai import Agent

        helper = Agent("openai:gpt-4o")

        @helper.tool_plain
        def file_ticket(title: str) -> str:
            return requests.post("https://tickets.example/api/issues", json={"title": title}).text

        sub = Agent("openai:gpt-4o", tools=[file_ticket])
        boss = Agent("openai:gpt-4o")

        @boss.tool_plain
        async def delegate(task: str) -> str:
            return (await sub.run(task)).output
    """)
    found = lint(text, None, Config(root=str(tmp_path)))
    assert [(d.code, d.loc.line) for d in found if d.code in ("SIB101", "SIB102")] == [("SIB101", 7), ("SIB102", 14)]
    [message] = [d.message for d in found if d.code == "SIB102"]
    assert "delegate hands POST to https://tickets.example/api/issues via requests in file_ticket" in message
