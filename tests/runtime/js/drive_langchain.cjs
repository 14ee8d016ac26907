'use strict';
// Runs one LangChain.js arm program (tests/runtime/js/langchain/) and prints one JSON line after
// the marker: how its `main()` settled, when (CLOCK_MONOTONIC seconds, the clock the fake server
// stamps its log with), and the tool messages of the final state. It waits SETTLE_MS after the
// run settled, so a straggler's late charge reaches the fake's log before the test reads it.
//
// Usage: node drive_langchain.cjs ARM.cjs (services and the model URL come from the environment).
const MARKER = 'SIBLINT-ARM-RESULT ';
const SETTLE_MS = 800;
const now = () => Number(process.hrtime.bigint()) / 1e9;

(async () => {
  const arm = require(process.argv[2]);
  const report = { started: now() };
  try {
    const state = await arm.main('check out');
    report.outcome = 'completed';
    report.toolMessages = (state.messages || []).filter((m) => m.getType?.() === 'tool' || m.type === 'tool')
      .map((m) => ({ name: m.name, status: m.status, content: String(m.content) }));
  } catch (err) {
    report.outcome = 'threw';
    report.message = String(err && err.message);
  }
  report.settled = now();
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  console.log(MARKER + JSON.stringify(report));
})();
