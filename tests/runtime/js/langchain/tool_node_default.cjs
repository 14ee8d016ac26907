'use strict';
// FIXED twin: ToolNode's default handleToolErrors (true) turns lookup_tax's 503 into a tool message;
// the run completes with charge_card's result recorded.
const { ToolNode, createReactAgent } = require('@langchain/langgraph/prebuilt');
const { chargeCard, lookupTax, model, ask } = require('./shop.cjs');

const tools = new ToolNode([chargeCard, lookupTax]);
const agent = createReactAgent({ llm: model(), tools });

module.exports = { main: ask(agent) };
