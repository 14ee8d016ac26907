"""Runtime truth for the JS codes (issue 14): every arm in `arms.py` runs with the real
`@openai/agents` on Node against the fake model on 127.0.0.1 (the Responses API, the SDK's default),
and must do what its row says: each INVALID spelling lands its charge although the run threw, with no
output for the charging call in `err.state`; each fix does not charge, or charges and is recorded.
The shipped example `examples/checkout_agent.ts` is run as it is, and its fixed twin beside it.

In JS the run waits for every sibling before it rejects (`Promise.allSettled`), so "after" means after
the sibling's fatal failure (the down service's logged reply, or the timeout): the charge lands
~0.3 s after it, and `run()` rejects once the charge has returned, with no record of it.

TypeScript is transpiled once (transpile.cjs); drive.mjs then runs every arm at once in one Node
process (the SDK's import is most of a process's CPU), and each example in a process of its own.

The npm folder (`PACKAGES`) is built once in the background after collection and reused while the
pins stand (environments.py); without Node or npm, or when the install fails, these tests fail.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from ..environments import declare_node, node_env_vars
from .arms import ARMS, EXAMPLE, EXAMPLE_FIXED, EXAMPLES, PROGRAMS, Arm

pytestmark = pytest.mark.runtime

# The versions openai-agents-js.md measured with: zod 4 (the SDK's peer; zod 3 fails to resolve),
# openai 7 (declares node >= 22, runs on 20 with an EBADENGINE warning). TypeScript 5: 7 has no
# transpileModule.
PACKAGES = ["@openai/agents@0.20.0", "openai@7.59.0", "zod@4.6.7", "typescript@5.9.3"]
NODE = declare_node("openai-agents-js", PACKAGES)

HERE = Path(__file__).resolve().parent
MARKER = "SIBLINT-ARM-RESULT "  # drive.mjs prints each report after it
RUN_TIMEOUT = 60


def services(urls: dict[str, str]) -> dict[str, str]:
    """The services a program reads from its environment (arms.py), on the fake server."""
    return {
        "PAYMENTS_URL": urls["FAKE_PAYMENTS_URL"],
        "SLOW_PAYMENTS_URL": urls["FAKE_PAYMENTS_URL"] + "?ms=300",
        "RISK_URL": urls["FAKE_SLOW_URL"] + "?ms=300",
        "CARRIER_URL": urls["FAKE_SLOW_URL"] + "?ms=400",
        "SHIPPING_URL": urls["FAKE_DOWN_URL"],
        "INVENTORY_SERVER": str(HERE / "inventory_mcp_server.mjs"),
    }


@dataclass
class Run:
    arm: Arm
    returncode: int | None  # of the process that ran it (drive.mjs runs every arm)
    stdout: str
    stderr: str
    log: dict[str, list[dict[str, Any]]]
    report: dict[str, Any] | None  # drive.mjs's report; None for the examples

    def describe(self) -> str:
        return (f"{self.arm.name} ({self.arm.file.name}): exit {self.returncode}\n  report: {self.report}\n"
                f"  log: {self.log}\n  stdout: {self.stdout[-600:]}\n  stderr: {self.stderr[-1500:]}")


def _prepare(work: Path, env: dict[str, str]) -> dict[str, Path]:
    """Each program's runnable file in `work`: TypeScript transpiled to .mjs, JavaScript copied."""
    sources = [a.file for a in ARMS + EXAMPLES if a.file.suffix == ".ts"]
    proc = subprocess.run(["node", str(HERE / "transpile.cjs"), str(work), *map(str, sources)],
                          env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT)
    assert proc.returncode == 0, f"transpiling failed:\n{proc.stderr[-3000:]}"
    shutil.copy(HERE / "drive.mjs", work)  # beside node_modules, so that its imports resolve
    return {a.name: work / f"{a.file.stem}.mjs" if a.file.suffix == ".ts" else Path(shutil.copy(a.file, work))
            for a in ARMS + EXAMPLES}


def _node(cmd: list[str], env: dict[str, str]) -> tuple[int | None, str, str]:
    try:
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT)
    except subprocess.TimeoutExpired as exc:
        return None, str(exc.stdout or ""), f"timed out after {RUN_TIMEOUT} s"
    return proc.returncode, proc.stdout, proc.stderr


def _drive(work: Path, runnable: dict[str, Path], env: dict[str, str], server: Any) -> list[Run]:
    """Every arm, in one drive.mjs process."""
    spec = {"base": server.base, "arms": [
        {"name": a.name, "file": str(runnable[a.name]), "runId": f"js-{a.name}", "env": services(server.urls(f"js-{a.name}"))}
        for a in ARMS]}
    (work / "arms.json").write_text(json.dumps(spec), encoding="utf-8")
    returncode, stdout, stderr = _node(["node", str(work / "drive.mjs"), str(work / "arms.json")],
                                       dict(env, OPENAI_AGENTS_DISABLE_TRACING="1"))
    reports = {r["name"]: r for r in (json.loads(line.removeprefix(MARKER)) for line in stdout.splitlines()
                                      if line.startswith(MARKER))}
    return [Run(a, returncode, stdout, stderr, server.log(f"js-{a.name}"), reports.get(a.name)) for a in ARMS]


def _example(arm: Arm, target: Path, env: dict[str, str], server: Any) -> Run:
    """An example runs itself, with the fake model as its default OpenAI client."""
    urls = server.urls(f"js-{arm.name}")
    returncode, stdout, stderr = _node(["node", str(target)], dict(
        env, **services(urls), OPENAI_API_KEY="fake", OPENAI_BASE_URL=urls["FAKE_MODEL_URL"],
        OPENAI_AGENTS_DISABLE_TRACING="1"))  # no trace export to api.openai.com
    return Run(arm, returncode, stdout, stderr, server.log(f"js-{arm.name}"), None)


@pytest.fixture(scope="module")
def runs(fake_server, tmp_path_factory) -> dict[str, Run]:
    folder = NODE.folder()  # fails (BuildFailed, with npm's output) when the SDK cannot be installed
    work = tmp_path_factory.mktemp("openai-agents-js")
    # ES modules resolve packages from the importing file's folders up, not from NODE_PATH.
    (work / "node_modules").symlink_to(folder / "node_modules")
    env = node_env_vars(folder)
    runnable = _prepare(work, env)
    with ThreadPoolExecutor(max_workers=1 + len(EXAMPLES)) as pool:  # three node processes at once
        examples = [pool.submit(_example, a, runnable[a.name], env, fake_server) for a in EXAMPLES]
        arms = _drive(work, runnable, env, fake_server)
        return {r.arm.name: r for r in arms + [f.result() for f in examples]}


def charge_problems(run: Run) -> list[str]:
    """How the payments sink and the fake's log disagree with the arm's outcome."""
    arm, out, problems = run.arm, run.arm.outcome, []
    payments = [p["t"] for p in run.log["payments"]]
    if len(payments) != (1 if out.charges else 0):
        problems.append(f"{len(payments)} charges reached the payments sink, expected {int(out.charges)}")
    if payments and out.charge_vs_failure:
        failures = [f["t"] for f in run.log["failures"]]
        # The fatal failure: the down service's reply, or the timeout counted from the model's answer.
        failed_at = failures[0] if failures else run.log["model_requests"][0]["t"] + (arm.timeout_s or 0)
        if out.charge_vs_failure == "after" and not payments[0] > failed_at:
            problems.append(f"charge at {payments[0]:.3f}, not after the failure at {failed_at:.3f}")
        if out.charge_vs_failure == "before" and not payments[0] < failed_at:
            problems.append(f"charge at {payments[0]:.3f}, not before the failure at {failed_at:.3f}")
    if len(run.log["model_requests"]) != arm.model_requests:
        problems.append(f"{len(run.log['model_requests'])} model requests, expected {arm.model_requests}")
    sent = {r["parallel_tool_calls"] for r in run.log["model_requests"]}
    if arm.sends_parallel_tool_calls is not None and sent != {arm.sends_parallel_tool_calls}:
        problems.append(f"the model requests carried parallel_tool_calls={sent}")
    return problems


def state_problems(run: Run) -> list[str]:
    """How drive.mjs's report (how `main()` settled, what the run state kept) disagrees with the arm."""
    out, report = run.arm.outcome, run.report
    if report is None:
        return ["no report from drive.mjs"]
    problems = []
    settled = "completed" if out.raises is None else "threw"
    if report["outcome"] != settled or report.get("error") != out.raises:
        problems.append(f"{report['outcome']} {report.get('error')}: {report.get('message')}, expected "
                        f"{settled} {out.raises or ''}")
    charging = [c for c in report["calls"] or [] if c["name"] == run.arm.charging_tool]
    if not charging:  # the state must keep the model's call, so a missing output means something
        problems.append(f"the run state holds no call of {run.arm.charging_tool}")
    kept = [c for c in charging if c["output"] is not None]
    if out.recorded and not any("charged" in c["output"] for c in kept):
        problems.append(f"the charge's output is not in the run state: {charging}")
    if not out.recorded and kept:
        problems.append(f"the run state kept an output for {run.arm.charging_tool}: {kept}")
    return problems


@pytest.mark.parametrize("name", [a.name for a in ARMS])
def test_arm(name: str, runs: dict[str, Run]) -> None:
    run = runs[name]
    problems = [] if run.returncode == 0 else [f"drive.mjs exited {run.returncode}"]
    problems += state_problems(run) + charge_problems(run)
    assert not problems, f"{run.arm.why}:\n- " + "\n- ".join(problems) + "\n" + run.describe()


def test_the_checkout_example_charges_although_the_run_threw(runs: dict[str, Run]) -> None:
    run = runs[EXAMPLE.name]
    assert run.returncode == 1, run.describe()
    assert "checkout failed: ToolCallError: Failed to run function tools: Error: shipping quote failed: 503" in run.stderr, \
        run.describe()
    assert not charge_problems(run), charge_problems(run) + [run.describe()]


def test_the_fixed_checkout_example_completes_with_the_charge_recorded(runs: dict[str, Run]) -> None:
    run = runs[EXAMPLE_FIXED.name]
    assert run.returncode == 0, run.describe()
    # The fake model's final answer quotes every tool output it was given.
    assert "done; tool outputs:" in run.stdout and '"charged"' in run.stdout.replace('\\"', '"'), run.describe()
    assert not charge_problems(run), charge_problems(run) + [run.describe()]


def test_every_program_is_an_arm() -> None:
    files = {a.file for a in ARMS}
    assert files == {p for p in PROGRAMS.iterdir() if p.suffix in {".ts", ".mjs", ".cjs"}}
    assert len({a.name for a in ARMS + EXAMPLES}) == len(ARMS + EXAMPLES)
    for arm in ARMS + EXAMPLES:
        assert arm.file.is_file(), arm
        assert all(code.startswith("SIB") and where for code, where in arm.reports), arm
        assert all(f"'{where}'" in arm.file.read_text(encoding="utf-8") for _, where in arm.reports), arm
