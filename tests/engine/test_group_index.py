"""Issue 24: which groups list a module's tools is worked out once per importing module and run
(`ProjectIndex.remembered`), not again for every tool and every tools module; a file that reuses an
answer records the lookups behind it, so the cache re-checks its findings as if it had computed it."""

from __future__ import annotations

import os

from siblint.lint.engine import load_facts
from siblint.model import groups
from siblint.model.project import ProjectIndex
from siblint.model.tools import plain_tool
from siblint.run.reuse import traced
from support import write

TOOLS = "import requests\n\ndef fetch(url):\n    return requests.get(url)\n\ndef save(path):\n    open(path, 'w').write('x')\n"
PROJECT = {
    "app/__init__.py": "",
    "app/tools.py": TOOLS,
    "app/more.py": "def ping():\n    return 1\n",
    "app/agent_a.py": "from pydantic_ai import Agent\nfrom app.tools import fetch, save\nfrom app.more import ping\n\n"
                      "agent = Agent('test', tools=[fetch, save, ping])\n",
    "app/agent_b.py": "from pydantic_ai import Agent\nfrom app.tools import save\n\nagent = Agent('test', tools=[save])\n",
    "app/helper.py": "from app.tools import fetch\n\ndef go():\n    return fetch('x')\n",  # imports, lists nothing
}


def _project(root) -> ProjectIndex:
    return ProjectIndex([str(root)], loader=load_facts)


def _listed(project: ProjectIndex, root, name: str) -> tuple[list[tuple[str, bool]], dict]:
    facts = project.facts_for_path(str(root / f"app/{name}.py"))
    with traced(project) as trace:
        found = groups.listed_by_importers(facts, project)
    return sorted((t.name, threaded) for t, threaded in found), dict(trace)


def test_plain_functions_listed_by_importers(tmp_path):
    write(tmp_path, PROJECT)
    listed, _ = _listed(_project(tmp_path), tmp_path, "tools")
    assert listed == [("fetch", False), ("save", False)]
    listed, _ = _listed(_project(tmp_path), tmp_path, "more")
    assert listed == [("ping", False)]


def test_each_importers_groups_are_worked_out_once(tmp_path, monkeypatch):
    write(tmp_path, PROJECT)
    calls: list[str] = []
    real = groups.groups_in

    def counted(facts, project, with_workflows=True):
        calls.append(facts.path)
        return real(facts, project, with_workflows)

    monkeypatch.setattr(groups, "groups_in", counted)
    project = _project(tmp_path)
    tools = project.facts_for_path(str(tmp_path / "app/tools.py"))
    for _ in range(3):
        _listed(project, tmp_path, "tools")
        _listed(project, tmp_path, "more")
        assert all(groups.run_by_a_group(t, tools, project) for t, _ in groups.listed_by_importers(tools, project))
    # `helper.py` names no framework, so it makes no group: it is not asked (siblint.model.relevance).
    assert sorted(calls) == sorted(str(tmp_path / f"app/{m}.py") for m in ("agent_a", "agent_b", "tools"))


def test_a_reused_answer_records_the_lookups_behind_it(tmp_path):
    write(tmp_path, PROJECT)
    alone = _listed(_project(tmp_path), tmp_path, "tools")
    shared = _project(tmp_path)
    _listed(shared, tmp_path, "more")  # works out agent_a's groups first
    reused = _listed(shared, tmp_path, "tools")
    assert reused == alone
    assert any("app.more" in key for key in alone[1])  # agent_a's lookup of its other import


def test_a_function_no_group_lists_is_no_tool(tmp_path):
    write(tmp_path, {**PROJECT, "app/agent_b.py": "from pydantic_ai import Agent\n\nagent = Agent('test', tools=[])\n",
                     "app/agent_a.py": "from pydantic_ai import Agent\nfrom app.tools import fetch\n\n"
                                       "agent = Agent('test', tools=[fetch])\n"})
    project = _project(tmp_path)
    tools = project.facts_for_path(str(tmp_path / "app/tools.py"))
    listed = dict((t.name, t) for t, _ in groups.listed_by_importers(tools, project))
    assert sorted(listed) == ["fetch"]
    assert groups.run_by_a_group(listed["fetch"], tools, project)
    save = plain_tool(tools, tools.functions["save"], "pydantic_ai")
    assert not groups.run_by_a_group(save, tools, project)  # listed in no group of this project


def test_remembered_computes_once_and_replays_its_lookups(tmp_path):
    write(tmp_path, {"a.py": "x = 1\n"})
    project = _project(tmp_path)
    computed: list[int] = []

    def compute() -> int:
        computed.append(1)
        project.module("a")
        return 42

    assert project.remembered(("k",), compute) == 42  # outside any trace
    with traced(project) as trace:
        assert project.remembered(("k",), compute) == 42
    assert computed == [1]
    assert trace == {"a": str(tmp_path / "a.py")}
    with traced(project) as other:
        project.remembered(("other",), lambda: project.module("missing"))
    assert other == {"missing": None}


def test_a_frameworks_own_module_is_not_asked_for_its_packages_importers_groups(tmp_path):
    """In a framework's own repository (`pydantic_ai/` beside its tests), every test module imports the
    framework's package and builds groups; a module of that package is used by its importers, never
    listed as tools by them, so only the agent code importing it directly is asked, not every importer
    of its package (pydantic-ai's tree spent 15% of its CPU building those groups). A project
    package's importers still are."""
    code = "def lookup(q):\n    return q\n"
    lists = "from pydantic_ai import Agent\nfrom {module} import lookup\n\nagent = Agent('test', tools=[lookup])\n"
    package = "import {package}\nfrom pydantic_ai import Agent\n\nagent = Agent('test', tools=[])\n"
    write(tmp_path, {"pydantic_ai/__init__.py": "", "pydantic_ai/extras.py": code, "app/__init__.py": "",
                     "app/extras.py": code, "tests/__init__.py": "",
                     "tests/test_framework.py": lists.format(module="pydantic_ai.extras"),
                     "tests/test_framework_package.py": package.format(package="pydantic_ai"),
                     "tests/test_app.py": lists.format(module="app.extras"),
                     "tests/test_app_package.py": package.format(package="app")})
    project = _project(tmp_path)

    def asked(path: str) -> list[str]:
        facts = project.facts_for_path(str(tmp_path / path))
        return sorted(os.path.relpath(m.path, tmp_path) for m in groups._group_modules(facts, project))

    assert asked("pydantic_ai/extras.py") == ["pydantic_ai/extras.py", "tests/test_framework.py"]
    assert asked("app/extras.py") == ["app/extras.py", "tests/test_app.py", "tests/test_app_package.py"]
