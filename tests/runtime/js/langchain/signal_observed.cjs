'use strict';
// FIXED twin: the same non-catching middleware ends the run, but charge_card passes config.signal to
// its wait and its POST: Pregel aborts it when lookup_tax fails, and no charge is made.
const { createAgent, createMiddleware, tool } = require('langchain');
const { ChatOpenAI } = require('@langchain/openai');
const { z } = require('zod');

const chargeCard = tool(async ({ amount }, config) => {
  await fetch(process.env.RISK_URL, { signal: config.signal }); // a risk check that takes 300 ms
  await fetch(process.env.PAYMENTS_URL, { method: 'POST', body: JSON.stringify({ amount }), signal: config.signal });
  return 'charged';
}, { name: 'charge_card', description: 'Charge the card', schema: z.object({ amount: z.number() }) });

const lookupTax = tool(async () => {
  const res = await fetch(process.env.TAX_URL);
  if (!res.ok) throw new Error(`tax service failed: ${res.status}`);
  return res.text();
}, { name: 'lookup_tax', description: 'Tax rate', schema: z.object({}) });

const audit = createMiddleware({
  name: 'Audit',
  wrapToolCall: async (request, handler) => {
    const started = Date.now();
    const result = await handler(request);
    console.error(`${request.toolCall.name} took ${Date.now() - started} ms`);
    return result;
  },
});

const model = new ChatOpenAI({ model: 'fake/each-tool', apiKey: 'fake', maxRetries: 0,
                               configuration: { baseURL: process.env.MODEL_URL } });
const agent = createAgent({ model, tools: [chargeCard, lookupTax], middleware: [audit] });

module.exports = { main: (input) => agent.invoke({ messages: [{ role: 'user', content: input }] }) };
