// The server's own `errorFunction` wins over `mcpConfig: { errorFunction: null }`: the warehouse's
// error becomes text for the model, the run goes on, and the charge lands and is recorded.
import { Agent, MCPServerStdio, run, tool } from '@openai/agents';
import { z } from 'zod';

const PAYMENTS_URL = process.env.PAYMENTS_URL ?? 'https://payments.example.com/charges';
const RISK_URL = process.env.RISK_URL ?? 'https://risk.example.com/score';
const INVENTORY_SERVER = process.env.INVENTORY_SERVER ?? './inventory-server.mjs';

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

const inventory = new MCPServerStdio({
  name: 'inventory',
  command: process.execPath,
  args: [INVENTORY_SERVER],
  errorFunction: ({ error }) => `the warehouse is unavailable: ${error}`,
});

export const agent = new Agent({
  name: 'checkout',
  instructions: 'Charge the card and reserve the stock.',
  tools: [chargeCard],
  mcpServers: [inventory],
  mcpConfig: { errorFunction: null },
});

export async function main() {
  await inventory.connect();
  try {
    return await run(agent, 'Check out cart 42.');
  } finally {
    await inventory.close();
  }
}
