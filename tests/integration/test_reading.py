"""Issue 12: files are read in bounded memory, regular files only, with a size cap (SIB900 past
it), and every untrusted string in text output goes through one escape."""

from __future__ import annotations

import json
import os
import threading

import pytest
from siblint.common.escape import escape_text
from siblint.common.reading import TooLarge, parse_size, read_bounded
from siblint.run import runner
from siblint.run.discovery import discover
from siblint.settings.config import Config, ConfigError, from_table
from support import HAZARD, siblint

FIFO = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")


def test_read_bounded_reads_regular_files_up_to_the_limit(tmp_path):
    f = tmp_path / "a.py"
    f.write_bytes(b"x" * 1000)
    assert read_bounded(str(f), 1000) == b"x" * 1000
    with pytest.raises(TooLarge) as err:
        read_bounded(str(f), 999)
    assert err.value.strerror == "larger than the 999 bytes limit (max-file-size)"
    with pytest.raises(OSError, match="not a regular file"):
        read_bounded("/dev/zero", 10**9)  # would read until memory runs out
    os.symlink(f, tmp_path / "link.py")
    assert read_bounded(str(tmp_path / "link.py"), 1000) == b"x" * 1000
    with pytest.raises(OSError):
        read_bounded(str(tmp_path / "link.py"), 1000, follow_symlinks=False)


@FIFO
def test_a_file_swapped_for_a_fifo_or_a_device_after_discovery(tmp_path):
    """S14: discovery saw regular files; by the read one is a FIFO with no writer, one a link to
    /dev/zero. Each is one SIB900 and the run goes on; nothing blocks or fills memory."""
    for name in ("fifo.py", "zero.py", "agent.py"):
        (tmp_path / name).write_text(HAZARD)
    config = Config(root=str(tmp_path))
    files = discover([str(tmp_path)], config).files
    os.unlink(tmp_path / "fifo.py")
    os.mkfifo(tmp_path / "fifo.py")
    os.unlink(tmp_path / "zero.py")
    os.symlink("/dev/zero", tmp_path / "zero.py")
    box: dict = {}
    worker = threading.Thread(target=lambda: box.update(result=runner.run(files, config, 1)), daemon=True)
    worker.start()
    worker.join(60)
    assert not worker.is_alive(), "the run blocked on the FIFO"
    found = [(os.path.basename(d.path), d.code, d.message) for d in box["result"].diagnostics]
    assert ("fifo.py", "SIB900", "could not analyse file: cannot read file: not a regular file") in found
    assert ("zero.py", "SIB900", "could not analyse file: cannot read file: not a regular file") in found
    assert ("agent.py", "SIB201") in [(p, c) for p, c, _ in found]


def test_size_cap_from_config_and_command_line(tmp_path):
    (tmp_path / "big.py").write_text(HAZARD + "#" * 5000 + "\n")
    (tmp_path / "small.py").write_text(HAZARD)
    (tmp_path / "pyproject.toml").write_text('[tool.siblint]\nmax-file-size = "4KB"\n')
    proc = siblint(["check", "--no-cache", "--format", "json", "."], tmp_path)
    found = {(os.path.normpath(d["path"]), d["code"], d["message"]) for d in json.loads(proc.stdout)}
    assert ("big.py", "SIB900", "could not analyse file: cannot read file: larger than the 4 KB limit (max-file-size)") in found
    assert ("small.py", "SIB201") in {(p, c) for p, c, _ in found}
    assert "big.py" not in {p for p, c, _ in found if c != "SIB900"}
    proc = siblint(["check", "--no-cache", "--format", "json", "--max-file-size", "1MB", "."], tmp_path)
    assert {(os.path.normpath(d["path"]), d["code"]) for d in json.loads(proc.stdout)} == {("big.py", "SIB201"), ("small.py", "SIB201")}
    proc = siblint(["check", "--no-cache", "--max-file-size", "lots", "."], tmp_path)
    assert proc.returncode == 2 and "--max-file-size" in proc.stderr and "Traceback" not in proc.stderr
    # stdin is capped the same way.
    proc = siblint(["check", "--no-cache", "--max-file-size", "100", "-", "--stdin-filename", "x.py"], tmp_path, stdin=HAZARD)
    assert proc.returncode == 1 and "x.py:1:1: SIB900 error: could not analyse file: cannot read file: larger than the 100 bytes limit" in proc.stdout


def test_size_values():
    assert parse_size(1234, "k") == 1234 and parse_size("10MB", "k") == 10_000_000 and parse_size("2.5 kb", "k") == 2500
    for bad in (0, -1, "", "MB", "ten", True, 1.5, [1]):
        with pytest.raises(ValueError):
            parse_size(bad, "k")
    assert from_table({"max-file-size": "1GB"}, "/r").max_file_size == 10**9
    with pytest.raises(ConfigError, match="max-file-size"):
        from_table({"max-file-size": "huge"}, "/r")


def test_a_huge_pyproject_is_not_read_whole(tmp_path):
    """S6: a symlinked 3 GB pyproject.toml took 6.3 GB of memory before failing."""
    with open(tmp_path / "pyproject.toml", "wb") as fh:
        fh.truncate(3 * 10**9)  # sparse: costs no disk
    (tmp_path / "a.py").write_text(HAZARD)
    proc = siblint(["check", "--no-cache", "a.py"], tmp_path)
    assert proc.returncode == 2 and "pyproject.toml: cannot read" in proc.stderr and "larger than" in proc.stderr


@pytest.mark.parametrize("raw,shown", [
    ("plain/path.py", "plain/path.py"),
    ("a\nb", "a\\nb"),
    ("\r\t", "\\r\\t"),
    ("\x1b[31mred", "\\x1b[31mred"),
    ("\x9b2J \x7f", "\\x9b2J \\x7f"),
    ("line\u2028sep\u2029\u202etxt", "line\\u2028sep\\u2029\\u202etxt"),
    ("::error::x", "\\x3a:error::x"),
    ("  ::add-mask::s", "  \\x3a:add-mask::s"),
    ("ok :: in the middle", "ok :: in the middle"),
    ("C:\\Users\\x.py", "C:\\Users\\x.py"),
    ("ünïcode名.py", "ünïcode名.py"),
])
def test_escape_text(raw, shown):
    assert escape_text(raw) == shown
    assert "\n" not in escape_text(raw) and not escape_text(raw).lstrip().startswith("::")
