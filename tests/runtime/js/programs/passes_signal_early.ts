// The signal given to an early step only: the charge passes it to a quick first await, then waits on
// the fraud score without it; the abort comes during that wait, and the charge lands.
import { Agent, run, tool } from '@openai/agents';
import { z } from 'zod';

const PAYMENTS_URL = process.env.PAYMENTS_URL ?? 'https://payments.example.com/charges';
const RISK_URL = process.env.RISK_URL ?? 'https://risk.example.com/score';
const SHIPPING_URL = process.env.SHIPPING_URL ?? 'https://shipping.example.com/quote';

async function loadCurrency(signal?: AbortSignal): Promise<string> {
  signal?.throwIfAborted();
  return 'usd';
}

const chargeCard = tool({
  name: 'charge_card',
  description: "Charge the customer's card.",
  parameters: z.object({ amountCents: z.number().int() }),
  execute: async ({ amountCents }, _context, details) => {
    const currency = await loadCurrency(details?.signal); // the signal given to a quick first step
    await fetch(RISK_URL); // the fraud score: a slow read, without the signal
    await fetch(PAYMENTS_URL, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ amountCents, currency }),
    });
    return 'charged';
  },
});

const quoteShipping = tool({
  name: 'quote_shipping',
  description: 'Quote shipping for the cart.',
  parameters: z.object({ cartId: z.string() }),
  errorFunction: null, // failures reach the caller
  async execute({ cartId }) {
    const res = await fetch(`${SHIPPING_URL}?cart=${cartId}`);
    if (!res.ok) throw new Error(`shipping quote failed: ${res.status}`);
    return res.text();
  },
});

export const agent = new Agent({
  name: 'checkout',
  instructions: 'Charge the card and quote shipping.',
  tools: [chargeCard, quoteShipping],
});

export async function main() {
  return run(agent, 'Check out cart 42.');
}
