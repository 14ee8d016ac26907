"""What the wave-3 runtime suites share (agent-framework, semantic-kernel, haystack, claude-agent-sdk):
the venv their pins resolve in, and a driver that runs every scenario of a suite at once in it.

Each scenario is a module text with `async def main()`, which runs its agent against the loopback
fake model (`FAKE_MODEL_URL`, mode `fake/each-tool`: every tool in one turn) and fills `RECORD`
with the charge results the run kept. `lookup_customer` reads `FAKE_DOWN_URL` (a 503) and fails;
`charge_card` waits `DELAY` then POSTs to the payments sink, which timestamps it on the monotonic
clock the driver stamps the run's end with. After the run the loop stays alive `WAIT_AFTER` s, so
orphaned threads and tasks land.
"""

from __future__ import annotations

import json
import subprocess
from functools import lru_cache
from pathlib import Path

from .environments import Declared, declare_python
from .runner import base_env
from .test_langgraph_runtime import lint_codes
from .venvs import WAVE3

ENV = declare_python(*WAVE3)

WAIT_AFTER = 4.0

# The tools of the suites whose decorator is `@tool` (agent-framework, haystack); a module using them
# defines PAYMENTS, DOWN and DELAY and imports asyncio, time, httpx and requests.
ASYNC_LOOKUP = '''

@tool
async def lookup_customer(customer_id: str) -> str:
    """Look up the customer in the CRM (down: 503)."""
    async with httpx.AsyncClient() as c:
        r = await c.get(DOWN)
        r.raise_for_status()
        return r.text
'''

SYNC_CHARGE = '''

@tool
def charge_card(customer_id: str, amount_cents: int) -> str:
    """Charge the card. Sync: the framework runs it in a worker thread."""
    time.sleep(DELAY)
    requests.post(PAYMENTS, json={"customer": customer_id, "amount": amount_cents})
    return "charged"
'''

AWAIT_CHARGE = '''

@tool
async def charge_card(customer_id: str, amount_cents: int) -> str:
    """Charge the card, awaiting."""
    await asyncio.sleep(DELAY)
    async with httpx.AsyncClient() as c:
        await c.post(PAYMENTS, json={"customer": customer_id, "amount": amount_cents})
    return "charged"
'''

DRIVER = '''
import asyncio, importlib.util, json, logging, os, sys, time
from concurrent.futures import ThreadPoolExecutor
logging.disable(logging.CRITICAL)

async def one(name, mod):
    out = {"name": name, "raised": False, "exc_type": None}
    try:
        await asyncio.wait_for(mod.main(), 90)  # a guard against a hang: the Claude CLI starts slowly under load
    except BaseException as exc:
        out.update(raised=True, exc_type=type(exc).__name__, message=str(exc)[:300])
    out["end"] = getattr(mod, "ENDED", None) or time.monotonic()  # a run that ends by a message sets ENDED
    out["recorded"] = list(mod.RECORD)
    await asyncio.sleep(WAIT_AFTER)
    return out

async def run_all(jobs):
    asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(max_workers=4 * len(jobs)))
    mods = []
    for job in jobs:  # imported one by one: each module reads its own URLs at import
        os.environ.update(job["env"])
        spec = importlib.util.spec_from_file_location(job["name"], job["path"])
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        mods.append((job["name"], mod))
    return await asyncio.gather(*(one(name, mod) for name, mod in mods))

print("RESULTS " + json.dumps(asyncio.run(run_all(json.loads(sys.argv[1])))))
'''.replace("WAIT_AFTER", repr(WAIT_AFTER))


def run_suite(fake_server, workdir: Path, scenarios: dict[str, str], extra_env: dict[str, str] | None = None,
              venv: Declared | None = None) -> dict[str, dict]:
    """Run every scenario at once in the wave-3 venv (or `venv`); results by name, with `after_end`:
    when each charge landed, in seconds after the run ended (negative: before)."""
    driver = workdir / "driver.py"
    driver.write_text(DRIVER, encoding="utf-8")
    jobs = []
    for name, source in scenarios.items():
        path = workdir / f"{name}.py"
        path.write_text(source, encoding="utf-8")
        jobs.append({"name": name, "path": str(path), "env": fake_server.urls(name)})
    env = dict(base_env(), ENABLE_OTEL="false", HAYSTACK_TELEMETRY_ENABLED="False", **(extra_env or {}))
    proc = subprocess.run([str((venv or ENV).python()), str(driver), json.dumps(jobs)], cwd=workdir, capture_output=True,
                          text=True, timeout=180, env=env)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULTS ")]
    assert proc.returncode == 0 and lines, f"driver failed ({proc.returncode}):\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}"
    out = {}
    for r in json.loads(lines[-1][len("RESULTS "):]):
        log = fake_server.log(r["name"])
        r["after_end"] = [round(p["t"] - r["end"], 3) for p in log["payments"]]
        # When each charge landed after the first 503 the run's failing call got (negative: before).
        r["after_failure"] = [round(p["t"] - log["failures"][0]["t"], 3) for p in log["payments"]] if log["failures"] else []
        out[r["name"]] = r
    return out


def lands_after_the_raise(r: dict) -> bool:
    """The run raised, the charge landed after it, and the run kept no result for it."""
    return r["raised"] and bool(r["after_end"]) and all(t > 0 for t in r["after_end"]) and not r["recorded"]


@lru_cache(maxsize=None)
def codes_of(source: str, root: str, name: str) -> frozenset[str]:
    return frozenset(lint_codes(source, root, name))
