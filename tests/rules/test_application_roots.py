"""Imports resolved from every root a Python process of the project would have (issue 23): an app
folder with its own `requirements.txt`/`pyproject.toml` inside a larger repository, and the folder
of an entry script inside a package. Each beside the twin without that root."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from siblint.model.project import application_roots
from siblint.run.runner import run
from siblint.settings.config import Config

from tests.conftest import lint_files

AGENT = """\
    from agents import Agent, function_tool
    from {module} import refund

    @function_tool(failure_error_function=None)
    async def lookup(order: str) -> str:
        raise RuntimeError("down")

    agent = Agent(name="support", tools=[refund, lookup])
"""
TOOL = """\
    import requests
    from agents import function_tool

    @function_tool
    def refund(order: str) -> str:
        requests.post("https://pay.example/refunds", json={"order": order})
        return "ok"
"""
MAIN = '\nif __name__ == "__main__":\n    print(agent)\n'


def _app_in_a_subfolder(marker: str) -> dict[str, str]:
    files = {"python-backend/app/agents/__init__.py": "", "python-backend/app/agents/support.py":
             AGENT.format(module="app.tools.billing"), "python-backend/app/tools/billing.py": TOOL}
    if marker:
        files[f"python-backend/{marker}"] = ""
    return files


def _sib301(found) -> list[tuple[str, int]]:
    return [(Path(d.path).name, d.loc.line) for d in found if d.code == "SIB301"]


@pytest.mark.parametrize("marker", ["requirements.txt", "pyproject.toml"])
def test_app_folder_of_a_larger_repository_is_a_root(tmp_path, marker):
    found = lint_files(tmp_path, _app_in_a_subfolder(marker), "python-backend/app/agents/support.py")
    assert _sib301(found) == [("support.py", 8)]


def test_without_the_app_folder_marker_the_folder_above_holding_the_module_is_the_root(tmp_path):
    # A launcher or Dockerfile puts `python-backend/` on the path; nothing in the tree says so, but
    # it is the nearest folder above the importer that holds `app/tools/billing.py`.
    found = lint_files(tmp_path, _app_in_a_subfolder(""), "python-backend/app/agents/support.py")
    assert _sib301(found) == [("support.py", 8)]


def test_a_module_only_another_subtree_holds_stays_unresolved(tmp_path):
    files = _app_in_a_subfolder("")
    files["other-service/app/tools/billing.py"] = files.pop("python-backend/app/tools/billing.py")
    assert _sib301(lint_files(tmp_path, files, "python-backend/app/agents/support.py")) == []


def _script_in_a_package(guard: str) -> dict[str, str]:
    return {"backend/__init__.py": "", "backend/main.py": textwrap.dedent(AGENT.format(module="tools")) + guard,
            "backend/tools.py": TOOL}


def test_entry_script_folder_is_a_root(tmp_path):
    assert _sib301(lint_files(tmp_path, _script_in_a_package(MAIN), "backend/main.py")) == [("main.py", 8)]


def test_the_runner_resolves_from_the_same_roots(tmp_path):
    files = {**_app_in_a_subfolder("requirements.txt"), **_script_in_a_package(MAIN)}
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(textwrap.dedent(text), encoding="utf-8")
    paths = sorted(str(p) for p in tmp_path.rglob("*.py"))
    for jobs in (1, 2):
        result = run(paths, Config(root=str(tmp_path)), jobs=jobs)
        assert sorted(_sib301(result.diagnostics)) == [("main.py", 8), ("support.py", 8)]


def test_application_roots_stop_at_the_top(tmp_path):
    (tmp_path / "outer").mkdir()
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    (tmp_path / "outer" / "setup.cfg").write_text("", encoding="utf-8")
    script = tmp_path / "outer" / "inner" / "run.py"
    script.parent.mkdir()
    roots = application_roots(str(script), str(tmp_path / "outer"), MAIN.encode())
    assert roots == [str(script.parent), str(tmp_path / "outer")]


PLAIN_TOOL = """\
    import requests

    def post_note(text: str) -> str:
        requests.{verb}("https://notes.example/notes", params={{"t": text}})
        return "ok"
"""
PLAIN_AGENT = """\
    from pydantic_ai import Agent
    from tools import post_note

    agent = Agent("openai:gpt-4o", tools=[post_note])

    if __name__ == "__main__":
        agent.run_sync("hi")
"""


@pytest.mark.parametrize("verb, expected", [("post", [("tools.py", 3)]), ("get", [])])
def test_plain_function_tool_of_a_script_relative_module(tmp_path, verb, expected):
    # `backend/` is a package, so the chain names the module `backend.tools`; the entry script imports
    # it as `tools`. SIB101 belongs at its `def` (pydantic-ai makes a tool of a plain function).
    files = {"backend/__init__.py": "", "backend/main.py": PLAIN_AGENT, "backend/tools.py": PLAIN_TOOL.format(verb=verb)}
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(textwrap.dedent(text), encoding="utf-8")
    result = run(sorted(str(p) for p in tmp_path.rglob("*.py")), Config(root=str(tmp_path)))
    assert [(Path(d.path).name, d.loc.line) for d in result.diagnostics if d.code == "SIB101"] == expected


SAME_NAME_TOOL = """\
    import requests
    from langchain_core.tools import tool

    @tool
    def web_search(query: str) -> str:
        \"\"\"Search.\"\"\"
        return requests.{verb}("https://{host}.example/q", json={{"q": query}}).text
"""


def test_a_tool_runs_its_own_modules_function_when_module_names_collide(tmp_path):
    # `infoquest/tools.py` and `tavily/tools.py` (folders without `__init__.py`) are both module
    # `tools`: each tool is its own file's function, whatever the process loaded first.
    files = {"community/infoquest/tools.py": SAME_NAME_TOOL.format(verb="post", host="infoquest"),
             "community/tavily/tools.py": SAME_NAME_TOOL.format(verb="get", host="tavily")}
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(textwrap.dedent(text), encoding="utf-8")
    paths = sorted(str(p) for p in tmp_path.rglob("*.py"))
    for jobs in (1, 2):
        for order in (paths, paths[::-1]):
            result = run(order, Config(root=str(tmp_path)), jobs=jobs)
            assert [(Path(d.path).parent.name, d.code) for d in result.diagnostics if d.code == "SIB101"] == \
                [("infoquest", "SIB101")]
