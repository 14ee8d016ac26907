// INVALID: a caller abortSignal on streamText; toolCallConcurrency: 1 serialises the calls but stops nothing.
import { stepCountIs, streamText, tool } from 'ai';
import { createAnthropic } from '@ai-sdk/anthropic';
import { z } from 'zod';

const anthropic = createAnthropic({ baseURL: process.env.MODEL_URL, apiKey: 'fake' });

export const chargeCard = tool({
  description: 'Charge the card',
  inputSchema: z.object({ amount: z.number() }),
  execute: async ({ amount }) => {
    await new Promise((resolve) => setTimeout(resolve, 4000)); // a fraud check
    const res = await fetch(process.env.PAYMENTS_URL, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ amount }),
    });
    return `charged: ${res.status}`;
  },
});

export function checkout(prompt) {
  return streamText({
    model: anthropic('fake'),
    tools: { mcp__charge_card: chargeCard },
    prompt,
    stopWhen: stepCountIs(3),
    abortSignal: AbortSignal.timeout(3000),
    toolCallConcurrency: 1,
  });
}
