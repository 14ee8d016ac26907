"""Framework versions read from the project's pins: langgraph-prebuilt's ToolNode re-raises tool
errors by default only from 1.0.2, so a project pinned below it gets no default-fatal finding, and
one pinned at or above it (or pinning nothing) does. `--show-settings` says which side it assumed."""

from __future__ import annotations

import json

import pytest
from siblint.settings.config import Config
from siblint.frameworks.versions import TOOL_NODE_RERAISES
from siblint.settings.pins import assumed, newest_allowed, pins_for
from support import CHECKOUT_TOOLS, cli_findings, code_lines, siblint, write

GRAPH = """\
import requests
from langchain_core.tools import tool
from langgraph.prebuilt import ToolNode, create_react_agent


@tool
def charge_card(amount: int) -> str:
    \"\"\"Charge.\"\"\"
    return requests.post("https://pay.example.com/charge", json={"a": amount}).text


@tool
async def lookup_tax(region: str) -> str:
    \"\"\"Tax.\"\"\"
    raise KeyError(region)


node = ToolNode([charge_card, lookup_tax])
agent = create_react_agent("m", [charge_card, lookup_tax])
"""
NODE, AGENT = 18, 19
OLD_FILES = {
    "requirements.txt": "langgraph==0.6.4\n",
    "pyproject.toml": '[project]\nname = "x"\ndependencies = ["langgraph>=0.6,<1.0"]\n',
    "uv.lock": 'version = 1\n[[package]]\nname = "langgraph-prebuilt"\nversion = "1.0.1"\n',
    "poetry.lock": '[[package]]\nname = "langgraph-prebuilt"\nversion = "0.6.4"\n',
    "pdm.lock": '[[package]]\nname = "langgraph_prebuilt"\nversion = "1.0.0"\n',
}
NEW_FILES = {
    "requirements.txt": "langgraph>=1.0.3\n",
    "pyproject.toml": '[tool.poetry.dependencies]\npython = "^3.11"\nlanggraph = "^1.0"\n',
    "uv.lock": 'version = 1\n[[package]]\nname = "langgraph-prebuilt"\nversion = "1.0.2"\n',
    "requirements-dev.txt": "langgraph-prebuilt~=1.0.0  # newest 1.0.x\n",
}


@pytest.fixture
def found(lint, tmp_path):
    return code_lines(lint, tmp_path, ("SIB206", "SIB301"))


@pytest.mark.parametrize("name", sorted(OLD_FILES))
def test_a_project_pinned_below_the_release_gets_no_default_fatal_finding(found, name):
    assert found(GRAPH, {name: OLD_FILES[name]}) == []


@pytest.mark.parametrize("name", sorted(NEW_FILES))
def test_a_project_pinned_at_or_above_the_release_gets_them(found, name):
    assert found(GRAPH, {name: NEW_FILES[name]}) == [("SIB206", NODE), ("SIB206", AGENT), ("SIB301", NODE), ("SIB301", AGENT)]


@pytest.mark.parametrize("pin", ["langchain>=0.3.25,<0.4", "langchain-core<1.0", "langchain-openai~=0.3.0"])
def test_a_pin_that_holds_the_release_back_beats_an_unbounded_langgraph(found, pin):
    # evalP2's invoice-processor: `langgraph>=0.4.5` beside `langchain<0.4`. langgraph-prebuilt 1.0.2
    # requires langchain-core>=1.0.0, which langchain 0.3.x and langchain-openai 0.3.x rule out.
    assert found(GRAPH, {"requirements.txt": f"langgraph>=0.4.5\n{pin}\n"}) == []


@pytest.mark.parametrize("pin", ["langchain>=1.0", "langchain", "langchain-community<0.4"])
def test_a_pin_that_allows_langchain_core_1_holds_nothing_back(found, pin):
    assert ("SIB301", NODE) in found(GRAPH, {"requirements.txt": f"langgraph>=0.4.5\n{pin}\n"})


def test_the_releases_own_pin_beats_a_hold_back(found):
    assert ("SIB301", NODE) in found(GRAPH, {"requirements.txt": "langgraph-prebuilt==1.0.2\nlangchain<0.4\n"})


def test_no_pin_means_the_newest_release(found):
    assert ("SIB301", NODE) in found(GRAPH)


def test_a_lock_file_beats_the_manifest_range(found):
    files = {"pyproject.toml": '[project]\nname = "x"\ndependencies = ["langgraph>=1.0"]\n',
             "uv.lock": 'version = 1\n[[package]]\nname = "langgraph-prebuilt"\nversion = "1.0.1"\n'}
    assert found(GRAPH, files) == []


def test_an_explicit_false_stays_fatal_below_the_release(lint, tmp_path):
    text = GRAPH.replace("ToolNode([charge_card, lookup_tax])", "ToolNode([charge_card, lookup_tax], handle_tool_errors=False)")
    run = code_lines(lint, tmp_path, ("SIB201", "SIB301"))
    assert run(text, {"requirements.txt": "langgraph==0.6.4\n"}) == [("SIB201", NODE), ("SIB301", NODE)]


def test_the_nearest_pins_govern_a_sub_project(lint, tmp_path):
    # The repository root pins one langgraph, the app folder its own: the app folder's count.
    config = Config(root=str(tmp_path), select=("SIB301",))
    app_old = {"requirements.txt": "langgraph==1.1.6\n", "app/requirements.txt": "langgraph==0.6.4\n"}
    assert lint(GRAPH, app_old, config, filename="app/graph.py") == []
    app_new = {"requirements.txt": "langgraph==0.6.4\n", "app/requirements.txt": "langgraph==1.1.6\n"}
    assert [d.loc.line for d in lint(GRAPH, app_new, config, filename="app/graph.py")] == [NODE, AGENT]


def test_unreadable_pin_files_pin_nothing(tmp_path):
    write(tmp_path, {"pyproject.toml": "[project\n", "uv.lock": "not toml = = =", "requirements.txt": "-e .\n--hash x\n!!\n"})
    assert pins_for(str(tmp_path), str(tmp_path)) == {}
    # Valid TOML of the wrong shapes pins nothing either.
    write(tmp_path, {"pyproject.toml": 'project = "x"\n[tool]\npoetry = 3\n[dependency-groups]\ndev = 5\n',
                     "uv.lock": 'package = "x"\n', "requirements.txt": ""})
    assert pins_for(str(tmp_path), str(tmp_path)) == {}
    assert assumed(TOOL_NODE_RERAISES, {}).current


@pytest.mark.parametrize(("spec", "newest"), [
    ("==1.0.1", "1.0.1"), ("<1.0.2", "1.0.1.999999"), (">=0.6,<0.7", "0.6.999999"), ("~=1.0.0", "1.0.999999"),
    ("==1.0.*", "1.0.999999"), (">1.0.3,<1.0.5", "1.0.4.999999"), ("<=1.0.1", "1.0.1"),
])
def test_newest_allowed_reads_specifiers_as_a_resolver_would(spec, newest):
    assert str(newest_allowed(spec)) == newest


def test_an_unbounded_specifier_allows_the_newest():
    assert newest_allowed("") is None
    assert str(newest_allowed(">=0.2")) == "999999"


def test_show_settings_says_which_version_was_assumed(tmp_path):
    write(tmp_path, {"graph.py": GRAPH, "requirements.txt": "langgraph==0.6.4\nopenai-agents>=0.2\n"})
    shown = json.loads(siblint(["check", "--show-settings", "graph.py"], tmp_path).stdout)["framework-versions"]
    by_side = {e["assumed"]: e["because"] for e in shown}
    assert "langgraph==0.6.4" in by_side["langgraph-prebuilt < 1.0.2"]
    assert "openai-agents>=0.2" in by_side["openai-agents >= 0.8.0"]
    assert "requirements.txt" in by_side["openai-agents >= 0.10.4"]
    write(tmp_path, {"requirements.txt": "flask\n"})
    shown = json.loads(siblint(["check", "--show-settings", "graph.py"], tmp_path).stdout)["framework-versions"]
    assert len(shown) == 5 and all(e["because"].startswith("no pin") and " >= " in e["assumed"] for e in shown)
    assert {"fastmcp >= 3.0.0", "agent-framework-core >= 1.8.0"} <= {e["assumed"] for e in shown}


# The checkout seed, with an awaiting sibling beside the fatal lookup_tax.
OPENAI = CHECKOUT_TOOLS.replace("from agents import function_tool", "import httpx\nfrom agents import Agent, function_tool") + """
@function_tool
async def send_receipt(to: str) -> str:
    async with httpx.AsyncClient() as c:
        return (await c.post("https://mail.example.com/send", json={"to": to})).text

agent = Agent(name="a", tools=[send_receipt, lookup_tax])
"""
SYNC_TOOL = next(i for i, line in enumerate(OPENAI.splitlines(), 1) if line.startswith("def charge_card"))
GROUP = OPENAI.count("\n")


@pytest.fixture
def openai_found(lint, tmp_path):
    return code_lines(lint, tmp_path, ("SIB101", "SIB103", "SIB301"))


@pytest.mark.parametrize(("pin", "expected"), [
    # 0.8.0 moved sync tools into worker threads; 0.10.4 cancels the other calls of a failed turn.
    ("openai-agents==0.6.4", [("SIB103", SYNC_TOOL), ("SIB301", GROUP)]),
    ("openai-agents==0.9.0", [("SIB101", SYNC_TOOL), ("SIB301", GROUP)]),
    ("openai-agents==0.10.4", [("SIB101", SYNC_TOOL)]),
    ("openai-agents>=0.2.0", [("SIB101", SYNC_TOOL)]),
])
def test_openai_agents_releases(openai_found, pin, expected):
    # An awaiting sibling is cancelled from 0.10.4 on; before, bare asyncio.gather left it running.
    assert openai_found(OPENAI, {"requirements.txt": pin + "\n"}) == expected


def test_a_changed_pin_rechecks_cached_findings(tmp_path):
    # The cache keys a file's findings on the pins they relied on, as on the modules they read.
    write(tmp_path, {"graph.py": GRAPH, "requirements.txt": "langgraph==0.6.4\n"})

    def codes() -> list[str]:
        return [c for _, _, _, c, _ in cli_findings(["graph.py"], tmp_path, ["--select", "SIB301"])]

    assert codes() == []
    write(tmp_path, {"requirements.txt": "langgraph==1.1.6\n"})
    assert codes() == ["SIB301", "SIB301"]
    write(tmp_path, {"uv.lock": 'version = 1\n[[package]]\nname = "langgraph-prebuilt"\nversion = "1.0.1"\n'})
    assert codes() == []


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8-sig", "utf-32"])
def test_a_pin_file_with_a_byte_order_mark_is_read(tmp_path, encoding):
    # PowerShell's `pip freeze > requirements.txt` writes UTF-16 with a byte-order mark.
    (tmp_path / "requirements.txt").write_bytes("langgraph-prebuilt==0.5.2\r\n".encode(encoding))
    pins = pins_for(str(tmp_path), str(tmp_path))
    assert str(pins["langgraph-prebuilt"].specifier) == "==0.5.2"


AGENT_FRAMEWORK = """\
import requests
from agent_framework import ai_function


@ai_function
def pay(amount: int) -> str:
    return requests.post("https://pay.example.com/charges", json={"amount": amount}).text
"""


@pytest.mark.parametrize(("pin", "code"), [
    # agent-framework-core 1.8.0 runs a sync tool with asyncio.to_thread; 1.7.0 and the pre-1.0
    # releases of `@ai_function` call it inline on the loop.
    ("agent-framework-core==1.7.0", "SIB103"),
    ("agent-framework-core>=1.8.0", "SIB101"),
])
def test_agent_framework_releases(lint, tmp_path, pin, code):
    found = code_lines(lint, tmp_path, ("SIB101", "SIB103"))(AGENT_FRAMEWORK, {"requirements.txt": pin + "\n"})
    assert found == [(code, 6)]
