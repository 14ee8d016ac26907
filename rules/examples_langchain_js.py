"""The TypeScript examples of the rules in LangChain.js / LangGraph.js spelling (`createAgent`,
`createMiddleware`, `toolRetryMiddleware`, `ToolNode`), by code, each INVALID beside its fixed twin.

Each rule adds these to its VALID/INVALID lists, so the suite lints them as `main.ts`. Line numbers are
1-based report lines. Runtime truth: tests/runtime/js/test_langchain_js.py.
"""

from __future__ import annotations

from siblint.rule_api.rule import Invalid, Valid

_HEAD = ("import { createAgent, createMiddleware, tool, toolRetryMiddleware } from 'langchain';\n"
         "import { ToolMessage } from '@langchain/core/messages';\nimport { ToolNode } from '@langchain/langgraph/prebuilt';\n"
         "import { z } from 'zod';\n\n")
# Lines 6-10: the charge, which waits, then POSTs; `{signal}` is added to its fetch options.
_CHARGE = ("export const chargeCard = tool(async ({{ amount }}, config) => {{\n  await new Promise((r) => setTimeout(r, 300));\n"
           "  await fetch('https://pay.example.com/charges', {{ method: 'POST', body: JSON.stringify({{ amount }}){signal} }});\n"
           "  return 'charged';\n}}, {{ name: 'charge_card', description: 'Charge', schema: z.object({{ amount: z.number() }}) }});\n")
# Lines 11-14: a lookup whose service can fail.
_LOOKUP = ("export const lookupTax = tool(async () => {\n  const res = await fetch('https://tax.example.com/rate');\n"
           "  return res.text();\n}, { name: 'lookup_tax', description: 'Tax rate', schema: z.object({}) });\n")
# Lines 15-20: middleware whose wrapToolCall awaits handler(request) without a catch (line 15).
_PASSING = ("const audit = createMiddleware({\n  name: 'Audit',\n  wrapToolCall: async (request, handler) => {\n"
            "    const result = await handler(request);\n    return result;\n  },\n});\n")
_CATCHING = ("const audit = createMiddleware({\n  name: 'Audit',\n  wrapToolCall: async (request, handler) => {\n"
             "    try { return await handler(request); }\n"
             "    catch (e) { return new ToolMessage({ content: `failed: ${e}`, tool_call_id: request.toolCall.id ?? '', status: 'error' }); }\n"
             "  },\n});\n")
# Line 22: the agent.
_AGENT = "export const agent = createAgent({ model: 'openai:gpt-4o', tools: [chargeCard, lookupTax], middleware: [audit] });\n"


def _file(signal: str = "", middleware: str = _PASSING, agent: str = _AGENT) -> str:
    return _HEAD + _CHARGE.format(signal=signal) + _LOOKUP + middleware + "\n" + agent




def _node(options: str = "") -> str:
    return _HEAD + _CHARGE.format(signal="") + _LOOKUP + f"export const tools = new ToolNode([chargeCard, lookupTax]{options});\n"


VALID: dict[str, list[Valid]] = {
    "SIB101": [Valid(_file(signal=", signal: config.signal"), filename="main.ts")],
    "SIB201": [Valid(_node(), filename="main.ts")],
    "SIB202": [Valid(_file(middleware=_CATCHING), filename="main.ts"),
               Valid(_file(middleware="const audit = toolRetryMiddleware({ maxRetries: 2 });\n"), filename="main.ts")],
    "SIB301": [Valid(_file(middleware=_CATCHING), filename="main.ts"),
               Valid(_file(signal=", signal: config.signal"), filename="main.ts")],
}

INVALID: dict[str, list[Invalid]] = {
    "SIB101": [Invalid(_file(), lines=(6,), filename="main.ts")],
    "SIB201": [Invalid(_node(", { handleToolErrors: false }"), lines=(15,), filename="main.ts")],
    # Where it is built, and where the agent registers it.
    "SIB202": [Invalid(_file(), lines=(15, 23), filename="main.ts"),
               Invalid(_file(middleware="const audit = toolRetryMiddleware({ maxRetries: 2, onFailure: 'error' });\n"),
                       lines=(15, 17), filename="main.ts")],
    "SIB301": [Invalid(_file(), lines=(23,), filename="main.ts"),
               Invalid(_node(", { handleToolErrors: false }"), lines=(15,), filename="main.ts")],
}
