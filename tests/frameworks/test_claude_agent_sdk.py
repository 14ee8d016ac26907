"""claude-agent-sdk (issue 25): `@tool(...)` / `SdkMcpTool` handlers served by `create_sdk_mcp_server`,
`ClaudeAgentOptions(mcp_servers=...)` as the group, of which only tools annotated `readOnlyHint=True`
run together, and a `can_use_tool` callback returning `PermissionResultDeny(interrupt=True)` as
SIB202 (reported once, where it is given) with the mix it makes (SIB301).

Measured behaviour behind these expectations: tests/runtime/test_claude_agent_sdk_runtime.py.
"""

from __future__ import annotations

import pytest

from tests.frameworks.wave3_lint import found, line_of, lines  # noqa: F401  (found is a fixture)

HEAD = '''\
import asyncio
import requests
from claude_agent_sdk import (ClaudeAgentOptions, PermissionResultAllow, PermissionResultDeny, ToolAnnotations,
                              create_sdk_mcp_server, tool)

PAY_URL = "https://payments.example.com/charges"


@tool("charge_card", "Charge the card", {"customer_id": str, "amount_cents": int},
      annotations=ToolAnnotations(readOnlyHint=True))
async def charge_card(args):
    """A write marked read-only: the CLI runs it beside the lookup."""
    r = await asyncio.to_thread(requests.post, PAY_URL, json=args)
    return {"content": [{"type": "text", "text": r.text}]}


@tool("lookup_customer", "Look up the customer", {"customer_id": str}, annotations=ToolAnnotations(readOnlyHint=True))
async def lookup_customer(args):
    return {"content": [{"type": "text", "text": "ok"}]}
'''

GUARD = '''

async def guard(name, inp, ctx):
    """A policy callback that stops the turn."""
    if name.endswith("lookup_customer"):
        return PermissionResultDeny(message="customer is blocked", interrupt=True)
    return PermissionResultAllow(updated_input=inp)
'''

OPTIONS = '''
server = create_sdk_mcp_server("billing", tools=[charge_card, lookup_customer])
options = ClaudeAgentOptions(mcp_servers={"billing": server}, can_use_tool=guard)
'''


def test_interrupting_permission_callback_makes_the_mix(found):
    text = HEAD + GUARD + OPTIONS
    got = found(text)
    options_line = line_of(text, "options = ")
    assert lines(got, "SIB202") == [options_line]  # once, where it is given
    assert lines(got, "SIB301") == [options_line]
    assert lines(got, "SIB102") == [line_of(text, "async def charge_card")]


@pytest.mark.parametrize("annotations", ["ToolAnnotations(read_only_hint=True)", "{'readOnlyHint': True}"])
def test_other_read_only_spellings(found, annotations):
    text = HEAD.replace("annotations=ToolAnnotations(readOnlyHint=True))\nasync def charge_card",
                        f"annotations={annotations})\nasync def charge_card") + GUARD + OPTIONS
    assert lines(found(text), "SIB301") == [line_of(text, "options = ")]


@pytest.mark.parametrize("annotations", ["", ", annotations=ToolAnnotations(readOnlyHint=False)",
                                         ", annotations=ToolAnnotations(destructiveHint=False, idempotentHint=True)"])
def test_without_read_only_hint_the_charge_runs_alone(found, annotations):
    text = HEAD.replace(",\n      annotations=ToolAnnotations(readOnlyHint=True))\nasync def charge_card",
                        f"{annotations})\nasync def charge_card") + GUARD + OPTIONS
    got = found(text)
    assert lines(got, "SIB301") == []
    assert lines(got, "SIB202") == [line_of(text, "options = ")]  # the interrupt still ends the run


@pytest.mark.parametrize("guard", [
    GUARD.replace("interrupt=True", "interrupt=False"),
    GUARD.replace(', interrupt=True', ''),
    GUARD.replace('return PermissionResultDeny(message="customer is blocked", interrupt=True)',
                  'raise RuntimeError("policy service down")'),
    GUARD.replace("PermissionResultDeny(", "other.PermissionResultDeny("),
])
def test_a_deny_without_interrupt_is_clean(found, guard):
    got = found("import other\n" + HEAD + guard + OPTIONS)
    assert lines(got, "SIB202") == [] and lines(got, "SIB301") == []


def test_sdk_mcp_tool_spelling(found):
    text = (HEAD + "\n\nasync def refund(args):\n    await asyncio.to_thread(requests.post, PAY_URL, json=args)\n"
            "    return {}\n\nREFUND = SdkMcpTool(name='refund', description='Refund.', input_schema={}, handler=refund,"
            " annotations=ToolAnnotations(readOnlyHint=True))\n" + GUARD
            + OPTIONS.replace("tools=[charge_card, lookup_customer]", "tools=[REFUND, lookup_customer]"))
    text = text.replace("create_sdk_mcp_server, tool)", "create_sdk_mcp_server, tool, SdkMcpTool)")
    got = found(text)
    assert line_of(text, "async def refund") in lines(got, "SIB102")
    assert lines(got, "SIB301") == [line_of(text, "options = ")]


def test_tool_of_another_library_is_not_a_claude_tool(found):
    text = HEAD.replace("create_sdk_mcp_server, tool)", "create_sdk_mcp_server)\nfrom mylib import tool")
    assert found(text) == []


# ---- across modules ---------------------------------------------------------------------------
def test_server_and_callback_from_other_modules(found):
    main = ("from claude_agent_sdk import ClaudeAgentOptions\nfrom app.billing import server\n"
            "from app.policy import guard\n\n"
            "options = ClaudeAgentOptions(mcp_servers={'billing': server}, can_use_tool=guard)\n")
    files = {"app/__init__.py": "", "app/billing.py": HEAD + OPTIONS.split("options =")[0],
             "app/policy.py": HEAD.split("\n\n\n")[0] + GUARD}
    got = found(main, files)
    assert lines(got, "SIB301") == [5] and lines(got, "SIB202") == [5]
    safe = {**files, "app/policy.py": HEAD.split("\n\n\n")[0] + GUARD.replace("interrupt=True", "interrupt=False")}
    assert lines(found(main, safe), "SIB301") == []


# ---- client.interrupt() -----------------------------------------------------------------------
PLAIN_OPTIONS = '''
server = create_sdk_mcp_server("billing", tools=[charge_card, lookup_customer])
options = ClaudeAgentOptions(mcp_servers={"billing": server})
'''

INTERRUPTING = '''

async def checkout(prompt: str) -> None:
    async with ClaudeSDKClient(options=options) as client:
        await client.query(prompt)
        async for message in client.receive_response():
            if "blocked" in str(message):
                await client.interrupt()
'''

IMPORT_CLIENT = "from claude_agent_sdk import ClaudeSDKClient\n"


def test_client_interrupt_strands_an_offloaded_read_only_write(found):
    text = IMPORT_CLIENT + HEAD + PLAIN_OPTIONS + INTERRUPTING
    got = found(text)
    assert lines(got, "SIB301") == [line_of(text, "options = ")], got
    assert lines(got, "SIB202") == []  # no callback ends the run: the caller does


@pytest.mark.parametrize("change", [
    ("                await client.interrupt()\n", "                break\n"),  # no interrupt
    (",\n      annotations=ToolAnnotations(readOnlyHint=True))\nasync def charge_card", ")\nasync def charge_card"),  # runs alone
    ("    r = await asyncio.to_thread(requests.post, PAY_URL, json=args)\n",
     "    r = await http.post(PAY_URL, json=args)\n"),  # awaiting: the interrupt cancels it
    ("ClaudeSDKClient(options=options)", "ClaudeSDKClient(options=other)"),  # another group's client
])
def test_client_interrupt_benign_twins(found, change):
    text = (IMPORT_CLIENT + HEAD + PLAIN_OPTIONS + INTERRUPTING).replace(*change)
    assert lines(found(text), "SIB301") == []


def test_client_bound_by_assignment(found):
    text = IMPORT_CLIENT + HEAD + PLAIN_OPTIONS + "\nclient = ClaudeSDKClient(options)\n\n\nasync def stop() -> None:\n" \
        "    await client.interrupt()\n"
    assert lines(found(text), "SIB301") == [line_of(text, "options = ")]
