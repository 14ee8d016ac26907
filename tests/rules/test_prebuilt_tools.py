"""Prebuilt tools of tool packages (issue 23): members of a group that SIB301 sees, and their
effect when a project tool runs one by hand. Each beside its read-only twin."""

from __future__ import annotations

import textwrap

import pytest
from siblint.frameworks.prebuilt import prebuilt
from siblint.settings.config import Config


@pytest.fixture
def codes(lint, tmp_path):
    """codes(text) -> [(code, line, message)] of every finding in main.py."""

    def run(text: str) -> list[tuple[str, int, str]]:
        found = lint(textwrap.dedent(text), None, Config(root=str(tmp_path)))
        return [(d.code, d.loc.line, d.message) for d in found]

    return run


STRANDS = """\
    from strands import Agent, tool
    from strands.hooks import AfterToolCallEvent
    from strands_tools import {tools}

    def reraise(event: AfterToolCallEvent):
        if event.exception:
            raise event.exception

    @tool
    async def lookup(q: str) -> str:
        raise RuntimeError("down")

    agent = Agent(tools=[{tools}, lookup], hooks=[reraise])
"""


def test_strands_tools_beside_a_fatal_tool(codes):
    mixed = [c for c in codes(STRANDS.format(tools="shell, file_write")) if c[0] == "SIB301"]
    assert [(code, line) for code, line, _ in mixed] == [("SIB301", 13)]
    assert mixed[0][2].startswith(
        "shell and file_write (sync, strands_tools.shell runs shell commands) can outlive lookup's fatal failure")


def test_read_only_strands_tools_beside_a_fatal_tool(codes):
    assert [c for c in codes(STRANDS.format(tools="calculator, current_time")) if c[0] == "SIB301"] == []


LANGGRAPH = """\
    from langchain_community.agent_toolkits import FileManagementToolkit
    from langchain_community.tools import {tool}
    from langchain_core.tools import tool
    from langgraph.prebuilt import ToolNode

    @tool
    async def lookup_tax(region: str) -> str:
        \"\"\"Tax.\"\"\"
        raise RuntimeError("tax service down")

    node = ToolNode([{tool}(), lookup_tax])
    kit = FileManagementToolkit(root_dir="/srv/files")
    files = ToolNode([*kit.{method}(), lookup_tax])
"""


def test_langchain_tool_object_and_toolkit_beside_a_fatal_tool(codes):
    mixed = [(code, line) for code, line, _ in codes(LANGGRAPH.format(tool="ShellTool", method="get_tools"))
             if code == "SIB301"]
    assert mixed == [("SIB301", 11), ("SIB301", 13)]


def test_langchain_read_only_tool_and_other_method_are_quiet(codes):
    # A search tool writes nothing; `get_tool_names()` is no list of tools.
    assert [c for c in codes(LANGGRAPH.format(tool="DuckDuckGoSearchRun", method="get_tool_names"))
            if c[0] == "SIB301"] == []


IN_A_TOOL = """\
    from crewai.tools import tool
    from langchain_community.tools.gmail import {cls}
    from langchain_community.agent_toolkits import GmailToolkit

    @tool("Create Draft")
    def create_draft(data: str) -> str:
        \"\"\"Draft an email.\"\"\"
        to, subject, body = data.split("|")
        return str({cls}(api_resource=GmailToolkit().api_resource)({{"to": [to], "message": body}}))

    @tool("Create Draft by run")
    def create_draft_run(data: str) -> str:
        \"\"\"Draft an email.\"\"\"
        gmail = {cls}(api_resource=GmailToolkit().api_resource)
        return gmail.run({{"message": data}})

    @tool("Create Draft by name")
    def create_draft_named(data: str) -> str:
        \"\"\"Draft an email.\"\"\"
        draft = {cls}(api_resource=GmailToolkit().api_resource)
        return str(draft({{"message": data}}))
"""


def test_prebuilt_tool_run_inside_a_project_tool(codes):
    found = [(code, line, msg) for code, line, msg in codes(IN_A_TOOL.format(cls="GmailCreateDraft"))
             if code.startswith("SIB1")]
    assert [(code, line) for code, line, _ in found] == [("SIB101", 6), ("SIB101", 12), ("SIB101", 18)]
    assert "GmailCreateDraft (creates a Gmail draft)" in found[0][2]


def test_read_only_prebuilt_tool_run_inside_a_project_tool_is_quiet(codes):
    assert [c for c in codes(IN_A_TOOL.format(cls="GmailSearch")) if c[0].startswith("SIB1")] == []


@pytest.mark.parametrize("name, effect", [
    ("strands_tools.shell", "runs shell commands"),
    ("strands_tools.shell.shell", "runs shell commands"),
    ("langchain_community.tools.gmail.send_message.GmailSendMessage", "sends an email"),
    ("crewai_tools.FileWriterTool", "writes a file"),
])
def test_names_match_by_package_and_last_part(name, effect):
    found = prebuilt(name)
    assert found is not None and found.effect == effect


@pytest.mark.parametrize("name", ["strands_tools.calculator", "myapp.shell", "shell", "crewai_tools.SerperDevTool"])
def test_unlisted_names_are_not_prebuilt(name):
    assert prebuilt(name) is None
