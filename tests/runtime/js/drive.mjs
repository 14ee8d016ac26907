// Runs every arm program (tests/runtime/js/programs/, transpiled) in this one Node process, all
// at once, and prints one JSON line per arm after the marker: how its `main()` settled, when
// (CLOCK_MONOTONIC seconds, the clock the fake server stamps its log with), and which tool calls
// the run state kept an output for. One process imports the SDK once (~0.6 s CPU per import).
//
// Usage: node drive.mjs SPEC.json, where SPEC is {"base": fake server URL, "arms": [{"name",
// "file", "runId", "env"}]}. Each arm reads its services from process.env when it is imported, so
// the arms are imported one by one, each under its own env. Arms must not change SDK globals.
import { AsyncLocalStorage } from 'node:async_hooks';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import * as agentsEsm from '@openai/agents';
import OpenAI from 'openai';

const MARKER = 'SIBLINT-ARM-RESULT ';
const SETTLE_MS = 500; // longer than any arm's slow read: a late charge would still be seen
const now = () => Number(process.hrtime.bigint()) / 1e9;
const spec = JSON.parse(readFileSync(process.argv[2], 'utf8'));

// One default client for every arm; each model request goes to its own arm's run log, the arm
// being known from the async context its `main()` runs in. Set in both builds of the SDK: a
// CommonJS arm's `require` loads the other one, with defaults of its own.
const currentRun = new AsyncLocalStorage();
const client = new OpenAI({
  apiKey: 'fake',
  baseURL: `${spec.base}/runs/-/v1`,
  maxRetries: 0,
  fetch: (url, init) => fetch(String(url).replace('/runs/-/', `/runs/${currentRun.getStore()}/`), init),
});
for (const agents of [agentsEsm, createRequire(import.meta.url)('@openai/agents')]) {
  agents.setDefaultOpenAIClient(client);
}

// Every function call the state saw (model output or generated items) and the outputs it kept.
function toolCalls(state) {
  if (!state) return null;
  const calls = new Map();
  const outputs = new Map();
  const visit = (node) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    if (node.type === 'function_call' && node.callId) calls.set(node.callId, node.name);
    if (node.type === 'function_call_result' && node.callId) outputs.set(node.callId, node.output);
    Object.values(node).forEach(visit);
  };
  visit(state.toJSON());
  return [...calls].map(([callId, name]) => ({
    callId,
    name,
    output: outputs.has(callId) ? JSON.stringify(outputs.get(callId)).slice(0, 200) : null,
  }));
}

async function settle(main) {
  const out = { startedAt: now() };
  try {
    const result = await main();
    out.outcome = 'completed';
    out.finalOutput = String(result.finalOutput ?? '').slice(0, 300);
    out.calls = toolCalls(result.state);
  } catch (err) {
    out.outcome = 'threw';
    out.error = err?.constructor?.name ?? typeof err;
    out.message = String(err?.message ?? err).slice(0, 300);
    out.calls = toolCalls(err?.state);
  }
  out.settledAt = now();
  return out;
}

const loaded = [];
for (const arm of spec.arms) {
  Object.assign(process.env, arm.env);
  loaded.push({ arm, module: await import(pathToFileURL(arm.file).href) });
}
const reports = await Promise.all(
  loaded.map(({ arm, module }) => currentRun.run(arm.runId, () => settle(module.main))),
);
await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
reports.forEach((report, i) => console.log(MARKER + JSON.stringify({ name: spec.arms[i].name, ...report })));
process.exit(0); // an arm's open sockets must not keep the process alive
