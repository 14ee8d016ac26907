'use strict';
// INVALID: toolRetryMiddleware({ tools: ['charge_card'] }) leaves lookup_tax out, and an unlisted tool's
// error ends the run; charge_card, which never observes config.signal, charges after invoke rejected.
const { createAgent, tool, toolRetryMiddleware } = require('langchain');
const { ChatOpenAI } = require('@langchain/openai');
const { z } = require('zod');

const chargeCard = tool(async ({ amount }, config) => {
  await fetch(process.env.RISK_URL); // a risk check that takes 300 ms
  await fetch(process.env.PAYMENTS_URL, { method: 'POST', body: JSON.stringify({ amount }) });
  return 'charged';
}, { name: 'charge_card', description: 'Charge the card', schema: z.object({ amount: z.number() }) });

const lookupTax = tool(async () => {
  const res = await fetch(process.env.TAX_URL);
  if (!res.ok) throw new Error(`tax service failed: ${res.status}`);
  return res.text();
}, { name: 'lookup_tax', description: 'Tax rate', schema: z.object({}) });

const model = new ChatOpenAI({ model: 'fake/each-tool', apiKey: 'fake', maxRetries: 0,
                               configuration: { baseURL: process.env.MODEL_URL } });
const retries = toolRetryMiddleware({ maxRetries: 0, tools: ['charge_card'] });
const agent = createAgent({ model, tools: [chargeCard, lookupTax], middleware: [retries] });

module.exports = { main: (input) => agent.invoke({ messages: [{ role: 'user', content: input }] }) };
