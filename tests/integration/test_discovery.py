"""Which files a run checks: folders walked, default and configured excludes, odd filesystem entries."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from siblint.run.discovery import discover
from siblint.settings.config import DEFAULT_EXCLUDE, Config
from support import HAZARD, siblint, write


def rel(root: Path, files: list[str]) -> list[str]:
    return [os.path.relpath(f, root) for f in files]


def test_walks_py_and_pyi_skips_default_excludes_sorted(tmp_path):
    files = {f"{d}/x.py": "" for d in DEFAULT_EXCLUDE}
    files.update({"b.py": "", "a/z.pyi": "", "a/y.py": "", "notes.txt": "", "a/script": "", "c/.hidden/q.py": ""})
    write(tmp_path, files)
    found = discover([str(tmp_path)], Config(root=str(tmp_path)))
    assert rel(tmp_path, found.files) == ["a/y.py", "a/z.pyi", "b.py", "c/.hidden/q.py"]
    assert found.missing == [] and found.warnings == []


def test_duplicates_are_checked_once_and_missing_paths_recorded(tmp_path):
    write(tmp_path, {"pkg/a.py": ""})
    config = Config(root=str(tmp_path))
    found = discover([str(tmp_path / "pkg"), str(tmp_path / "pkg" / "a.py"), str(tmp_path / "gone.py")], config)
    assert rel(tmp_path, found.files) == ["pkg/a.py"]
    assert found.missing == [str(tmp_path / "gone.py")]


def test_named_files_honour_excludes_like_flake8(tmp_path):
    # pre-commit names every staged file; `exclude` must still apply to them.
    write(tmp_path, {"build/gen.py": "", "generated/g.py": "", "src/ok.py": "", "tool": ""})
    config = Config(root=str(tmp_path), extend_exclude=("generated",))
    named = [str(tmp_path / p) for p in ("build/gen.py", "generated/g.py", "src/ok.py", "tool")]
    assert rel(tmp_path, discover(named, config).files) == ["src/ok.py", "tool"]  # a named file of any suffix


def test_glob_patterns(tmp_path):
    write(tmp_path, {"a/migrations/0001.py": "", "a/models.py": "", "b_test.py": ""})
    config = Config(root=str(tmp_path), extend_exclude=("*/migrations", "*_test.py"))
    assert rel(tmp_path, discover([str(tmp_path)], config).files) == ["a/models.py"]


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_symlink_loop_and_dangling_link_warn_and_go_on(tmp_path):
    write(tmp_path, {"a/x.py": ""})
    os.symlink(tmp_path / "a", tmp_path / "a" / "loop")
    os.symlink(tmp_path / "missing.py", tmp_path / "dangling.py")
    found = discover([str(tmp_path)], Config(root=str(tmp_path)))
    assert rel(tmp_path, found.files) == ["a/x.py"]  # the folder link is not followed by default
    assert [w for w in found.warnings if "dangling.py" in w] == [f"{tmp_path / 'dangling.py'}: skipped (No such file or directory)"]
    followed = discover([str(tmp_path)], Config(root=str(tmp_path)), follow_symlinks=True)
    assert rel(tmp_path, followed.files) == ["a/x.py"]
    assert any("a/loop: skipped (directory already visited: symlink loop?)" in w for w in followed.warnings)


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_links_inside_the_project_and_out_of_it(tmp_path):
    project, outside = tmp_path / "project", tmp_path / "outside"
    write(outside, {"secret_agent.py": HAZARD, "pkg/tools.py": HAZARD})
    write(project, {"src/real.py": "", "src/pkg/mod.py": ""})
    os.symlink(project / "src" / "real.py", project / "alias.py")  # a file inside: checked
    os.symlink(project / "src" / "pkg", project / "pkg_link")  # a folder inside: walked once, as src/pkg
    os.symlink(outside / "secret_agent.py", project / "leak.py")
    os.symlink(outside / "pkg", project / "vendor")
    os.symlink("/", project / "root")
    found = discover([str(project)], Config(root=str(project)))
    assert rel(project, found.files) == ["alias.py", "src/pkg/mod.py", "src/real.py"]
    outside_note = "skipped (symbolic link to outside the project; --follow-symlinks follows it)"
    assert sorted(found.warnings) == sorted(f"{project / n}: {outside_note}" for n in ("leak.py", "root", "vendor"))
    # Named on the command line, a link is taken as given.
    assert rel(project, discover([str(project / "leak.py")], Config(root=str(project))).files) == ["leak.py"]
    followed = discover([str(project / "src"), str(project / "vendor"), str(project / "leak.py")],
                        Config(root=str(project)), follow_symlinks=True)
    assert rel(project, followed.files) == ["leak.py", "src/pkg/mod.py", "src/real.py", "vendor/tools.py"]


def test_a_tree_deeper_than_the_recursion_limit(tmp_path):
    """S13: 1,200 nested folders (a path of 2,400+ characters) are walked, not a RecursionError."""
    deep = tmp_path
    for _ in range(1200):
        deep = deep / "d"
        os.mkdir(deep)  # one level at a time: mkdir(parents=True) would recurse
    (deep / "agent.py").write_text(HAZARD)
    try:
        found = discover([str(tmp_path)], Config(root=str(tmp_path)))
        assert [len(Path(f).parts) - len(tmp_path.parts) for f in found.files] == [1201]
        proc = siblint(["check", "--no-cache", "."], tmp_path)
        assert proc.returncode == 1, proc.stderr
        assert proc.stdout.count("SIB201") == 1 and "Traceback" not in proc.stderr
    finally:  # bottom up: shutil.rmtree (pytest's clean-up) recurses once per level
        (deep / "agent.py").unlink()
        while deep != tmp_path:
            deep.rmdir()
            deep = deep.parent


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_named_fifo_is_skipped_not_read(tmp_path):
    os.mkfifo(tmp_path / "pipe.py")
    write(tmp_path, {"bad.py": HAZARD})
    proc = siblint(["check", "pipe.py", "bad.py"], tmp_path)  # reading the FIFO would block for ever
    assert proc.returncode == 1
    assert "pipe.py: skipped (not a regular file)" in proc.stderr
    assert proc.stdout.startswith("bad.py:4:39: SIB201")


def test_missing_path_is_an_error_not_a_silent_pass(tmp_path):
    proc = siblint(["check", "nope"], tmp_path)
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr == "siblint: error: nope: no such file or directory\n"


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_a_warning_names_the_path_as_the_report_does(tmp_path):
    """`siblint check .` warns about `leak.py`, not `./leak.py` (one spelling with the findings)."""
    write(tmp_path, {"ws/project/bad.py": HAZARD, "outside.py": HAZARD})
    os.symlink(tmp_path / "outside.py", tmp_path / "ws" / "project" / "leak.py")
    proc = siblint(["check", "--no-cache", "."], tmp_path / "ws" / "project")
    assert proc.stdout.startswith("bad.py:4:39: SIB201"), proc.stdout
    assert "siblint: warning: leak.py: skipped (symbolic link to outside" in proc.stderr, proc.stderr
    assert "./" not in proc.stderr
    # Walked from a folder named without `./`: the same spelling as before.
    inner = siblint(["check", "--no-cache", "project"], tmp_path / "ws")
    assert "siblint: warning: project/leak.py: skipped (symbolic link to outside" in inner.stderr, inner.stderr
