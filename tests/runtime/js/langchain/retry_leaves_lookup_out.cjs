'use strict';
// INVALID: toolRetryMiddleware({ tools: ['charge_card'] }) leaves lookup_tax out, and an unlisted tool's
// error ends the run; charge_card, which never observes config.signal, charges after invoke rejected.
const { createAgent, toolRetryMiddleware } = require('langchain');
const { chargeCard, lookupTax, model, ask } = require('./shop.cjs');

const retries = toolRetryMiddleware({ maxRetries: 0, tools: ['charge_card'] });
const agent = createAgent({ model: model(), tools: [chargeCard, lookupTax], middleware: [retries] });

module.exports = { main: ask(agent) };
