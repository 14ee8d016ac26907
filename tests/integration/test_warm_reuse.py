"""A warm run reuses the project scan's per-file work and the pins' digest, and never what went
stale: an edit that keeps a file's size and modification time, a touched file, a renamed one, an
edited lock file. Every warm run is compared with a `--no-cache` run of the same tree."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from siblint.model.project import ProjectIndex
from siblint.model.versions import pins_digest
from siblint.run import cache as cache_mod
from siblint.run import runner
from siblint.settings.config import Config

CHARGE = ("import requests\nfrom agents import function_tool\n\n@function_tool\ndef charge_card(amount: int) -> str:\n"
          "    requests.post('https://payments.example.com/charges', json={'amount': amount})\n    return 'charged'\n")
AGENT = ("from agents import Agent, function_tool\nfrom tools import charge_card\n\n"
         "@function_tool(failure_error_function=None)\nasync def lookup_tax(region: str) -> str:\n    return ''\n\n"
         "agent = Agent(name='c', tools=[charge_card, lookup_tax])\n")
GRAPH = ("import requests\nfrom langchain_core.tools import tool\nfrom langgraph.prebuilt import ToolNode\n\n\n"
         "@tool\ndef charge_card(amount: int) -> str:\n    \"\"\"Charge.\"\"\"\n"
         "    return requests.post('https://pay.example.com/charge', json={'a': amount}).text\n\n\n"
         "node = ToolNode([charge_card])\n")
LOCK = 'version = 1\n[[package]]\nname = "langgraph-prebuilt"\nversion = "1.0.{}"\n'


def lint(root: Path, cached: bool = True) -> list[tuple[str, int, str]]:
    config = Config(root=str(root))
    files = sorted(str(p) for p in root.rglob("*.py") if ".cache" not in p.parts)
    cache = cache_mod.Cache(str(root / ".cache"), cache_mod.config_key(config)) if cached else None
    result = runner.run(files, config, 1, cache=cache)
    return [(os.path.relpath(d.path, root), d.loc.line, d.code) for d in result.diagnostics]


def same_size_same_mtime(path: Path, old: str, new: str) -> None:
    """Replace `old` by `new` (as long) in `path`, then give the file back its modification time."""
    assert len(old) == len(new)
    st = path.stat()
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert (path.stat().st_size, path.stat().st_mtime_ns) == (st.st_size, st.st_mtime_ns)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "tools.py").write_text(CHARGE)
    (tmp_path / "agent.py").write_text(AGENT)
    (tmp_path / "plain.py").write_text("import os\n")
    return tmp_path


def test_a_warm_run_scans_no_file_again(tree: Path, scanned: list[str]) -> None:
    cold = lint(tree)
    assert ("agent.py", 8, "SIB301") in cold
    assert sorted(scanned) == ["agent.py", "plain.py", "tools.py"]
    scanned.clear()
    assert lint(tree) == cold
    assert scanned == []


def test_the_scan_of_a_run_without_a_cache_is_not_remembered(tree: Path, scanned: list[str]) -> None:
    lint(tree, cached=False)
    lint(tree, cached=False)
    assert sorted(scanned) == ["agent.py", "agent.py", "plain.py", "plain.py", "tools.py", "tools.py"]


def test_an_edit_keeping_size_and_mtime_is_seen(tree: Path, scanned: list[str]) -> None:
    cold = lint(tree)
    same_size_same_mtime(tree / "agent.py", "from tools import", "from toolz import")  # a module that is not there
    scanned.clear()
    warm = lint(tree)
    assert scanned == ["agent.py"]  # its bytes changed: scanned again; the others' records hold
    assert warm == lint(tree, cached=False) != cold
    assert ("agent.py", 8, "SIB301") not in warm


def test_a_touched_file_is_reused(tree: Path, scanned: list[str]) -> None:
    cold = lint(tree)
    os.utime(tree / "tools.py", ns=(1, 1))  # another modification time, the same bytes
    scanned.clear()
    assert lint(tree) == cold
    assert scanned == []


def test_a_renamed_module_is_seen(tree: Path) -> None:
    cold = lint(tree)
    (tree / "tools.py").rename(tree / "payments.py")
    warm = lint(tree)
    assert warm == lint(tree, cached=False) != cold
    (tree / "payments.py").rename(tree / "tools.py")
    assert lint(tree) == cold


def test_a_damaged_scan_record_is_scanned_again(tree: Path, scanned: list[str]) -> None:
    from siblint.run.scan_memo import _part

    assert _part(("sha", "", ("os",), "yes", None, None, None), "sha", "") is None  # not a bool
    assert _part(("sha", "", (1,), True, None, None, None), "sha", "") is None
    assert _part(None, "sha", "") is None
    assert _part(("sha", "", ("os",), True, None, None), "sha", "") is None  # a record of the previous shape
    assert _part(("sha", "", ("os",), True, None, None, None), "sha", "") is not None
    assert _part(("sha", "", ("os",), True, None, None, None), "sha", "pkg") is None  # another package


@pytest.fixture
def prefiltered(monkeypatch) -> list[str]:
    """Files the pre-filter gave its verdict on (not answered by the scan's records); the scan's
    own question (`roots`: the frameworks that make tools of plain functions) is not counted."""
    from siblint.syntax import prefilter

    seen: list[str] = []
    real = prefilter.may_matter

    def counting(data: bytes, roots=None, path: str = "") -> bool:
        if roots is None:
            seen.append(os.path.basename(path))
        return real(data, roots, path)

    monkeypatch.setattr(prefilter, "may_matter", counting)
    return seen


def test_a_warm_run_asks_the_pre_filter_nothing_again(tree: Path, prefiltered: list[str]) -> None:
    (tree / "notes.py").write_text("# the tools of our agents, from agents we wrote\n")  # only CPython can tell
    cold = lint(tree)
    assert set(prefiltered) == {"agent.py", "notes.py", "plain.py", "tools.py"}
    prefiltered.clear()
    assert lint(tree) == cold
    assert prefiltered == []
    same_size_same_mtime(tree / "notes.py", "# the tools of our", "from agents import")  # now it imports the SDK
    warm = lint(tree)
    assert set(prefiltered) == {"notes.py"}  # and again when the engine analyses it
    assert warm == lint(tree, cached=False)


def test_a_run_over_some_files_keeps_the_others_verdicts(tree: Path, prefiltered: list[str]) -> None:
    from siblint.run.scan_memo import ScanMemo

    (tree / "app.js").write_text("console.log('agents')\n")
    config = Config(root=str(tree))
    cache = cache_mod.Cache(str(tree / ".cache"), cache_mod.config_key(config))
    runner.run(sorted(str(p) for p in tree.iterdir() if p.is_file()), config, 1, cache=cache)
    runner.run([str(tree / "plain.py")], config, 1, cache=cache_mod.Cache(str(tree / ".cache"), cache_mod.config_key(config)))
    memo = ScanMemo(lambda: cache_mod.Cache(str(tree / ".cache"), cache_mod.config_key(config)), [str(tree)])
    stored = memo._load()
    assert {os.path.basename(p): r[6] for p, r in stored.items()} == {
        "agent.py": True, "tools.py": True, "plain.py": False, "app.js": False}


def test_a_lock_file_edit_keeping_size_and_mtime_changes_the_findings(tmp_path: Path) -> None:
    (tmp_path / "graph.py").write_text(GRAPH)
    (tmp_path / "uv.lock").write_text(LOCK.format(2))
    new = lint(tmp_path)
    assert ("graph.py", 12, "SIB301") in new
    same_size_same_mtime(tmp_path / "uv.lock", '"1.0.2"', '"1.0.1"')  # below the release: no longer fatal
    old = lint(tmp_path)
    assert old == lint(tmp_path, cached=False) != new
    same_size_same_mtime(tmp_path / "uv.lock", '"1.0.1"', '"1.0.2"')
    assert lint(tmp_path) == new


def test_the_pins_digest_follows_the_pin_files_bytes(tmp_path: Path) -> None:
    def digest() -> str:
        return pins_digest(str(tmp_path), ProjectIndex([str(tmp_path)]))

    (tmp_path / "uv.lock").write_text(LOCK.format(1))
    first = digest()
    (tmp_path / "uv.lock").write_text(LOCK.format(1))
    assert digest() == first  # rewritten with the same bytes
    (tmp_path / "uv.lock").write_text(LOCK.format(2))
    assert digest() != first
    (tmp_path / "requirements.txt").write_text("langgraph\n")
    assert digest() not in (first,)
    (tmp_path / "uv.lock").unlink()
    (tmp_path / "requirements.txt").unlink()
    assert digest() != first  # nothing pinned any more


def test_an_edit_elsewhere_reads_the_pins_from_the_cache(tmp_path: Path, monkeypatch) -> None:
    from siblint.model import versions

    parsed: list[str] = []
    real = versions.read_pins
    monkeypatch.setattr(versions, "read_pins", lambda folder: parsed.append(folder) or real(folder))
    (tmp_path / "graph.py").write_text(GRAPH)
    (tmp_path / "uv.lock").write_text(LOCK.format(1))
    old = lint(tmp_path)
    assert parsed == [str(tmp_path)]
    with open(tmp_path / "graph.py", "a") as fh:
        fh.write("# edited\n")  # analysed again: its pins come from the cache
    assert lint(tmp_path) == old
    assert parsed == [str(tmp_path)]
    same_size_same_mtime(tmp_path / "uv.lock", '"1.0.1"', '"1.0.2"')  # other bytes: parsed again
    new = lint(tmp_path)
    assert len(parsed) == 2
    assert new == lint(tmp_path, cached=False) != old


def test_a_damaged_pins_record_is_read_again(tmp_path: Path) -> None:
    from siblint.run.pins_memo import PinStore

    cache = cache_mod.Cache(str(tmp_path / ".cache"), "k")
    store = PinStore(cache)
    for rows in ([("a", "==1", "x", "extra")], [("a", 1, "x")], [["a", "==1", "x"]], "a", None):
        cache.store_pins(store._key("d"), rows, "x")  # type: ignore[arg-type]
        assert store.get("d") is None
    cache.store_pins(store._key("d"), [("a", "==1", "x")], "x")
    assert store.get("d") == {"a": versions_pin("a", "==1", "x")}


def versions_pin(dist: str, spec: str, source: str):
    from siblint.settings.pins import Pin

    return Pin(dist, spec, source)


FATAL = ("from agents import function_tool\n\n\n@function_tool(failure_error_function=None)\n"
         "async def lookup_tax(region: str) -> str:\n    return '0.2'\n")


def test_the_fix_hint_counts_come_from_the_cache_until_the_bytes_change(tmp_path: Path, monkeypatch) -> None:
    from siblint.interfaces import fix_counts, fixing

    (tmp_path / "agent.py").write_text(FATAL)
    config = Config(root=str(tmp_path))
    cache = cache_mod.Cache(str(tmp_path / ".cache"), cache_mod.config_key(config))

    def findings() -> list:
        return runner.run([str(tmp_path / "agent.py")], config, 1, cache=None).diagnostics

    counted: list[str] = []
    real = fixing.file_fixable_counts
    monkeypatch.setattr(fixing, "file_fixable_counts", lambda p, d, f: counted.append(p) or real(p, d, f))
    expected = fixing.fixable_counts(findings())
    assert expected == (0, 1)  # the SIB201 fix is unsafe
    assert fix_counts.fixable_counts(findings(), cache) == expected
    assert len(counted) == 1
    assert fix_counts.fixable_counts(findings(), cache) == expected
    assert len(counted) == 1  # remembered
    same_size_same_mtime(tmp_path / "agent.py", "return '0.2'", "return '0.3'")
    assert fix_counts.fixable_counts(findings(), cache) == expected
    assert len(counted) == 2  # other bytes: counted again
    same_size_same_mtime(tmp_path / "agent.py", "failure_error_function=None", "failure_error_function=f   ")
    assert fix_counts.fixable_counts(findings(), cache) == fixing.fixable_counts(findings()) == (0, 0)


def test_the_fix_hint_of_a_warm_run_is_the_cold_runs(tmp_path: Path) -> None:
    from support import siblint

    (tmp_path / "agent.py").write_text(FATAL)
    runs = [siblint(["check", "--cache-dir", str(tmp_path / "c"), "--unsafe-fixes", "."], tmp_path) for _ in range(2)]
    assert "1 fixable with --fix --unsafe-fixes" in runs[0].stderr
    assert runs[0].stderr == runs[1].stderr and runs[0].stdout == runs[1].stdout
    assert list((tmp_path / "c").rglob("fixes/*/*.json"))


def test_a_damaged_fix_count_is_counted_again() -> None:
    from siblint.interfaces.fix_counts import _counts

    assert _counts((0, 1)) == (0, 1)
    for bad in ((0,), (0, -1), (0, 1.0), (True, 0), [0, 1], None, "01"):
        assert _counts(bad) is None


HELPERS = ("import requests\n\n\ndef charge(amount: int) -> str:\n"
           "    requests.post('https://pay.example.com/charges', json={'amount': amount})\n    return 'charged'\n")


def test_a_file_the_project_left_unanalysed_is_asked_again_only_when_its_lookups_changed(tmp_path: Path) -> None:
    # helpers.py imports no framework: only the project can make it matter, and nothing hands its
    # function on until glue.py re-exports it to agent code.
    (tmp_path / "helpers.py").write_text(HELPERS)
    (tmp_path / "glue.py").write_text("import helpers\n\nVERSION = 1\n")
    (tmp_path / "agent.py").write_text("from agents import Agent, function_tool\nfrom glue import charge\n\n"
                                       "agent = Agent(name='a', tools=[function_tool(charge)])\n")
    config = Config(root=str(tmp_path))
    files = sorted(str(p) for p in tmp_path.rglob("*.py") if ".cache" not in p.parts)

    def run_cached() -> runner.RunResult:
        return runner.run(files, config, 1, cache=cache_mod.Cache(str(tmp_path / ".cache"), cache_mod.config_key(config)))

    assert run_cached().diagnostics == [] == lint(tmp_path, cached=False)
    warm = run_cached()
    # helpers.py from the cache; glue.py (no function: its bytes answer) is asked again, never kept.
    assert (warm.cache_stats["skipped_hit"], warm.cache_stats["skipped_miss"], warm.files_passed) == (1, 1, 1)

    (tmp_path / "glue.py").write_text("from helpers import charge\n\nVERSION = 1\n")  # hands it on now
    edited = run_cached()
    cold = runner.run(files, config, 1)
    assert (edited.cache_stats["skipped_hit"], edited.cache_stats["skipped_miss"]) == (0, 2)
    assert (edited.files_passed, edited.diagnostics) == (cold.files_passed, cold.diagnostics)
    assert [(os.path.basename(d.path), d.code) for d in edited.diagnostics] == [("agent.py", "SIB101")]
    assert lint(tmp_path) == lint(tmp_path, cached=False)


def test_a_module_glue_code_hands_its_imports_to_becoming_agent_code_asks_again(tmp_path: Path) -> None:
    # glue.py hands charge to maker.py's builder; no lookup about helpers.py read maker.py's bytes,
    # so only the set of agent files (AGENT_INDEX in the trace) tells that maker.py became agent code.
    (tmp_path / "helpers.py").write_text(HELPERS)
    (tmp_path / "glue.py").write_text("from helpers import charge\nfrom maker import build\n\nagent = build([charge])\n")
    (tmp_path / "maker.py").write_text("def build(tools: list) -> list:\n    return tools\n")
    (tmp_path / "agent.py").write_text("from agents import Agent\n\nagent = Agent(name='a')\n")
    config = Config(root=str(tmp_path))
    files = sorted(str(p) for p in tmp_path.rglob("*.py") if ".cache" not in p.parts)

    def run_cached() -> runner.RunResult:
        return runner.run(files, config, 1, cache=cache_mod.Cache(str(tmp_path / ".cache"), cache_mod.config_key(config)))

    run_cached()
    assert run_cached().cache_stats["skipped_hit"] == 2  # helpers.py, maker.py
    (tmp_path / "maker.py").write_text("from google.adk.agents import LlmAgent\n\n\ndef build(tools: list) -> LlmAgent:\n"
                                       "    return LlmAgent(name='m', model='gemini-2.0-flash', tools=tools)\n")
    edited = run_cached()
    cold = runner.run(files, config, 1)
    assert edited.cache_stats["skipped_hit"] == 0
    assert (edited.files_passed, edited.diagnostics) == (cold.files_passed, cold.diagnostics)


def test_a_run_after_an_edit_analyses_it_in_the_prewarmed_worker(tree: Path) -> None:
    """With `-j2`, the first changed file a warm run reads forks a worker that imports the engine
    while the run reads on; it analyses what the cache cannot answer, with the same findings."""
    config = Config(root=str(tree))
    files = sorted(str(p) for p in tree.rglob("*.py") if ".cache" not in p.parts)

    def run(jobs: int) -> runner.RunResult:
        return runner.run(files, config, jobs, cache=cache_mod.Cache(str(tree / ".cache"), cache_mod.config_key(config)))

    assert not run(2).prewarmed  # cold: no earlier findings, the pool's business
    assert not run(2).prewarmed  # nothing changed: nothing to analyse, no worker
    (tree / "tools.py").write_text(CHARGE.replace("'charged'", "'done'"))
    edited = run(2)
    assert edited.prewarmed and edited.files_analysed >= 1
    assert [(os.path.relpath(d.path, tree), d.loc.line, d.code) for d in edited.diagnostics] == lint(tree, cached=False)
    (tree / "tools.py").write_text(CHARGE)
    assert not run(1).prewarmed  # -j1: never a second process
