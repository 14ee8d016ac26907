"""The `siblint` process ends without tearing the interpreter down, yet loses nothing: its exit
handlers run, its output is flushed, and its status is the command's (siblint.interfaces.process_exit)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

# An object whose finaliser only a full interpreter teardown runs (module globals are cleared then).
PROGRAM = """
import atexit, sys, threading
from siblint.interfaces.process_exit import exit_process

class TornDown:
    def __del__(self):
        sys.stdout.write("torn down\\n")

kept = TornDown()
atexit.register(lambda: sys.stdout.write("handler ran\\n"))
sys.stdout.write("report")  # no newline: only a flush writes it
{before}
exit_process({code})
"""


def _run(code: str, before: str = "") -> subprocess.CompletedProcess[str]:
    program = textwrap.dedent(PROGRAM).format(code=code, before=before)
    return subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60)


def test_the_process_ends_without_teardown_after_its_handlers_and_a_flush() -> None:
    done = _run("3")
    assert done.returncode == 3
    assert done.stdout == "reporthandler ran\n"  # no "torn down": the interpreter was not torn down


def test_no_status_is_a_clean_exit() -> None:
    done = _run("None")
    assert (done.returncode, done.stdout) == (0, "reporthandler ran\n")


def test_a_message_code_takes_the_ordinary_exit() -> None:
    done = _run("'siblint: bad'")
    assert done.returncode == 1
    assert "siblint: bad" in done.stderr
    assert "torn down" in done.stdout


def test_a_running_thread_is_waited_for_by_the_ordinary_exit() -> None:
    before = "threading.Thread(target=lambda: (__import__('time').sleep(0.3), sys.stdout.write('thread done\\\\n'))).start()"
    done = _run("0", before)
    assert done.returncode == 0
    assert "thread done" in done.stdout and "torn down" in done.stdout


def test_the_command_keeps_its_status_and_output(tmp_path: Path) -> None:
    """`python -m siblint` (as the console script) goes through `cli.run`: findings, status 1, all printed."""
    (tmp_path / "agent.py").write_text(textwrap.dedent("""
        import stripe
        from agents import Agent, function_tool

        @function_tool
        def charge(customer: str) -> str:
            stripe.Charge.create(customer=customer, amount=100)
            return "ok"

        @function_tool
        def lookup(order: str) -> str:
            raise ValueError(order)

        agent = Agent(name="a", tools=[charge, lookup])
        """))
    done = subprocess.run([sys.executable, "-m", "siblint", "check", "--no-cache", str(tmp_path)],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert done.stdout.rstrip().splitlines()[-1].startswith("Found ")
