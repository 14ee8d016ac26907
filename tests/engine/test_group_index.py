"""Issue 24: which groups list a module's tools is worked out once per importing module and run
(`ProjectIndex.remembered`), not again for every tool and every tools module; a file that reuses an
answer records the lookups behind it, so the cache re-checks its findings as if it had computed it."""

from __future__ import annotations

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
