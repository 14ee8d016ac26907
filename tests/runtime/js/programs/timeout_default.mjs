// The twin of timeout_raise_exception.ts in plain JavaScript, with the default timeout behaviour
// ('error_as_result'): the timeout becomes text for the model, the run goes on, and the charge
// lands and is recorded.
import { Agent, run, tool } from '@openai/agents';
import { z } from 'zod';

const PAYMENTS_URL = process.env.PAYMENTS_URL ?? 'https://payments.example.com/charges';
const RISK_URL = process.env.RISK_URL ?? 'https://risk.example.com/score';
const CARRIER_URL = process.env.CARRIER_URL ?? 'https://carrier.example.com/rates';

const chargeCard = tool({
  name: 'charge_card',
  description: "Charge the customer's card.",
  parameters: z.object({ amountCents: z.number().int() }),
  execute: async ({ amountCents }) => {
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
  timeoutMs: 50,
  execute: async ({ cartId }) => {
    const res = await fetch(`${CARRIER_URL}&cart=${cartId}`); // slower than the timeout
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
