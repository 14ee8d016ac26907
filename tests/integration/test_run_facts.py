"""Issue 24: no module parsed twice in one run (the run's facts store), the facts a process holds
bounded by bytes (least recently used forgotten first), and the parent handing big files out only
when they fit in the parse budget beside the work in flight."""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

import pytest
from siblint.lint import engine
from siblint.run import memory, runner
from siblint.run.facts_store import PREFIX, RunFacts, sweep_orphans
from siblint.run.memory import UNIT, Dispatch, ParseBudget, Untrimmed
from siblint.settings.config import Config

AGENT = """\
from agents import Agent, function_tool
from pkg.helpers import helper

@function_tool
def lookup(city: str) -> str:
    return helper(city)

agent = Agent(name="a", tools=[lookup])
"""
HELPERS = "def helper(x):\n    return x\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "pkg").mkdir()
    modules = {"__init__": "", "helpers": HELPERS, "agent": AGENT, "other": AGENT.replace("lookup", "find")}
    for name, text in modules.items():
        (tmp_path / "pkg" / f"{name}.py").write_text(text)
    return tmp_path


@pytest.fixture
def parses(monkeypatch) -> Counter:
    """How often each file (by absolute path) was parsed."""
    seen: Counter = Counter()
    real = engine.facts_from_text

    def counting(text: str, path: str, tree=None, **options):
        seen[os.path.abspath(path)] += 1
        return real(text, path, tree, **options)

    monkeypatch.setattr(engine, "facts_from_text", counting)
    return seen


def test_store_round_trip_under_any_spelling_of_the_path(tmp_path: Path, project: Path) -> None:
    path = str(project / "pkg" / "agent.py")
    facts = engine.facts_from_text(AGENT, path)
    store = RunFacts(str(tmp_path))
    assert store.load(path, "sha") is None
    store.store(path, "sha", facts)
    assert store.load(path, "sha") == facts
    assert store.load(path, "other sha") is None  # another content is another entry
    relative = os.path.relpath(path)
    again = store.load(relative, "sha")
    assert again is not None and again.path == relative
    assert again == engine.facts_from_text(AGENT, relative)  # what a parse under that path gives


def test_views_are_not_stored_and_a_damaged_entry_is_a_miss(tmp_path: Path, project: Path) -> None:
    path = str(project / "pkg" / "agent.py")
    facts = engine.facts_from_text(AGENT, path)
    facts.all_calls()  # a rule's view, cached on the facts
    store = RunFacts(str(tmp_path))
    store.store(path, "sha", facts)
    assert "_views" not in store.load(path, "sha").__dict__
    with open(store._file(path, "sha"), "wb") as fh:
        fh.write(b"not a pickle")
    assert store.load(path, "sha") is None


def test_js_facts_come_back_only_under_the_path_stored(tmp_path: Path) -> None:
    store = RunFacts(str(tmp_path))
    path = str(tmp_path / "tools.ts")
    facts = engine.facts_from_text("export const x = 1;\n", path)
    store.store(path, "sha", facts)
    assert store.load(path, "sha") == facts
    assert store.load(os.path.relpath(path), "sha") is None


def test_the_run_folder_is_private_and_removed() -> None:
    with RunFacts.opened() as store:
        assert store is not None and os.stat(store.folder).st_mode & 0o077 == 0
        folder = store.folder
    assert not os.path.exists(folder)


def test_no_temporary_folder_no_store_and_the_run_still_works(project: Path, monkeypatch) -> None:
    def no_room(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(tempfile, "mkdtemp", no_room)
    with RunFacts.opened() as store:
        assert store is None
    files = sorted(str(p) for p in project.rglob("*.py"))
    assert runner.run(files, Config(root=str(project)), 1).files_analysed == 2


def test_a_forgotten_module_comes_back_from_the_store_not_a_parse(project: Path, parses: Counter) -> None:
    config = Config(root=str(project))
    helpers, agent = str(project / "pkg" / "helpers.py"), str(project / "pkg" / "agent.py")
    with RunFacts.opened() as store:
        analyser = runner._Analyser(config, None, None, run_facts=store)
        analyser.check(helpers)  # checked first, then forgotten: nothing asked for it yet
        assert helpers not in analyser.project.held()
        analyser.check(agent)  # looks helpers up
    assert parses[helpers] == 1 and parses[agent] == 1


def test_without_a_store_the_forgotten_module_is_parsed_again(project: Path, parses: Counter) -> None:
    analyser = runner._Analyser(Config(root=str(project)), None, None)
    analyser.check(str(project / "pkg" / "helpers.py"))
    analyser.check(str(project / "pkg" / "agent.py"))
    assert parses[str(project / "pkg" / "helpers.py")] == 2


def test_a_module_another_process_parsed_is_not_parsed_again(project: Path, parses: Counter) -> None:
    config = Config(root=str(project))
    helpers = str(project / "pkg" / "helpers.py")
    with RunFacts.opened() as store:  # two workers' analysers, one store
        first = runner._Analyser(config, None, None, run_facts=store)
        second = runner._Analyser(config, None, None, run_facts=store)
        one = first.check(str(project / "pkg" / "agent.py"))
        two = second.check(str(project / "pkg" / "other.py"))
        own = second.check(helpers)
    assert parses[helpers] == 1
    alone = runner._Analyser(config, None, None)
    assert [one[1], two[1], own[1]] == [alone.check(p)[1] for p in (one[0], two[0], own[0])]


def test_held_facts_are_bounded_least_recently_used_first(project: Path, monkeypatch) -> None:
    monkeypatch.setattr(memory, "HELD_BYTES", len(HELPERS))
    config = Config(root=str(project))
    with RunFacts.opened() as store:
        analyser = runner._Analyser(config, None, None, run_facts=store)
        index = analyser.project
        helpers, init = str(project / "pkg" / "helpers.py"), str(project / "pkg" / "__init__.py")
        index.facts_for_path(helpers)
        index.facts_for_path(init)
        index.facts_for_path(helpers)  # used again: now the most recent
        assert index.held() == [init, helpers]
        analyser.check(str(project / "pkg" / "agent.py"))
        assert sum(analyser.sizes[p] for p in index.held()) <= len(HELPERS)
        assert index.facts_for_path(helpers) is not None  # asked again: it comes back


def test_without_a_store_nothing_held_is_forgotten(project: Path, monkeypatch) -> None:
    monkeypatch.setattr(memory, "HELD_BYTES", 0)
    analyser = runner._Analyser(Config(root=str(project)), None, None)
    analyser.project.facts_for_path(str(project / "pkg" / "helpers.py"))
    analyser.check(str(project / "pkg" / "agent.py"))
    assert str(project / "pkg" / "helpers.py") in analyser.project.held()


def test_dispatch_holds_a_big_file_back_while_small_work_is_left() -> None:
    budget = ParseBudget(multiprocessing.get_context("fork"))
    sizes = {"huge": budget.units * UNIT * 2, "big": UNIT * 4, "s1": 10, "s2": 20}
    queue = Dispatch([["huge"], ["big"], ["s1", "s2"]], sizes, budget)
    first, units = queue.take(0)
    assert first == ["huge"] and units == budget.units_for(sizes["huge"])
    assert queue.take(units) == (["s1", "s2"], 0)  # "big" would wait on the budget: small work instead
    assert queue.left() == ["big"]
    assert queue.take(units) == (["big"], 4)  # nothing else is left: it goes and waits in the worker
    assert not queue


def test_dispatch_sends_big_files_together_when_they_fit() -> None:
    budget = ParseBudget(multiprocessing.get_context("fork"))
    queue = Dispatch([["a"], ["b"], ["s"]], {"a": UNIT * 3, "b": UNIT * 3, "s": 1}, budget)
    assert queue.take(0)[0] == ["a"]
    assert queue.take(3)[0] == ["b"]


def test_many_small_parses_hand_memory_back_like_one_big_one() -> None:
    untrimmed = Untrimmed()
    small = memory.TRIM_AFTER // 4
    assert [untrimmed.add(small) for _ in range(4)] == [False, False, False, True]
    assert untrimmed.bytes == 0



def test_a_killed_runs_folder_is_removed_by_the_next_run_and_nothing_else_is(tmp_path):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    orphan = tmp_path / f"{PREFIX}{int(dead.stdout)}-abc"
    live = tmp_path / f"{PREFIX}{os.getpid()}-abc"  # a run still going: this process
    other = tmp_path / f"{PREFIX}x-abc"  # not a run's name
    target = tmp_path / "elsewhere"
    for folder in (orphan, live, other, target):
        folder.mkdir()
        (folder / "f.pickle").write_bytes(b"x")
    link = tmp_path / f"{PREFIX}{int(dead.stdout)}-link"
    link.symlink_to(target, target_is_directory=True)
    sweep_orphans(str(tmp_path))
    assert not orphan.exists()
    assert live.exists() and other.exists() and link.is_symlink() and (target / "f.pickle").exists()


def test_a_runs_folder_is_named_by_its_process_and_gone_after_it(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    with RunFacts.opened() as store:
        assert store is not None and os.path.basename(store.folder).startswith(f"{PREFIX}{os.getpid()}-")
    assert not list(tmp_path.iterdir())
