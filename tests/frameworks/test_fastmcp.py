"""fastmcp server tools (evalZ1's Grocy server): a source of tools with no group. A sync tool with a
side effect is SIB101 (a worker thread from fastmcp 3.0.0 on) or SIB103 (inline on the event loop
before it), in every spelling of `FastMCP.tool`; a read-only or awaiting tool is quiet."""

from __future__ import annotations

import pytest
from support import code_lines

SERVER = """\
import httpx
import requests
from fastmcp import FastMCP
from fastmcp.server import FastMCP as Server

mcp = FastMCP("shop")
other = Server("other")


{deco}
def charge(x: int) -> str:
    requests.post("https://pay.example.com/charges", json={{"x": x}})
    return "ok"


@mcp.tool()
def lookup(x: int) -> str:
    return requests.get("https://pay.example.com/charges").text


@mcp.tool(name="refund")
async def refund(x: int) -> str:
    async with httpx.AsyncClient() as c:
        await c.post("https://pay.example.com/refunds", json={{"x": x}})
    return "ok"
"""
CHARGE = 11


@pytest.fixture
def found(lint, tmp_path):
    return code_lines(lint, tmp_path, ("SIB101", "SIB103"))


@pytest.mark.parametrize("deco", ["@mcp.tool", "@mcp.tool()", '@mcp.tool("charge_card")', "@mcp.tool(name='charge_card', timeout=5)",
                                  "@other.tool"])
def test_every_spelling_of_a_sync_server_tool_is_reported(found, deco):
    assert found(SERVER.format(deco=deco)) == [("SIB101", CHARGE)]


def test_the_call_form_registers_a_plain_function(found):
    text = SERVER.format(deco="") + "\n\nmcp.tool(charge)\n"
    assert found(text) == [("SIB101", CHARGE)]


def test_a_function_no_server_registers_is_no_tool(found):
    assert found(SERVER.format(deco="")) == []


@pytest.mark.parametrize(("pin", "code"), [("fastmcp==2.14.7", "SIB103"), ("fastmcp>=3.0", "SIB101"), ("fastmcp==4.1.1", "SIB101")])
def test_before_3_0_0_a_sync_tool_runs_on_the_event_loop(found, pin, code):
    assert found(SERVER.format(deco="@mcp.tool"), {"requirements.txt": pin + "\n"}) == [(code, CHARGE)]



def test_the_decorator_factory_called_on_a_function_registers_it(found):
    """`mcp.tool()(refund)`, as `function_tool()(f)` is read (evalR2's server spells it so)."""
    text = SERVER.format(deco="") + "\n\nmcp.tool()(charge)\nmcp.tool(name='c2')(charge)\n"
    assert found(text) == [("SIB101", CHARGE)]


TOOLS_MODULE = """\
import requests


def cancel(x: int) -> str:
    requests.delete(f"https://shop.example.com/orders/{x}")
    return "ok"


def status(x: int) -> str:
    return requests.get(f"https://shop.example.com/orders/{x}").text
"""
FASTMCP_SERVER = "from fastmcp import FastMCP\nimport tools\n\nmcp = FastMCP('shop')\nmcp.tool()(tools.cancel)\nmcp.tool()(tools.status)\n"


@pytest.mark.parametrize("servers", [
    # evalR2's e-commerce server: the functions of a module that imports no framework, registered by a
    # call of the decorator factory in the module that makes the server.
    {"server.py": FASTMCP_SERVER},
    {"server.py": "from fastmcp import FastMCP\nfrom tools import cancel, status\n\nmcp = FastMCP('shop')\nmcp.tool(cancel)\nmcp.tool(status)\n"},
    {"agent.py": "from agents import Agent, function_tool\nimport tools\n\n"
                 "agent = Agent(name='a', tools=[function_tool(tools.cancel), function_tool(tools.status)])\n"},
    # two modules wrap it: one finding
    {"server.py": FASTMCP_SERVER, "agent.py": "from agents import function_tool\nimport tools\n\nt = function_tool(tools.cancel)\n"},
])
def test_a_function_of_another_module_made_a_tool_by_a_call_is_reported_at_its_def(tmp_path, servers):
    from support import cli_findings, write

    write(tmp_path, {"tools.py": TOOLS_MODULE, **servers})
    found = [(f[0], f[1], f[3]) for f in cli_findings(["--no-cache", "."], tmp_path)]
    assert found == [("tools.py", 4, "SIB101")]


def test_a_helper_that_tools_call_is_not_analysed_for_it(tmp_path):
    """Agent code calling a module's function (`helper(city)`) does not hand it on: only a function
    passed to a call can become a tool."""
    from siblint.run import runner
    from siblint.settings.config import Config
    from support import write

    write(tmp_path, {"tools.py": TOOLS_MODULE,
                     "server.py": "from fastmcp import FastMCP\nimport tools\n\nmcp = FastMCP('shop')\n\n"
                                  "@mcp.tool\ndef look(x: int) -> str:\n    return tools.status(x)\n"})
    files = sorted(str(p) for p in tmp_path.rglob("*.py"))
    assert runner.run(files, Config(root=str(tmp_path)), 1).files_analysed == 1


@pytest.mark.parametrize("server", [
    "from fastmcp import FastMCP\nfrom tools import register_tools\n\nmcp = FastMCP('todo')\nmcp = register_tools(mcp)\n",
    "from fastmcp import FastMCP\nimport tools\n\ntools.register_tools(FastMCP('todo'))\n",
], ids=["rebound-to-the-result", "module-attribute"])
def test_tools_registered_on_a_server_a_caller_passes_in(tmp_path, server):
    """A blind set's to-do server: `def register_mcp_tools(mcp):` decorates its nested tools with
    `@mcp.tool(...)`, and the server module calls it with the `FastMCP` it builds (`mcp =
    register_mcp_tools(mcp)`). A read-only nested tool stays quiet."""
    from support import cli_findings, write

    tools = ("import requests\n\n\ndef register_tools(mcp):\n"
             "    @mcp.tool(name='add_task')\n    def add_task(title: str) -> str:\n"
             "        requests.post('https://todo.example.com/tasks', json={'t': title})\n        return 'ok'\n\n"
             "    @mcp.tool(name='list_tasks')\n    def list_tasks() -> str:\n"
             "        return requests.get('https://todo.example.com/tasks').text\n\n    return mcp\n")
    write(tmp_path, {"tools.py": tools, "server.py": server,
                     "pyproject.toml": "[project]\nname = 'x'\ndependencies = ['fastmcp>=3.0.0']\n"})
    found = [(f[0], f[1], f[3]) for f in cli_findings(["--no-cache", "."], tmp_path)]
    assert found == [("tools.py", 6, "SIB101")]
