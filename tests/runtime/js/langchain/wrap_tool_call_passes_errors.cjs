'use strict';
// INVALID: the Audit middleware's wrapToolCall awaits handler(request) without a catch, so
// lookup_tax's 503 ends the run (invoke rejects at once). charge_card never observes config.signal:
// its POST lands ~0.3 s after the rejection, and no tool message records it.
const { createAgent, createMiddleware } = require('langchain');
const { chargeCard, lookupTax, model, ask } = require('./shop.cjs');

const audit = createMiddleware({
  name: 'Audit',
  wrapToolCall: async (request, handler) => {
    const started = Date.now();
    const result = await handler(request);
    console.error(`${request.toolCall.name} took ${Date.now() - started} ms`);
    return result;
  },
});

const agent = createAgent({ model: model(), tools: [chargeCard, lookupTax], middleware: [audit] });

module.exports = { main: ask(agent) };
