"""The SIB301 examples in the spellings of the wave-3 Python frameworks (Microsoft Agent Framework,
haystack, semantic-kernel, claude-agent-sdk), each INVALID beside its fixed twin. SIB301 adds them
to its VALID/INVALID lists, so the suite lints them. Line numbers are 1-based report lines.
"""

from __future__ import annotations

from siblint.rule_api.rule import Invalid, Valid

_MAF = '''\
import requests
from agent_framework import Agent, MiddlewareFailure, function_middleware, tool
from agent_framework.openai import OpenAIChatCompletionClient

@tool
def charge_card(amount: int) -> str:
    return requests.post("https://payments.example.com/charges", json={"amount": amount}).text

@tool
async def lookup_tax(region: str) -> str:
    raise RuntimeError("tax service down")

@function_middleware
async def fail_closed(context, call_next):
    try:
        await call_next()
    except Exception as e:
        raise MiddlewareFailure("aborting") from e
'''

_HAYSTACK = '''\
import requests
from haystack.components.agents import Agent
from haystack.tools import tool

@tool
def charge_card(amount: int) -> str:
    """Charge."""
    return requests.post("https://payments.example.com/charges", json={"amount": amount}).text

@tool
def lookup_tax(region: str) -> str:
    """Tax."""
    raise RuntimeError("tax service down")
'''

_SK = '''\
import httpx
from semantic_kernel import Kernel
from semantic_kernel.agents import ChatCompletionAgent
from semantic_kernel.filters import FilterTypes
from semantic_kernel.functions import kernel_function

class Billing:
    @kernel_function
    async def charge_card(self, amount: int) -> str:
        async with httpx.AsyncClient() as c:
            return (await c.post("https://payments.example.com/charges", json={{"amount": amount}})).text

    @kernel_function
    async def lookup_tax(self, region: str) -> str:
        raise RuntimeError("tax service down")

async def abort_on_error(context, next):
    await next(context)
    {reaction}

kernel = Kernel()
kernel.add_filter(FilterTypes.AUTO_FUNCTION_INVOCATION, abort_on_error)
'''

_CLAUDE = '''\
import asyncio
import requests
from claude_agent_sdk import ClaudeAgentOptions, PermissionResultDeny, ToolAnnotations, create_sdk_mcp_server, tool

@tool("charge_card", "Charge", {{"amount": int}}{hint})
async def charge_card(args):
    await asyncio.to_thread(requests.post, "https://payments.example.com/charges", json=args)
    return {{"content": []}}

@tool("lookup_tax", "Tax", {{"region": str}}, annotations=ToolAnnotations(readOnlyHint=True))
async def lookup_tax(args):
    return {{"content": []}}

async def guard(name, inp, ctx):
    return PermissionResultDeny(message="blocked", interrupt=True)

server = create_sdk_mcp_server("billing", tools=[charge_card, lookup_tax])
'''
_READ_ONLY = ", annotations=ToolAnnotations(readOnlyHint=True)"
_CLAUDE_OPTIONS = "options = ClaudeAgentOptions(mcp_servers={'billing': server}, can_use_tool=guard)\n"

VALID: list[Valid] = [
    Valid(_MAF + "\nclient = OpenAIChatCompletionClient(model='m', "
          "function_invocation_configuration={'allow_concurrent_invocation': False})\n"
          "agent = Agent(client=client, tools=[charge_card, lookup_tax], middleware=[fail_closed])\n"),
    Valid(_HAYSTACK + "\nagent = Agent(chat_generator=gen, tools=[charge_card, lookup_tax])\n"),
    Valid(_SK.format(reaction="context.terminate = True")
          + "agent = ChatCompletionAgent(service=None, kernel=kernel, plugins=[Billing()])\n"),
    Valid(_CLAUDE.format(hint="") + _CLAUDE_OPTIONS),
]

INVALID: list[Invalid] = [
    Invalid(_MAF + "\nagent = Agent(client=client, tools=[charge_card, lookup_tax], middleware=[fail_closed])\n",
            lines=(20,)),
    Invalid(_HAYSTACK + "\nagent = Agent(chat_generator=gen, tools=[charge_card, lookup_tax], "
            "raise_on_tool_invocation_failure=True, tool_concurrency_limit=1)\n", lines=(15,)),
    Invalid(_SK.format(reaction="raise RuntimeError('aborting')")
            + "agent = ChatCompletionAgent(service=None, kernel=kernel, plugins=[Billing()])\n", lines=(23,)),
    Invalid(_CLAUDE.format(hint=_READ_ONLY) + _CLAUDE_OPTIONS, lines=(18,)),
]
