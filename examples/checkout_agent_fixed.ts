/**
 * examples/checkout_agent.ts, fixed (siblint check reports nothing here).
 *
 * - quoteShipping keeps the SDK's default error handler: its failure becomes a message the model
 *   reads, the run goes on, and the charge's output is recorded with the rest of the turn.
 * - chargeCard hands `details.signal` to the charging request, so if a sibling's failure ever
 *   aborts the turn before the request is sent, the card is not charged.
 */
import { Agent, run, tool } from '@openai/agents';
import { z } from 'zod';

const PAYMENTS_URL = process.env.PAYMENTS_URL ?? 'https://payments.example.com/charges';
const RISK_URL = process.env.RISK_URL ?? 'https://risk.example.com/score';
const SHIPPING_URL = process.env.SHIPPING_URL ?? 'https://shipping.example.com/quote';

const chargeCard = tool({
  name: 'charge_card',
  description: "Charge the customer's card.",
  parameters: z.object({ amountCents: z.number().int() }),
  execute: async ({ amountCents }, _context, details) => {
    const risk = await fetch(RISK_URL, { signal: details?.signal });
    if (!risk.ok) return 'payment held for review';
    await fetch(PAYMENTS_URL, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ amountCents }),
      signal: details?.signal,
    });
    return 'charged';
  },
});

const quoteShipping = tool({
  name: 'quote_shipping',
  description: 'Quote shipping for the cart.',
  parameters: z.object({ cartId: z.string() }),
  execute: async ({ cartId }) => {
    const res = await fetch(`${SHIPPING_URL}?cart=${cartId}`);
    if (!res.ok) throw new Error(`shipping quote failed: ${res.status}`);
    return res.text();
  },
});

const agent = new Agent({
  name: 'checkout',
  instructions: 'Charge the card for the cart total and quote shipping.',
  tools: [chargeCard, quoteShipping],
});

try {
  const result = await run(agent, 'Check out cart 42.');
  console.log(result.finalOutput);
} catch (error) {
  console.error(`checkout failed: ${error}`);
  process.exitCode = 1;
}
