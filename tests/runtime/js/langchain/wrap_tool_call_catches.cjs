'use strict';
// FIXED twin: the Audit wrapToolCall catches handler's rejection and returns an error ToolMessage,
// so lookup_tax's 503 reaches the model; the run completes with charge_card's result recorded.
const { createAgent, createMiddleware } = require('langchain');
const { ToolMessage } = require('@langchain/core/messages');
const { chargeCard, lookupTax, model, ask } = require('./shop.cjs');

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

const agent = createAgent({ model: model(), tools: [chargeCard, lookupTax], middleware: [audit] });

module.exports = { main: ask(agent) };
