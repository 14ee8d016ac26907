"""`siblint check --fix / --unsafe-fixes / --diff / --show-fixes` (issue 26), in a real process."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from siblint.interfaces.fixing import Outcome, plan, write
from support import siblint

from tests.conftest import lint_files

FATAL = """\
from agents import function_tool


@function_tool(failure_error_function=None)
async def lookup_tax(region: str) -> str:
    return "0.2"
"""
FIXED = FATAL.replace("(failure_error_function=None)", "()")
SAFE_TWIN = FIXED
TS = "import { tool } from '@openai/agents';\nexport const t = tool({ name: 'x', execute, errorFunction: null });\n"
TS_FIXED = "import { tool } from '@openai/agents';\nexport const t = tool({ name: 'x', execute });\n"


def _project(tmp_path: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    return tmp_path


def test_fix_alone_applies_only_safe_fixes_and_unsafe_fixes_hint_at_the_rest(tmp_path: Path) -> None:
    _project(tmp_path, {"agent.py": FATAL})
    proc = siblint(["check", "--no-cache", "--fix", "."], tmp_path)
    assert proc.returncode == 1 and "SIB201" in proc.stdout
    assert (tmp_path / "agent.py").read_text() == FATAL and proc.stderr == ""
    hint = siblint(["check", "--no-cache", "--unsafe-fixes", "."], tmp_path)
    assert "1 fixable with --fix --unsafe-fixes" in hint.stderr and (tmp_path / "agent.py").read_text() == FATAL


def test_unsafe_fixes_fix_python_and_ts_and_fixed_findings_are_not_reported(tmp_path: Path) -> None:
    _project(tmp_path, {"agent.py": FATAL, "web/agent.ts": TS})
    proc = siblint(["check", "--no-cache", "--fix", "--unsafe-fixes", "--show-fixes", "."], tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "SIB201" not in proc.stdout and proc.stdout.startswith("All checks passed.")
    assert (tmp_path / "agent.py").read_text() == FIXED and (tmp_path / "web/agent.ts").read_text() == TS_FIXED
    assert "Fixed 2 findings:" in proc.stderr and "1 × SIB201 (tool-failure-handler-disabled)" in proc.stderr
    again = siblint(["check", "--no-cache", "--fix", "--unsafe-fixes", "--show-fixes", "."], tmp_path)
    assert again.returncode == 0 and "Fixed" not in again.stderr
    assert (tmp_path / "agent.py").read_text() == FIXED and (tmp_path / "web/agent.ts").read_text() == TS_FIXED


def test_unsafe_fixes_without_fix_or_diff_change_nothing(tmp_path: Path) -> None:
    _project(tmp_path, {"agent.py": FATAL})
    proc = siblint(["check", "--no-cache", "--unsafe-fixes", "."], tmp_path)
    assert proc.returncode == 1 and (tmp_path / "agent.py").read_text() == FATAL


def test_diff_prints_the_fix_writes_nothing_and_exits_1(tmp_path: Path) -> None:
    _project(tmp_path, {"agent.py": FATAL})
    proc = siblint(["check", "--no-cache", "--diff", "--unsafe-fixes", "."], tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.startswith("--- a/agent.py\n+++ b/agent.py\n@@")
    assert "-@function_tool(failure_error_function=None)\n+@function_tool()\n" in proc.stdout
    assert "Would fix 1 finding." in proc.stderr and (tmp_path / "agent.py").read_text() == FATAL
    safe_only = siblint(["check", "--no-cache", "--diff", "."], tmp_path)
    assert safe_only.returncode == 0 and safe_only.stdout == "" and "No fixes available." in safe_only.stderr


def test_diff_applies_with_patch(tmp_path: Path) -> None:
    import subprocess

    _project(tmp_path, {"agent.py": FATAL})
    diff = siblint(["check", "--no-cache", "--diff", "--unsafe-fixes", "agent.py"], tmp_path).stdout
    subprocess.run(["git", "apply", "-"], input=diff, text=True, cwd=tmp_path, check=True)
    assert (tmp_path / "agent.py").read_text() == FIXED


def test_a_clean_file_is_left_alone(tmp_path: Path) -> None:
    _project(tmp_path, {"agent.py": SAFE_TWIN})
    before = os.stat(tmp_path / "agent.py")
    proc = siblint(["check", "--no-cache", "--fix", "--unsafe-fixes", "."], tmp_path)
    assert proc.returncode == 0 and os.stat(tmp_path / "agent.py").st_mtime_ns == before.st_mtime_ns


def test_file_mode_is_kept(tmp_path: Path) -> None:
    _project(tmp_path, {"agent.py": FATAL})
    os.chmod(tmp_path / "agent.py", 0o640)
    siblint(["check", "--no-cache", "--fix", "--unsafe-fixes", "."], tmp_path)
    assert (tmp_path / "agent.py").read_text() == FIXED and (os.stat(tmp_path / "agent.py").st_mode & 0o777) == 0o640


def test_never_writes_through_a_symlink(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    repo = tmp_path / "repo"
    _project(outside, {"agent.py": FATAL})
    repo.mkdir()
    (repo / "agent.py").symlink_to(outside / "agent.py")
    (repo / "linked").symlink_to(outside)
    proc = siblint(["check", "--no-cache", "--fix", "--unsafe-fixes", "agent.py", "linked/agent.py"], repo)
    assert (outside / "agent.py").read_text() == FATAL
    assert (repo / "agent.py").is_symlink()
    assert proc.returncode == 1 and "a symbolic link (or in a linked folder), not edited" in proc.stderr


def test_read_only_and_hard_linked_files_are_left_alone_as_add_noqa_leaves_them(tmp_path: Path) -> None:
    _project(tmp_path, {"ro.py": FATAL, "linked.py": FATAL})
    os.chmod(tmp_path / "ro.py", 0o444)
    os.link(tmp_path / "linked.py", tmp_path / "second_name.txt")
    proc = siblint(["check", "--no-cache", "--fix", "--unsafe-fixes", "ro.py", "linked.py"], tmp_path)
    assert (tmp_path / "ro.py").read_text() == FATAL and (tmp_path / "linked.py").read_text() == FATAL
    assert "ro.py: read-only, not edited" in proc.stderr
    assert "linked.py: has 2 hard links, which a rewrite would separate; not edited" in proc.stderr


def test_refuses_a_file_changed_since_it_was_read(tmp_path: Path) -> None:
    _project(tmp_path, {"agent.py": FATAL})
    path = str(tmp_path / "agent.py")
    found = [d for d in lint_files(tmp_path, {}, "agent.py") if d.code == "SIB201"]
    outcome = Outcome()
    planned = plan(found, {path}, [str(tmp_path)], True, outcome)
    assert len(planned) == 1
    (tmp_path / "agent.py").write_text(FATAL + "# edited meanwhile\n")
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        write(planned, outcome)
    finally:
        os.chdir(cwd)
    assert outcome.written == [] and outcome.skipped == [f"{path}: changed since siblint read it, not edited"]
    assert (tmp_path / "agent.py").read_text() == FATAL + "# edited meanwhile\n"


def test_a_file_outside_the_project_or_not_checked_is_not_planned(tmp_path: Path) -> None:
    _project(tmp_path, {"p/agent.py": FATAL})
    path = str(tmp_path / "p" / "agent.py")
    found = [d for d in lint_files(tmp_path / "p", {}, "agent.py") if d.code == "SIB201"]
    assert plan(found, {path}, [str(tmp_path / "elsewhere")], True, Outcome()) == []
    assert plan(found, set(), [str(tmp_path)], True, Outcome()) == []
    assert len(plan(found, {path}, [str(tmp_path)], True, Outcome())) == 1
    assert plan(found, {path}, [str(tmp_path)], False, Outcome()) == []  # unsafe fixes not asked for


@pytest.mark.parametrize("args", [["--fix", "--add-noqa", "."], ["--diff", "--write-baseline", "b.json", "."]])
def test_usage_errors(args: list[str], tmp_path: Path) -> None:
    proc = siblint(["check", *args], tmp_path, stdin=FATAL)
    assert proc.returncode == 2 and "--fix and --diff" in proc.stderr


def test_explain_says_what_the_fix_does(tmp_path: Path) -> None:
    out = siblint(["explain", "SIB201"], tmp_path).stdout
    assert "## Fix safety\nUnsafe fix (`siblint check --fix --unsafe-fixes` applies it)" in out
    assert "## Fix safety\nNo fix: " in siblint(["explain", "SIB101"], tmp_path).stdout


# ---- stdin, as ruff does it: the fixed source on stdout, the findings left on stderr ------------
def test_fix_on_stdin_prints_the_fixed_source_and_reports_what_is_left_on_stderr(tmp_path: Path) -> None:
    proc = siblint(["check", "--no-cache", "--fix", "--unsafe-fixes", "--show-fixes", "-", "--stdin-filename",
                    "agent.py"], tmp_path, stdin=FATAL)
    assert (proc.returncode, proc.stdout) == (0, FIXED), proc.stderr
    assert "1 × SIB201" in proc.stderr and "All checks passed." in proc.stderr
    assert not (tmp_path / "agent.py").exists()  # nothing written: the name only names the source
    again = siblint(["check", "--no-cache", "--fix", "--unsafe-fixes", "-"], tmp_path, stdin=FIXED)
    assert (again.returncode, again.stdout) == (0, FIXED)


def test_fix_on_stdin_without_an_applicable_fix_echoes_the_source_unchanged(tmp_path: Path) -> None:
    safe_only = siblint(["check", "--no-cache", "--fix", "-", "--stdin-filename", "agent.py"], tmp_path, stdin=FATAL)
    assert (safe_only.returncode, safe_only.stdout) == (1, FATAL)  # SIB201's fix is unsafe: still reported
    assert "agent.py:4:39: SIB201" in safe_only.stderr
    ts = siblint(["check", "--no-cache", "--fix", "--unsafe-fixes", "-", "--stdin-filename", "web.ts"], tmp_path, stdin=TS)
    assert (ts.returncode, ts.stdout) == (0, TS_FIXED), ts.stderr
    broken = "def (:\n"
    bad = siblint(["check", "--no-cache", "--fix", "-"], tmp_path, stdin=broken)
    assert bad.stdout == broken and "Traceback" not in bad.stderr


def test_fix_on_stdin_keeps_bytes_past_the_size_limit(tmp_path: Path) -> None:
    big = FATAL + "# " + "x" * 300 + "\n"
    proc = siblint(["check", "--no-cache", "--max-file-size", "100", "--fix", "--unsafe-fixes", "-"], tmp_path, stdin=big)
    assert proc.stdout == big, proc.stderr


def test_diff_on_stdin(tmp_path: Path) -> None:
    proc = siblint(["check", "--no-cache", "--diff", "--unsafe-fixes", "-", "--stdin-filename", "agent.py"], tmp_path,
                   stdin=FATAL)
    assert proc.returncode == 1 and proc.stdout.startswith("--- a/agent.py\n+++ b/agent.py\n")
    assert "-@function_tool(failure_error_function=None)\n+@function_tool()\n" in proc.stdout
    clean = siblint(["check", "--no-cache", "--diff", "--unsafe-fixes", "-"], tmp_path, stdin=FIXED)
    assert (clean.returncode, clean.stdout) == (0, "")
