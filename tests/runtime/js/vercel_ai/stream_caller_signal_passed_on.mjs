// FIXED another way: the tool never reads its own abortSignal, but its wait and its request observe the
// caller's signal itself, handed to them in a closure (the signal streamText runs under).
import { stepCountIs, streamText, tool } from 'ai';
import { createAnthropic } from '@ai-sdk/anthropic';
import { z } from 'zod';
import { setTimeout as sleep } from 'node:timers/promises';

const anthropic = createAnthropic({ baseURL: process.env.MODEL_URL, apiKey: 'fake' });

function makeChargeCard(signal) {
  return tool({
    description: 'Charge the card',
    inputSchema: z.object({ amount: z.number() }),
    execute: async ({ amount }) => {
      await sleep(4000, undefined, { signal }); // a fraud check
      const res = await fetch(process.env.PAYMENTS_URL, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ amount }), signal,
      });
      return `charged: ${res.status}`;
    },
  });
}

export function checkout(prompt) {
  const signal = AbortSignal.timeout(3000);
  return streamText({
    model: anthropic('fake'),
    tools: { mcp__charge_card: makeChargeCard(signal) },
    prompt,
    stopWhen: stepCountIs(3),
    abortSignal: signal,
  });
}
