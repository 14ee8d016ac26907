'use strict';
// INVALID: new ToolNode(tools, { handleToolErrors: false }) lets lookup_tax's 503 end the run; charge_card,
// which never observes config.signal, charges after invoke rejected, unrecorded.
const { ToolNode, createReactAgent } = require('@langchain/langgraph/prebuilt');
const { chargeCard, lookupTax, model, ask } = require('./shop.cjs');

const tools = new ToolNode([chargeCard, lookupTax], { handleToolErrors: false });
const agent = createReactAgent({ llm: model(), tools });

module.exports = { main: ask(agent) };
