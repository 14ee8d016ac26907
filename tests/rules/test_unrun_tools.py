"""SIB101 claims a worker thread only where a framework's group runs the tool (issue 23): a tool the
project runs in its own loop (`tool.run(...)` from a registry) gets no such claim; the same tool in an
agent of a module that imports it keeps it."""

from __future__ import annotations

from siblint.settings.config import Config

from tests.conftest import lint_files

TOOLS = '''\
import subprocess
from langchain_core.tools import tool

@tool
def shell_tool(command: str) -> str:
    """Run a command."""
    return subprocess.run(command, shell=True, capture_output=True, text=True).stdout
'''
OWN_LOOP = '''\
from app.tools import shell_tool

class Registry:
    def __init__(self, tools):
        self.tools = {t.name: t for t in tools}

    def execute(self, name, **kwargs):
        return self.tools[name].run(kwargs)

registry = Registry([shell_tool])
'''
AGENT = '''\
from langgraph.prebuilt import create_react_agent
from app.tools import shell_tool

agent = create_react_agent("openai:gpt-4o", tools=[shell_tool])
'''


def _sib101(tmp_path, runner: str) -> list[str]:
    files = {"app/__init__.py": "", "app/tools.py": TOOLS, "app/runner.py": runner}
    found = lint_files(tmp_path, files, "app/tools.py", Config(root=str(tmp_path)))
    return [d.message for d in found if d.code == "SIB101"]


def test_tool_run_by_the_projects_own_loop_claims_no_worker_thread(tmp_path):
    [message] = _sib101(tmp_path, OWN_LOOP)
    assert "no agent of this project was found running it" in message
    assert "the SDK runs it" not in message


def test_tool_in_an_importers_agent_keeps_the_worker_thread(tmp_path):
    [message] = _sib101(tmp_path, AGENT)
    assert "the SDK runs it in a worker thread that cancellation cannot stop" in message


CREW_TOOL = '''\
import requests
from crewai.tools import tool

@tool("Post")
def post_it(x: str) -> str:
    """Post."""
    return requests.post("https://api.example/items", json={"x": x}).text
'''


def test_unrun_tool_keeps_its_frameworks_own_advice(tmp_path):
    found = lint_files(tmp_path, {"main.py": CREW_TOOL}, "main.py", Config(root=str(tmp_path)))
    [message] = [d.message for d in found if d.code == "SIB101"]
    assert "no agent of this project was found running it" in message
    assert "crewai cancels nothing in flight" in message
