"""Issue 6, safety: siblint never imports, executes or evaluates the code it analyses; it writes only
its cache folder and the -o file; a foreign or tampered cache is ignored; configuration errors are
one line and exit 2."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest
from support import run, script

MARKER_CODE = """\
import pathlib
pathlib.Path({marker!r}).write_text("imported")
"""
TOOLS = """\
import pathlib
pathlib.Path({marker!r}).write_text("imported")
import requests
from agents import function_tool

@function_tool
def charge_card(amount: int) -> str:
    requests.post("https://payments.example.com/charges", json={{"amount": amount}})
    return "charged"

@function_tool(failure_error_function=None)
async def lookup_tax(region: str) -> str:
    return "0.2"

@function_tool(failure_error_function=__import__("pathlib").Path({marker!r}).write_text("evaluated") and None)
async def lookup_rate(region: str = __import__("pathlib").Path({marker!r}).write_text("default")) -> str:
    return "0.2"
"""
AGENT = """\
from agents import Agent
from app.tools import charge_card, lookup_tax
from app import evil  # noqa

agent = Agent(name="a", tools=[charge_card, lookup_tax])
"""


def _planted(root: Path) -> Path:
    marker = root / "MARKER"
    files = {
        "app/__init__.py": MARKER_CODE.format(marker=str(marker)),
        "app/evil.py": MARKER_CODE.format(marker=str(marker)),
        "app/tools.py": TOOLS.format(marker=str(marker)),
        "app/agent.py": AGENT,
        "conftest.py": MARKER_CODE.format(marker=str(marker)),
        "app/sitecustomize.py": MARKER_CODE.format(marker=str(marker)),
    }
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return marker


def _snapshot(root: Path) -> dict[str, str]:
    out = {}
    for folder, _, files in os.walk(root):
        for f in files:
            p = Path(folder, f)
            out[str(p.relative_to(root))] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def test_analysed_code_is_never_imported_or_executed(tmp_path):
    project = tmp_path / "project"
    marker = _planted(project)
    # The CLI (cross-module resolution: agent.py's SIB301 needs app.tools' facts), -j1 and -j2.
    for jobs in ("1", "2"):
        proc = run([script("siblint"), "check", "--format", "json", "--no-cache", "-j", jobs, "app/agent.py"], project)
        assert proc.returncode == 1, proc.stderr
        found = json.loads(proc.stdout)
        sib301 = [d for d in found if d["code"] == "SIB301"]
        assert sib301 and any(r["path"].endswith("tools.py") for r in sib301[0]["related"]), found
    # The whole tree, and flake8 with the plugin, from inside the project (cwd on sys.path).
    proc = run([script("siblint"), "check", "--no-cache", "."], project)
    assert proc.returncode == 1, proc.stderr
    proc = run([script("flake8"), "--isolated", "--select", "SIB", "."], project)
    assert "SIB301" in proc.stdout and "SIB201" in proc.stdout, proc.stdout + proc.stderr
    assert not marker.exists(), "analysed code was executed"


def test_writes_only_the_cache_folder_and_the_report(tmp_path):
    project = tmp_path / "project"
    marker = _planted(project)
    (project / "pyproject.toml").write_text("[tool.siblint]\nselect = [\"SIB\"]\n")
    home, tmp = tmp_path / "home", tmp_path / "tmp"
    home.mkdir()
    tmp.mkdir()
    before = _snapshot(project)
    env = {"HOME": str(home), "TMPDIR": str(tmp), "XDG_CACHE_HOME": str(home / ".cache"),
           "PYTHONDONTWRITEBYTECODE": "1"}
    for jobs in ("1", "2", "2"):  # cold, then warm
        proc = run([script("siblint"), "check", "--format", "sarif", "-o", "report.sarif", "-j", jobs, "."],
                   project, env=env)
        assert proc.returncode in (0, 1), proc.stderr
    after = _snapshot(project)
    new = sorted(set(after) - set(before))
    assert all(p.startswith(".siblint_cache/") or p == "report.sarif" for p in new), new
    assert "report.sarif" in new and any(p.startswith(".siblint_cache/") for p in new)
    assert {k: v for k, v in after.items() if k in before} == before, "an analysed file was modified"
    # Outside the project, only the cache's machine key, readable by its owner alone.
    assert [str(p.relative_to(home)) for p in home.rglob("*") if p.is_file()] == [".cache/siblint/key"]
    assert (home / ".cache/siblint/key").stat().st_mode & 0o777 == 0o600
    assert list(tmp.iterdir()) == []
    assert not marker.exists()


def _cache_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.json") if p.is_file())


@pytest.mark.parametrize("damage", ["other_version", "tampered_payload", "truncated", "not_json"])
def test_foreign_or_tampered_cache_is_ignored(tmp_path, damage):
    project = tmp_path / "project"
    _planted(project)
    args = [script("siblint"), "check", "--format", "json", "--cache-dir", "cache", "-j", "1", "."]
    reference = run(args, project)
    assert reference.returncode == 1, reference.stderr
    files = _cache_files(project / "cache")
    assert files, "the run wrote no cache"
    for f in files:
        blob = f.read_bytes()
        head, _, body = blob.partition(b"\n")
        if damage == "other_version":
            header = json.loads(head)
            header["version"] = "0.0.0-other"
            f.write_bytes(json.dumps(header).encode() + b"\n" + body)
        elif damage == "tampered_payload":  # findings removed, header left as it was
            f.write_bytes(head + b"\n" + body.replace(b"SIB", b"XIB"))
        elif damage == "truncated":
            f.write_bytes(blob[: len(blob) // 2])
        else:
            f.write_bytes(b"\x00\xff garbage")
    again = run(args, project)
    assert again.returncode == 1, again.stderr
    assert "Traceback" not in again.stderr
    assert again.stdout == reference.stdout
    assert b"XIB" not in b"".join(p.read_bytes() for p in _cache_files(project / "cache"))


@pytest.mark.parametrize("table,needle", [
    ('nonsense = 1\n', "unknown key"),
    ('select = ["SIB201"]\nexclude = 3\n', "exclude"),
    ('select = "SIB201"\n', "select: expected a list of strings"),
    ('select = ["SIB999"]\n', "unknown rule code"),
    ('per-file-ignores = ["x"]\n', "per-file-ignores"),
    ('select = [1, 2]\n', "select"),
])
def test_configuration_errors_are_one_line_and_exit_2(tmp_path, table, needle):
    (tmp_path / "pyproject.toml").write_text("[tool.siblint]\n" + table)
    (tmp_path / "a.py").write_text("from agents import function_tool\n")
    proc = run([script("siblint"), "check", "--no-cache", "a.py"], tmp_path)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert "Traceback" not in proc.stderr
    assert any(needle in line for line in lines), proc.stderr
    assert len(lines) <= 2, proc.stderr  # click may add a "Usage:" line before the one message


def test_unknown_code_on_the_command_line_is_exit_2(tmp_path):
    (tmp_path / "a.py").write_text("from agents import function_tool\n")
    proc = run([script("siblint"), "check", "--no-cache", "--select", "SIB999", "a.py"], tmp_path)
    assert proc.returncode == 2 and "SIB999" in proc.stderr and "Traceback" not in proc.stderr
