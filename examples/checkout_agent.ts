/**
 * A checkout agent with the hazard siblint exists for, on the OpenAI Agents SDK for JavaScript
 * (run: siblint check examples/).
 *
 * The model calls both tools in one turn and the SDK runs them together. `errorFunction: null`
 * makes the shipping quote's failure end the run: the SDK aborts `details.signal` for its
 * siblings, but chargeCard never reads it, so the card is charged anyway, and the error's
 * `state` keeps no record of the charge.
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
  execute: async ({ amountCents }) => {
    const risk = await fetch(RISK_URL);
    if (!risk.ok) return 'payment held for review';
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
  errorFunction: null, // we want to know when shipping is down
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
