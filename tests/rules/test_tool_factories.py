"""Tools made by a factory function (`def make(spec) -> FunctionTool: ... return FunctionTool(...)`)
and lists of them built by a comprehension, and chat models returned by a helper: the fatal
setting, the group and the failure they carry, each beside its benign twin."""

from __future__ import annotations

import pytest
from support import code_lines

FACTORY = """\
from agents import Agent, FunctionTool
import requests


class Registry:
    def names(self):
        return ["move", "dig"]

    def get(self, name):
        return name


def drive_body(spec, params):
    return requests.post("https://body.example.com/act", json=params).json()


def tool_for(spec) -> FunctionTool:
    async def on_invoke_tool(ctx, input_json: str):
{body}
    return FunctionTool(
        name=spec,
        description="",
        params_json_schema={{}},
        on_invoke_tool=on_invoke_tool,
    )


class Runtime:
    def __init__(self, registry: Registry):
        self.registry = registry
        self.agent = Agent(
            name="bot",
            tools=[tool_for(self.registry.get(name)) for name in self.registry.names()],
        )
"""
RAISES = """\
        result = drive_body(spec, input_json)
        if result.get("lost"):
            raise RuntimeError("body recovery required")
        return result"""
GUARDED = """\
        try:
            return drive_body(spec, input_json)
        except Exception as exc:
            return {"error": str(exc)}"""
def line_of(text: str, fragment: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if fragment in line)


INVOKER_LINE = line_of(FACTORY.format(body=RAISES), "on_invoke_tool=on_invoke_tool")
AGENT_LINE = line_of(FACTORY.format(body=RAISES), "tools=[tool_for(")


def codes(found: list[tuple[str, int]]) -> set[str]:
    return {code for code, _ in found}


@pytest.fixture
def found(lint, tmp_path):
    return code_lines(lint, tmp_path, ("SIB103", "SIB204", "SIB301"))


def test_a_factory_invoker_named_like_the_attribute_is_a_raw_invoker(found):
    # `async def on_invoke_tool` local to the factory is the tool's own invoker, not another tool's
    # `.on_invoke_tool` (which carries that tool's handler).
    assert ("SIB204", INVOKER_LINE) in found(FACTORY.format(body=RAISES))


def test_a_factory_invoker_that_catches_everything_is_not_fatal(found):
    assert "SIB204" not in codes(found(FACTORY.format(body=GUARDED)))


def test_another_tools_invoker_is_still_borrowed(found):
    text = FACTORY.format(body=RAISES).replace(
        "        on_invoke_tool=on_invoke_tool,", "        on_invoke_tool=BASE.on_invoke_tool,")
    assert "SIB204" not in codes(found(text))


def test_a_comprehension_of_factory_calls_lists_the_tools_the_factory_makes(found):
    # Every member is the same fatal invoker that blocks on the body: it outlives its own failure.
    assert ("SIB301", AGENT_LINE) in found(FACTORY.format(body=RAISES))


def test_a_comprehension_of_guarded_factory_tools_is_no_mix(found):
    assert "SIB301" not in codes(found(FACTORY.format(body=GUARDED)))


def test_a_comprehension_of_plain_calls_is_no_group(found):
    text = FACTORY.format(body=RAISES).replace(
        "tools=[tool_for(self.registry.get(name)) for name in self.registry.names()]",
        "tools=[str(name) for name in self.registry.names()]")
    assert "SIB301" not in codes(found(text))


CHAT_TOOLS = """\
import os
from langchain.tools import tool
from langchain_openai import ChatOpenAI


def _get_llm():
    return ChatOpenAI(model="gpt-4o")


@tool
def consume_upload(path: str) -> str:
    \"\"\"Read and delete an upload.\"\"\"
    try:
        os.remove(path)
    except Exception:
        return "skipped"
    return "ok"


@tool
def expand_node(node_id: str) -> str:
    \"\"\"Ask the model about a node.\"\"\"
    llm = _get_llm()
{call}


knowledge_tools = [consume_upload, expand_node]
"""
UNGUARDED = "    return llm.invoke(f'expand {node_id}').content"
CAUGHT = """\
    try:
        return llm.invoke(f'expand {node_id}').content
    except Exception as exc:
        return str(exc)"""
AGENT = "from langchain.agents import create_agent\nfrom tools import knowledge_tools\n\nagent = create_agent(model='m', tools=knowledge_tools)\n"


def test_a_chat_model_returned_by_a_helper_can_fail_in_a_default_fatal_group(found):
    # langchain 1.x create_agent re-raises tool errors; the model call can fail, the upload is gone.
    assert ("SIB301", 4) in found(AGENT, {"tools.py": CHAT_TOOLS.format(call=UNGUARDED)})


def test_a_chat_model_call_inside_try_except_is_no_fatal_failure(found):
    assert not found(AGENT, {"tools.py": CHAT_TOOLS.format(call=CAUGHT)})


WRAPPED = """\
import requests
from langchain_core.tools import StructuredTool


def traced(name, fn):
    def run(**kwargs):
        return fn(**kwargs)
    return run


def create_ticket(title: str) -> str:
    requests.post("https://desk.example.com/tickets", json={"title": title})
    return "ok"


def search(q: str) -> str:
    return requests.get("https://desk.example.com/search", params={"q": q}).text


ticket_tool = StructuredTool.from_function(func=traced("create_ticket", create_ticket), name="create_ticket")
search_tool = StructuredTool.from_function(func=traced("search", search), name="search")
"""


def test_a_tool_function_handed_to_a_wrapper_is_the_tools(lint, tmp_path):
    """`func=traced(name, create_ticket)`: the wrapper's result runs the function it is handed."""
    found = code_lines(lint, tmp_path, ("SIB101",))(WRAPPED)
    assert found == [("SIB101", line_of(WRAPPED, "def create_ticket"))]
