"""The README stays true: its example, commands, configuration, CI snippet and rule table are checked
against the real tool, and `.ci/run` runs exactly its test command."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import stat
from pathlib import Path

import pytest
import tomllib
import yaml
from siblint.interfaces.cli import main
from siblint.lint.engine import lint_text
from siblint.rule_api.registry import all_rules
from siblint.settings.config import from_table
from support import HAZARD, ROOT, cli_runner, run, script, siblint, write

README = (ROOT / "README.md").read_text(encoding="utf-8")


def block_after(marker: str) -> str:
    """The first fenced block after an HTML-comment marker (or a heading)."""
    start = README.index(marker)
    match = re.compile(r"```[a-z]*\n(.*?)```", re.S).search(README, start)
    assert match, marker
    return match.group(1)


def test_seed_scenario_is_what_siblint_reports():
    code = block_after("## What it finds")
    assert len(code.strip().splitlines()) <= 12
    assert [d.code for d in lint_text(code, str(ROOT / "seed.py"))] == ["SIB101", "SIB201", "SIB301"]


@pytest.mark.parametrize("marker, example", [("<!-- example-output:start -->", "examples/checkout_agent.py"),
                                             ("<!-- example-output-ts:start -->", "examples/checkout_agent.ts")])
def test_example_output_matches_the_real_run(marker, example):
    shown = block_after(marker).splitlines()
    proc = siblint(["check", example], ROOT)
    assert proc.returncode == 1
    actual = proc.stdout.splitlines()
    # Messages are abbreviated in the README; locations, codes and the summary must agree.
    location = re.compile(r"^\s*\S+:\d+:\d+: (SIB\d+ (error|warning): )?")
    assert [location.match(line).group(0) for line in shown[:-1]] == [location.match(line).group(0) for line in actual[:-1]]
    assert shown[-1] == actual[-1]


def test_the_test_command_says_what_it_needs_beyond_python():
    after = README[README.index("<!-- test-command -->"):]
    said = after[:after.index("\n## ")]  # up to the next section
    for need in ("Node.js 20 or newer and npm", "PyPI and npm registries", ".runtime-envs/", "GB"):
        assert need in said.replace("\n", " ").replace("**", ""), need


def test_try_command_installs_and_runs_the_shipped_example():
    cmd = block_after("<!-- try-command -->").strip()
    assert cmd == "python -m venv .venv && .venv/bin/python -m pip install . && .venv/bin/siblint check examples/checkout_agent.py"
    assert (ROOT / "examples" / "checkout_agent.py").is_file()


FAKE_PYTHON = """#!/bin/sh
# Records how it was called; `-m venv DIR` makes DIR/bin/python (this script) like a real venv.
echo "$PWD|$*" >> "$CI_LOG"
if [ "$1" = "-m" ] && [ "$2" = "venv" ]; then mkdir -p "$3/bin" && cp "$0" "$3/bin/python"; fi
if [ "$1" = "-m" ] && [ "$2" = "pytest" ]; then exit "${FAKE_PYTEST_STATUS:-0}"; fi
exit 0
"""


@pytest.fixture
def fake_checkout(tmp_path: Path):
    """A git checkout holding the real README and .ci/run, a stale .venv, and a fake `python`."""
    repo = tmp_path / "repo"
    write(repo, {"README.md": README, ".gitignore": ".venv/\n", ".venv/stale": "x", "pyproject.toml": "", "new_untracked.py": ""})
    (repo / ".ci").mkdir()
    shutil.copy2(ROOT / ".ci" / "run", repo / ".ci" / "run")
    run(["git", "init", "-q"], repo)
    run(["git", "add", "README.md", ".ci/run", ".gitignore", "pyproject.toml"], repo)
    fake_bin = tmp_path / "bin"
    fake_bin.mkdir()
    (fake_bin / "python").write_text(FAKE_PYTHON)
    (fake_bin / "python").chmod(0o755 | stat.S_IEXEC)
    log = tmp_path / "calls.log"

    def ci(pytest_status: int = 0):
        env = {"PATH": f"{fake_bin}{os.pathsep}{os.environ['PATH']}", "CI_LOG": str(log), "FAKE_PYTEST_STATUS": str(pytest_status)}
        proc = run(["bash", str(repo / ".ci" / "run")], tmp_path, env=env)
        calls = [line.split("|", 1) for line in log.read_text().splitlines()] if log.exists() else []
        log.unlink(missing_ok=True)
        return proc, calls

    return repo, ci


def test_ci_runs_exactly_the_readme_test_command_in_a_fresh_copy(fake_checkout):
    repo, ci = fake_checkout
    proc, calls = ci()
    assert proc.returncode == 0, proc.stderr
    cmd = block_after("<!-- test-command -->").strip()
    assert f".ci/run: {cmd}\n" in proc.stderr
    assert [args for _, args in calls] == ["-m venv .venv", "-m pip install -e .[test]", "-m pytest -q -n 3 --dist loadfile --durations=15"]
    workdirs = {cwd for cwd, _ in calls}
    assert len(workdirs) == 1 and Path(workdirs.pop()).resolve() != repo.resolve()  # a copy, not the checkout
    assert (repo / ".venv" / "stale").exists() and not (repo / ".venv" / "bin").exists()


@pytest.mark.parametrize("status", [1, 5])
def test_ci_fails_when_pytest_fails_or_collects_nothing(fake_checkout, status):
    _, ci = fake_checkout
    proc, calls = ci(pytest_status=status)
    assert proc.returncode == status
    assert calls[-1][1] == "-m pytest -q -n 3 --dist loadfile --durations=15"


def test_readme_test_command_is_pytest_on_the_test_extra():
    cmd = block_after("<!-- test-command -->").strip()
    parts = [shlex.split(p) for p in cmd.split("&&")]
    assert parts[0] == ["python", "-m", "venv", ".venv"]
    assert parts[1] == [".venv/bin/python", "-m", "pip", "install", "-e", ".[test]"]
    assert parts[2][:3] == [".venv/bin/python", "-m", "pytest"]
    assert "--durations=15" in parts[2]  # CI's log names the slowest tests
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    assert any(dep.startswith("pytest") for dep in extras["test"])


def test_every_documented_command_line_is_accepted(tmp_path, monkeypatch):
    write(tmp_path, {"src/agent.py": HAZARD, "tests/test_agent.py": "x = 1\n", "agent.py": HAZARD})
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("siblint.interfaces.watch._poll", lambda: False)  # `--watch`: one check, then stop
    lines = [line for line in block_after("## Command line").splitlines() if "siblint" in line]
    assert len(lines) >= 10
    for line in lines:
        words = shlex.split(line, comments=True)
        stdin = None
        if "|" in words:  # `cat agent.py | siblint check - ...`
            stdin = (tmp_path / words[1]).read_text()
            words = words[words.index("|") + 1:]
        assert words[0] == "siblint"
        res = cli_runner().invoke(main, words[1:], input=stdin)
        assert res.exit_code in (0, 1), f"{line}: {res.output}"


def test_configuration_example_is_valid(tmp_path):
    toml = tomllib.loads(block_after("## Configuration"))
    config = from_table(toml["tool"]["siblint"], str(tmp_path))
    assert config.extend_side_effect_calls == ("crm.sync_contact",)
    documented = set(re.findall(r"^([a-z-]+) =", block_after("## Configuration"), re.M))
    from siblint.settings import config as config_module

    assert documented | {"exclude"} == config_module._KEYS  # every key is documented


def test_flake8_options_in_the_readme_exist():
    ini = block_after("```ini")
    keys = re.findall(r"^([a-z0-9-]+) =", ini, re.M)
    assert keys
    help_text = run([script("flake8"), "--help"], ROOT).stdout
    for key in keys:
        assert f"--{key}" in help_text, key


def test_ci_workflow_uploads_sarif_that_siblint_accepts(tmp_path, monkeypatch):
    workflow = yaml.safe_load(block_after("<!-- ci-workflow -->"))
    steps = workflow["jobs"]["siblint"]["steps"]
    upload = [s for s in steps if s.get("uses", "").startswith("github/codeql-action/upload-sarif")]
    assert upload and upload[0]["with"]["sarif_file"] == "siblint.sarif" and upload[0]["if"] == "always()"
    assert workflow["permissions"]["security-events"] == "write"
    [command] = [s["run"] for s in steps if "siblint check" in s.get("run", "")]
    write(tmp_path, {"agent.py": HAZARD})
    monkeypatch.chdir(tmp_path)
    res = cli_runner().invoke(main, shlex.split(command)[1:])
    assert res.exit_code == 1 and (tmp_path / "siblint.sarif").is_file()


def test_rule_table_lists_every_rule():
    table = README[README.index("<!-- rules-table:start -->"):README.index("<!-- rules-table:end -->")]
    rows = {m[0]: (m[1], m[2]) for m in re.findall(r"^\| `(SIB\d+)` \| `([a-z0-9-]+)` \| (on|off) \|", table, re.M)}
    expected = {r.code: (r.name, "on" if r.default_enabled else "off") for r in all_rules()}
    assert rows == expected, "regenerate the README table with `siblint rules --format markdown`"


def test_action_workflow_names_this_repository_and_real_inputs():
    from siblint.interfaces.docs import REPOSITORY_URL

    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    workflow = yaml.safe_load(block_after("<!-- action-workflow -->"))
    assert workflow["permissions"]["security-events"] == "write"
    [step] = [s for s in workflow["jobs"]["siblint"]["steps"] if s.get("uses", "").startswith("siblint/")]
    owner_repo, rev = step["uses"].split("@")
    assert REPOSITORY_URL.endswith("/" + owner_repo) and rev == "COMMIT"
    assert set(step["with"]) <= set(action["inputs"])
    table = README[README.index("<!-- action-workflow -->"):README.index("<!-- ci-workflow -->")]
    documented = dict(re.findall(r"^\| `([a-z-]+)` \| `?([^`|]*?)`? \|", table, re.M))
    assert documented == {k: v.get("default", "") or "empty" for k, v in action["inputs"].items()}
    manual = block_after("<!-- ci-workflow -->")
    assert f"siblint @ git+{REPOSITORY_URL}@COMMIT" in manual


def test_editor_snippets_start_the_server_the_tests_drive():
    import json

    from siblint.interfaces.server import DEBOUNCE_SECONDS

    vscode = json.loads(block_after("<!-- editor-vscode -->"))
    assert [vscode["glspc.server.command"], *vscode["glspc.server.commandArguments"]] == ["siblint", "server"]
    assert vscode["glspc.server.languageId"] == ["python"]
    assert 'cmd = { "siblint", "server" }' in block_after("<!-- editor-neovim -->")
    helix = tomllib.loads(block_after("<!-- editor-helix -->"))
    assert [helix["language-server"]["siblint"]["command"], *helix["language-server"]["siblint"]["args"]] == ["siblint", "server"]
    assert "siblint" in helix["language"][0]["language-servers"]
    assert f"debounced by {DEBOUNCE_SECONDS * 1000:.0f} ms" in README


@pytest.mark.parametrize("heading", ["## Benchmark", "## Heavier budgets", "## Editors", "## pre-commit", "## Continuous integration"])
def test_sections_exist(heading):
    assert f"\n{heading}\n" in README


def test_adoption_commands_do_what_the_readme_says(tmp_path):
    """The adoption block, in order, on a project with a hazard: baseline, then a new hazard fails;
    add-noqa, then nothing fails and SIB902 finds no stale comment."""
    lines = [shlex.split(line, comments=True) for line in block_after("<!-- adoption -->").splitlines() if line.strip()]
    assert [words[:3] for words in lines] == [["siblint", "check", "--write-baseline"], ["siblint", "check", "--baseline"],
                                             ["siblint", "check", "--add-noqa"], ["siblint", "check", "--extend-select"]]
    write(tmp_path, {"agent.py": HAZARD})
    statuses = []
    for words in lines[:2]:
        statuses.append(siblint(words[1:], tmp_path).returncode)
    assert statuses == [0, 0] and (tmp_path / "siblint-baseline.json").is_file()
    write(tmp_path, {"new_agent.py": HAZARD})
    assert siblint(lines[1][1:], tmp_path).returncode == 1  # the new hazard fails
    add = siblint(lines[2][1:], tmp_path)
    assert add.returncode == 0 and add.stderr == "Added 2 noqa directives in 2 files.\n"
    assert siblint(["check", "."], tmp_path).returncode == 0
    assert siblint(lines[3][1:], tmp_path).returncode == 0
