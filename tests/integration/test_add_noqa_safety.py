"""Issue 22 L3, L4, L5 (`--add-noqa` edits only what it can edit as the file was analysed, in
place and byte for byte) and L13 (`--format github` names the real file)."""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

import pytest
from siblint.interfaces.add_noqa import add_noqa
from siblint.run.runner import check_file
from siblint.settings.config import Config
from support import ROOT, run, script
from siblint.lint.engine import new_project

EXAMPLE = (ROOT / "examples" / "checkout_agent.py").read_text()


def _findings(path: Path):
    config = Config(root=str(path.parent))
    return check_file(str(path), config, new_project(config))


@pytest.mark.parametrize("changed", [True, False])
def test_l3_a_file_changed_after_the_run_began_is_not_edited(tmp_path: Path, changed: bool) -> None:
    path = tmp_path / "agent.py"
    path.write_text(EXAMPLE)
    time.sleep(0.1)
    since = time.time_ns()
    findings = _findings(path)
    if changed:  # two lines added at the top while the run went on
        time.sleep(0.1)
        path.write_text("import os\n\n" + EXAMPLE)
    before = path.read_text()
    outcome = add_noqa(findings, since)
    if changed:
        assert path.read_text() == before and outcome.added == 0
        assert outcome.skipped == [f"{path}: changed after the run began (its findings may be on other lines now), "
                                   "not edited; run again"]
    else:
        assert outcome.added == 3 and outcome.skipped == [] and path.read_text().count("# noqa: SIB") == 3


def test_l4_read_only_files_and_hard_links_are_not_replaced(tmp_path: Path) -> None:
    ro, linked, ok = tmp_path / "ro.py", tmp_path / "linked.py", tmp_path / "ok.py"
    for p in (ro, linked, ok):
        p.write_text(EXAMPLE)
    ro.chmod(0o444)
    os.link(linked, tmp_path / "hardlink_copy.py")
    findings = [d for p in (ro, linked, ok) for d in _findings(p)]
    inode = linked.stat().st_ino
    outcome = add_noqa(findings)
    assert ro.read_text() == EXAMPLE and stat.S_IMODE(ro.stat().st_mode) == 0o444
    assert linked.read_text() == EXAMPLE and linked.stat().st_ino == inode and linked.stat().st_nlink == 2
    assert sorted(outcome.skipped) == [f"{linked}: has 2 hard links, which a rewrite would separate; not edited",
                                       f"{ro}: read-only, not edited"]
    assert outcome.files == 1 and ok.read_text().count("# noqa: SIB") == 3  # the writable twin


@pytest.mark.parametrize("coding, kept", [("unicode_escape", False), ("latin-1", True)])
def test_l5_an_encoding_that_cannot_write_back_its_bytes_is_refused(tmp_path: Path, coding: str, kept: bool) -> None:
    path = tmp_path / "agent.py"
    data = f"# -*- coding: {coding} -*-\n{EXAMPLE}".encode("latin-1")
    path.write_bytes(data)
    outcome = add_noqa(_findings(path))
    if kept:  # latin-1 gives back its bytes: edited, with every line still a line
        edited = path.read_bytes()
        assert outcome.files == 1 and edited.count(b"\n") == data.count(b"\n") and edited.count(b"# noqa: SIB") == 3
    else:
        assert path.read_bytes() == data and outcome.files == 0
        assert outcome.skipped == [f"{path}: its unicode_escape encoding would not write back the same bytes, not edited"]


@pytest.mark.parametrize("name, shown", [("\x1b[31mred\x1b[0m.py", "%1B[31mred%1B[0m.py"),
                                         ("a\u202ey.py", "a%E2%80%AEy.py")])
def test_l13_github_annotations_name_the_real_file(tmp_path: Path, name: str, shown: str) -> None:
    (tmp_path / name).write_text(EXAMPLE)
    (tmp_path / "red.py").write_text("x = 1\n")  # the name a stripped ANSI sequence would leave
    proc = run([script("siblint"), "check", "--no-cache", "--format", "github", "."], tmp_path)  # piped
    files = {line.split("file=")[1].split(",line=")[0] for line in proc.stdout.splitlines() if "file=" in line}
    assert files == {shown}, proc.stdout
    assert "\x1b" not in proc.stdout and "\u202e" not in proc.stdout
