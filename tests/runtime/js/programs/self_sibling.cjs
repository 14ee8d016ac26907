// One tool that both charges and fails fatally is its own sibling: the model calls it twice in
// one turn, one call fails (`errorFunction: null`), and the other call still charges.
// CommonJS, with the SDK as a namespace.
const agents = require('@openai/agents');
const { z } = require('zod');

const PAYMENTS_URL = process.env.PAYMENTS_URL ?? 'https://payments.example.com/charges';
const RISK_URL = process.env.RISK_URL ?? 'https://risk.example.com/score';

const paidInvoices = new Set([1]); // the ledger as this process last read it

const payInvoice = agents.tool({
  name: 'pay_invoice',
  description: 'Pay one invoice.',
  parameters: z.object({ invoiceId: z.number().int() }),
  errorFunction: null, // failures reach the caller
  execute: async function ({ invoiceId }) {
    if (paidInvoices.has(invoiceId)) throw new Error(`invoice ${invoiceId} is already paid`);
    await fetch(RISK_URL); // the fraud score: a slow read
    await fetch(PAYMENTS_URL, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ invoiceId }),
    });
    paidInvoices.add(invoiceId);
    return 'paid';
  },
});

const agent = new agents.Agent({
  name: 'billing',
  instructions: 'Pay the open invoices.',
  model: 'fake/each-tool-twice', // the fake model calls every tool twice, with invoiceId 1 and 2
  tools: [payInvoice],
});

async function main() {
  return agents.run(agent, 'Pay invoices 1 and 2.');
}

module.exports = { agent, main };
