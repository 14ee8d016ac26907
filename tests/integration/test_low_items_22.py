"""Issue 22, the Low items: each reproduction of the reference ends cleanly."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from siblint.interfaces.cli import _jobs
from siblint.run.runner import default_jobs
from support import ROOT, run, script

EXAMPLE = (ROOT / "examples" / "checkout_agent.py").read_text()


def test_l12_jobs_capped_by_the_cpus() -> None:
    assert _jobs(64) == min(64, default_jobs())
    assert _jobs(1) == 1
    assert _jobs(None) == default_jobs()


def test_l10_a_long_extend_chain_is_one_clear_error(tmp_path: Path) -> None:
    for i in range(200):
        extend = f'extend = "c{i + 1}.toml"\n' if i < 199 else ""
        (tmp_path / f"c{i}.toml").write_text(f"[tool.siblint]\n{extend}")
    (tmp_path / "pyproject.toml").write_text('[tool.siblint]\nextend = "c0.toml"\n')
    (tmp_path / "agent.py").write_text(EXAMPLE)
    proc = run([script("siblint"), "check", "--no-cache", "."], tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert "extend: a chain of more than 64 files" in proc.stderr and "internal error" not in proc.stderr


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="POSIX signal masks")
def test_l7_sigterm_during_a_report_write_leaves_no_partial_file(tmp_path: Path) -> None:
    # SIGTERM arrives while the report is written: it is held until the rename, then ends the run.
    code = textwrap.dedent(f"""
        import os, signal
        from siblint.common import writing
        real_replace = os.replace
        def replace(a, b):
            os.kill(os.getpid(), signal.SIGTERM)  # mid-write, before the rename
            real_replace(a, b)
        os.replace = replace
        writing.replace_file({str(tmp_path / "report.sarif")!r}, b"x" * 5_000_000, prefix=".siblint-report-")
        print("not reached")
    """)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == -signal.SIGTERM and "not reached" not in proc.stdout
    assert sorted(os.listdir(tmp_path)) == ["report.sarif"]
    assert (tmp_path / "report.sarif").stat().st_size == 5_000_000
