// `outputSchema` without `errorFunction` makes the tool's failures fatal (the SDK's default handler
// becomes null), on the Responses API, the default API.
import { Agent, run, tool } from '@openai/agents';
import { z } from 'zod';

const PAYMENTS_URL = process.env.PAYMENTS_URL ?? 'https://payments.example.com/charges';
const RISK_URL = process.env.RISK_URL ?? 'https://risk.example.com/score';
const SHIPPING_URL = process.env.SHIPPING_URL ?? 'https://shipping.example.com/quote';

const chargeCard = tool({
  name: 'charge_card',
  description: "Charge the customer's card.",
  parameters: z.object({ amountCents: z.number().int() }),
  async execute({ amountCents }) {
    await fetch(RISK_URL); // the fraud score: a slow read
    await fetch(PAYMENTS_URL, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ amountCents }),
    });
    return 'charged';
  },
});

const quoteShipping = tool({
  name: 'quote_shipping',
  description: 'Quote shipping for the cart.',
  parameters: z.object({ cartId: z.string() }),
  outputSchema: z.object({ cents: z.number() }),
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
