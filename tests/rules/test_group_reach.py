"""How a group's tools reach it in real projects: a builder or a class whose constructor takes the
tools, called from another module that names no framework, with the toolkit picked in `if`/`elif`
arms; a tools-list item that is a project factory's product; an agent built from `**kwargs`. Each
shape beside its twin, checked as a user runs it (the whole tree, one process and two)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import cli_findings, write

TOOLKITS = {
    "toolkits/__init__.py": "",
    "toolkits/packages.py": """\
        import subprocess

        def install(pkg: str) -> str:
            \"\"\"Install a package.\"\"\"
            try:
                subprocess.run(["pacman", "-S", "--noconfirm", pkg], check=True)
                return "ok"
            except Exception as e:
                return f"failed: {e}"

        def get_package_toolkit():
            return [install]
    """,
    "toolkits/users.py": """\
        import subprocess

        def add_user(name: str) -> str:
            \"\"\"Add a user.\"\"\"
            try:
                subprocess.run(["useradd", name], check=True)
                return "ok"
            except Exception as e:
                return f"failed: {e}"

        def unused(name: str) -> str:
            subprocess.run(["userdel", name], check=True)
            return "ok"

        def get_users_toolkit():
            return [add_user]
    """,
    "agents/__init__.py": "",
    "agents/react.py": """\
        from langgraph.prebuilt import create_react_agent

        class ReactAgent:
            def __init__(self, model, tools, config=None):
                self.graph = create_react_agent(model=model, tools=tools)
    """,
    "agents/factory.py": """\
        from agents.react import ReactAgent
        from toolkits.packages import get_package_toolkit
        from toolkits.users import get_users_toolkit

        def agent_factory(kind: str):
            toolkit = []
            if kind == "packages":
                toolkit = get_package_toolkit()
            elif kind == "users":
                toolkit = get_users_toolkit()
            return ReactAgent("llama3.2", toolkit)
    """,
}
FACTORY_ITEM = {
    "app.py": """\
        import requests
        from agents import Agent, function_tool

        def make_lookup(url: str):
            @function_tool(failure_error_function=None)
            async def lookup(q: str) -> str:
                return q
            return lookup

        @function_tool
        def post_order(item: str) -> str:
            return requests.post("https://shop.example.com/orders", json={"item": item}).text

        agent = Agent(name="shop", tools=[make_lookup("https://x.example.com"), post_order])
    """,
}
CURRIED_FACTORY_ITEM = {
    "app.py": """\
        import requests
        from agents import Agent, function_tool

        def make_proxy_tool(name: str, url: str):
            async def _proxy(q: str) -> str:
                return q
            return function_tool(name_override=name, failure_error_function=None)(_proxy)

        @function_tool
        def post_order(item: str) -> str:
            return requests.post("https://shop.example.com/orders", json={"item": item}).text

        agent = Agent(name="shop", tools=[make_proxy_tool("add", "https://x.example.com"), post_order])
        inline = Agent(name="inline", tools=[function_tool(failure_error_function=None)(make_proxy_tool), post_order])
    """,
}
KWARGS = {
    "app.py": """\
        import requests
        from agents import Agent, function_tool

        @function_tool(failure_error_function=None)
        async def lookup(q: str) -> str:
            return q

        @function_tool
        def post_order(item: str) -> str:
            return requests.post("https://shop.example.com/orders", json={"item": item}).text

        def build() -> Agent:
            options = {"name": "shop", "tools": [lookup, post_order]}
            return Agent(**options)

        def build_quiet() -> Agent:
            return Agent(**dict(name="quiet", tools=[lookup]))
    """,
}


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_toolkits_picked_in_arms_and_passed_to_a_class_in_another_module(tmp_path: Path, jobs: str) -> None:
    write(tmp_path, TOOLKITS)
    found = cli_findings(["."], tmp_path, ["--no-cache", "-j", jobs])
    # Both arms' tools are members; the function no toolkit returns is not a tool. (The tools catch
    # their errors, so no member's failure ends the run: no SIB301.)
    assert [(path, line, code) for path, line, _, code, _ in found] == [
        ("toolkits/packages.py", 3, "SIB101"), ("toolkits/users.py", 3, "SIB101")]


@pytest.mark.parametrize("files, where", [(FACTORY_ITEM, [("app.py", 14)]), (KWARGS, [("app.py", 13)]),
                                          (CURRIED_FACTORY_ITEM, [("app.py", 13), ("app.py", 14)])],
                         ids=["factory-product", "kwargs-dict", "curried-decorator-factory-product"])
def test_the_fatal_member_is_found_where_the_list_is_built(tmp_path: Path, files: dict[str, str],
                                                            where: list[tuple[str, int]]) -> None:
    write(tmp_path, files)
    found = cli_findings(["."], tmp_path, ["--no-cache"])
    assert [(path, line) for path, line, _, code, _ in found if code == "SIB301"] == where


# A plugin registry (aletheia, Microsoft Agent Framework): each plugin class lists bound methods in
# `get_tools()`, declared `@abstractmethod` on a base with no `ABC`; the agent's base class loops over
# `plugins: list[BasePlugin]`, wraps each callable with `tool(t)`, and never imports the subclasses'
# modules. The plugin modules name the framework only in an annotation.
PLUGINS = {
    "app/__init__.py": "",
    "app/plugins/__init__.py": "",
    "app/plugins/base.py": """\
        from abc import abstractmethod

        from agent_framework import FunctionTool


        class BasePlugin:
            @abstractmethod
            def get_tools(self) -> list[FunctionTool]:
                \"\"\"The plugin's tools.\"\"\"
    """,
    "app/plugins/git.py": """\
        import subprocess

        from agent_framework import FunctionTool

        from app.plugins.base import BasePlugin


        class GitPlugin(BasePlugin):
            def clone(self, url: str) -> str:
                \"\"\"Clone a repository.\"\"\"
                subprocess.run(["git", "clone", url], check=False)
                return "ok"

            def unlisted(self, url: str) -> str:
                subprocess.run(["git", "clone", url], check=False)
                return "ok"

            def get_tools(self) -> list[FunctionTool]:
                return [self.clone]
    """,
    "app/agents/__init__.py": "",
    "app/agents/base.py": """\
        from agent_framework import Agent, FunctionTool, tool

        from app.plugins.base import BasePlugin


        class BaseAgent:
            def __init__(self, client, plugins: list[BasePlugin] | None = None):
                tools = []
                for plugin in plugins or []:
                    tools.extend(plugin.get_tools())
                wrapped = []
                for t in tools:
                    if isinstance(t, FunctionTool):
                        wrapped.append(t)
                    else:
                        wrapped.append(tool(t))
                self.agent = Agent(client=client, tools=wrapped)
    """,
    "app/agents/coder.py": """\
        from app.agents.base import BaseAgent
        from app.plugins.git import GitPlugin


        class Coder(BaseAgent):
            def __init__(self, client):
                super().__init__(client, plugins=[GitPlugin()])
    """,
}


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_plugin_methods_listed_through_an_abstract_base_are_tools(tmp_path: Path, jobs: str) -> None:
    write(tmp_path, PLUGINS)
    found = cli_findings(["."], tmp_path, ["--no-cache", "-j", jobs])
    assert [(path, line, code) for path, line, _, code, _ in found] == [("app/plugins/git.py", 9, "SIB101")]


def test_bound_methods_of_an_instance_made_in_the_same_module_are_tools(tmp_path: Path) -> None:
    """`plugin = Plugin(); Agent(tools=[plugin.clone, plugin.status])` and `self.search` listed in
    a method, with the class in the agent's own module: each method runs as the tool."""
    write(tmp_path, {"app.py": """\
        import subprocess

        from agent_framework import Agent


        class Plugin:
            def clone(self, url: str) -> str:
                subprocess.run(["git", "clone", url], check=False)
                return "ok"

            def status(self) -> str:
                return subprocess.run(["git", "status"], capture_output=True, text=True).stdout

            def build(self, client) -> Agent:
                return Agent(client=client, tools=[self.push])

            def push(self) -> str:
                subprocess.run(["git", "push"], check=False)
                return "ok"


        plugin = Plugin()
        agent = Agent(client=None, tools=[plugin.clone, plugin.status])
    """})
    found = cli_findings(["."], tmp_path, ["--no-cache"])
    assert [(path, line, code) for path, line, _, code, _ in found] == [("app.py", 7, "SIB101"), ("app.py", 17, "SIB101")]
