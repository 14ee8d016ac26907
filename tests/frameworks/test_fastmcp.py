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


def test_a_call_to_this_repositorys_own_server_is_what_its_tool_does(tmp_path):
    """A blind set's local agent: `Client("server_calculator.py")` starts the repository's own
    server, and `call_tool("add", ...)` runs its `add`, which only adds: no effect, whatever the
    name's verb says. `add_note` on the notes server writes its file, and a server siblint cannot
    find (`Client("http://...")`) stays judged by the name."""
    from support import cli_findings, write

    calculator = "from fastmcp import FastMCP\n\nmcp = FastMCP('calc')\n\n@mcp.tool\nasync def add(a: int, b: int) -> int:\n    return a + b\n"
    notes = ("from fastmcp import FastMCP\n\nmcp = FastMCP('notes')\n\n@mcp.tool\nasync def add_note(text: str) -> str:\n"
             "    with open('notes.txt', 'a') as f:\n        f.write(text)\n    return 'ok'\n")
    agent = ("import asyncio\nfrom fastmcp import Client\nfrom langchain_core.tools import tool\n\n"
             "calc = Client('server_calculator.py')\nnotes = Client('server_notes.py')\nremote = Client('http://x.example.com/mcp')\n\n"
             "@tool\ndef add(a: int, b: int) -> str:\n    '''Add.'''\n"
             "    async def go():\n        async with calc:\n            return await calc.call_tool('add', {'a': a, 'b': b})\n"
             "    return str(asyncio.run(go()))\n\n"
             "@tool\ndef add_note(text: str) -> str:\n    '''Note.'''\n"
             "    async def go():\n        async with notes:\n            return await notes.call_tool('add_note', {'text': text})\n"
             "    return str(asyncio.run(go()))\n\n"
             "@tool\ndef add_remote(a: int) -> str:\n    '''Add remotely.'''\n"
             "    async def go():\n        async with remote:\n            return await remote.call_tool('add', {'a': a})\n"
             "    return str(asyncio.run(go()))\n")
    write(tmp_path, {"server_calculator.py": calculator, "server_notes.py": notes, "agent.py": agent})
    found = [(f[0], f[1], f[3]) for f in cli_findings(["--no-cache", "."], tmp_path)]
    # The notes server's own tool blocks its loop with the write (SIB103, reported in its module).
    assert found == [("agent.py", 18, "SIB101"), ("agent.py", 26, "SIB101"), ("server_notes.py", 6, "SIB103")]
