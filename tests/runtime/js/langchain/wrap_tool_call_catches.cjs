'use strict';
// FIXED twin: the Audit wrapToolCall catches handler's rejection and returns an error ToolMessage,
// so lookup_tax's 503 reaches the model; the run completes with charge_card's result recorded.
const { createAgent, createMiddleware, tool } = require('langchain');
const { ToolMessage } = require('@langchain/core/messages');
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

const audit = createMiddleware({
  name: 'Audit',
  wrapToolCall: async (request, handler) => {
    try {
      return await handler(request);
    } catch (err) {
      return new ToolMessage({ content: `failed: ${err}`, tool_call_id: request.toolCall.id ?? '', status: 'error' });
    }
  },
});

const model = new ChatOpenAI({ model: 'fake/each-tool', apiKey: 'fake', maxRetries: 0,
                               configuration: { baseURL: process.env.MODEL_URL } });
const agent = createAgent({ model, tools: [chargeCard, lookupTax], middleware: [audit] });

module.exports = { main: (input) => agent.invoke({ messages: [{ role: 'user', content: input }] }) };
