"""Issue 24: a file that imports a framework but uses none of its names, and whose importers use
none, is not parsed with libcst (`siblint.model.relevance`). Each shape is checked on the smallest
code: the file that must be kept really reports, the twin that is skipped reports nothing and is
never parsed, and the project indirections the engine does not follow are pinned."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from siblint.frameworks import vocabulary
from siblint.run import cache as cache_mod
from siblint.run import runner
from siblint.settings.config import Config
from siblint.syntax import source
from support import write

EFFECT = "import requests\n"
BODY = "    requests.post('https://pay.example.com', json={'n': n})\n    return 'ok'\n"
PLAIN = "\ndef charge(n: int) -> str:\n" + BODY


def findings(root: Path, jobs: int = 1, cache: cache_mod.Cache | None = None,
             config: Config | None = None) -> dict[str, list[str]]:
    files = sorted(str(p) for p in root.glob("*.py"))
    out: dict[str, list[str]] = {os.path.basename(f): [] for f in files}
    for d in runner.run(files, config or Config(root=str(root)), jobs, cache=cache).diagnostics:
        out[os.path.basename(d.path)].append(d.code)
    return out


def test_the_vocabulary_is_the_frameworks_names_not_their_modules() -> None:
    words = vocabulary()
    assert {"function_tool", "Agent", "BaseTool", "ToolNode", "ModelSettings", "Runner"} <= words
    assert not words & {"agents", "langchain_core", "google", "tools", "run", "append"}


def test_a_file_using_no_framework_name_is_not_parsed_and_reports_nothing(tmp_path: Path, parsed_names: list[str]) -> None:
    write(tmp_path, {"pay.py": EFFECT + "from agents import __version__\n" + PLAIN})
    assert findings(tmp_path) == {"pay.py": []}
    assert parsed_names == []


def test_its_twin_using_a_tool_maker_is_parsed_and_reports(tmp_path: Path, parsed_names: list[str]) -> None:
    write(tmp_path, {"pay.py": EFFECT + "from agents import function_tool\n\n@function_tool" + PLAIN})
    assert findings(tmp_path) == {"pay.py": ["SIB101"]}
    assert parsed_names == ["pay.py"]


def test_a_kept_file_is_guarded_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The second stage's CPython tree passed the depth guard: the parse that follows reuses it.
    guarded: list[int] = []
    real = source.guard
    monkeypatch.setattr(source, "guard", lambda tree, text: guarded.append(1) or real(tree, text))
    write(tmp_path, {"pay.py": EFFECT + "from agents import function_tool\n\n@function_tool" + PLAIN})
    assert findings(tmp_path) == {"pay.py": ["SIB101"]}
    assert len(guarded) == 1


def test_a_plain_function_an_importer_lists_in_a_group_is_kept(tmp_path: Path) -> None:
    write(tmp_path, {"agent.py": "from google.adk.agents import Agent\nfrom pay import charge\n\n"
                                 "agent = Agent(name='a', tools=[charge])\n",
                     "pay.py": EFFECT + PLAIN})
    assert findings(tmp_path)["pay.py"] == ["SIB103"]


def test_a_plain_function_whose_importer_makes_no_group_is_skipped(tmp_path: Path, parsed_names: list[str]) -> None:
    write(tmp_path, {"main.py": "from agents import __version__\nfrom pay import charge\n\ncharge(1)\n",
                     "pay.py": EFFECT + "from agents import __version__\n" + PLAIN})
    assert findings(tmp_path) == {"main.py": [], "pay.py": []}
    assert parsed_names == []


def test_an_importer_naming_no_framework_is_not_parsed_to_look_for_groups(tmp_path: Path, parsed_names: list[str]) -> None:
    # `tools.py` is kept (it makes a tool); the engine asks whether its importers list `charge` in
    # a group. `main.py` names no framework, so it makes none: it is not parsed to find out.
    write(tmp_path, {"main.py": "from agents import __version__\nfrom tools import charge\n\ncharge(1)\n",
                     "tools.py": EFFECT + "from agents import function_tool\n\n@function_tool\ndef book(n: int) -> str:\n"
                                 + BODY + PLAIN})
    assert findings(tmp_path) == {"main.py": [], "tools.py": ["SIB101"]}
    assert parsed_names == ["tools.py"]


NODES = ("import httpx\nfrom langchain_core.tools import tool\nfrom langgraph.prebuilt import ToolNode\n"
         "from langgraph.types import RetryPolicy\n\n@tool\nasync def place_order(sku: str) -> str:\n"
         "    \"\"\"Order an item.\"\"\"\n    async with httpx.AsyncClient() as c:\n"
         "        await c.post('https://shop.example.com/orders', json={'sku': sku})\n    return 'ordered'\n\n")
GRAPH = "from langgraph.graph import MessagesState, StateGraph\n{imports}\norders = StateGraph(MessagesState)\n" \
        "orders.add_node('tools', {node}, retry_policy=POLICY)\n"


def test_a_graph_builder_alone_is_not_parsed(tmp_path: Path, parsed_names: list[str]) -> None:
    # SIB405 needs the node's runnable to be a group of the graph's own module, which needs a group
    # maker's name there: a builder (`StateGraph`) alone anchors nothing (`frameworks.vocabulary`).
    write(tmp_path, {"nodes.py": NODES + "POLICY = RetryPolicy(max_attempts=3)\ntools = ToolNode([place_order])\n",
                     "graph.py": GRAPH.format(imports="from nodes import POLICY, tools\n", node="tools")})
    assert findings(tmp_path)["graph.py"] == []
    assert parsed_names == ["nodes.py"]


def test_its_twin_making_the_tool_node_is_parsed_and_reports(tmp_path: Path, parsed_names: list[str]) -> None:
    write(tmp_path, {"graph.py": NODES + "POLICY = RetryPolicy(max_attempts=3)\n"
                                 + GRAPH.format(imports="", node="ToolNode([place_order])")})
    assert "SIB405" in findings(tmp_path)["graph.py"]
    assert parsed_names == ["graph.py"]


def test_a_syntax_error_is_still_reported(tmp_path: Path) -> None:
    write(tmp_path, {"pay.py": "from agents import __version__\ndef broken(:\n"})
    assert findings(tmp_path) == {"pay.py": ["SIB900"]}


def test_a_stale_noqa_is_still_reported(tmp_path: Path) -> None:
    write(tmp_path, {"pay.py": "from agents import __version__  # noqa: SIB101\n"})
    config = Config(root=str(tmp_path)).with_cli(None, (), ("SIB902",))
    assert findings(tmp_path, config=config) == {"pay.py": ["SIB902"]}


@pytest.mark.parametrize("shape", [
    # an alias of a tool maker, a decorator around one
    {"wrap.py": "from agents import function_tool\nmaker = function_tool\n",
     "pay.py": EFFECT + "from wrap import maker\n\n@maker" + PLAIN},
    {"wrap.py": "from agents import function_tool\n\ndef maker(fn):\n    return function_tool(fn)\n",
     "pay.py": EFFECT + "from wrap import maker\n\n@maker" + PLAIN},
], ids=["alias", "decorator"])
def test_project_wrappers_the_engine_does_not_follow(tmp_path: Path, shape: dict[str, str]) -> None:
    """If the engine learns to follow one of these, `pay.py` reports and this test fails: then
    `siblint.model.relevance` must follow it too (the second stage would hide the finding)."""
    write(tmp_path, shape)
    assert findings(tmp_path)["pay.py"] == []


@pytest.mark.parametrize("importers", [False, True], ids=["server-alone", "server-imports-the-tools"])
def test_a_tool_registered_on_another_modules_server_is_parsed_and_reports(tmp_path: Path, importers: bool) -> None:
    """A blind set's calendar MCP server: `from gcal_fast_mcp.server import mcp` then `@mcp.tool(...)`
    in a module that imports no framework (the server module imports it to register them)."""
    server = "from fastmcp import FastMCP\n\nmcp = FastMCP('cal')\n" + ("import ops  # noqa: E402\n" if importers else "")
    write(tmp_path, {"server.py": server, "ops.py": EFFECT + "from server import mcp\n\n@mcp.tool(name='charge')" + PLAIN,
                     "pyproject.toml": "[project]\nname = 'x'\ndependencies = ['fastmcp>=3.0.0']\n"})
    assert findings(tmp_path)["ops.py"] == ["SIB101"]
    assert findings(tmp_path, jobs=2)["ops.py"] == ["SIB101"]


def test_a_cached_skip_is_rechecked_when_an_importer_starts_a_group(tmp_path: Path) -> None:
    write(tmp_path, {"main.py": "from google.adk.agents import Agent\nfrom pay import charge\n\ncharge(1)\n",
                     "pay.py": EFFECT + PLAIN})

    def new_cache() -> cache_mod.Cache:
        return cache_mod.Cache(str(tmp_path / ".cache"), cache_mod.config_key(Config(root=str(tmp_path))))

    # `main.py` uses `Agent`, so `pay.py` is kept; make it use none: `pay.py` is skipped, cached.
    (tmp_path / "main.py").write_text("from google.adk.agents import __version__\nfrom pay import charge\n\ncharge(1)\n")
    assert findings(tmp_path, cache=new_cache())["pay.py"] == []
    assert findings(tmp_path, cache=new_cache())["pay.py"] == []  # answered by the cache
    (tmp_path / "main.py").write_text("from google.adk.agents import Agent\nfrom pay import charge\n\n"
                                      "agent = Agent(name='a', tools=[charge])\n")
    assert findings(tmp_path, cache=new_cache())["pay.py"] == ["SIB103"]


def test_one_and_two_processes_agree(tmp_path: Path) -> None:
    files = {f"plain{i}.py": EFFECT + "from agents import __version__\n" + PLAIN * 40 for i in range(8)}
    files["tool.py"] = EFFECT + "from agents import function_tool\n\n@function_tool" + PLAIN
    write(tmp_path, files)
    one = findings(tmp_path, jobs=1)
    assert one == findings(tmp_path, jobs=2)
    assert one["tool.py"] == ["SIB101"] and not any(one[f"plain{i}.py"] for i in range(8))


def test_a_cached_answer_is_rechecked_when_a_glue_module_starts_passing_the_toolkit(tmp_path: Path) -> None:
    # `factory.py` names no framework; once it hands `pay.py`'s toolkit to the builder of
    # `react.py` (agent code), `charge` is a tool: the cached quiet answer for `pay.py` is stale.
    write(tmp_path, {"pay.py": EFFECT + PLAIN + "\ndef toolkit():\n    return [charge]\n",
                     "react.py": "from langgraph.prebuilt import create_react_agent\n\n"
                                 "def build(tools):\n    return create_react_agent('m', tools)\n",
                     "factory.py": "from pay import toolkit\n\nprint(toolkit())\n"})

    def new_cache() -> cache_mod.Cache:
        return cache_mod.Cache(str(tmp_path / ".cache"), cache_mod.config_key(Config(root=str(tmp_path))))

    assert findings(tmp_path, cache=new_cache()).get("pay.py", []) == []
    (tmp_path / "factory.py").write_text("from pay import toolkit\nfrom react import build\n\nagent = build(toolkit())\n")
    assert findings(tmp_path, cache=new_cache())["pay.py"] == ["SIB101"]


BASE = "from langchain_core.tools import BaseTool\n\nclass Base(BaseTool):\n    pass\n"
SUBCLASS = (EFFECT + "from {module} import Base\n\nclass Charge(Base):\n    name: str = 'charge'\n    description: str = 'c'\n\n"
            "    def _run(self, n: int) -> str:\n" + BODY.replace("    ", "        "))


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_subclass_of_a_project_tool_base_in_another_module_is_parsed_and_reports(
        tmp_path: Path, jobs: int) -> None:
    """JARVIS's shape: `class HomeAssistantBaseTool(BaseTool)` in `base.py`, its tools in modules that
    import only it, one or two project classes deep. The twin whose base is no tool class is skipped."""
    write(tmp_path, {"base.py": BASE, "mid.py": "import base\n\nclass Base(base.Base):\n    pass\n",
                     "pay.py": SUBCLASS.replace("{module}", "base"), "pay2.py": SUBCLASS.replace("{module}", "mid")})
    assert findings(tmp_path, jobs=jobs) == {"base.py": [], "mid.py": [], "pay.py": ["SIB101"], "pay2.py": ["SIB101"]}
    write(tmp_path, {"base.py": "class Base:\n    pass\n"})
    assert findings(tmp_path, jobs=jobs) == {"base.py": [], "mid.py": [], "pay.py": [], "pay2.py": []}


def test_a_project_tool_base_imported_from_an_app_root_below_the_tree(tmp_path: Path) -> None:
    """JARVIS's layout: the repository root is itself a package (a Home Assistant integration) and
    the agent app imports `jarvis.tools.base` from `server/src/`. The base is found as the app's
    process imports it, whichever folder the run starts in."""
    files = {"__init__.py": "", "server/pyproject.toml": "[project]\nname = 'jarvis'\n",
             "server/src/jarvis/__init__.py": "", "server/src/jarvis/tools/__init__.py": "",
             "server/src/jarvis/tools/base.py": BASE,
             "server/src/jarvis/tools/pay.py": SUBCLASS.replace("{module}", "jarvis.tools.base")}
    write(tmp_path, files)
    for root in (tmp_path, tmp_path / "server"):
        found = runner.run([str(p) for p in sorted(root.rglob("*.py"))], Config(root=str(root)), 1).diagnostics
        assert [(os.path.basename(d.path), d.code) for d in found] == [("pay.py", "SIB101")], root


TOOL_OF_AGENTS = EFFECT + "from agents import function_tool\n\n@function_tool" + PLAIN
FRAMEWORK_COPY = {"agents/__init__.py": "", "agents/agent.py": "", "agents/run.py": "", "agents/tool.py": "",
                  "agents/_demo.py": TOOL_OF_AGENTS, "examples/app.py": TOOL_OF_AGENTS}


def _tree_findings(root: Path, cache: cache_mod.Cache | None = None) -> dict[str, list[str]]:
    files = sorted(str(p) for p in root.rglob("*.py"))
    out: dict[str, list[str]] = {os.path.relpath(f, root): [] for f in files}
    for d in runner.run(files, Config(root=str(root)), 1, cache=cache).diagnostics:
        out[os.path.relpath(d.path, root)].append(d.code)
    return {k: v for k, v in out.items() if v}


def test_a_frameworks_own_package_is_the_library_not_agent_code(tmp_path: Path, parsed_names: list[str]) -> None:
    """A project holding a framework's package (its repository: `agents/` with `agent.py`, `run.py`,
    `tool.py`, modules the frameworks' data names) checks its examples, not the framework's own
    modules, which are never parsed (pydantic-ai's 240 modules were 29% of its parse)."""
    write(tmp_path, FRAMEWORK_COPY)
    assert _tree_findings(tmp_path) == {"examples/app.py": ["SIB101"]}
    assert "_demo.py" not in parsed_names


def test_an_applications_agents_package_is_agent_code(tmp_path: Path) -> None:
    """An application's own `agents` package holds one such module at most (110 snapshots): checked."""
    files = {k: v for k, v in FRAMEWORK_COPY.items() if k not in ("agents/run.py", "agents/tool.py")}
    write(tmp_path, files)
    assert _tree_findings(tmp_path) == {"agents/_demo.py": ["SIB101"], "examples/app.py": ["SIB101"]}


def test_a_cached_framework_skip_is_rechecked_when_the_package_stops_being_one(tmp_path: Path) -> None:
    write(tmp_path, FRAMEWORK_COPY)

    def new_cache() -> cache_mod.Cache:
        return cache_mod.Cache(str(tmp_path / ".cache"), cache_mod.config_key(Config(root=str(tmp_path))))

    assert _tree_findings(tmp_path, new_cache()) == {"examples/app.py": ["SIB101"]}
    assert _tree_findings(tmp_path, new_cache()) == {"examples/app.py": ["SIB101"]}  # answered by the cache
    (tmp_path / "agents" / "run.py").unlink()
    assert _tree_findings(tmp_path, new_cache()) == {"agents/_demo.py": ["SIB101"], "examples/app.py": ["SIB101"]}


def test_a_frameworks_namespace_package_is_the_library_too(tmp_path: Path, parsed_names: list[str]) -> None:
    """LangGraph's repository: `libs/langgraph/langgraph/` holds no `__init__.py` (a namespace package)
    but `graph/state.py`, `pregel/`, `types.py`: its modules are the library; its tests are checked."""
    tool = EFFECT + "from langchain_core.tools import tool\n\n@tool" + PLAIN
    write(tmp_path, {"libs/langgraph/langgraph/graph/state.py": "", "libs/langgraph/langgraph/pregel/main.py": "",
                     "libs/langgraph/langgraph/types.py": "", "libs/langgraph/langgraph/_demo.py": tool,
                     "libs/langgraph/tests/test_tools.py": tool})
    assert _tree_findings(tmp_path) == {"libs/langgraph/tests/test_tools.py": ["SIB101"]}
    assert "_demo.py" not in parsed_names


def test_a_checkout_in_a_folder_named_like_a_framework_is_an_application(tmp_path: Path) -> None:
    """The project's own root is never taken for a framework's package: a repository checked out as
    `agents/` with `agent.py`, `run.py` and `tool.py` at its top is an application."""
    root = tmp_path / "agents"
    write(root, {"agent.py": "", "run.py": "", "tool.py": TOOL_OF_AGENTS})
    files = sorted(str(p) for p in root.rglob("*.py"))
    found = [(os.path.basename(d.path), d.code) for d in runner.run(files, Config(root=str(root)), 1).diagnostics]
    assert found == [("tool.py", "SIB101")]
