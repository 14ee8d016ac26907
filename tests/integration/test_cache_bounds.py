"""The bounded cache: facts of edited and deleted files are pruned, the size cap evicts the least
recently used files, `cache-max-size` is read from the config, and `siblint clean` removes only a
folder siblint made (never through a link, never a foreign folder)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from siblint.run import cache as cache_mod
from siblint.run import cache_bounds, runner
from siblint.settings.config import Config, ConfigError, from_table
from support import CHECKOUT_TOOLS, write

AGENT = "from agents import Agent\nfrom .tools import charge_card, lookup_tax\n\nagent = Agent(name='a', tools=[charge_card, lookup_tax])\n"
EXTRA = "from agents import function_tool\n\n@function_tool\ndef ping() -> str:\n    return 'pong'\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    write(tmp_path, {"pkg/__init__.py": "", "pkg/tools.py": CHECKOUT_TOOLS, "pkg/agent.py": AGENT, "pkg/extra.py": EXTRA})
    return tmp_path


def new_cache(root: Path, max_size: int | None = None) -> cache_mod.Cache:
    return cache_mod.Cache(str(root / ".cache"), cache_mod.config_key(Config(root=str(root))), max_size=max_size)


def lint(root: Path, cache: cache_mod.Cache) -> list[tuple[str, int, str]]:
    files = sorted(str(p) for p in root.rglob("*.py") if ".cache" not in p.parts)
    result = runner.run(files, Config(root=str(root)), 1, cache=cache)
    return [(os.path.relpath(d.path, root), d.loc.line, d.code) for d in result.diagnostics]


def facts_by_source(root: Path) -> dict[str, int]:
    """Source file (from each facts file's header) -> how many facts files the cache holds for it."""
    out: dict[str, int] = {}
    for p in (root / ".cache" / f"v{cache_mod.SCHEMA}" / "facts").rglob("*.json"):
        source = cache_mod.header_path(p.read_bytes())
        assert source is not None
        out[os.path.basename(source)] = out.get(os.path.basename(source), 0) + 1
    return out


def test_an_edit_replaces_the_files_facts_and_a_warm_run_keeps_them(project: Path) -> None:
    lint(project, new_cache(project))
    assert facts_by_source(project) == {"tools.py": 1, "agent.py": 1, "extra.py": 1}
    lint(project, new_cache(project))  # warm: nothing changes
    assert facts_by_source(project) == {"tools.py": 1, "agent.py": 1, "extra.py": 1}
    for n in range(3):
        (project / "pkg" / "extra.py").write_text(EXTRA + f"# edit {n}\n")
        lint(project, new_cache(project))
    assert facts_by_source(project)["extra.py"] == 1


def test_a_deleted_file_loses_its_facts_and_its_findings(project: Path) -> None:
    lint(project, new_cache(project))
    (project / "pkg" / "extra.py").unlink()
    (project / "pkg" / "agent.py").write_text(AGENT + "# edited\n")  # this run writes: it prunes
    c = new_cache(project)
    lint(project, c)
    assert "extra.py" not in facts_by_source(project)
    assert set(facts_by_source(project)) == {"tools.py", "agent.py"}
    c2 = new_cache(project)
    c2.load_index()
    assert sorted(os.path.basename(k.split("\0")[0]) for k in c2.entries) == ["agent.py", "tools.py"]


def test_a_subset_run_keeps_the_other_files_entries(project: Path) -> None:
    lint(project, new_cache(project))
    c = new_cache(project)
    runner.run([str(project / "pkg" / "agent.py")], Config(root=str(project)), 1, cache=c)
    (project / "pkg" / "agent.py").write_text(AGENT + "# edited\n")
    runner.run([str(project / "pkg" / "agent.py")], Config(root=str(project)), 1, cache=new_cache(project))
    c2 = new_cache(project)
    c2.load_index()
    assert len(c2.entries) == 3  # the files that pass the pre-filter
    assert c2.source_bytes >= sum(len(p.read_bytes()) for p in project.rglob("*.py")) - 20  # the largest run's


def test_other_schema_folders_and_stale_temporary_files_are_removed(project: Path) -> None:
    lint(project, new_cache(project))
    old = project / ".cache" / "v1" / "facts" / "ab"
    old.mkdir(parents=True)
    (old / "x.json").write_bytes(b"old")
    base = project / ".cache" / f"v{cache_mod.SCHEMA}"
    stale, fresh = base / ".tmp-stale", base / ".tmp-fresh"
    stale.write_bytes(b"half")
    fresh.write_bytes(b"half")  # a concurrent run may be writing it: kept
    os.utime(stale, (1, 1))
    (project / "pkg" / "agent.py").write_text(AGENT + "# edited\n")
    lint(project, new_cache(project))
    assert not (project / ".cache" / "v1").exists()
    assert not stale.exists() and fresh.exists()


def _blob(folder: Path, name: str, size: int, used: float) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    p = folder / name
    p.write_bytes(b"x" * size)
    os.utime(p, (used, used))
    return p


def test_the_cap_evicts_the_least_recently_used_first(tmp_path: Path) -> None:
    base = tmp_path / "c" / "v2"
    index = _blob(base, "findings-1.json", 100, 1)  # the oldest, but the index of this run: kept
    old = _blob(base / "facts" / "aa", "aaa-1.json", 1000, 10)
    mid = _blob(base / "facts" / "bb", "bbb-1.json", 1000, 20)
    new = _blob(base / "facts" / "aa", "aab-1.json", 1000, 30)
    stats = cache_bounds.prune(str(tmp_path / "c"), str(base), 2200, keep={str(index)})
    assert not old.exists() and mid.exists() and new.exists() and index.exists()
    assert stats == {"cache_bytes_before": 3100, "cache_bytes_after": 2100, "cache_cap": 2200}
    # Its benign twin: under the cap nothing goes.
    stats = cache_bounds.prune(str(tmp_path / "c"), str(base), 10_000, keep={str(index)})
    assert mid.exists() and new.exists() and stats["cache_bytes_after"] == 2100


def test_reading_facts_counts_as_use(project: Path) -> None:
    lint(project, new_cache(project))
    files = sorted((project / ".cache" / f"v{cache_mod.SCHEMA}" / "facts").rglob("*.json"))
    for p in files:
        os.utime(p, (1, 1))
    c = new_cache(project)
    (project / "pkg" / "agent.py").write_text(AGENT + "# edited\n")  # re-checked from cached facts of tools.py
    lint(project, c)
    used = {cache_mod.header_path(p.read_bytes()): p.stat().st_mtime for p in files if p.exists()}
    assert used[str(project / "pkg" / "tools.py")] > 1  # read: touched
    assert used[str(project / "pkg" / "extra.py")] == 1  # not read (its findings came from the index)


def test_a_small_cap_evicts_down_to_it_and_findings_stay_right(project: Path) -> None:
    cold = lint(project, new_cache(project))
    (project / "pkg" / "agent.py").write_text(AGENT + "# edited\n")
    c = new_cache(project, max_size=1)
    assert lint(project, c) == [(p, line, code) for p, line, code in cold]
    assert c.stats["cache_bytes_after"] <= os.path.getsize(c.index_path)  # only the index is left
    assert lint(project, new_cache(project)) == cold  # and a run after the eviction still agrees


def test_the_default_cap_is_twice_the_source_with_a_floor() -> None:
    c = cache_mod.Cache("/nonexistent", "k", secret=b"s" * 32)
    assert c.size_cap() == cache_mod.DEFAULT_FLOOR
    c.source_bytes = 100_000_000
    assert c.size_cap() == 200_000_000
    assert cache_mod.Cache("/nonexistent", "k", secret=b"s" * 32, max_size=5).size_cap() == 5


def test_cache_max_size_is_read_from_the_config_and_keeps_the_findings_key(tmp_path: Path) -> None:
    config = from_table({"cache-max-size": "50MB"}, str(tmp_path))
    assert config.cache_max_size == 50_000_000
    assert cache_mod.config_key(config) == cache_mod.config_key(Config(root=str(tmp_path)))
    with pytest.raises(ConfigError, match="cache-max-size"):
        from_table({"cache-max-size": "lots"}, str(tmp_path))


def test_a_full_cache_fits_the_default_cap_of_twice_its_source(project: Path) -> None:
    # Modules of a real size (a few KB): per-file overhead (a header line) is small beside them.
    helpers = "".join(f"\ndef helper_{i}(rows: list[dict], key: str = 'id') -> dict:\n"
                      f"    out = {{}}\n    for row in rows:\n        out[row[key]] = row.get('v{i}', {i})\n    return out\n"
                      for i in range(40))
    for n in range(30):
        (project / "pkg" / f"more_{n}.py").write_text(CHECKOUT_TOOLS.replace("charge_card", f"charge_{n}") + helpers)
    lint(project, new_cache(project))
    source = sum(p.stat().st_size for p in project.rglob("*.py") if ".cache" not in p.parts)
    cached = sum(p.stat().st_size for p in (project / ".cache").rglob("*") if p.is_file())
    assert cached < 2 * source


# ---- siblint clean ---------------------------------------------------------------------------------
def clean(args: list[str], cwd: Path):
    from click.testing import CliRunner
    from siblint.interfaces.cli import main

    old = os.getcwd()
    os.chdir(cwd)
    try:
        return CliRunner().invoke(main, ["clean", *args])
    finally:
        os.chdir(old)


def test_clean_removes_the_cache_check_made(project: Path, monkeypatch) -> None:
    monkeypatch.delenv(cache_mod.ENV_VAR, raising=False)
    from click.testing import CliRunner
    from siblint.interfaces.cli import main

    monkeypatch.chdir(project)
    assert CliRunner().invoke(main, ["check", "."]).exit_code == 1
    assert (project / ".siblint_cache" / "CACHEDIR.TAG").exists()
    r = clean([], project)
    assert r.exit_code == 0, r.output
    assert not (project / ".siblint_cache").exists()
    assert (project / "pkg" / "tools.py").exists()
    r = clean([], project)  # nothing left: says so, succeeds
    assert r.exit_code == 0 and "no cache" in r.output


def test_clean_keeps_what_siblint_did_not_write(project: Path) -> None:
    lint(project, new_cache(project))
    (project / ".cache" / "notes.txt").write_text("mine")
    r = clean(["--cache-dir", str(project / ".cache")], project)
    assert r.exit_code == 0 and "notes.txt" in r.output
    assert sorted(os.listdir(project / ".cache")) == [".gitignore", "CACHEDIR.TAG", "notes.txt"]  # still marked


def test_clean_refuses_a_symlinked_cache_folder(project: Path, tmp_path: Path) -> None:
    lint(project, new_cache(project))
    link = tmp_path / "link"
    link.symlink_to(project / ".cache")
    r = clean(["--cache-dir", str(link)], project)
    assert r.exit_code == 2 and "symbolic link" in r.output
    assert (project / ".cache" / f"v{cache_mod.SCHEMA}").is_dir() and link.is_symlink()


@pytest.mark.parametrize("tag", [None, b"Signature: 8a477f597d28d172789f06886806bc55\n# another tool\n"])
def test_clean_refuses_a_folder_siblint_did_not_make(tmp_path: Path, tag: bytes | None) -> None:
    foreign = tmp_path / "foreign"
    (foreign / "v1").mkdir(parents=True)
    (foreign / "v1" / "data").write_text("precious")
    if tag is not None:
        (foreign / "CACHEDIR.TAG").write_bytes(tag)
    r = clean(["--cache-dir", str(foreign)], tmp_path)
    assert r.exit_code == 2 and "not removed" in r.output
    assert (foreign / "v1" / "data").read_text() == "precious"


def test_clean_does_not_follow_a_link_inside_the_cache(project: Path, tmp_path: Path) -> None:
    lint(project, new_cache(project))
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("keep")
    (project / ".cache" / f"v{cache_mod.SCHEMA}" / "facts" / "zz").symlink_to(outside)
    (project / ".cache" / "v9").symlink_to(outside)
    r = clean(["--cache-dir", str(project / ".cache")], project)
    assert r.exit_code == 0, r.output
    assert (outside / "keep.txt").read_text() == "keep"


def test_prune_does_not_follow_a_link_inside_the_cache(project: Path, tmp_path: Path) -> None:
    lint(project, new_cache(project))
    outside = tmp_path / "outside"
    outside.mkdir()
    for n in range(3):
        _blob(outside, f"zzz-{n}.json", 1000, 1)
    base = project / ".cache" / f"v{cache_mod.SCHEMA}"
    (base / "facts" / "zz").symlink_to(outside)
    cache_bounds.prune(str(project / ".cache"), str(base), 1, keep=set())
    assert len(os.listdir(outside)) == 3


def _sub_projects(root: Path, count: int) -> list[str]:
    """`count` folders with their own config (each extending the root's), one agent module each."""
    write(root, {"siblint.toml": 'ignore = ["SIB9"]\n'})
    for i in range(count):
        write(root, {f"app{i}/pyproject.toml": '[tool.siblint]\nextend = "../siblint.toml"\n',
                     f"app{i}/tools.py": CHECKOUT_TOOLS})
    return [f"app{i}/tools.py" for i in range(count)]


def test_configs_sharing_a_cache_folder_prune_it_once_per_run(tmp_path: Path, monkeypatch) -> None:
    """A folder walked once per config was most of a cold run over a tree of many small projects."""
    from click.testing import CliRunner
    from siblint.interfaces.cli import main

    monkeypatch.delenv(cache_mod.ENV_VAR, raising=False)
    files = _sub_projects(tmp_path, 3)
    calls: list[tuple[str, int]] = []
    real = cache_bounds.prune
    monkeypatch.setattr(cache_bounds, "prune", lambda folder, base, cap, keep: calls.append((folder, len(keep)))
                        or real(folder, base, cap, keep))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["check", "--format", "json", "."])
    assert result.exit_code == 1, result.output
    assert calls == [(str(tmp_path / ".siblint_cache"), 3)]  # one prune; every config's index kept
    assert len(list((tmp_path / ".siblint_cache" / f"v{cache_mod.SCHEMA}").glob("findings-*.json"))) == 3
    assert CliRunner().invoke(main, ["check", "--format", "json", "."]).output == result.output
    assert len(calls) == 1  # a warm run changed nothing: no prune
    assert CliRunner().invoke(main, ["check", "--format", "json", *files]).output == result.output
    assert len(calls) == 2  # the files named one by one are entries of their own: one prune again


def test_a_tracked_cache_folder_is_checked_and_reported_once_for_many_configs(tmp_path: Path) -> None:
    from support import git, siblint

    _sub_projects(tmp_path, 3)
    write(tmp_path, {".siblint_cache/committed.txt": "x"})
    git(["init", "-q"], tmp_path)
    git(["add", "-A"], tmp_path)
    proc = siblint(["check", "--format", "json", "."], tmp_path)
    assert proc.returncode == 1, proc.stderr
    warnings = [line for line in proc.stderr.splitlines() if "cache folder not used" in line]
    assert len(warnings) == 1, proc.stderr
    assert not (tmp_path / ".siblint_cache" / f"v{cache_mod.SCHEMA}").exists()
