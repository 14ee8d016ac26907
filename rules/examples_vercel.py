"""The TypeScript examples of the Vercel AI SDK (`ai`) spelling, by code: a charge that never observes
`options.abortSignal`, run by `streamText` under a run timeout (measured: tests/runtime/js/test_vercel_ai.py).

Each rule adds these to its VALID/INVALID lists, so the test suite lints them as `main.ts` and the
documentation shows them. Line numbers are 1-based report lines.
"""

from __future__ import annotations

from siblint.rule_api.rule import Invalid, Valid

# The tool alone ({params}: execute's second parameter; {check}, {signal}: how it observes it).
TOOL = """\
export const chargeCard = tool({
  description: 'Charge the card',
  inputSchema: z.object({ amount: z.number() }),
  execute: async ({ amount }{params}) => {
    await new Promise((r) => setTimeout(r, 300));
{check}    await fetch('https://pay.example.com/charges', { method: 'POST', body: JSON.stringify({ amount }){signal} });
    return 'charged';
  },
});
"""

_CHARGE = """\
import { streamText, tool } from 'ai';
import { openai } from '@ai-sdk/openai';
import { z } from 'zod';

""" + TOOL + """
export function checkout(prompt: string) {
  return streamText({ model: openai('gpt-5'), tools: { chargeCard }, prompt{stop} });
}
"""


def _code(params: str = "", check: str = "", signal: str = "", stop: str = ", timeout: { totalMs: 30000 }") -> str:
    return (_CHARGE.replace("{params}", params).replace("{check}", check).replace("{signal}", signal)
            .replace("{stop}", stop))


_FIXED = _code(", { abortSignal }", signal=", signal: abortSignal")
# The caller's own signal handed to the tool's request (measured: stream_caller_signal_passed_on).
_CALLERS_SIGNAL = """\
import { streamText, tool } from 'ai';
import { openai } from '@ai-sdk/openai';
import { z } from 'zod';

function makeChargeCard(signal: AbortSignal) {
  return tool({
    description: 'Charge the card',
    inputSchema: z.object({ amount: z.number() }),
    execute: async ({ amount }) => {
      await fetch('https://pay.example.com/charges', { method: 'POST', body: JSON.stringify({ amount }), signal });
      return 'charged';
    },
  });
}

export function checkout(prompt: string, signal: AbortSignal) {
  return streamText({ model: openai('gpt-5'), tools: { chargeCard: makeChargeCard(signal) }, prompt, abortSignal: signal });
}
"""

VALID: dict[str, list[Valid]] = {
    "SIB101": [Valid(_FIXED, filename="main.ts"), Valid(_code(stop=""), filename="main.ts"),
               Valid(_CALLERS_SIGNAL, filename="main.ts")],
    "SIB301": [Valid(_FIXED, filename="main.ts"),
               Valid(_code(stop=", timeout: { toolMs: 5000 }"), filename="main.ts"),
               Valid(_CALLERS_SIGNAL, filename="main.ts")],
}

INVALID: dict[str, list[Invalid]] = {
    "SIB101": [Invalid(_code(), lines=(5,), filename="main.ts")],
    "SIB301": [Invalid(_code(stop=", abortSignal: AbortSignal.timeout(30000)"), lines=(16,), filename="main.ts")],
}
