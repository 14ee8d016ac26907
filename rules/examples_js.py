"""The TypeScript examples of the rules that have a JS meaning (@openai/agents), by code.

Each rule adds these to its VALID/INVALID lists, so the test suite lints them as `main.ts` and a
rule's JS reading cannot drift from its documentation. Line numbers are 1-based report lines.
"""

from __future__ import annotations

from siblint.rule_api.rule import Invalid, Valid

_HEAD = "import { Agent, run, Runner, tool } from '@openai/agents';\nimport { z } from 'zod';\n\n"

# A tool that charges after a wait; `{check}` is what it does with its signal before the charge.
_CHARGE = ("export const chargeCard = tool({{\n  name: 'charge_card',\n  description: 'Charge the card',\n"
           "  parameters: z.object({{ amount: z.number() }}),\n  async execute({{ amount }}, _ctx, details) {{\n"
           "    await new Promise((r) => setTimeout(r, 300));\n{check}"
           "    await fetch('https://pay.example.com/charges', {{ method: 'POST', body: JSON.stringify({{ amount }}){signal} }});\n"
           "    return 'charged';\n  }},\n}});\n")


def _charge(check: str = "", signal: str = "") -> str:
    return _HEAD + _CHARGE.format(check=check, signal=signal)


def _options(options: str) -> str:
    """A lookup tool whose failure is governed by `options` (written inside its `tool({...})`)."""
    return (_HEAD + "export const lookupTax = tool({\n  name: 'lookup_tax',\n  description: 'Tax rate',\n"
            "  parameters: z.object({}),\n  execute: async () => '0.2',\n" + options + "});\n")


_GROUP = (_charge() + "\nexport const lookupTax = tool({\n  name: 'lookup_tax',\n  description: 'Tax rate',\n"
          "  parameters: z.object({}),\n  execute: async () => { throw new Error('tax service down'); },\n"
          "  errorFunction: null,\n});\n\nexport const agent = new Agent({ name: 'checkout', tools: [chargeCard, lookupTax] });\n")

VALID: dict[str, list[Valid]] = {
    "SIB101": [
        Valid(_charge("    details?.signal?.throwIfAborted();\n"), filename="main.ts"),
        Valid(_charge(signal=", signal: details?.signal"), filename="main.ts"),
        # The signal given to the last await before the charge: an abort during it rejects it.
        Valid(_charge().replace("    await new Promise((r) => setTimeout(r, 300));\n",
                                "    await fetch('https://risk.example.com/score', { signal: details?.signal });\n"),
              filename="main.ts"),
        Valid(_HEAD + "export const weather = tool({\n  name: 'weather',\n  description: 'Weather',\n"
              "  parameters: z.object({ city: z.string() }),\n  execute: async ({ city }) => (await fetch(`https://wttr.in/${city}`)).text(),\n"
              "});\n", filename="main.ts"),
    ],
    "SIB201": [
        Valid(_options(""), filename="main.ts"),
        Valid(_options("  errorFunction: (_ctx, error) => `lookup failed: ${error}`,\n"), filename="main.ts"),
        Valid(_options("  outputSchema: z.object({ rate: z.string() }),\n  errorFunction: () => 'lookup failed',\n"),
              filename="main.ts"),
    ],
    "SIB203": [
        Valid(_options("  timeoutMs: 5000,\n"), filename="main.ts"),
        Valid(_options("  timeoutMs: 5000,\n  timeoutBehavior: 'error_as_result',\n"), filename="main.ts"),
    ],
    "SIB301": [
        Valid(_GROUP + "\nexport async function main(input: string) {\n"
              "  return run(agent, input, { toolExecution: { maxFunctionToolConcurrency: 1 } });\n}\n", filename="main.ts"),
        Valid(_GROUP.replace("    await fetch(", "    details?.signal?.throwIfAborted();\n    await fetch("), filename="main.ts"),
    ],
}

INVALID: dict[str, list[Invalid]] = {
    "SIB101": [
        Invalid(_charge(), lines=(4,), filename="main.ts"),
        # A check before the last await before the effect protects nothing: the abort comes during the wait.
        Invalid(_charge().replace("    await new Promise(", "    if (details?.signal?.aborted) return 'cancelled';\n"
                                  "    await new Promise("), lines=(4,), filename="main.ts"),
        # So does the signal given only to an earlier step (runtime arm `passes_signal_early`).
        Invalid(_charge().replace("    await new Promise(", "    await fetch('https://risk.example.com/score', "
                                  "{ signal: details?.signal });\n    await new Promise("), lines=(4,), filename="main.ts"),
    ],
    "SIB201": [
        Invalid(_options("  errorFunction: null,\n"), lines=(9,), filename="main.ts"),
        Invalid(_options("  errorFunction: (_ctx, error) => {\n    throw error;\n  },\n"), lines=(9,), filename="main.ts"),
        Invalid(_options("  outputSchema: z.object({ rate: z.string() }),\n"), lines=(9,), filename="main.ts"),
    ],
    "SIB203": [
        Invalid(_options("  timeoutMs: 5000,\n  timeoutBehavior: 'raise_exception',\n"), lines=(10,), filename="main.ts"),
        Invalid(_options("  outputSchema: z.object({ rate: z.string() }),\n  errorFunction: () => 'failed',\n  timeoutMs: 5000,\n"),
                lines=(11,), filename="main.ts"),
    ],
    "SIB301": [
        Invalid(_GROUP, lines=(23,), filename="main.ts"),
        # parallelToolCalls: false is only sent to the provider; the SDK still runs both calls together.
        Invalid(_GROUP.replace("tools: [chargeCard, lookupTax] }", "tools: [chargeCard, lookupTax],\n"
                               "  modelSettings: { parallelToolCalls: false } }"), lines=(23,), filename="main.ts"),
    ],
}
