'use strict';
// FIXED twin: the same non-catching middleware ends the run, but this charge_card passes config.signal
// to its wait and its POST: Pregel aborts it when lookup_tax fails, and no charge is made.
const { createAgent, createMiddleware, tool } = require('langchain');
const { z } = require('zod');
const { lookupTax, model, ask } = require('./shop.cjs');

const chargeCard = tool(async ({ amount }, config) => {
  await fetch(process.env.RISK_URL, { signal: config.signal });
  await fetch(process.env.PAYMENTS_URL, { method: 'POST', body: JSON.stringify({ amount }), signal: config.signal });
  return 'charged';
}, { name: 'charge_card', description: 'Charge the card', schema: z.object({ amount: z.number() }) });

const audit = createMiddleware({ name: 'Audit', wrapToolCall: async (request, handler) => handler(request) });

const agent = createAgent({ model: model(), tools: [chargeCard, lookupTax], middleware: [audit] });

module.exports = { main: ask(agent) };
