"""Config per folder (the nearest config file for each file, `extend`), one pattern language for
excludes, per-file-ignores and .gitignore, and what a run with nothing to check says."""

from __future__ import annotations

import itertools
import json
import os
from pathlib import Path

import pytest
from siblint.interfaces.cli import main
from support import CHECKOUT_TOOLS, CLEAN, HAZARD, cli_runner, git, siblint, write

TIMEOUT_HAZARD = ("from agents import function_tool\n\n@function_tool(timeout=5, timeout_behavior='raise_exception')\n"
                  "async def slow() -> str:\n    return ''\n")
AGENT = "from agents import Agent\nfrom tools import charge_card, lookup_tax\n\nagent = Agent(name='a', tools=[charge_card, lookup_tax])\n"


def check(cwd: Path, *args: str, monkeypatch) -> tuple[int, str, str]:
    monkeypatch.chdir(cwd)
    res = cli_runner().invoke(main, ["check", *args], catch_exceptions=False)
    return res.exit_code, res.stdout, res.stderr


def found(cwd: Path, *args: str, monkeypatch) -> set[tuple[str, str]]:
    """(path, code) of every finding."""
    code, out, err = check(cwd, "--format", "json", *args, monkeypatch=monkeypatch)
    assert code in (0, 1), err
    return {(os.path.normpath(d["path"]), d["code"]) for d in json.loads(out)}


@pytest.fixture
def monorepo(tmp_path: Path) -> Path:
    write(tmp_path, {
        "pyproject.toml": '[tool.siblint]\nignore = ["SIB203"]\nper-file-ignores = { "svc_c/legacy" = ["SIB2"] }\n',
        "top.py": HAZARD + TIMEOUT_HAZARD.replace("from agents import function_tool\n", ""),
        # its own settings, nothing inherited: SIB203 is back, SIB201 is off
        "svc_a/pyproject.toml": '[project]\nname = "a"\n[tool.siblint]\nignore = ["SIB201"]\n',
        "svc_a/a.py": HAZARD + TIMEOUT_HAZARD.replace("from agents import function_tool\n", ""),
        "svc_a/tools.py": CHECKOUT_TOOLS, "svc_a/agents_setup.py": AGENT,
        # siblint.toml: the top-level table
        "svc_b/siblint.toml": 'select = ["SIB3"]\n',
        "svc_b/b.py": HAZARD, "svc_b/tools.py": CHECKOUT_TOOLS, "svc_b/agents_setup.py": AGENT,
        # inherits the root's settings; its per-file-ignores pattern keeps meaning svc_c/legacy
        "svc_c/pyproject.toml": '[tool.siblint]\nextend = "../pyproject.toml"\nextend-select = ["SIB206"]\n',
        "svc_c/c.py": HAZARD, "svc_c/legacy/old.py": HAZARD,
    })
    return tmp_path


def test_each_file_uses_its_nearest_config(monorepo, monkeypatch):
    everything = found(monorepo, ".", monkeypatch=monkeypatch)
    assert {c for p, c in everything if p == "top.py"} == {"SIB201"}  # root: SIB203 ignored
    assert {c for p, c in everything if p == "svc_a/a.py"} == {"SIB203"}  # own config only
    assert {c for p, c in everything if p.startswith("svc_b/")} == {"SIB301"}
    assert ("svc_c/c.py", "SIB201") in everything and not any(p == "svc_c/legacy/old.py" for p, _ in everything)
    # The same from inside a sub-project, and for any selection of paths.
    assert found(monorepo / "svc_a", ".", monkeypatch=monkeypatch) == \
        {(p.removeprefix("svc_a/"), c) for p, c in everything if p.startswith("svc_a/")}
    assert found(monorepo, "svc_a", "svc_b", monkeypatch=monkeypatch) == {f for f in everything if f[0][:5] in ("svc_a", "svc_b")}


def test_a_files_findings_do_not_depend_on_what_else_is_checked(monorepo, monkeypatch):
    """What pre-commit does: the staged files by name, a different set each time."""
    files = sorted(str(p.relative_to(monorepo)) for p in monorepo.rglob("*.py"))
    alone = {f: found(monorepo, f, monkeypatch=monkeypatch) for f in files}
    assert alone["svc_a/agents_setup.py"] == {("svc_a/agents_setup.py", "SIB301")}  # tools.py found unstaged
    for subset in itertools.islice(itertools.combinations(files, 3), 0, None, 7):
        together = found(monorepo, *subset, monkeypatch=monkeypatch)
        assert together == set().union(*(alone[f] for f in subset)), subset


def test_extend_show_settings_and_cycles(monorepo, monkeypatch):
    code, out, _ = check(monorepo, "--show-settings", "svc_c/c.py", monkeypatch=monkeypatch)
    settings = json.loads(out)
    assert code == 0 and settings["config"] == str(monorepo / "svc_c" / "pyproject.toml")
    assert settings["extends"] == [str(monorepo / "pyproject.toml")]
    assert settings["ignore"] == ["SIB203"] and settings["extend-select"] == ["SIB206"]
    assert settings["per-file-ignores"] == {"../svc_c/legacy": ["SIB2"]}  # still the root's folder
    assert "SIB206" in settings["enabled-rules"] and "SIB203" not in settings["enabled-rules"]
    write(monorepo, {"pyproject.toml": '[tool.siblint]\nextend = "svc_c/pyproject.toml"\n'})
    code, out, err = check(monorepo, "svc_c/c.py", monkeypatch=monkeypatch)
    assert code == 2 and "extend: a cycle" in err and str(monorepo / "svc_c" / "pyproject.toml") in err


def test_config_file_precedence_in_one_folder(tmp_path, monkeypatch):
    write(tmp_path, {"a.py": HAZARD, "pyproject.toml": '[tool.siblint]\nignore = ["SIB2"]\n'})
    assert check(tmp_path, "a.py", monkeypatch=monkeypatch)[0] == 0
    write(tmp_path, {"siblint.toml": 'ignore = ["SIB3"]\n'})  # beats pyproject.toml
    assert check(tmp_path, "a.py", monkeypatch=monkeypatch)[0] == 1
    write(tmp_path, {".siblint.toml": 'ignore = ["SIB201"]\n'})  # beats siblint.toml
    assert check(tmp_path, "a.py", monkeypatch=monkeypatch)[0] == 0
    write(tmp_path, {".siblint.toml": '[tool.siblint]\nignore = ["SIB3"]\n'})  # a [tool.siblint] table there works too
    assert check(tmp_path, "a.py", monkeypatch=monkeypatch)[0] == 1


def test_cache_goes_to_the_project_root(monorepo, tmp_path_factory, monkeypatch):
    monkeypatch.delenv("SIBLINT_CACHE_DIR", raising=False)
    check(monorepo, "svc_a/a.py", "svc_b/b.py", monkeypatch=monkeypatch)
    assert not (monorepo / "svc_a" / ".siblint_cache").exists() and not (monorepo / "svc_b" / ".siblint_cache").exists()
    assert (monorepo / ".siblint_cache").is_dir()  # the folder that holds both configs
    elsewhere = tmp_path_factory.mktemp("nocfg")  # no config above it
    write(elsewhere, {"deep/er/x.py": HAZARD})
    check(elsewhere, "deep/er/x.py", monkeypatch=monkeypatch)
    assert (elsewhere / ".siblint_cache").is_dir() and not (elsewhere / "deep" / "er" / ".siblint_cache").exists()


@pytest.mark.parametrize("pattern,path", [
    ("migrations", "app/migrations/m1.py"),  # a name matches at any depth
    ("tests", "app/tests/unit/t.py"),
    ("app/tests/*", "app/tests/unit/t.py"),  # a slash anchors at the config's folder
    ("**/unit", "app/tests/unit/t.py"),
    ("*.gen.py", "app/x.gen.py"),
])
def test_exclude_and_per_file_ignores_are_one_matcher(tmp_path, monkeypatch, pattern, path):
    write(tmp_path, {path: HAZARD, "other/keep.py": HAZARD})
    write(tmp_path, {"pyproject.toml": f'[tool.siblint]\nper-file-ignores = {{ "{pattern}" = ["SIB2"] }}\n'})
    assert found(tmp_path, ".", monkeypatch=monkeypatch) == {("other/keep.py", "SIB201")}
    write(tmp_path, {"pyproject.toml": f'[tool.siblint]\nextend-exclude = ["{pattern}"]\n'})
    assert found(tmp_path, ".", monkeypatch=monkeypatch) == {("other/keep.py", "SIB201")}
    assert found(tmp_path, path, monkeypatch=monkeypatch) == set()  # named files too (pre-commit)


def test_anchored_pattern_does_not_match_deeper(tmp_path, monkeypatch):
    write(tmp_path, {"tests/t.py": HAZARD, "app/tests/t.py": HAZARD,
                     "pyproject.toml": '[tool.siblint]\nper-file-ignores = { "/tests" = ["SIB2"] }\n'})
    assert found(tmp_path, ".", monkeypatch=monkeypatch) == {("app/tests/t.py", "SIB201")}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    write(tmp_path, {
        ".gitignore": "env/\ngenerated/\n",
        "src/app.py": HAZARD, "env/lib/site/agents_sdk.py": HAZARD, "generated/gen_agent.py": HAZARD,
        "src/sub/.gitignore": "*.gen.py\n!keep.gen.py\n", "src/sub/x.gen.py": HAZARD, "src/sub/keep.gen.py": HAZARD,
        "secret/s.py": HAZARD,
    })
    git(["init", "-q"], tmp_path)
    (tmp_path / ".git" / "info").mkdir(exist_ok=True)
    (tmp_path / ".git" / "info" / "exclude").write_text("secret/\n")
    return tmp_path


def test_gitignore_is_honoured_by_default(repo):
    proc = siblint(["check", "--show-files", "."], repo)
    assert proc.returncode == 0
    assert proc.stdout.splitlines() == ["src/app.py", "src/sub/keep.gen.py"]
    proc = siblint(["check", "--show-files", "--no-respect-gitignore", "."], repo)
    assert len(proc.stdout.splitlines()) == 6
    proc = siblint(["check", "generated/gen_agent.py"], repo)  # named, but git-ignored: like `exclude`
    assert proc.returncode == 0 and "no Python files found" in proc.stderr
    write(repo, {"pyproject.toml": "[tool.siblint]\nrespect-gitignore = false\n"})
    assert len(siblint(["check", "--show-files", "."], repo).stdout.splitlines()) == 6


def test_gitignore_outside_a_repository_means_nothing(repo):
    import shutil

    shutil.rmtree(repo / ".git")
    assert len(siblint(["check", "--show-files", "."], repo).stdout.splitlines()) == 6  # every file


def test_a_fifo_or_garbage_gitignore_does_not_hang_or_crash(tmp_path):
    write(tmp_path, {"a.py": HAZARD, "sub/b.py": HAZARD, "sub/.gitignore": "\\\n[\n**/\n\xff\nb.py\n"})
    git(["init", "-q"], tmp_path)
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / ".gitignore")
    proc = siblint(["check", "--show-files", "."], tmp_path)
    assert proc.returncode == 0 and proc.stdout.splitlines() == ["a.py"], proc.stderr


def test_no_files_to_check_warns_and_exits_0(tmp_path):
    write(tmp_path, {"docs/readme.txt": "x", "src/a.py": CLEAN})
    proc = siblint(["check", "docs"], tmp_path)
    assert (proc.returncode, proc.stdout) == (0, "All checks passed.\n")
    assert proc.stderr == "siblint: warning: no Python files found under the given paths\n"
    assert siblint(["check", "-q", "docs"], tmp_path).stderr == ""
    assert siblint(["check", "src"], tmp_path).stderr == ""


def test_a_broken_pyproject_in_the_tree_matters_only_if_it_is_siblints(tmp_path, monkeypatch):
    write(tmp_path, {"a.py": HAZARD, "fixtures/bad/pyproject.toml": "[project\nname = 1\n", "fixtures/bad/b.py": HAZARD})
    assert found(tmp_path, ".", monkeypatch=monkeypatch) == {("a.py", "SIB201"), ("fixtures/bad/b.py", "SIB201")}
    write(tmp_path, {"fixtures/bad/pyproject.toml": "[tool.siblint\nignore = 1\n"})
    code, _, err = check(tmp_path, ".", monkeypatch=monkeypatch)
    assert code == 2 and f"{tmp_path / 'fixtures' / 'bad' / 'pyproject.toml'}: cannot read" in err
