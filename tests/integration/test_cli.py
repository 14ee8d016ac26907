"""`siblint` through click's runner and through the installed console script in a real process."""

from __future__ import annotations

import json
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from siblint import __version__
from siblint.interfaces.cli import main
from siblint.rule_api.registry import all_rules
from siblint.run import runner
from support import CLEAN, HAZARD, ROOT, cli_runner, run, siblint, write


@dataclass
class Result:
    code: int
    out: str
    err: str


@pytest.fixture(params=["clirunner", "script"])
def cli(request, tmp_path: Path, monkeypatch):
    """cli(*args, stdin=None) -> Result, run in tmp_path; once in-process, once as a real process."""

    def invoke(*args: str, stdin: str | None = None) -> Result:
        if request.param == "script":
            proc = siblint(list(args), tmp_path, stdin)
            return Result(proc.returncode, proc.stdout, proc.stderr)
        monkeypatch.chdir(tmp_path)
        res = cli_runner().invoke(main, list(args), input=stdin, catch_exceptions=False)
        return Result(res.exit_code, res.stdout, res.stderr)

    return invoke


@pytest.fixture
def project(tmp_path: Path) -> Path:
    write(tmp_path, {"bad.py": HAZARD, "clean.py": CLEAN, "pkg/other.py": "x = 1\n"})
    return tmp_path


HAZARD_LINE = "bad.py:4:39: SIB201 warning: failure_error_function=None: "


def assert_one_line_error(res: Result) -> None:
    assert res.code == 2
    assert "Traceback" not in res.err + res.out
    assert len([line for line in res.err.splitlines() if "rror" in line]) == 1, res.err


# ---- exit codes ------------------------------------------------------------------------------

def test_findings_exit_1_with_text_report(cli, project):
    res = cli("check", "bad.py", "clean.py")
    assert res.code == 1
    assert res.out.startswith(HAZARD_LINE)
    assert res.out.endswith("Found 1 finding (1 warning).\n")


def test_clean_file_exits_0(cli, project):
    res = cli("check", "clean.py")
    assert (res.code, res.out) == (0, "All checks passed.\n")


def test_default_path_is_the_current_folder(cli, project):
    res = cli("check")
    assert res.code == 1 and HAZARD_LINE in res.out


def test_exit_zero_forces_0_on_findings(cli, project):
    res = cli("check", "--exit-zero", "bad.py")
    assert res.code == 0 and HAZARD_LINE in res.out


def test_missing_path_exits_2(cli, project):
    res = cli("check", "bad.py", "nowhere.py")
    assert res.code == 2
    assert "nowhere.py: no such file or directory" in res.err


@pytest.mark.parametrize("args", [
    ["check", "--select", "E501", "bad.py"],
    ["check", "--ignore", "XYZ1", "bad.py"],
    ["check", "--format", "xml", "bad.py"],
    ["check", "-j", "0", "bad.py"],
    ["check", "-", "bad.py"],
    ["check", "--stdin-filename", "x.py", "bad.py"],
    ["explain", "SIB999"],
    ["no-such-command"],
])
def test_usage_errors_exit_2(cli, project, args):
    res = cli(*args)
    assert res.code == 2, res
    assert "Traceback" not in res.err
    assert "Error" in res.err or "error" in res.err


def test_unwritable_output_is_one_line_exit_2(cli, project):
    res = cli("check", "-o", "no/such/dir/report.txt", "bad.py")
    assert_one_line_error(res)
    assert "cannot write the report to no/such/dir/report.txt" in res.err


def test_internal_failure_is_one_line_exit_2_in_process(project, monkeypatch):
    def boom(*a, **k):
        raise RuntimeError("simulated engine bug")

    monkeypatch.setattr(runner, "run_many", boom)
    monkeypatch.chdir(project)
    res = cli_runner().invoke(main, ["check", "bad.py"])
    assert res.exit_code == 2
    assert res.exception is None or isinstance(res.exception, SystemExit)
    assert res.stderr == "siblint: internal error: RuntimeError: simulated engine bug (this is a bug in siblint; please report it)\n"


def test_interrupt_is_not_reported_as_findings(project, monkeypatch):
    def interrupted(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(runner, "run_many", interrupted)
    monkeypatch.chdir(project)
    res = cli_runner().invoke(main, ["check", "bad.py"])
    assert (res.exit_code, res.stderr) == (130, "siblint: interrupted\n")


def test_internal_failure_is_one_line_exit_2_in_a_real_process(project):
    # The console script's own entry point, with the engine broken underneath it.
    code = ("import sys, siblint.run.runner as r\n"
            "def boom(*a, **k): raise KeyError('simulated')\n"
            "r.run_many = boom\n"
            "from siblint.interfaces.cli import main\n"
            "sys.argv = ['siblint', 'check', 'bad.py']\n"
            "main()\n")
    proc = run([sys.executable, "-c", code], project)
    assert proc.returncode == 2
    assert proc.stderr == "siblint: internal error: KeyError: 'simulated' (this is a bug in siblint; please report it)\n"
    assert proc.stdout == ""


def test_the_console_entry_exits_at_once_with_all_output_and_the_status(project):
    # `console` ends with os._exit: stdout must be flushed first, into a pipe (block-buffered),
    # and the status click chose must survive; a status that is a string is printed, as sys.exit does.
    many = {f"bad_{i}.py": HAZARD for i in range(40)}
    write(project, many)
    proc = run([sys.executable, "-m", "siblint", "check", "--output-format", "json", "."], project)
    assert proc.returncode == 1
    assert len(json.loads(proc.stdout)) == 41 and proc.stderr == ""
    assert run([sys.executable, "-m", "siblint", "check", "clean.py"], project).returncode == 0
    code = ("import sys, click, siblint.interfaces.cli as cli\n"
            "cli.main = lambda: sys.exit('siblint: stopped')\n"
            "cli.console()\n")
    stopped = run([sys.executable, "-c", code], project)
    assert (stopped.returncode, stopped.stderr) == (1, "siblint: stopped\n")


# ---- output formats ----------------------------------------------------------------------------

def test_json_format(cli, project):
    res = cli("check", "--format", "json", "bad.py", "clean.py")
    assert res.code == 1
    [d] = json.loads(res.out)
    assert d == {
        "path": "bad.py", "line": 4, "column": 39, "end_line": 4, "end_column": 43, "code": "SIB201",
        "name": "tool-failure-handler-disabled", "message": d["message"], "severity": "warning", "related": [],
        "fix": {"applicability": "unsafe", "message": d["fix"]["message"], "edits": [  # ruff's shape
            {"content": "", "location": {"row": 4, "column": 16}, "end_location": {"row": 4, "column": 43}}]},
    }
    assert d["message"].startswith("failure_error_function=None: ")
    assert d["fix"]["message"].startswith("drops `failure_error_function=None`")


def test_github_format(cli, project):
    res = cli("check", "--format", "github", "bad.py")
    assert res.code == 1
    # SIB201 alone is a warning: the loss needs a sibling that cancellation cannot stop (SIB301).
    assert re.fullmatch(
        r"::warning file=bad\.py,line=4,col=39,endLine=4,endColumn=43,title=siblint \(SIB201\)::failure_error_function=None: [^\n]+\n",
        res.out,
    ), res.out


def test_sarif_format_and_output_file(cli, project):
    res = cli("check", "--format", "sarif", "-o", "out.sarif", "bad.py")
    assert (res.code, res.out) == (1, "")
    doc = json.loads((project / "out.sarif").read_text(encoding="utf-8"))
    [result] = doc["runs"][0]["results"]
    assert result["ruleId"] == "SIB201"
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith("bad.py")


def test_statistics(cli, project):
    write(project, {"bad2.py": HAZARD})
    res = cli("check", "--statistics", "bad.py", "bad2.py")
    assert res.code == 1
    assert res.out.endswith("Found 2 findings (2 warnings).\n2\tSIB201\ttool-failure-handler-disabled\n")
    res = cli("check", "--statistics", "--format", "json", "bad.py", "bad2.py")
    assert len(json.loads(res.out)) == 2  # stdout stays valid JSON; the table goes to stderr
    assert res.err == "2\tSIB201\ttool-failure-handler-disabled\n"


# ---- selection -----------------------------------------------------------------------------------

def test_select_ignore_extend_select(cli, project):
    assert cli("check", "--ignore", "SIB2", "bad.py").code == 0
    assert cli("check", "--select", "SIB9", "bad.py").code == 0
    assert cli("check", "--select", "SIB9", "--extend-select", "sib201", "bad.py").code == 1
    assert cli("check", "--select", "SIB2", "--ignore", "SIB201", "bad.py").code == 0
    assert cli("check", "--ignore", "SIB2", "--select", "SIB201", "bad.py").code == 1  # longest prefix wins


# ---- stdin ---------------------------------------------------------------------------------------

def test_stdin_with_filename(cli, project):
    res = cli("check", "-", "--stdin-filename", "src/agent.py", stdin=HAZARD)
    assert res.code == 1
    assert res.out.startswith("src/agent.py:4:39: SIB201 ")


def test_stdin_filename_alone_reads_stdin(cli, project):
    res = cli("check", "--stdin-filename", "agent.py", stdin=CLEAN)
    assert (res.code, res.out) == (0, "All checks passed.\n")


def test_stdin_honours_noqa_and_per_file_ignores(cli, project):
    write(project, {"pyproject.toml": '[tool.siblint]\nper-file-ignores = { "legacy/*" = ["SIB2"] }\n'})
    assert cli("check", "-", "--stdin-filename", "legacy/a.py", stdin=HAZARD).code == 0
    assert cli("check", "-", "--stdin-filename", "new/a.py", stdin=HAZARD).code == 1
    noqa = HAZARD.replace("=None)", "=None)  # noqa: SIB201")
    assert cli("check", "-", "--stdin-filename", "new/a.py", stdin=noqa).code == 0


def test_stdin_unparsable_source_is_sib900(cli, project):
    res = cli("check", "-", "--stdin-filename", "a.py", stdin="from agents import function_tool\ndef f(:\n")
    assert res.code == 1
    assert res.out.startswith("a.py:2:")
    assert "SIB900" in res.out


# ---- jobs and order ------------------------------------------------------------------------------

def test_output_is_sorted_and_independent_of_jobs(cli, project):
    write(project, {f"m{i:02d}.py": HAZARD for i in range(20)})
    one = cli("check", "-j", "1", ".")
    two = cli("check", "-j", "2", ".")
    assert one.code == two.code == 1
    assert one.out == two.out
    paths = [line.split(":")[0] for line in one.out.splitlines() if "SIB201" in line]
    assert len(paths) == 21 and paths == sorted(paths)


# ---- other commands --------------------------------------------------------------------------------

def test_rules_lists_every_rule(cli):
    res = cli("rules")
    assert res.code == 0
    for r in all_rules():
        assert re.search(rf"^{r.code}\s+{r.name}\s+(on|off)\s+\S", res.out, re.M), r.code
    md = cli("rules", "--format", "markdown")
    assert md.out.count("\n| `SIB") == len(all_rules())


def test_explain_prints_the_rule_doc(cli):
    res = cli("explain", "sib201")
    assert res.code == 0
    assert res.out.startswith("# tool-failure-handler-disabled (SIB201)\n")
    assert "## Why is this bad?" in res.out and "Use instead" in res.out


def test_version(cli):
    res = cli("--version")
    assert (res.code, res.out) == (0, f"siblint, version {__version__}\n")


def test_help_is_helpful(cli):
    top = cli("--help")
    assert top.code == 0
    for word in ("check", "rules", "explain", "Exit status"):
        assert word in top.out
    sub = cli("check", "--help")
    for opt in ("--output-format, --format", "--output", "--select", "--ignore", "--extend-select", "--stdin-filename",
                "--exit-zero", "--statistics", "--jobs", "--ignore-noqa", "--isolated", "--watch", "SIBLINT_OUTPUT_FORMAT",
                "[concise|full|json|json-lines|junit|grouped|github|gitlab|pylint|rdjson|azure|sarif]"):
        assert opt in sub.out.replace("\n", " ").replace("  ", " ") or opt in sub.out, opt


def test_python_dash_m_siblint(project):
    proc = run([sys.executable, "-m", "siblint", "check", "bad.py"], project)
    assert proc.returncode == 1 and proc.stdout.startswith(HAZARD_LINE)


def test_fail_on_error_passes_warnings_and_fails_on_certain_losses(cli, project):
    assert cli("check", "--fail-on", "error", "bad.py").code == 0  # SIB201 alone is a warning
    write(project, {"checkout.py": (ROOT / "examples" / "checkout_agent.py").read_text()})
    res = cli("check", "--fail-on", "error", "checkout.py")
    assert res.code == 1 and "SIB301" in res.out  # the mix is an error
    assert res.out.endswith("Found 3 findings (1 error, 2 warnings).\n")


def test_concise_lines_and_the_full_format(cli, project):
    write(project, {"checkout.py": (ROOT / "examples" / "checkout_agent.py").read_text()})
    concise = cli("check", "checkout.py").out.splitlines()
    full = cli("check", "--output-format", "full", "checkout.py").out.splitlines()
    assert all(len(line) <= 180 for line in concise) and not any(line.startswith(" ") for line in concise)
    assert any(line.startswith("    checkout.py:") for line in full) and len(full) > len(concise)


def test_github_paths_are_relative_to_the_repository_root(cli, project):
    (project / ".git").mkdir()
    write(project, {"sub/bad.py": HAZARD})
    proc = siblint(["check", "--format", "github", "bad.py"], project / "sub")
    assert proc.stdout.startswith("::warning file=sub/bad.py,line=4,"), proc.stdout
