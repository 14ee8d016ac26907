'use strict';
// The tools and the model every program in this folder shares (a cross-module case for siblint too):
// charge_card reads a risk score that takes 300 ms, then POSTs to the payments sink, never looking
// at config.signal; lookup_tax calls a tax service that is down (503) and throws.
const { tool } = require('langchain');
const { ChatOpenAI } = require('@langchain/openai');
const { z } = require('zod');

const chargeCard = tool(async ({ amount }, config) => {
  await fetch(process.env.RISK_URL);
  await fetch(process.env.PAYMENTS_URL, { method: 'POST', body: JSON.stringify({ amount }) });
  return 'charged';
}, { name: 'charge_card', description: 'Charge the card', schema: z.object({ amount: z.number() }) });

const lookupTax = tool(async () => {
  const res = await fetch(process.env.TAX_URL);
  if (!res.ok) throw new Error(`tax service failed: ${res.status}`);
  return res.text();
}, { name: 'lookup_tax', description: 'Tax rate', schema: z.object({}) });

// The project's fake Chat Completions model: both tools in one turn.
const model = () => new ChatOpenAI({ model: 'fake/each-tool', apiKey: 'fake', maxRetries: 0,
                                     configuration: { baseURL: process.env.MODEL_URL } });

const ask = (agent) => (input) => agent.invoke({ messages: [{ role: 'user', content: input }] });

module.exports = { chargeCard, lookupTax, model, ask };
