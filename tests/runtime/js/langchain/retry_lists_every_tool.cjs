'use strict';
// FIXED twin: the retry middleware lists both tools, so lookup_tax's 503 reaches the model (onFailure
// 'continue'); the run completes with charge_card's result recorded.
const { createAgent, toolRetryMiddleware } = require('langchain');
const { chargeCard, lookupTax, model, ask } = require('./shop.cjs');

const retries = toolRetryMiddleware({ maxRetries: 0, tools: ['charge_card', 'lookup_tax'] });
const agent = createAgent({ model: model(), tools: [chargeCard, lookupTax], middleware: [retries] });

module.exports = { main: ask(agent) };
