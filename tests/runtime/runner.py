"""Running scenario modules with the real SDK in subprocesses: a warm fork server and a small pool."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from .fake_model import FakeServer
from .scenarios import Scenario

DRIVER = Path(__file__).with_name("driver.py")
# A run costs ~0.3 s of CPU once the SDK is imported (the fork server imports it once) and ~1.5 s
# of waiting. Six at a time keep two cores far from saturated, so the timing-sensitive part of a
# run (every margin in the scenarios is >= 50 ms) is not starved.
WORKERS = int(os.environ.get("SIBLINT_RUNTIME_WORKERS", "6"))
RUN_TIMEOUT = 60


def base_env() -> dict[str, str]:
    env = dict(os.environ)
    env["NO_PROXY"] = env["no_proxy"] = "127.0.0.1,localhost"
    env["OPENAI_AGENTS_DISABLE_TRACING"] = "1"
    return env


def run_cold(server: FakeServer, scenario: Scenario, workdir: Path, run_id: str) -> dict[str, Any]:
    """One run in a fresh `python driver.py SCENARIO.py` (no fork server), result from its stdout."""
    path = workdir / f"{run_id}.py"
    path.write_text(scenario.source, encoding="utf-8")
    proc = subprocess.run([sys.executable, str(DRIVER), str(path)], cwd=workdir, capture_output=True, text=True,
                          env=dict(base_env(), **server.urls(run_id)), timeout=RUN_TIMEOUT)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")]
    if proc.returncode != 0 or not lines:
        raise AssertionError(f"{run_id} did not run (exit {proc.returncode}):\n{proc.stdout[-2000:]}\n{proc.stderr[-5000:]}")
    result = json.loads(lines[-1][len("RESULT "):])
    result["stderr_tail"] = proc.stderr[-2000:]
    return result


class ForkServer:
    """`driver.py --serve` in a subprocess of sys.executable: forks one child per scenario run."""

    def __init__(self, workdir: Path, env: dict[str, str]) -> None:
        self.workdir = workdir
        self._log = open(workdir / "fork-server.log", "w+", encoding="utf-8")
        self.proc = subprocess.Popen([sys.executable, str(DRIVER), "--serve"], cwd=workdir, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log,
                                     text=True, bufsize=1)
        self._write_lock = threading.Lock()
        self._done: dict[str, tuple[threading.Event, list[int]]] = {}
        self._ready = threading.Event()
        threading.Thread(target=self._read, name="fork-server-reader", daemon=True).start()
        if not self._ready.wait(RUN_TIMEOUT):
            self.close()
            raise RuntimeError(f"driver.py --serve did not start:\n{self._tail()}")

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            word, *rest = line.split()
            if word == "READY":
                self._ready.set()
            elif word == "DONE":
                event, status = self._done[rest[0]]
                status.append(int(rest[1]))
                event.set()

    def _tail(self) -> str:
        if self._log.closed:
            return ""
        self._log.flush()
        self._log.seek(0)
        return self._log.read()[-3000:]

    def run(self, run_id: str, path: Path, env: dict[str, str]) -> dict[str, Any]:
        out = self.workdir / f"{run_id}.json"
        event, status = self._done[run_id] = (threading.Event(), [])
        request = {"id": run_id, "path": str(path), "env": env, "out": str(out)}
        with self._write_lock:
            assert self.proc.stdin is not None
            self.proc.stdin.write(json.dumps(request) + "\n")
            self.proc.stdin.flush()
        finished = event.wait(RUN_TIMEOUT)
        log = Path(f"{out}.log")
        child_log = log.read_text(encoding="utf-8", errors="replace") if log.exists() else ""
        if not finished or status != [0] or not out.exists():
            raise AssertionError(f"scenario run {run_id} failed (finished={finished}, exit={status}):\n"
                                 f"{child_log[-5000:]}\nfork server:\n{self._tail()}")
        result = json.loads(out.read_text(encoding="utf-8"))
        result["stderr_tail"] = child_log[-2000:]
        return result

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=40)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._log.close()


class ScenarioRunner:
    """Runs scenario modules with the real SDK, each in its own forked subprocess, a few at a time."""

    def __init__(self, server: FakeServer, workdir: Path) -> None:
        self.server = server
        self.workdir = workdir
        self.forks = ForkServer(workdir, base_env())
        self.pool = ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="scenario")
        self._first: dict[str, Future] = {}
        self._lock = threading.Lock()
        self._count = 0

    def run(self, scenario: Scenario) -> dict[str, Any]:
        """One fresh run; blocks this thread until it is over."""
        with self._lock:
            self._count += 1
            run_id = f"{scenario.name}-{self._count}"
        path = self.workdir / f"{run_id}.py"
        path.write_text(scenario.source, encoding="utf-8")
        return self.forks.run(run_id, path, self.server.urls(run_id))

    def submit(self, scenario: Scenario) -> Future:
        with self._lock:
            if scenario.name not in self._first:
                self._first[scenario.name] = self.pool.submit(self.run, scenario)
            return self._first[scenario.name]

    def first(self, scenario: Scenario) -> dict[str, Any]:
        """The scenario's first run (started in the background when the session began)."""
        return self.submit(scenario).result(timeout=RUN_TIMEOUT * 4)

    def close(self) -> None:
        for fut in self._first.values():
            fut.cancel()
        self.pool.shutdown(wait=True)
        self.forks.close()
