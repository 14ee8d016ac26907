"""A group's fatal setting over tools of another module (auth0-assistant0 in evalQ2, UiPath in the
corpus: `create_react_agent(llm, tools=ToolNode(tools, handle_tool_errors=False))` in the agent's
module, the tools in their own): each such tool's errors end the run, and its module does not say
so. SIB201 is reported at the setting and at each tool's def there; a group of the tool's own module
is reported at its setting alone (the reader sees it)."""

from __future__ import annotations

import textwrap

from siblint.settings.config import Config
from support import cli_findings, write

TOOLS = """\
    import httpx
    from langchain_core.tools import StructuredTool, tool


    def with_audit(t):
        return t


    @tool
    def lookup(q: str) -> str:
        \"\"\"Look up.\"\"\"
        return q


    async def book_fn(slot: str) -> str:
        async with httpx.AsyncClient() as c:
            return (await c.post("https://cal.example.com/events", json={"slot": slot})).text


    book = with_audit(StructuredTool(name="book", description="Book.", coroutine=book_fn))
"""
AGENT = """\
    from langgraph.prebuilt import ToolNode, create_react_agent

    from tools import book, lookup

    agent = create_react_agent("m", tools=ToolNode([lookup, book], handle_tool_errors={flag}))
"""


def _found(tmp_path, flag: str, extra: list[str] | None = None) -> list[tuple[str, int, str]]:
    write(tmp_path, {"tools.py": textwrap.dedent(TOOLS), "agent.py": textwrap.dedent(AGENT.format(flag=flag))})
    return sorted((f[0], f[1], f[4]) for f in cli_findings([*(extra or []), "."], tmp_path) if f[3] == "SIB201")


def test_each_tool_of_a_fatal_group_elsewhere_is_reported_at_its_def(tmp_path):
    found = _found(tmp_path, "False", ["--no-cache"])
    assert [(p, line) for p, line, _ in found] == [("agent.py", 5), ("tools.py", 10), ("tools.py", 15)]
    assert found[1][2].startswith("handle_tool_errors=False on agent (agent.py:5), which runs lookup: this tool's errors end the run")
    assert "which runs book:" in found[2][2]  # a StructuredTool(...) handed to a wrapper is the tool bound


def test_a_default_handler_reports_nothing_at_the_tools(tmp_path):
    assert _found(tmp_path, "True", ["--no-cache"]) == []


def test_a_warm_run_follows_the_setting_in_the_other_module(tmp_path):
    cache = ["--cache-dir", str(tmp_path.parent / f"{tmp_path.name}-cache")]
    assert len(_found(tmp_path, "False", cache)) == 3
    assert _found(tmp_path, "True", cache) == []  # only agent.py changed: tools.py's findings are re-checked
    assert len(_found(tmp_path, "False", cache)) == 3


def test_a_group_in_the_tools_own_module_is_reported_at_its_setting_alone(lint, tmp_path):
    text = textwrap.dedent(TOOLS) + textwrap.dedent(AGENT.format(flag="False")).replace("from tools import book, lookup\n", "")
    found = [(d.code, d.loc.line) for d in lint(text, None, Config(root=str(tmp_path))) if d.code == "SIB201"]
    assert found == [("SIB201", text.count("\n"))]


def test_a_structured_tool_made_by_its_constructor_is_a_tool(lint, tmp_path):
    text = textwrap.dedent("""\
        import requests
        from langchain_core.tools import StructuredTool

        def charge_fn(amount: int) -> str:
            return requests.post("https://pay.example.com/charges", json={"a": amount}).text

        charge = StructuredTool(name="charge", description="Charge.", func=charge_fn)
    """)
    assert [(d.code, d.loc.line) for d in lint(text, None, Config(root=str(tmp_path)))] == [("SIB101", 4)]


def test_a_tool_handed_through_nested_wrappers_is_the_tool_bound(tmp_path):
    """scope0 (a blind set): `create_issue_tool = with_github(with_issue_approval(StructuredTool(...)))`,
    Auth0's Token Vault around its CIBA approval: the tool the outer name binds is a member."""
    nested = textwrap.dedent(TOOLS).replace("book = with_audit(StructuredTool(", "book = with_audit(with_audit(StructuredTool(") + ")\n"
    write(tmp_path, {"tools.py": nested, "agent.py": textwrap.dedent(AGENT.format(flag="False"))})
    found = sorted((f[0], f[1]) for f in cli_findings(["--no-cache", "."], tmp_path) if f[3] == "SIB201")
    assert found == [("agent.py", 5), ("tools.py", 10), ("tools.py", 15)]  # 15: book's def, a member
