"""Runtime truth for the Vercel AI SDK (`ai` 7.0.173; frameworks-wave3.md section 8): each program in
`vercel_ai/` runs with the real package and `@ai-sdk/anthropic` against the loopback fake Messages API
(`fake_anthropic.py`: it calls every advertised `mcp__` tool once, so the tools are keyed so), and must
do what its row says; siblint must report exactly the row's codes on it.

The charge waits 4 s (a fraud check), then POSTs to the payments sink; the run stop fires at 3 s (wide:
under load the model may take over a second to answer).
`drive.mjs` reads the stream (or awaits generateText) and notes when the call ended on the clock the
sink logs with, then waits for stragglers. The npm folder is built once and reused while the pins stand
(environments.py); without Node or npm, or when the install fails, these tests fail.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import pytest

from tests.conftest import lint_files
from ..environments import declare_node, node_env_vars

pytestmark = pytest.mark.runtime

PACKAGES = ["ai@7.0.173", "@ai-sdk/anthropic@4.0.105", "zod@4.6.7", "typescript@5.9.3"]
NODE = declare_node("vercel-ai", PACKAGES)
HERE = Path(__file__).resolve().parent / "vercel_ai"
MARKER = "SIBLINT-VERCEL-REPORT "
RUN_TIMEOUT = 60


@dataclass(frozen=True)
class Row:
    program: str
    why: str
    charges: bool  # a POST reached the payments sink
    charge_vs_end: Literal["after", "before"] | None  # against the moment the call ended
    recorded: bool  # the caller holds the charge's tool result
    threw: bool  # generateText rejected
    codes: tuple[str, ...]  # what siblint reports on the program


ROWS = (
    Row("stream_timeout_unobserved", "streamText ends at the run timeout; the charge ignores its abortSignal and "
        "lands afterwards, unrecorded (8.4)", True, "after", False, False, ("SIB101", "SIB301")),
    Row("stream_timeout_observed", "the fixed twin: the charge passes abortSignal to its wait and to fetch, so "
        "the timeout stops it before the POST (8.4 FIXED)", False, None, False, False, ()),
    Row("stream_caller_signal_passed_on", "the tool ignores its own abortSignal but hands the caller's signal (the "
        "one streamText runs under) to its wait and to fetch: the caller's abort stops it before the POST", False, None,
        False, False, ()),
    Row("stream_abort_serialised", "a caller abortSignal with toolCallConcurrency: 1: the one running call still "
        "lands after the stream ended, so the cap is no fix", True, "after", False, False, ("SIB101", "SIB301")),
    Row("generate_timeout_unobserved", "generateText waits for the ignoring charge, then rejects: the effect "
        "landed and the caller holds no result for it (8.3)", True, "before", False, True, ("SIB101", "SIB301")),
    Row("stream_tool_timeout", "timeout: { toolMs } aborts only the tool's own signal: the run goes on and keeps "
        "the charge's result (8.5)", True, None, True, False, ()),
    Row("agent_generate_timeout_unobserved", "a ToolLoopAgent's generate({ timeout }) is generateText's: it waits "
        "for the ignoring charge, then rejects without its result", True, "before", False, True, ("SIB101", "SIB301")),
    Row("agent_stream_settings_timeout", "a ToolLoopAgent made with a run timeout, streamed: the stream ends at "
        "the timeout and the charge lands afterwards, unrecorded", True, "after", False, False, ("SIB101", "SIB301")),
)


@dataclass
class Run:
    row: Row
    returncode: int | None
    stdout: str
    stderr: str
    log: dict[str, list[dict[str, Any]]]
    report: dict[str, Any] | None

    def describe(self) -> str:
        return (f"{self.row.program}: exit {self.returncode}\n  report: {self.report}\n  log: {self.log}\n"
                f"  stderr: {self.stderr[-1500:]}")


def _run(row: Row, work: Path, env: dict[str, str], server: Any) -> Run:
    urls = server.urls(f"vercel-{row.program}")
    env = dict(env, MODEL_URL=urls["FAKE_MODEL_URL"], PAYMENTS_URL=urls["FAKE_PAYMENTS_URL"])
    try:
        proc = subprocess.run(["node", str(work / "drive.mjs"), str(work / f"{row.program}.mjs")], env=env,
                              capture_output=True, text=True, timeout=RUN_TIMEOUT)
        returncode, stdout, stderr = proc.returncode, proc.stdout, proc.stderr
    except subprocess.TimeoutExpired as exc:
        returncode, stdout, stderr = None, str(exc.stdout or ""), f"timed out after {RUN_TIMEOUT} s"
    reports = [json.loads(line.removeprefix(MARKER)) for line in stdout.splitlines() if line.startswith(MARKER)]
    return Run(row, returncode, stdout, stderr, server.log(f"vercel-{row.program}"), reports[0] if reports else None)


@pytest.fixture(scope="module")
def runs(fake_server, tmp_path_factory) -> dict[str, Run]:
    folder = NODE.folder()  # fails (BuildFailed, with npm's output) when the packages cannot be installed
    work = tmp_path_factory.mktemp("vercel-ai")
    (work / "node_modules").symlink_to(folder / "node_modules")  # ES modules resolve from the file's folders up
    for source in HERE.glob("*.mjs"):
        shutil.copy(source, work)
    env = node_env_vars(folder)
    with ThreadPoolExecutor(max_workers=len(ROWS)) as pool:
        done = [pool.submit(_run, row, work, env, fake_server) for row in ROWS]
        return {f.result().row.program: f.result() for f in done}


def problems(run: Run) -> list[str]:
    row, report, out = run.row, run.report, []
    if run.returncode != 0 or report is None:
        return [f"drive.mjs exited {run.returncode} without a report"]
    payments = [p["t"] for p in run.log["payments"]]
    if len(payments) != int(row.charges):
        out.append(f"{len(payments)} charges reached the payments sink, expected {int(row.charges)}")
    if not run.log["model_requests"] or run.log["model_requests"][0]["tool_calls"] != 1:
        out.append("the model was not asked, or did not call the charge: the arm shows nothing")
    if payments and row.charge_vs_end == "after" and not payments[0] > report["ended"]:
        out.append(f"charge at {payments[0]:.3f}, not after the call ended at {report['ended']:.3f}")
    if payments and row.charge_vs_end == "before" and not payments[0] < report["ended"]:
        out.append(f"charge at {payments[0]:.3f}, not before the call ended at {report['ended']:.3f}")
    if any("mcp__charge_card: charged" in r for r in report["results"]) != row.recorded:
        out.append(f"the caller's tool results are {report['results']}, expected recorded={row.recorded}")
    if (report["outcome"] == "threw") != row.threw:
        out.append(f"the call {report['outcome']} ({report.get('error')}), expected threw={row.threw}")
    if not row.threw and "tool-call" not in report["parts"]:
        out.append(f"the stream never carried the tool call: {report['parts']}")
    return out


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r.program)
def test_program(row: Row, runs: dict[str, Run]) -> None:
    run = runs[row.program]
    found = problems(run)
    assert not found, f"{row.why}:\n- " + "\n- ".join(found) + "\n" + run.describe()


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r.program)
def test_siblint_reports_the_row(row: Row, tmp_path: Path) -> None:
    name = f"{row.program}.mjs"
    found = lint_files(tmp_path, {name: (HERE / name).read_text(encoding="utf-8")}, name)
    assert tuple(sorted(d.code for d in found)) == row.codes, [d.message for d in found]
