"""Runtime truth for LangChain.js `createAgent` and LangGraph.js `ToolNode` (issue 25): every program in
`langchain/` runs with the real pinned packages on Node, its model a `ChatOpenAI` talking to the
project's fake Chat Completions model on 127.0.0.1 (`fake/each-tool`: both tools in one turn), and
must do what its row says. Each INVALID program's run rejects and its charge lands after the
rejection, with no tool message for it; its fixed twin either completes with the charge recorded or
makes no charge at all. siblint must report SIB301 on exactly the INVALID ones.

The programs share their tools and model (`shop.cjs`), which read the services from the environment: a risk check that answers after 300 ms
(`RISK_URL`), a tax service that is down (`TAX_URL`, 503, the fatal failure), the payments sink
(`PAYMENTS_URL`), the fake model (`MODEL_URL`). drive_langchain.cjs runs one program per Node process.

The npm folder (`PACKAGES`) is built once in the background after collection and reused while the
pins stand (environments.py); without Node or npm, or when the install fails, these tests fail.
"""

from __future__ import annotations

import json
import subprocess
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from siblint.settings.config import Config

from tests.conftest import lint_files

from ..environments import declare_node, node_env_vars

pytestmark = pytest.mark.runtime

# The versions frameworks-wave3.md section 9 measured, and the OpenAI chat model of their line.
PACKAGES = ["langchain@1.5.14", "@langchain/langgraph@1.7.3", "@langchain/core@1.4.0", "@langchain/openai@1.6.0",
            "zod@4.6.7"]
NODE = declare_node("langchain-js", PACKAGES)

HERE = Path(__file__).resolve().parent
PROGRAMS = HERE / "langchain"
SHARED = "shop.cjs"  # the tools and the model the programs import (a cross-module case for siblint)
MARKER = "SIBLINT-ARM-RESULT "
RUN_TIMEOUT = 60


@dataclass(frozen=True)
class Arm:
    file: str
    invalid: bool  # the run rejects and the charge lands after it, unrecorded
    charges: bool = True  # a fixed twin that stops the charge instead of recording it: False
    why: str = ""


ARMS = [
    Arm("wrap_tool_call_passes_errors.cjs", True, why="a wrapToolCall that awaits handler without a catch"),
    Arm("wrap_tool_call_catches.cjs", False, why="a wrapToolCall that catches and returns a ToolMessage"),
    Arm("signal_observed.cjs", False, charges=False, why="the charge passes config.signal to its wait and fetch"),
    Arm("tool_node_handle_tool_errors_false.cjs", True, why="new ToolNode(tools, { handleToolErrors: false })"),
    Arm("tool_node_default.cjs", False, why="ToolNode's default handleToolErrors"),
    Arm("retry_leaves_lookup_out.cjs", True, why="toolRetryMiddleware({ tools }) leaving lookup_tax out"),
    Arm("retry_lists_every_tool.cjs", False, why="toolRetryMiddleware listing both tools"),
]


@dataclass
class Run:
    arm: Arm
    returncode: int | None
    stdout: str
    stderr: str
    log: dict[str, list[dict[str, Any]]]

    @property
    def report(self) -> dict[str, Any] | None:
        lines = [line.removeprefix(MARKER) for line in self.stdout.splitlines() if line.startswith(MARKER)]
        return json.loads(lines[-1]) if lines else None

    def describe(self) -> str:
        return (f"{self.arm.file} ({self.arm.why}): exit {self.returncode}\n  report: {self.report}\n"
                f"  log: {self.log}\n  stderr: {self.stderr[-1500:]}")


def _run(arm: Arm, env: dict[str, str], server: Any) -> Run:
    run_id = f"lcjs-{arm.file.removesuffix('.cjs')}"
    urls = server.urls(run_id)
    env = dict(env, MODEL_URL=urls["FAKE_MODEL_URL"], PAYMENTS_URL=urls["FAKE_PAYMENTS_URL"],
               RISK_URL=urls["FAKE_SLOW_URL"] + "?ms=300", TAX_URL=urls["FAKE_DOWN_URL"])
    try:
        proc = subprocess.run(["node", str(HERE / "drive_langchain.cjs"), str(PROGRAMS / arm.file)], env=env,
                              capture_output=True, text=True, timeout=RUN_TIMEOUT)
        returncode, stdout, stderr = proc.returncode, proc.stdout, proc.stderr
    except subprocess.TimeoutExpired as exc:
        returncode, stdout, stderr = None, str(exc.stdout or ""), f"timed out after {RUN_TIMEOUT} s"
    return Run(arm, returncode, stdout, stderr, server.log(run_id))


@pytest.fixture(scope="module")
def runs(fake_server) -> dict[str, Run]:
    folder = NODE.folder()  # fails (BuildFailed, with npm's output) when the packages cannot be installed
    env = node_env_vars(folder)
    with ThreadPoolExecutor(max_workers=2) as pool:  # the import of langchain is most of a process's CPU
        return {r.arm.file: r for r in pool.map(lambda a: _run(a, env, fake_server), ARMS)}


def problems(run: Run) -> list[str]:
    arm, report, out = run.arm, run.report, []
    if run.returncode != 0 or report is None:
        return [f"drive_langchain.cjs exited {run.returncode} without a report"]
    payments = [p["t"] for p in run.log["payments"]]
    if len(payments) != int(arm.charges):
        out.append(f"{len(payments)} charges reached the payments sink, expected {int(arm.charges)}")
    if not run.log["failures"]:
        out.append("the tax service was never called")
    if arm.invalid:
        if report["outcome"] != "threw" or "tax service failed: 503" not in report.get("message", ""):
            out.append(f"the run {report['outcome']}: {report.get('message')}, expected a rejection with the 503")
        if payments and not payments[0] > report["settled"]:
            out.append(f"charge at {payments[0]:.3f}, not after invoke() rejected at {report['settled']:.3f}")
    elif arm.charges:
        charged = [m for m in report.get("toolMessages") or [] if m.get("name") == "charge_card" and m.get("content") == "charged"]
        if report["outcome"] != "completed" or not charged:
            out.append(f"the run {report['outcome']} ({report.get('message')}), tool messages {report.get('toolMessages')}: "
                       "expected completion with charge_card's result")
    elif report["outcome"] != "threw":
        out.append(f"the run {report['outcome']}, expected the same rejection as its INVALID twin")
    return out


@pytest.mark.parametrize("name", [a.file for a in ARMS])
def test_arm(name: str, runs: dict[str, Run]) -> None:
    run = runs[name]
    found = problems(run)
    assert not found, f"{run.arm.why}:\n- " + "\n- ".join(found) + "\n" + run.describe()


@pytest.mark.parametrize("arm", ARMS, ids=[a.file for a in ARMS])
def test_siblint_reports_sib301_on_exactly_the_invalid_programs(arm: Arm, tmp_path: Path) -> None:
    config = Config(root=str(tmp_path), select=("SIB301",))
    files = {name: (PROGRAMS / name).read_text(encoding="utf-8") for name in (arm.file, SHARED)}
    found = lint_files(tmp_path, files, arm.file, config)
    assert bool(found) is arm.invalid, (arm.why, found)


def test_every_program_is_an_arm() -> None:
    assert {a.file for a in ARMS} | {SHARED} == {p.name for p in PROGRAMS.iterdir() if p.suffix == ".cjs"}
