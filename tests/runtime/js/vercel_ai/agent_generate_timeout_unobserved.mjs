// INVALID: a ToolLoopAgent run with a timeout at `generate`: it waits for the charge, then rejects
// without its result, as generateText does.
import { ToolLoopAgent, stepCountIs, tool } from 'ai';
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

const agent = new ToolLoopAgent({
  model: anthropic('fake'),
  tools: { mcp__charge_card: chargeCard },
  stopWhen: stepCountIs(3),
});

export function checkout(prompt) {
  return agent.generate({ prompt, timeout: { totalMs: 3000 } });
}
