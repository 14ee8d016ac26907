"""Runtime truth (issue 25), claude-agent-sdk 0.2.189 with the Claude Code CLI it bundles (2.1.332):
the CLI talks to the loopback fake model on the Anthropic Messages API (fake_anthropic.py), HOME in
a scratch folder. A `can_use_tool` callback that denies the lookup with `interrupt=True` ends the
run (`ResultMessage(is_error=True)`); a charge annotated `readOnlyHint=True` that posts from a
worker thread lands after that, and the caller holds no result for it. Without the hint the CLI
runs the charge alone (it lands before the stop, recorded); a deny without `interrupt` lets the run go on. The same
module text is then linted.
"""

from __future__ import annotations

import pytest

from .wave3 import codes_of, lands_after_the_raise, run_suite

pytestmark = pytest.mark.runtime

SCENARIO = '''\
import asyncio, os, tempfile, time
import requests
from claude_agent_sdk import (ClaudeAgentOptions, ClaudeSDKClient, PermissionResultAllow, PermissionResultDeny,
                              ResultMessage, ToolAnnotations, UserMessage, create_sdk_mcp_server, tool)

PAYMENTS = os.environ["FAKE_PAYMENTS_URL"]
HOME = tempfile.mkdtemp(prefix="claude-home-")
ENV = {{"HOME": HOME, "ANTHROPIC_API_KEY": "sk-fake", "ANTHROPIC_BASE_URL": os.environ["FAKE_MODEL_URL"][:-len("/v1")],
       "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_TELEMETRY": "1", "DISABLE_AUTOUPDATER": "1",
       "DISABLE_ERROR_REPORTING": "1", "NO_PROXY": "127.0.0.1,localhost"}}
DELAY = 3.0  # wide: under load the CLI takes its time to start the charge and to report the stop
RECORD = []
ENDED = None


@tool("charge_card", "Charge the card", {{"customer_id": str, "amount_cents": int}}{hint})
async def charge_card(args):
    def post():
        time.sleep(DELAY)
        requests.post(PAYMENTS, json=args)
        return "charged"
    return {{"content": [{{"type": "text", "text": await asyncio.to_thread(post)}}]}}


@tool("lookup_customer", "Look up the customer", {{"customer_id": str}}, annotations=ToolAnnotations(readOnlyHint=True))
async def lookup_customer(args):
    await asyncio.sleep(0.05)
    return {{"content": [{{"type": "text", "text": "customer"}}]}}


async def guard(name, inp, ctx):
    """A policy callback that stops the turn when the customer is blocked."""
    if name.endswith("lookup_customer"):
        await asyncio.sleep(1.0)  # a slow policy lookup: the charge is under way by then
        return PermissionResultDeny(message="customer is blocked"{interrupt})
    return PermissionResultAllow(updated_input=inp)


async def main() -> None:
    global ENDED
    server = create_sdk_mcp_server("pay", tools=[lookup_customer, charge_card])
    options = ClaudeAgentOptions(mcp_servers={{"pay": server}}, tools=[], model="claude-sonnet-4-5", cwd=HOME, env=ENV,
                                 can_use_tool=guard, max_turns=4, setting_sources=[])
    final = None
    async with ClaudeSDKClient(options) as client:
        await client.query("checkout")
        async for m in client.receive_response():
            if isinstance(m, UserMessage) and isinstance(m.content, list):
                RECORD.extend(str(b.content) for b in m.content
                              if getattr(b, "tool_use_id", None) and not b.is_error and "charged" in str(b.content))
            if isinstance(m, ResultMessage):
                ENDED, final = time.monotonic(), m
    if final is None or final.is_error:
        raise RuntimeError(f"the run ended: {{getattr(final, 'terminal_reason', None)}}")
'''

READ_ONLY = ", annotations=ToolAnnotations(readOnlyHint=True)"
INTERRUPT = ", interrupt=True"

# The caller stops the run: `client.interrupt()` 1 s after the charge started; the guard allows every call.
STARTED = "    def post():\n        STARTED.set()\n"
CLIENT_INTERRUPT = (SCENARIO.replace("    def post():\n", STARTED, 1)
                    .replace("ENDED = None\n", "ENDED = None\nSTARTED = None\n", 1)
                    .replace("    global ENDED\n", "    global ENDED, STARTED\n    STARTED = asyncio.Event()\n", 1)
                    .replace("    if name.endswith(\"lookup_customer\"):\n"
                             "        await asyncio.sleep(1.0)  # a slow policy lookup: the charge is under way by then\n"
                             "        return PermissionResultDeny(message=\"customer is blocked\"{interrupt})\n", "", 1)
                    .replace("        await client.query(\"checkout\")\n",
                             "        await client.query(\"checkout\")\n\n"
                             "        async def stop_when_blocked() -> None:\n"
                             "            await STARTED.wait()\n"
                             "            await asyncio.sleep(0.2)  # the customer turned out to be blocked\n"
                             "            await client.interrupt()\n\n"
                             "        stopper = asyncio.ensure_future(stop_when_blocked())\n", 1))
assert CLIENT_INTERRUPT.count("client.interrupt()") == 1 and "PermissionResultDeny(message" not in CLIENT_INTERRUPT
# STARTED.set() runs in the worker thread: asyncio.Event is not thread-safe, so the loop sets it.
CLIENT_INTERRUPT = CLIENT_INTERRUPT.replace("        STARTED.set()\n", "        LOOP.call_soon_threadsafe(STARTED.set)\n", 1) \
    .replace("    STARTED = asyncio.Event()\n", "    STARTED = asyncio.Event()\n    LOOP = asyncio.get_running_loop()\n", 1) \
    .replace("global ENDED, STARTED\n", "global ENDED, STARTED, LOOP\n", 1).replace("STARTED = None\n", "STARTED = LOOP = None\n", 1)

SCENARIOS = {
    # DELAY 4 s: the charge lands well after the stop (the CLI took up to 2.5 s to report it under load),
    # within the 4 s the suite waits after the end.
    "claude_read_only_client_interrupt": CLIENT_INTERRUPT.format(hint=READ_ONLY).replace("DELAY = 3.0", "DELAY = 4.0", 1),
    # The fix: the charge awaits its wait and its POST, so the interrupt cancels it.
    "claude_await_client_interrupt": CLIENT_INTERRUPT.format(hint=READ_ONLY).replace("DELAY = 3.0", "DELAY = 4.0", 1)
    .replace("import requests\n", "import httpx\n", 1).replace(
        "    def post():\n        LOOP.call_soon_threadsafe(STARTED.set)\n        time.sleep(DELAY)\n"
        "        requests.post(PAYMENTS, json=args)\n        return \"charged\"\n"
        "    return {\"content\": [{\"type\": \"text\", \"text\": await asyncio.to_thread(post)}]}\n",
        "    STARTED.set()\n    await asyncio.sleep(DELAY)\n    async with httpx.AsyncClient() as c:\n"
        "        await c.post(PAYMENTS, json=args)\n    return {\"content\": [{\"type\": \"text\", \"text\": \"charged\"}]}\n", 1),
    "claude_read_only_interrupt": SCENARIO.format(hint=READ_ONLY, interrupt=INTERRUPT),
    # Fixes: the charge without the read-only hint runs alone; a deny without interrupt.
    "claude_no_hint_interrupt": SCENARIO.format(hint="", interrupt=INTERRUPT),
    "claude_read_only_deny": SCENARIO.format(hint=READ_ONLY, interrupt=""),
}


@pytest.fixture(scope="module")
def results(fake_server, tmp_path_factory) -> dict[str, dict]:
    return run_suite(fake_server, tmp_path_factory.mktemp("claude-runtime"), SCENARIOS)


@pytest.fixture(scope="module")
def codes(tmp_path_factory):
    root = str(tmp_path_factory.mktemp("claude-lint"))
    return lambda name: codes_of(SCENARIOS[name], root, name)


def test_interrupting_deny_lands_a_read_only_charge_after_the_run_ended(results, codes):
    r = results["claude_read_only_interrupt"]
    assert r["exc_type"] == "RuntimeError" and "aborted_tools" in r["message"], r
    assert lands_after_the_raise(r), r
    assert {"SIB102", "SIB202", "SIB301"} <= codes("claude_read_only_interrupt")


def test_without_the_read_only_hint_the_charge_runs_alone(results, codes):
    r = results["claude_no_hint_interrupt"]
    # The CLI ran the charge before the lookup, alone: it finished before the stop and is recorded.
    # (Had the lookup come first, the charge would never have started: frameworks-wave3.md 1.1 c3.)
    assert r["raised"] and all(t <= 0 for t in r["after_end"]) and (r["recorded"] or not r["after_end"]), r
    found = codes("claude_no_hint_interrupt")
    assert "SIB301" not in found and "SIB202" in found, found


def test_a_deny_without_interrupt_keeps_the_run(results, codes):
    r = results["claude_read_only_deny"]
    assert not r["raised"] and r["recorded"] and all(t <= 0 for t in r["after_end"]), r
    found = codes("claude_read_only_deny")
    assert "SIB202" not in found and "SIB301" not in found, found


def test_client_interrupt_lands_a_read_only_charge_after_the_run_ended(results, codes):
    r = results["claude_read_only_client_interrupt"]
    assert r["exc_type"] == "RuntimeError" and "aborted_tools" in r["message"], str(r)
    assert lands_after_the_raise(r), str(r)
    found = codes("claude_read_only_client_interrupt")
    assert {"SIB102", "SIB301"} <= found and "SIB202" not in found, found


def test_client_interrupt_cancels_an_awaiting_charge(results, codes):
    r = results["claude_await_client_interrupt"]
    assert r["exc_type"] == "RuntimeError" and "aborted_tools" in r["message"] and r["after_end"] == [], str(r)
    found = codes("claude_await_client_interrupt")
    assert "SIB301" not in found and not any(c.startswith("SIB10") for c in found), found
