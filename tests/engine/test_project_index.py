"""Issue 21: the project index answers from the project's files, never from arrival order."""

from __future__ import annotations

import os
from pathlib import Path

from siblint.lint.engine import load_facts
from siblint.model.project import ProjectIndex, ProjectScan, module_name_for, project_root
from siblint.settings.config import Config
from support import write

SAVE = "def save(text):\n    return text\n"
AGENT = "from google.adk.agents import Agent\nfrom tools import save\n\nroot_agent = Agent(name='a', tools=[save])\n"


def _index(root: Path) -> ProjectIndex:
    return ProjectIndex([str(root)], loader=load_facts)


def test_folders_without_init_under_a_package_are_namespace_portions(tmp_path):
    write(tmp_path, {"pkg/__init__.py": "", "pkg/community/exa/tools.py": SAVE, "pkg/a/b/c/d/tools.py": SAVE,
                     "scripts/p1/tools.py": SAVE})
    assert module_name_for(str(tmp_path / "pkg/community/exa/tools.py")) == ("pkg.community.exa.tools", False, str(tmp_path))
    # more than three folders without `__init__.py`: not taken for portions of `pkg`
    assert module_name_for(str(tmp_path / "pkg/a/b/c/d/tools.py"))[0] == "tools"
    # no package above: a script's module, importing from its own folder
    assert module_name_for(str(tmp_path / "scripts/p1/tools.py")) == ("tools", False, str(tmp_path / "scripts/p1"))


def test_a_name_two_files_bear_resolves_from_the_importer_or_not_at_all(tmp_path):
    write(tmp_path, {"a/tools.py": SAVE, "a/agent.py": AGENT, "b/tools.py": SAVE, "b/agent.py": AGENT,
                     "c/only.py": SAVE})
    index = _index(tmp_path)
    # Facts of b arrive first (what a worker that got b's batch first would do): no effect on names.
    index.add(load_facts(str(tmp_path / "b/tools.py")))
    found = index.resolve("tools.save", str(tmp_path / "a/agent.py"))
    assert found is not None and found[0].path == str(tmp_path / "a/tools.py")
    found = index.resolve("tools.save", str(tmp_path / "b/agent.py"))
    assert found is not None and found[0].path == str(tmp_path / "b/tools.py")
    assert index.resolve("tools.save") is None  # ambiguous without an importer: unknown
    found = index.resolve("only.save")  # the one file bearing the name
    assert found is not None and found[0].path == str(tmp_path / "c/only.py")


def test_the_scan_says_which_plain_modules_agent_code_imports(tmp_path):
    write(tmp_path, {"a/tools.py": SAVE, "a/agent.py": AGENT, "b/helpers.py": SAVE,
                     "b/main.py": "from helpers import save\nprint(save('x'))\n"})
    index = _index(tmp_path)
    assert index.imported_by_agent_code(str(tmp_path / "a/tools.py"))
    assert not index.imported_by_agent_code(str(tmp_path / "b/helpers.py"))  # imported, but not by agent code
    assert not index.imported_by_agent_code(str(tmp_path / "a/agent.py"))


def test_a_module_agent_code_imports_is_analysed_only_when_it_defines_a_function(tmp_path):
    # adk-samples: every agent does `from . import prompt`; a prompts module holds no tool.
    agent = AGENT.replace("from tools import save", "from tools import save\nimport prompt")
    write(tmp_path, {"a/tools.py": SAVE, "a/agent.py": agent, "a/prompt.py": "INSTRUCTION = 'Be brief.'\n"})
    index = _index(tmp_path)
    for name, wanted in (("tools.py", True), ("prompt.py", False)):
        path = tmp_path / "a" / name
        assert index.imported_by_agent_code(str(path))
        assert index.wants(str(path), path.read_bytes()) is wanted, name


def test_the_project_root_is_the_config_folder_else_the_repository(tmp_path):
    write(tmp_path, {"repo/sub/x.py": "", "repo/.git/HEAD": "", "lone/x.py": ""})
    assert project_root(Config(root=str(tmp_path / "repo/sub"))) == str(tmp_path / "repo")
    assert project_root(Config(root=str(tmp_path / "lone"))) == str(tmp_path / "lone")
    configured = Config(root=str(tmp_path / "repo/sub"), source=str(tmp_path / "repo/sub/siblint.toml"))
    assert project_root(configured) == str(tmp_path / "repo/sub")
    assert os.path.isabs(project_root(Config(root=".")))


def test_a_folder_above_the_importer_holding_the_module_is_an_import_root(tmp_path):
    # `back/src` is on PYTHONPATH in the Dockerfile only: `from data.store import Store` in
    # `back/src/agents/order.py` is `back/src/data/store.py`.
    write(tmp_path, {"back/requirements.txt": "langchain\n", "back/src/data/store.py": SAVE,
                     "back/src/agents/order.py": "from data.store import save\n", "other/data/store.py": SAVE})
    index = _index(tmp_path)
    found = index.resolve("data.store.save", str(tmp_path / "back/src/agents/order.py"))
    assert found is not None and found[0].path == str(tmp_path / "back/src/data/store.py")
    # Nothing above a module's importer bears the name: still unknown.
    assert index.resolve("data.missing.save", str(tmp_path / "back/src/agents/order.py")) is None


def test_the_walk_above_an_importer_ends_at_the_filesystem_root(tmp_path):
    # A run given `tree /dev/null` once had `/` as its project root: `/` is its own parent, and
    # looking above the importer for a module nothing bears never ended.
    write(tmp_path, {"app/agent.py": "from nowhere_at_all import save\n"})
    index = ProjectIndex([os.sep], loader=load_facts, scan=ProjectScan.of([]))
    assert index.resolve("nowhere_at_all.save", str(tmp_path / "app/agent.py")) is None


def test_a_subclass_of_an_imported_tool_base_is_wanted_without_looking_up_library_names(tmp_path, monkeypatch):
    """`class TurnOnLights(HABaseTool)` passes the pre-filter through base.py's `BaseTool`; the imports
    no file of the class index bears (`pytest`, `os.path`) are never looked up on disk."""
    write(tmp_path, {
        "app/__init__.py": "",
        "app/base.py": "from langchain_core.tools import BaseTool\n\nclass HABaseTool(BaseTool):\n    pass\n",
        "app/lights.py": "import os.path\nimport pytest\nfrom app.base import HABaseTool\n\n"
                         "class TurnOnLights(HABaseTool):\n    def _run(self) -> str:\n        return 'on'\n",
        "app/other.py": "import pytest\n\nclass Plain:\n    pass\n",
    })
    project = ProjectIndex([str(tmp_path)])
    looked_up: list[str] = []
    real = ProjectIndex._file_for

    def recording(self, module, importer_folder=""):
        looked_up.append(module)
        return real(self, module, importer_folder)

    monkeypatch.setattr(ProjectIndex, "_file_for", recording)
    lights, other = tmp_path / "app" / "lights.py", tmp_path / "app" / "other.py"
    assert project.derives_a_project_tool_base(str(lights)) and not project.derives_a_project_tool_base(str(other))
    assert "app.base" in looked_up and not {"pytest", "os.path", "os"} & set(looked_up)
