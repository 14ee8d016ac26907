"""Run scenario modules with the real SDK; report what happened as JSON.

Two ways to use it:

* `python driver.py SCENARIO.py`: run one scenario, print `RESULT {json}` as the last stdout line.
  Environment: FAKE_MODEL_URL, FAKE_PAYMENTS_URL, FAKE_LOG_URL (see fake_model.py).
* `python driver.py --serve`: a warm fork server for the test suite. Importing the SDK costs
  ~1.5 s of CPU, so this process imports it once, prints `READY`, then reads one JSON request per
  stdin line, `{"id", "path", "env", "out"}`, and forks a child per request. The child applies
  `env`, runs the scenario, writes the JSON result to `out` (its stdout/stderr go to `out.log`) and
  exits; the parent prints `DONE <id> <exit status>` when it reaps it. Every child is a fresh fork
  of a process that has only imported modules, so no run sees another run's state.

The scenario module defines its tools, an Agent and `async def main()` returning
`await Runner.run(...)`. A run is timed around `main()`; the event loop then keeps running for
WAIT_AFTER seconds past the end of the run, and then until no task and no worker-thread call is left
(so shielded or cancellation-swallowing tasks and worker threads can land their side effects, as
they would in a long-lived server); then the fake server is asked which payments arrived. Result:

    raised, exc_type, message, cause_type, has_run_data, new_items, raw_responses,
    final_output, end (s from the start of the run to its raise or return),
    model_request_at (s from the start to the first model request; the tools start just after),
    effects: [{t, after_end, body}] (t in s from the start; after_end = t - end),
    model_requests: [{model, parallel_tool_calls, tool_calls}], loop_errors,
    waited (s past the end), settled (False when something still ran after SETTLE_LIMIT)
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import select
import signal
import sys
import threading
import time
import traceback
import urllib.request
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

WAIT_AFTER = 0.6  # at least this long past the end of the run ...
SETTLE_LIMIT = 5.0  # ... and then until nothing is left running, at most this long


class TrackedExecutor(ThreadPoolExecutor):
    """The loop's default executor (so `asyncio.to_thread`, and with it every sync def tool, runs
    here), counting the calls still in flight: a cancelled await does not stop its thread."""

    def __init__(self) -> None:
        super().__init__(thread_name_prefix="scenario-worker")
        self._count_lock = threading.Lock()
        self.in_flight = 0

    def submit(self, fn, /, *args, **kwargs) -> Future:  # type: ignore[override]
        with self._count_lock:
            self.in_flight += 1
        future = super().submit(fn, *args, **kwargs)
        future.add_done_callback(self._finished)
        return future

    def _finished(self, _future: Future) -> None:
        with self._count_lock:
            self.in_flight -= 1


async def _settle(executor: TrackedExecutor) -> float:
    """Wait WAIT_AFTER, then until no task but this one and no worker-thread call is left (or
    SETTLE_LIMIT has passed): tasks and threads the run abandoned may still land side effects."""
    start = time.monotonic()
    await asyncio.sleep(WAIT_AFTER)
    me = asyncio.current_task()
    while time.monotonic() - start < SETTLE_LIMIT:
        if executor.in_flight == 0 and not [t for t in asyncio.all_tasks() if t is not me]:
            break
        await asyncio.sleep(0.05)
    return time.monotonic() - start


def _use_httpx2_as_httpx() -> None:
    # The scenarios spell the async client `httpx`, as user code does. The openai package in this
    # venv ships the same client under the distribution name `httpx2`; alias it when `httpx`
    # itself is not installed, so the text that is linted is the text that runs.
    try:
        import httpx  # noqa: F401
    except ImportError:
        import httpx2

        sys.modules["httpx"] = httpx2


def _load(path: str) -> Any:
    spec = importlib.util.spec_from_file_location("scenario_under_test", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _items(items: Any) -> list[dict[str, Any]]:
    out = []
    for item in items or []:
        raw = item.raw_item
        if item.type == "tool_call_item":
            out.append({"kind": "call", "tool": getattr(raw, "name", None) or raw.get("name")})
        elif item.type == "tool_call_output_item":
            call_id = raw.get("call_id") if isinstance(raw, dict) else getattr(raw, "call_id", "")
            # The fake model names calls `call_<n>_<tool>`.
            tool = str(call_id).split("_", 2)[2] if str(call_id).count("_") >= 2 else "?"
            out.append({"kind": "output", "tool": tool, "output": str(item.output)[:200]})
        else:
            out.append({"kind": item.type})
    return out


async def _run(path: str) -> dict[str, Any]:
    loop_errors: list[str] = []
    executor = TrackedExecutor()
    asyncio.get_running_loop().set_default_executor(executor)
    asyncio.get_running_loop().set_exception_handler(
        lambda _loop, ctx: loop_errors.append(f"{ctx.get('message')} [{type(ctx.get('exception')).__name__}]")
    )
    scenario = _load(path)
    result: dict[str, Any] = {"raised": False, "exc_type": None, "message": None, "cause_type": None,
                              "has_run_data": False, "new_items": [], "raw_responses": None, "final_output": None}
    t0 = time.monotonic()
    try:
        run = await scenario.main()
    except BaseException as exc:  # noqa: BLE001 - S28: a BaseException can escape Runner.run
        end = time.monotonic()
        cause = exc.__cause__ or exc.__context__
        run_data = getattr(exc, "run_data", None)
        result.update(raised=True, exc_type=type(exc).__name__, message=str(exc),
                      cause_type=type(cause).__name__ if cause is not None else None,
                      has_run_data=run_data is not None)
        if run_data is not None:
            result.update(new_items=_items(run_data.new_items), raw_responses=len(run_data.raw_responses))
    else:
        end = time.monotonic()
        result.update(new_items=_items(run.new_items), raw_responses=len(run.raw_responses),
                      final_output=str(run.final_output))
    settled = await _settle(executor)

    with urllib.request.urlopen(os.environ["FAKE_LOG_URL"], timeout=10) as response:
        log = json.load(response)
    result["end"] = end - t0
    result["waited"] = settled
    result["settled"] = settled < SETTLE_LIMIT
    result["effects"] = [
        {"t": p["t"] - t0, "after_end": p["t"] - end, "body": p["body"]} for p in log["payments"]
    ]
    first_request = min((r["t"] for r in log["model_requests"]), default=None)
    result["model_request_at"] = first_request - t0 if first_request is not None else None
    result["model_requests"] = [{k: v for k, v in r.items() if k != "t"} for r in log["model_requests"]]
    result["loop_errors"] = loop_errors
    return result


def run_one(path: str) -> dict[str, Any]:
    return asyncio.run(_run(path))


def _child(request: dict[str, Any]) -> int:
    """In a forked child: run one scenario, write its result file. Returns the exit status."""
    log = os.open(request["out"] + ".log", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(log, 1)
    os.dup2(log, 2)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    try:
        os.environ.update(request["env"])
        result = run_one(request["path"])
        tmp = request["out"] + ".tmp"
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump(result, fh)
        os.replace(tmp, request["out"])
        return 0
    except BaseException:  # noqa: BLE001 - report anything, then exit the child
        traceback.print_exc()
        return 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()


def serve() -> None:
    # Warm up: everything a scenario imports, so each fork starts with it loaded.
    import agents  # noqa: F401
    import openai  # noqa: F401
    import requests  # noqa: F401

    _use_httpx2_as_httpx()
    print("READY", flush=True)
    children: dict[int, str] = {}
    pending = b""
    stdin_open = True
    deadline = None
    while stdin_open or children:
        if stdin_open:
            # Block while idle; poll every 20 ms while children are to be reaped.
            ready, _, _ = select.select([0], [], [], 0.02 if children else None)
            if ready:
                chunk = os.read(0, 65536)
                if not chunk:
                    stdin_open = False
                    deadline = time.monotonic() + 30
                pending += chunk
                while b"\n" in pending:
                    line, pending = pending.split(b"\n", 1)
                    if not line.strip():
                        continue
                    request = json.loads(line)
                    pid = os.fork()
                    if pid == 0:
                        os._exit(_child(request))
                    children[pid] = request["id"]
        else:
            time.sleep(0.02)
            if deadline is not None and time.monotonic() > deadline:
                for pid in children:
                    os.kill(pid, signal.SIGKILL)
        while children:
            pid, status = os.waitpid(-1, os.WNOHANG)
            if pid == 0:
                break
            run_id = children.pop(pid, None)
            if run_id is not None:
                print(f"DONE {run_id} {os.waitstatus_to_exitcode(status)}", flush=True)


def main() -> None:
    if sys.argv[1:] == ["--serve"]:
        serve()
        return
    _use_httpx2_as_httpx()
    result = run_one(sys.argv[1])
    print("RESULT " + json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
