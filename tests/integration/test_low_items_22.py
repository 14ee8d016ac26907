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


def test_l2_add_noqa_never_edits_a_string_literal(tmp_path: Path) -> None:
    text = EXAMPLE.replace('Agent(name="checkout"', 'Agent(name="# noqa: E501"').replace(
        "@function_tool\ndef charge_card", '@function_tool(name_override="x # noqa:E1")\ndef charge_card')
    assert text.count("# noqa") == 2
    (tmp_path / "agent.py").write_text(text)
    (tmp_path / "pyproject.toml").write_text("[tool.siblint]\n")
    proc = run([script("siblint"), "check", "--no-cache", "--add-noqa", "."], tmp_path)
    edited = (tmp_path / "agent.py").read_text()
    assert 'name="# noqa: E501"' in edited and 'name_override="x # noqa:E1"' in edited  # the strings as they were
    # flake8 reads the first `# noqa` of a physical line, string or not, so no comment on that line
    # could silence the finding: the file is left as it was, and the run says so (exit 1).
    assert edited == text and proc.returncode == 1
    assert "a comment would not silence every finding, not edited" in proc.stderr
    # Without the look-alike string on the finding's line, the real comment is written.
    (tmp_path / "agent.py").write_text(text.replace('name="# noqa: E501"', 'name="checkout"'))
    run([script("siblint"), "check", "--no-cache", "--add-noqa", "."], tmp_path)
    edited = (tmp_path / "agent.py").read_text()
    assert 'name_override="x # noqa:E1"' in edited
    assert run([script("siblint"), "check", "--no-cache", "."], tmp_path).returncode == 0, edited


def test_l2_with_codes_edits_only_the_comment() -> None:
    from siblint.lint.noqa import comment_columns, with_codes

    line = 'x = f("# noqa: E501")  # noqa: E1\n'
    assert with_codes(line, ["SIB301"], comment_columns(line)[1]) == 'x = f("# noqa: E501")  # noqa: E1,SIB301\n'
    line = 'x = f("# noqa: E501")\n'
    assert with_codes(line, ["SIB301"], -1) == 'x = f("# noqa: E501")  # noqa: SIB301\n'
    assert with_codes("x = 1  # keep\r\n", ["SIB1"], 7) == "x = 1  # keep  # noqa: SIB1\r\n"


@pytest.mark.parametrize("body,line", [
    ("def f(x):\n    return* x\n", 5),
    ("async def f():\n    async with a as*http:\n        pass\n", 5),
])
def test_l14_code_only_the_compiler_rejects_is_a_syntax_error(body: str, line: int, tmp_path: Path) -> None:
    from siblint.lint.engine import analyse, new_project
    from siblint.settings.config import Config

    data = ("from agents import Agent\n\n\n" + body).encode()
    config = Config(root=str(tmp_path))
    [d] = analyse(str(tmp_path / "x.py"), data, config, new_project(config)).diagnostics
    assert d.code == "SIB900" and "syntax error" in d.message and "internal error" not in d.message
    assert d.loc.line == line
