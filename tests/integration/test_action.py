"""The GitHub Action (action.yml, composite): its shell steps run here for real, with the variables
the Actions runner sets (GITHUB_ACTION_PATH, RUNNER_TEMP, GITHUB_OUTPUT) and the inputs passed the
way the runner passes them (through `env:`); GitHub's own upload step is checked by its wiring."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
import yaml
from support import CLEAN, HAZARD, ROOT, copy_project, run, write

ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
STEPS = {s["name"]: s for s in ACTION["runs"]["steps"]}
INPUT = re.compile(r"\$\{\{\s*inputs\.([a-z-]+)\s*\}\}")


def test_composite_wiring():
    assert ACTION["runs"]["using"] == "composite"
    assert list(STEPS) == ["Install siblint", "Run siblint", "Upload SARIF", "Fail on findings"]
    for step in ACTION["runs"]["steps"]:
        if "run" in step:
            assert step["shell"] == "bash"
            # An input spliced into a script is a script injection; they arrive through `env:`.
            assert "${{" not in step["run"], step["name"]
        for value in (*step.get("env", {}).values(), *step.get("with", {}).values(), step.get("if", "")):
            assert set(INPUT.findall(str(value))) <= set(ACTION["inputs"]), step["name"]
    upload = STEPS["Upload SARIF"]
    assert upload["uses"].startswith("github/codeql-action/upload-sarif@")
    assert upload["with"] == {"sarif_file": "${{ inputs.sarif-file }}", "category": "${{ inputs.category }}"}
    assert "always()" in upload["if"] and "inputs.upload-sarif == 'true'" in upload["if"]
    assert "steps.check.outputs.exit-code == '1'" in STEPS["Fail on findings"]["if"]
    assert ACTION["outputs"]["exit-code"]["value"] == "${{ steps.check.outputs.exit-code }}"


def run_step(name: str, work: Path, runner_temp: Path, inputs: dict[str, str] | None = None,
             action_path: Path = ROOT, timeout: float = 120):
    """One `run:` step through bash, as the runner runs it; returns (process, step outputs)."""
    step = STEPS[name]
    values = {k: v.get("default", "") for k, v in ACTION["inputs"].items()} | (inputs or {})
    env = {k: INPUT.sub(lambda m: values[m.group(1)], v) for k, v in step.get("env", {}).items()}
    output = runner_temp / "github_output"
    output.write_text("")
    env |= {"GITHUB_ACTION_PATH": str(action_path), "RUNNER_TEMP": str(runner_temp), "GITHUB_OUTPUT": str(output)}
    proc = run(["bash", "-e", "-c", step["run"]], work, env=env, timeout=timeout)
    outputs = dict(line.split("=", 1) for line in output.read_text().splitlines())
    return proc, outputs


@pytest.fixture
def runner_temp(tmp_path: Path) -> Path:
    """RUNNER_TEMP with this test venv standing in for the one the install step makes."""
    temp = tmp_path / "runner_temp"
    temp.mkdir()
    (temp / "siblint-venv").symlink_to(Path(sys.prefix))
    return temp


def test_run_step_writes_sarif_logs_findings_and_reports_the_status(tmp_path, runner_temp):
    work = tmp_path / "repo"
    write(work, {".git/HEAD": "ref: refs/heads/main\n", "agent.py": HAZARD, "clean/ok.py": CLEAN})
    proc, outputs = run_step("Run siblint", work, runner_temp)
    assert proc.returncode == 0, proc.stderr  # findings fail the job later, after the upload
    assert outputs == {"exit-code": "1"}
    doc = json.loads((work / "siblint.sarif").read_text())
    assert [r["ruleId"] for r in doc["runs"][0]["results"]] == ["SIB201"]
    assert "agent.py:4:39: SIB201 " in proc.stdout and "Found 1 finding (1 warning)." in proc.stdout

    proc, outputs = run_step("Run siblint", work, runner_temp, {"paths": "clean", "sarif-file": "clean.sarif"})
    assert proc.returncode == 0 and outputs == {"exit-code": "0"}
    assert json.loads((work / "clean.sarif").read_text())["runs"][0]["results"] == []

    failing = run(["bash", "-e", "-c", STEPS["Fail on findings"]["run"]], work)
    assert failing.returncode == 1 and "siblint found something" in failing.stderr


def test_inputs_are_words_never_code_or_globs(tmp_path, runner_temp):
    work = tmp_path / "repo"
    write(work, {"agent.py": HAZARD})
    proc, outputs = run_step("Run siblint", work, runner_temp, {"paths": "agent*.py", "args": "$(touch pwned)"})
    assert outputs == {"exit-code": "2"} and proc.returncode == 2  # an error stops the job before the upload
    assert not (work / "pwned").exists()
    proc, outputs = run_step("Run siblint", work, runner_temp, {"paths": "agent*.py"})
    assert outputs == {"exit-code": "2"}
    assert "agent*.py: no such file or directory" in proc.stderr  # not expanded to agent.py
    proc, outputs = run_step("Run siblint", work, runner_temp, {"args": "--select SIB3"})
    assert outputs == {"exit-code": "0"}  # options split on spaces


def test_install_step_installs_the_action_checkout(tmp_path):
    temp = tmp_path / "runner_temp"
    temp.mkdir()
    action_path = copy_project(tmp_path / "action")
    work = tmp_path / "repo"
    write(work, {"agent.py": HAZARD})
    proc, _ = run_step("Install siblint", work, temp, action_path=action_path, timeout=300)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    check = run([str(temp / "siblint-venv" / "bin" / "siblint"), "check", "agent.py"], work)
    assert check.returncode == 1 and check.stdout.startswith("agent.py:4:39: SIB201 "), check.stdout + check.stderr


def test_a_format_in_args_cannot_overwrite_the_sarif_report(tmp_path, runner_temp):
    work = tmp_path / "repo"
    write(work, {".git/HEAD": "ref: refs/heads/main\n", "agent.py": HAZARD})
    for args in ("--output-format github", "--format json", "-o elsewhere.txt --output-format junit"):
        (work / "siblint.sarif").unlink(missing_ok=True)
        proc, outputs = run_step("Run siblint", work, runner_temp, {"args": args})
        assert proc.returncode == 0 and outputs == {"exit-code": "1"}, (args, proc.stderr)
        doc = json.loads((work / "siblint.sarif").read_text())
        assert [r["ruleId"] for r in doc["runs"][0]["results"]] == ["SIB201"], args
    # The log step keeps the user's format: `--output-format github` annotates the pull request.
    proc, _ = run_step("Run siblint", work, runner_temp, {"args": "--output-format github"})
    assert "::warning file=agent.py,line=4" in proc.stdout
