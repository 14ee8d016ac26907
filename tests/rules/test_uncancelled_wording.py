"""SIB201/SIB202 say what happens to the siblings in the module's framework: cancelled where the
framework cancels calls in flight (the OpenAI Agents SDK), finishing unrecorded where it cancels
nothing (haystack, semantic-kernel, crewai: their runtime tests show the charge landing after the
raise)."""

from __future__ import annotations

from siblint.settings.config import Config
from tests.frameworks import test_haystack as haystack
from tests.frameworks import test_semantic_kernel as sk


def _messages(lint, tmp_path, text: str, code: str) -> list[str]:
    found = lint(text, None, Config(root=str(tmp_path), select=(code,)))
    return [d.message + " | " + d.concise for d in found if d.code == code]


def test_openai_agents_sdk_cancels_its_siblings(lint, tmp_path):
    text = ("from agents import function_tool\n\n@function_tool(failure_error_function=None)\n"
            "async def f() -> str:\n    return 'x'\n")
    [message] = _messages(lint, tmp_path, text, "SIB201")
    assert "cancel every sibling call" in message and "unrecorded" not in message


def test_haystack_siblings_finish_unrecorded(lint, tmp_path):
    [message] = _messages(lint, tmp_path, haystack.HEAD + haystack._agent(), "SIB201")
    assert "finishes unrecorded" in message and "cancel" not in message


def test_crewai_siblings_finish_unrecorded(lint, tmp_path):
    text = ("from crewai import Agent\n\nshop = Agent(role='r', goal='g', backstory='b', tools=tools, "
            "tool_failure_policy='raise')\n")
    [message] = _messages(lint, tmp_path, text, "SIB201")
    assert "unrecorded" in message and "cancel" not in message


def test_semantic_kernel_filter_siblings_finish_unrecorded(lint, tmp_path):
    [message] = _messages(lint, tmp_path, sk.IMPORTS + sk.PLUGIN + sk.ABORT + sk._kernel() + sk.AGENT, "SIB202")
    assert "unrecorded" in message and "cancel" not in message
