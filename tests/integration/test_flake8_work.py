"""Issue 24: the flake8 plugin does once per run what `siblint check` does once per run, and parses
with libcst only the files `siblint check` parses: the second stage runs on flake8's own tree, module
names are worked out once per run, each folder's exclusion is decided once, and a file that never
mentions `noqa` pays no per-line directive matching."""

from __future__ import annotations

import collections
import gc
import os
import sys
import types
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest
from flake8.main.application import Application
from hypothesis import given
from hypothesis import strategies as st

import siblint.model.project as project_mod
from siblint.common.gctune import retire_survivors
from siblint.lint.noqa import SIBLINT_FILE_CODES, SIBLINT_NOQA_FILE, NOQA_FILE, file_codes, file_is_ignored, may_hold_directive
from siblint.settings.config import Config
from siblint.settings.excludes import Skip
from siblint.syntax import source
from support import write

EFFECT = "import requests\n"
PLAIN = "\ndef charge(n: int) -> str:\n    requests.post('https://pay.example.com', json={'n': n})\n    return 'ok'\n"
TOOL = EFFECT + "from agents import function_tool\n\n@function_tool" + PLAIN
UNUSED = EFFECT + "from agents import __version__\n" + PLAIN  # imports a framework, uses none of its names


def flake8(root: Path, *args: str) -> list[str]:
    """`flake8 --select SIB` in this process, from `root`; the report's lines relative to it."""
    out = root.parent / "report.txt"
    out.unlink(missing_ok=True)
    Application().run(["--isolated", "-j", "1", "--select", "SIB", f"--output-file={out}", *args])
    return sorted(out.read_text(encoding="utf-8").splitlines())


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "tree"
    root.mkdir()
    monkeypatch.chdir(root)
    return root


def test_a_file_that_cannot_report_is_not_parsed_under_flake8(tree: Path, parsed_names: list[str]) -> None:
    write(tree, {"pay.py": UNUSED, "tool.py": TOOL})
    assert [line.split(": ")[1].split()[0] for line in flake8(tree, ".")] == ["SIB101"]
    assert parsed_names == ["tool.py"]  # as `siblint check`: pay.py is decided on flake8's tree


def test_flake8s_tree_is_guarded_once_for_a_kept_file(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    guarded: list[int] = []
    real = source.guard
    monkeypatch.setattr(source, "guard", lambda t, text: guarded.append(1) or real(t, text))
    parsed: list[int] = []
    real_parse = source.ast.parse
    monkeypatch.setattr(source.ast, "parse", lambda *a, **k: parsed.append(1) or real_parse(*a, **k))
    write(tree, {"tool.py": TOOL})
    assert len(flake8(tree, "tool.py")) == 1
    assert guarded == [1]
    assert parsed == [1]  # flake8's own parse; siblint parses nothing with CPython again


def test_the_guard_still_reports_under_flake8(tree: Path) -> None:
    deep = "from agents import function_tool\nx = " + " and ".join(["a"] * 4100) + "\n"  # past libcst's safe depth
    write(tree, {"deep.py": deep})
    lines = flake8(tree, "deep.py")
    assert [line.split(": ")[1].split()[0] for line in lines] == ["SIB900"], lines


def test_module_names_are_worked_out_once_per_flake8_run(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: collections.Counter[str] = collections.Counter()
    real = project_mod._module_name
    monkeypatch.setattr(project_mod, "_module_name", lambda path: calls.update([path]) or real(path))
    write(tree, {"pkg/__init__.py": "", "pkg/tools.py": TOOL, "pkg/agent.py":
                 "from agents import Agent\nfrom .tools import charge\n\nagent = Agent(name='a', tools=[charge])\n",
                 "pkg/plain.py": "import os\n", "pkg/sub/__init__.py": "", "pkg/sub/more.py": UNUSED})
    monkeypatch.setenv("SIBLINT_CACHE_DIR", str(tree.parent / "cache"))
    cold = flake8(tree, ".")
    assert calls and max(calls.values()) == 1, calls.most_common(3)
    calls.clear()
    assert flake8(tree, ".") == cold  # warm: the cache's keys and checks ask again, once each
    assert calls and max(calls.values()) == 1, calls.most_common(3)
    calls.clear()
    # Outside a run the tree may change (an editor): nothing is remembered.
    project_mod.module_name_for(str(tree / "pkg/plain.py"))
    project_mod.module_name_for(str(tree / "pkg/plain.py"))
    assert calls[str(tree / "pkg/plain.py")] == 2


def test_a_run_carries_its_memory_of_the_tree_from_one_block_to_the_next(tmp_path: Path) -> None:
    write(tmp_path, {"app/tools.py": "def save(): ...\n"})
    tools = str(tmp_path / "app/tools.py")
    with project_mod.tree_held_still() as held:
        assert project_mod.module_name_for(tools)[0] == "tools"
    (tmp_path / "app/__init__.py").write_text("")
    with project_mod.tree_held_still(held) as again:
        assert again is held
        assert project_mod.module_name_for(tools)[0] == "tools"  # the same run: remembered
        assert project_mod.module_name_for(str(tmp_path / "app/other.py"))[0] == "other"  # so is the folder
    with project_mod.tree_held_still():
        assert project_mod.module_name_for(tools)[0] == "app.tools"  # a new run sees the tree as it is


def test_each_folder_is_decided_once_for_the_walk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, {"a/b/one.py": "", "a/b/two.py": "", "a/c/three.py": "", "a/gen/skip.py": "",
                     "a/gen/deeper/skip2.py": "", "top.py": ""})
    # `gen/` leaves out the folder; `!*.py` takes its files back, which a walk never reaches.
    skip = Skip(Config(root=str(tmp_path), extend_exclude=("gen/", "!*.py")))
    asked: collections.Counter[str] = collections.Counter()
    real = Skip.__call__

    def counting(self: Skip, path: str, is_dir: bool) -> bool:
        if is_dir:
            asked.update([os.path.relpath(path, tmp_path)])
        return real(self, path, is_dir)

    monkeypatch.setattr(Skip, "__call__", counting)
    answers = {rel: skip.walk_would_skip(str(tmp_path / rel), str(tmp_path))
               for rel in ("a/b/one.py", "a/b/two.py", "a/c/three.py", "a/gen/skip.py", "a/gen/deeper/skip2.py", "top.py")}
    assert answers == {"a/b/one.py": False, "a/b/two.py": False, "a/c/three.py": False, "a/gen/skip.py": True,
                       "a/gen/deeper/skip2.py": True, "top.py": False}
    assert max(asked.values()) == 1, asked
    assert set(asked) == {"a", "a/b", "a/c", "a/gen"}  # below a skipped folder, nothing more is asked
    assert not skip.walk_would_skip(str(tmp_path / "a/gen/skip.py"), str(tmp_path / "a/gen"))  # walking gen itself


DIRECTIVE_PARTS = st.lists(st.sampled_from(["#", " ", "\t", "siblint", "SibLint", "flake8", "FLAKE8", ":", "=", "noqa",
                                            "NoQA", "nOqA", "SIB101", "SIB2", ",", "\n", "x", "ſ", "K"]), max_size=12)


@given(DIRECTIVE_PARTS)
def test_a_text_without_noqa_holds_no_file_directive(parts: list[str]) -> None:
    text = "".join(parts)
    lines = text.splitlines(keepends=True)
    found = (file_is_ignored(lines, SIBLINT_NOQA_FILE) or file_is_ignored(lines, NOQA_FILE)
             or bool(file_codes(lines)) or any(SIBLINT_FILE_CODES.match(line) for line in lines))
    assert not found or may_hold_directive(text)


def test_directives_are_honoured_in_any_case_under_flake8(tree: Path) -> None:
    write(tree, {"skipped.py": "# SIBLINT: NOQA\n" + TOOL, "codes.py": "# SibLint: NoQa: SIB101\n" + TOOL, "tool.py": TOOL})
    assert [line.split(":")[0] for line in flake8(tree, ".")] == ["./tool.py"]


@pytest.fixture
def thawed() -> Iterator[None]:
    """The test process must not keep frozen objects (gc.freeze) after a test that freezes them."""
    gc.unfreeze()
    yield
    gc.unfreeze()


def test_under_flake8s_command_line_what_the_run_keeps_is_frozen_after_each_analysed_file(
        tree: Path, monkeypatch: pytest.MonkeyPatch, thawed: None) -> None:
    write(tree, {"pay.py": UNUSED, "tool.py": TOOL})
    monkeypatch.delitem(sys.modules, "flake8.main.cli", raising=False)
    api = flake8(tree, ".")
    assert gc.get_freeze_count() == 0  # the API, as editors and test runners call it in-process: untouched
    monkeypatch.setitem(sys.modules, "flake8.main.cli", types.ModuleType("flake8.main.cli"))
    assert flake8(tree, ".") == api
    assert gc.get_freeze_count() > 0


def test_under_flake8s_command_line_the_project_is_scanned_before_any_file(
        tree: Path, monkeypatch: pytest.MonkeyPatch, thawed: None) -> None:
    """flake8 forks its -j workers after `parse_options`: what is made there, each worker inherits
    instead of making its own (the scan reads every file of the project)."""
    from siblint.interfaces.flake8_plugin import Plugin

    write(tree, {"pay.py": UNUSED, "tool.py": TOOL})
    events: list[str] = []
    real_of, real_run = project_mod.ProjectScan.of, Plugin.run

    def scanning(roots: list[str], *rest: object) -> object:
        events.append("scan")
        return real_of(roots, *rest)

    def running(self: Plugin) -> Iterator[tuple[int, int, str, type]]:
        events.append("file")
        return real_run(self)

    monkeypatch.setattr(project_mod.ProjectScan, "of", scanning)
    monkeypatch.setattr(Plugin, "run", running)
    monkeypatch.delitem(sys.modules, "flake8.main.cli", raising=False)
    api = flake8(tree, ".")
    assert events[0] == "file" and events.count("scan") == 1  # the API: made on the first file's need
    events.clear()
    monkeypatch.setitem(sys.modules, "flake8.main.cli", types.ModuleType("flake8.main.cli"))
    assert flake8(tree, ".") == api
    assert events == ["scan", "file", "file"]
    assert gc.get_freeze_count() > 0  # and retired from the collector before the fork


def test_retiring_survivors_frees_garbage_before_freezing(thawed: None) -> None:
    class Node:
        pass

    cycle = Node()
    cycle.self = cycle  # type: ignore[attr-defined]  # garbage only the cyclic collector can free
    gone = weakref.ref(cycle)
    kept = Node()
    del cycle
    retire_survivors()
    assert gone() is None
    assert any(o is kept for o in gc.get_objects()) is False  # frozen: out of the collector's view
    assert gc.get_freeze_count() > 0
