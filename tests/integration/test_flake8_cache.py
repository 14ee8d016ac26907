"""flake8 (and so pre-commit's flake8 hook) uses siblint's cache: a warm run analyses nothing and
reports the same, an edited dependency re-checks its importer, and stdin gets the answer for its
content, not the file's."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import siblint.lint.engine as engine
from flake8.main.application import Application
from siblint.run import cache as cache_mod
from support import CHECKOUT_TOOLS, write

TOOLS = CHECKOUT_TOOLS
AGENT = "from agents import Agent\nfrom .tools import charge_card, lookup_tax\n\nagent = Agent(name='a', tools=[charge_card, lookup_tax])\n"


@pytest.fixture
def tree(tmp_path: Path, monkeypatch) -> Path:
    root = tmp_path / "tree"
    write(root, {"pkg/__init__.py": "", "pkg/tools.py": TOOLS, "pkg/agent.py": AGENT, "plain.py": "import os\n"})
    monkeypatch.setenv(cache_mod.ENV_VAR, str(tmp_path / "cache"))
    monkeypatch.chdir(root)
    return root


@pytest.fixture
def analysed(monkeypatch) -> list[str]:
    """Files the engine analysed, in order."""
    seen: list[str] = []
    real = engine.analyse

    def counting(path, *args, **kwargs):
        seen.append(os.path.basename(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(engine, "analyse", counting)
    return seen


def flake8(root: Path, *args: str) -> list[str]:
    out = root.parent / "report.txt"
    out.unlink(missing_ok=True)
    Application().run(["--isolated", "-j", "1", "--select", "SIB", f"--output-file={out}", *args])
    return sorted(out.read_text(encoding="utf-8").splitlines())


def test_a_warm_flake8_run_analyses_nothing_and_reports_the_same(tree: Path, analysed: list[str]) -> None:
    cold = flake8(tree, ".")
    assert any("agent.py:4" in line and "SIB301" in line for line in cold)
    assert sorted(analysed) == ["agent.py", "tools.py"]
    analysed.clear()
    assert flake8(tree, ".") == cold
    assert analysed == []
    assert list((tree.parent / "cache" / f"v{cache_mod.SCHEMA}" / "lint").rglob("*.json"))


def test_an_edited_dependency_rechecks_its_importer(tree: Path, analysed: list[str]) -> None:
    cold = flake8(tree, ".")
    (tree / "pkg" / "tools.py").write_text(TOOLS.replace("@function_tool(failure_error_function=None)", "@function_tool"))
    analysed.clear()
    warm = flake8(tree, ".")
    assert sorted(analysed) == ["agent.py", "tools.py"]
    assert not any("SIB301" in line for line in warm) and warm != cold
    analysed.clear()
    assert flake8(tree, ".") == warm and analysed == []


def test_stdin_is_answered_for_its_own_content_not_the_files(tree: Path, monkeypatch) -> None:
    import io
    import sys

    from flake8 import utils as flake8_utils

    on_disk = flake8(tree, "pkg/agent.py")
    assert any("SIB301" in line for line in on_disk)
    safe = TOOLS.replace("@function_tool(failure_error_function=None)", "@function_tool")
    results = []
    for text in (TOOLS, safe, TOOLS):  # an editor's unsaved buffer, edited and edited back
        flake8_utils.stdin_get_value.cache_clear()  # flake8 keeps stdin for the process
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
        results.append(flake8(tree, "-", "--stdin-display-name", "pkg/tools.py"))
    assert results[0] == results[2] != results[1]
    assert len(results[1]) == len(results[0]) - 1  # the fatal failure handler's finding is gone


def test_a_warm_flake8_run_takes_the_project_scan_from_the_cache(tree: Path, scanned: list[str]) -> None:
    cold = flake8(tree, ".")
    assert sorted(scanned) == ["__init__.py", "agent.py", "plain.py", "tools.py"]
    scanned.clear()
    assert flake8(tree, ".") == cold
    assert scanned == []
    (tree / "plain.py").write_text("import os  # edited\n")
    assert flake8(tree, ".") == cold
    assert scanned == ["plain.py"]
