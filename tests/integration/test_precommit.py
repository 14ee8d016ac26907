"""The pre-commit hook through real `pre-commit try-repo`: it builds a hook environment, pip-installs
siblint from a snapshot of this checkout (dependencies from PyPI), and runs it on staged files."""

from __future__ import annotations

from pathlib import Path

import pytest
from pre_commit.clientlib import load_manifest
from support import CLEAN, HAZARD, ROOT, copy_project, git, git_repo, run, script, write


def test_manifest_is_valid_for_pre_commit():
    [hook] = load_manifest(str(ROOT / ".pre-commit-hooks.yaml"))
    assert hook["id"] == "siblint"
    assert hook["entry"] == "siblint check"
    assert hook["language"] == "python"
    assert hook["types_or"] == ["python", "pyi", "ts", "tsx", "javascript", "jsx"]


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory) -> Path:
    # A snapshot, not the shared working tree: try-repo would otherwise see others' half-done edits.
    return git_repo(copy_project(tmp_path_factory.mktemp("hook") / "siblint"))


def try_repo(hook_repo: Path, work: Path, *args: str):
    # try-repo installs a fresh hook environment on every call (its store is a temp dir), so the
    # test makes two calls; pip skips its version check and bytecode compilation to save time.
    env = {"PRE_COMMIT_COLOR": "never", "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_NO_COMPILE": "1"}
    return run([script("pre-commit"), "try-repo", str(hook_repo), "siblint", *args], work, env=env, timeout=300)


def test_hook_fails_on_a_hazard_and_passes_on_clean_code(hook_repo, tmp_path):
    work = tmp_path / "project"
    write(work, {"agent/bad.py": HAZARD, "agent/good.py": CLEAN, "README.txt": "not python\n",
                 "pyproject.toml": '[tool.siblint]\nextend-exclude = ["legacy"]\n', "legacy/old.py": HAZARD,
                 # A sub-project with its own settings: they hold whatever else is staged with it.
                 "svc/pyproject.toml": '[tool.siblint]\nignore = ["SIB201"]\n', "svc/bad.py": HAZARD})
    git(["init", "-q"], work)
    git(["add", "-A"], work)

    bad = try_repo(hook_repo, work, "--all-files")
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "siblint" in bad.stdout and "Failed" in bad.stdout
    assert "agent/bad.py:4:39: SIB201 warning: failure_error_function=None" in bad.stdout
    # pre-commit names legacy/old.py too; the project's [tool.siblint] exclude still holds.
    assert "legacy/old.py" not in bad.stdout
    assert "svc/bad.py" not in bad.stdout  # staged beside agent/bad.py, still svc's own config
    assert "Found 1 finding" in bad.stdout

    good = try_repo(hook_repo, work, "--files", "agent/good.py", "README.txt", "legacy/old.py", "svc/bad.py")
    assert good.returncode == 0, good.stdout + good.stderr
    assert "Passed" in good.stdout


def test_readme_config_with_a_commit_as_rev(hook_repo, tmp_path):
    """The README's snippet, with `repo` pointed at a snapshot of this checkout and `rev` at its
    commit (no release is tagged): `pre-commit run` resolves it, installs the hook and runs it."""
    import re

    import yaml
    from siblint.interfaces.docs import REPOSITORY_URL

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.compile(r"```yaml\n(.*?)```", re.S).search(readme, readme.index("<!-- pre-commit-config -->")).group(1)
    config = yaml.safe_load(block)
    [entry] = config["repos"]
    assert entry["repo"] == REPOSITORY_URL and entry["rev"] == "COMMIT"
    assert "a tag or commit of this repository" in block
    commit = run(["git", "rev-parse", "HEAD"], hook_repo).stdout.strip()
    assert re.fullmatch(r"[0-9a-f]{40}", commit)
    entry |= {"repo": str(hook_repo), "rev": commit}

    work = tmp_path / "project"
    write(work, {"agent/bad.py": HAZARD, ".pre-commit-config.yaml": yaml.safe_dump(config)})
    git(["init", "-q"], work)
    git(["add", "-A"], work)
    env = {"PRE_COMMIT_COLOR": "never", "PRE_COMMIT_HOME": str(tmp_path / "store"),
           "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_NO_COMPILE": "1"}
    proc = run([script("pre-commit"), "run", "--all-files"], work, env=env, timeout=300)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "agent/bad.py:4:39: SIB201 warning: failure_error_function=None" in proc.stdout
