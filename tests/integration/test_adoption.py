"""A way in for existing code: --add-noqa, baselines, SIB902 (unused noqa), --quiet, colour and
--show-files, through the installed console script and real flake8."""

from __future__ import annotations

import ast
import json
import os
import pty
import subprocess
from pathlib import Path

import pytest
from support import (
    CHECKOUT_TOOLS,
    HAZARD,
    cli_findings,
    flake8_findings,
    script,
    siblint,
    write,
)

# Every place a noqa can have to go: a merged comment, a multi-line call, a backslash
# continuation ending in a multi-line string, CRLF endings (written as bytes below).
LEGACY = """\
import requests
from agents import Agent, function_tool

@function_tool
def charge(x: int) -> str:  # noqa: E501
    requests.post("https://x.example.com", json={})
    return "ok"

@function_tool(failure_error_function=None)
async def tax() -> str: return ""

agent = Agent(name="a", tools=[charge,
    tax])
other = Agent(name="b", tools=[charge, \\
    tax], instructions=\"\"\"
multi\"\"\")
"""


@pytest.fixture
def legacy(tmp_path: Path) -> Path:
    write(tmp_path, {"legacy.py": LEGACY, "pkg/tools.py": CHECKOUT_TOOLS})
    (tmp_path / "crlf.py").write_bytes(HAZARD.replace("\n", "\r\n").encode())
    (tmp_path / "pkg" / "tools.py").chmod(0o640)
    return tmp_path


def test_add_noqa_silences_everything_and_keeps_files_parseable(legacy):
    before = cli_findings(["."], legacy)
    assert len(before) == 7
    proc = siblint(["check", "--add-noqa", "."], legacy)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == "Added 7 noqa directives in 3 files.\n"
    text = (legacy / "legacy.py").read_text()
    ast.parse(text)
    assert "def charge(x: int) -> str:  # noqa: E501,SIB101\n" in text  # merged with the existing comment
    assert "agent = Agent(name=\"a\", tools=[charge,  # noqa: SIB301\n" in text
    assert text.endswith('multi""")  # noqa: SIB301\n')  # the line noqa.py reads for the whole statement
    assert (legacy / "crlf.py").read_bytes().count(b"\r\n") == HAZARD.count("\n")  # endings kept
    assert b"# noqa: SIB201\r\n" in (legacy / "crlf.py").read_bytes()
    assert oct((legacy / "pkg" / "tools.py").stat().st_mode & 0o777) == oct(0o640)
    assert cli_findings(["."], legacy) == []
    assert flake8_findings(["."], legacy) == []  # flake8 reads the comments the same way
    again = siblint(["check", "--add-noqa", "."], legacy)
    assert (again.returncode, again.stderr) == (0, "Added 0 noqa directives in 0 files.\n")


def test_add_noqa_never_writes_through_a_symlink(tmp_path):
    target = tmp_path / "outside.py"
    target.write_text(HAZARD)
    (tmp_path / "tree").mkdir()
    os.symlink(target, tmp_path / "tree" / "link.py")
    proc = siblint(["check", "--add-noqa", "link.py"], tmp_path / "tree")
    assert proc.returncode == 1
    assert "link.py: a symbolic link (or in a linked folder), not edited" in proc.stderr
    assert target.read_text() == HAZARD
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "agent.py").write_text(HAZARD)
    os.symlink(tmp_path / "elsewhere", tmp_path / "tree" / "linked")
    proc = siblint(["check", "--add-noqa", "."], tmp_path / "tree")  # a walk does not follow the link
    assert "linked: skipped (symbolic link to outside the project" in proc.stderr
    proc = siblint(["check", "--add-noqa", "--follow-symlinks", "."], tmp_path / "tree")
    assert "linked/agent.py: a symbolic link (or in a linked folder), not edited" in proc.stderr
    assert (tmp_path / "elsewhere" / "agent.py").read_text() == HAZARD


def test_unused_noqa_is_sib902_in_the_cli_and_under_flake8(legacy):
    siblint(["check", "--add-noqa", "."], legacy)
    assert cli_findings(["."], legacy, ["--extend-select", "SIB902"]) == []  # every comment is used
    tools = (legacy / "pkg" / "tools.py").read_text()
    (legacy / "pkg" / "tools.py").write_text(tools.replace("failure_error_function=None", "timeout=3")
                                             + "x = 1  # noqa: E501, SIB101\ny = 2  # noqa\n")
    cli = cli_findings(["."], legacy, ["--extend-select", "SIB902"])
    assert [(f[0], f[1], f[3]) for f in cli] == [("pkg/tools.py", 9, "SIB902"), ("pkg/tools.py", 12, "SIB902")]
    assert "SIB201; remove it" in cli[0][4] and "SIB101; remove it" in cli[1][4]  # not E501, not the bare noqa
    assert flake8_findings(["--extend-select", "SIB902", "."], legacy) == sorted(cli)
    assert cli_findings(["."], legacy) == []  # off by default


def test_baseline_fails_only_on_new_findings_and_survives_line_moves(legacy, tmp_path):
    proc = siblint(["check", "--write-baseline", "siblint-baseline.json", "."], legacy)
    assert (proc.returncode, proc.stdout) == (0, "")
    assert proc.stderr == "siblint: wrote 7 findings to the baseline siblint-baseline.json\n"
    document = json.loads((legacy / "siblint-baseline.json").read_text())
    assert document["format"] == "siblint-baseline" and len(document["findings"]) == 7
    assert {e["path"] for e in document["findings"]} == {"legacy.py", "crlf.py", "pkg/tools.py"}
    first = (legacy / "siblint-baseline.json").read_bytes()
    siblint(["check", "--write-baseline", "siblint-baseline.json", "."], legacy)
    assert (legacy / "siblint-baseline.json").read_bytes() == first  # stable

    proc = siblint(["check", "--baseline", "siblint-baseline.json", "."], legacy)
    assert (proc.returncode, proc.stdout) == (0, "All checks passed.\n")
    assert "7 findings in the baseline not shown" in proc.stderr
    # Lines move: code added above every finding, from another working folder.
    text = (legacy / "legacy.py").read_text()
    (legacy / "legacy.py").write_text(text.replace("import requests\n", "import requests\nimport os\n\n\nX = os.sep\n"))
    proc = siblint(["check", "--baseline", str(legacy / "siblint-baseline.json"), str(legacy)], tmp_path.parent)
    assert proc.returncode == 0, proc.stdout
    # A new hazard fails, alone.
    write(legacy, {"new.py": HAZARD})
    proc = siblint(["check", "--baseline", "siblint-baseline.json", "."], legacy)
    assert proc.returncode == 1
    assert [line.split(":")[0] for line in proc.stdout.splitlines()[:-1]] == ["new.py"]
    assert proc.stdout.endswith("Found 1 finding (1 warning).\n")


def test_a_bad_baseline_is_one_error_line(legacy):
    (legacy / "b.json").write_text('{"format": "other"}')
    proc = siblint(["check", "--baseline", "b.json", "."], legacy)
    assert proc.returncode == 2 and proc.stderr == "siblint: error: b.json: not a siblint baseline (version 1); " \
                                                   "write one with --write-baseline\n"


def test_quiet_prints_findings_only(legacy):
    proc = siblint(["check", "-q", "crlf.py", "missing_nothing"], legacy)
    assert proc.returncode == 2  # errors still speak
    proc = siblint(["check", "--quiet", "crlf.py"], legacy)
    assert proc.returncode == 1 and proc.stderr == ""
    assert proc.stdout.startswith("crlf.py:4:39: SIB201 ") and len(proc.stdout.splitlines()) == 1
    assert siblint(["check", "-q", "pkg/__nothing__", "--exit-zero", "."], legacy).returncode == 2


def _on_a_terminal(args: list[str], cwd: Path, env: dict[str, str]) -> str:
    """The console script with stdout on a pseudo-terminal; what it printed there."""
    leader, follower = pty.openpty()
    proc = subprocess.run([script("siblint"), *args], cwd=cwd, stdout=follower, stderr=subprocess.PIPE, timeout=120,
                          env={**{k: v for k, v in os.environ.items() if k != "NO_COLOR"}, **env})
    os.close(follower)
    chunks = []
    while True:
        try:
            data = os.read(leader, 65536)
        except OSError:  # EIO: the terminal closed
            break
        if not data:
            break
        chunks.append(data)
    os.close(leader)
    assert proc.returncode == 1, proc.stderr
    return b"".join(chunks).decode()


def test_colour_on_a_terminal_only(legacy):
    assert "\x1b[33m\x1b[1mSIB201 warning:\x1b[0m" in _on_a_terminal(["check", "crlf.py"], legacy, {})  # yellow
    assert "\x1b[" not in _on_a_terminal(["check", "crlf.py"], legacy, {"NO_COLOR": "1"})
    assert "\x1b[" not in _on_a_terminal(["check", "--color", "never", "crlf.py"], legacy, {})
    piped = siblint(["check", "crlf.py"], legacy)
    assert "\x1b[" not in piped.stdout  # not a terminal
    forced = siblint(["check", "--color", "always", "crlf.py"], legacy)
    assert "\x1b[1mcrlf.py:4:39:\x1b[0m" in forced.stdout
    out = legacy / "report.txt"
    _on_a_terminal(["check", "-o", str(out), "crlf.py"], legacy, {})
    assert "\x1b[" not in out.read_text()  # never in a file by default
    no_colour = siblint(["check", "--color", "never", "crlf.py"], legacy).stdout
    assert no_colour.replace("\n", "") in forced.stdout.replace("\x1b[0m", "").replace("\x1b[1m", "").replace(
        "\x1b[33m", "").replace("\x1b[2m", "").replace("\n", "")


def test_show_files_escapes_odd_names(tmp_path):
    write(tmp_path, {"ok.py": "", "new\nline.py": ""})
    proc = siblint(["check", "--show-files", "."], tmp_path)
    assert proc.stdout.splitlines() == ["new\\nline.py", "ok.py"]


def test_stdin_refuses_file_editing_options(tmp_path):
    for option in (["--add-noqa"], ["--write-baseline", "b.json"]):
        proc = siblint(["check", *option, "-"], tmp_path, stdin=HAZARD)
        assert proc.returncode == 2 and "need files, not stdin" in proc.stderr
