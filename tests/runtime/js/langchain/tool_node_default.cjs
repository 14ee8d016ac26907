'use strict';
// FIXED twin: ToolNode's default handleToolErrors (true) turns lookup_tax's 503 into a tool message;
// the run completes with charge_card's result recorded.
const { tool } = require('langchain');
const { ToolNode, createReactAgent } = require('@langchain/langgraph/prebuilt');
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

const llm = new ChatOpenAI({ model: 'fake/each-tool', apiKey: 'fake', maxRetries: 0,
                             configuration: { baseURL: process.env.MODEL_URL } });
const tools = new ToolNode([chargeCard, lookupTax]);
const agent = createReactAgent({ llm, tools });

module.exports = { main: (input) => agent.invoke({ messages: [{ role: 'user', content: input }] }) };
