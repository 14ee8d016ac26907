"""A pool's run without a cache scans the project in a forked process while the parent reads the
files and imports the engine (siblint.run.scan_ahead); the findings are those of a parent's own scan."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from siblint.model.project import ProjectIndex, ProjectScan
from siblint.run import runner
from siblint.run.scan_ahead import ScanAhead
from siblint.settings.config import Config

AGENT = """\
from google.adk.agents import Agent
from tools import charge, lookup

root_agent = Agent(name="a", model="m", tools=[charge, lookup])
"""
# Imports no framework: analysed because the agent module imports it (the scan decides).
TOOLS = """\
import stripe

def charge(customer: str) -> str:
    stripe.Charge.create(customer=customer, amount=100)
    return "ok"

def lookup(order: str) -> str:
    raise ValueError(order)
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text("[tool.siblint]\n")
    (tmp_path / "a_agent.py").write_text(AGENT)
    (tmp_path / "tools.py").write_text(TOOLS)
    (tmp_path / "unrelated.py").write_text("import os\n")
    return tmp_path


def _files(root: Path) -> list[str]:
    return sorted(str(p) for p in root.rglob("*.py"))


def test_the_forked_scan_is_the_parents(project: Path) -> None:
    index = ProjectIndex([str(project)])
    ahead = ScanAhead.start(index)
    assert ahead is not None
    made = ahead.result()
    assert isinstance(made, ProjectScan) and made == ProjectIndex([str(project)]).scan
    assert str(project / "a_agent.py") in made.agent_files


# Records which process made the scan: the forked one, never the parent.
WHO_SCANS = """
import os, sys
from siblint.model import project
from siblint.run import runner
from siblint.settings.config import Config

parent = os.getpid()
real = project.ProjectScan.of.__func__

def of(cls, *args, **kwargs):
    print("scanned in", "parent" if os.getpid() == parent else "child", flush=True)
    return real(cls, *args, **kwargs)

project.ProjectScan.of = classmethod(of)
runner.POOL_MIN_BYTES = 0
files = sorted(os.path.join(sys.argv[1], f) for f in os.listdir(sys.argv[1]) if f.endswith(".py"))
result = runner.run(files, Config(root=sys.argv[1], source=os.path.join(sys.argv[1], "pyproject.toml")), jobs=2)
print("passed", result.files_passed, sorted({d.code for d in result.diagnostics}))
"""


def test_a_pool_run_without_cache_scans_in_the_forked_process(project: Path) -> None:
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(WHO_SCANS), str(project)], capture_output=True,
                         text=True, timeout=120, check=True).stdout
    assert "scanned in child" in out and "scanned in parent" not in out, out
    assert "passed 2 " in out  # the agent module, and the tools module it imports


def test_findings_do_not_depend_on_who_scans(project: Path, monkeypatch) -> None:
    monkeypatch.setattr(runner, "POOL_MIN_BYTES", 0)
    config = Config(root=str(project), source=str(project / "pyproject.toml"))
    forked = runner.run(_files(project), config, 2)
    monkeypatch.setattr(ScanAhead, "result", lambda self: (self.close(), None)[1])  # the process made none
    parents = runner.run(_files(project), config, 2)
    inline = runner.run(_files(project), config, 1)
    assert forked.diagnostics == parents.diagnostics == inline.diagnostics
    assert forked.files_passed == parents.files_passed == inline.files_passed == 2
    assert {d.path for d in forked.diagnostics} >= {str(project / "tools.py")}


def test_no_process_without_a_pool_or_with_a_cache(project: Path, monkeypatch) -> None:
    started: list[int] = []
    real = ScanAhead.start.__func__

    def start(cls, index):
        started.append(os.getpid())
        return real(cls, index)

    monkeypatch.setattr(ScanAhead, "start", classmethod(start))
    config = Config(root=str(project), source=str(project / "pyproject.toml"))
    runner.run(_files(project), config, 1)
    runner.run(_files(project), config, 2, cache=lambda: None)  # a cache run (its folder refused)
    assert started == []
