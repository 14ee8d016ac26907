// FIXED: the same run timeout; the charge passes its abortSignal to its wait and to fetch.
import { stepCountIs, streamText, tool } from 'ai';
import { createAnthropic } from '@ai-sdk/anthropic';
import { z } from 'zod';
import { setTimeout as sleep } from 'node:timers/promises';

const anthropic = createAnthropic({ baseURL: process.env.MODEL_URL, apiKey: 'fake' });

export const chargeCard = tool({
  description: 'Charge the card',
  inputSchema: z.object({ amount: z.number() }),
  execute: async ({ amount }, { abortSignal }) => {
    await sleep(4000, undefined, { signal: abortSignal }); // a fraud check
    const res = await fetch(process.env.PAYMENTS_URL, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ amount }), signal: abortSignal,
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
    timeout: { totalMs: 3000 },
  });
}
