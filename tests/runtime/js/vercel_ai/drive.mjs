// Runs one program's `checkout('go')` and prints how it settled, on the clock the fake server logs
// with (process.hrtime is CLOCK_MONOTONIC on Linux, as Python's time.monotonic()), then waits for
// stragglers. Usage: node drive.mjs PROGRAM.mjs
import { pathToFileURL } from 'node:url';

const now = () => Number(process.hrtime.bigint()) / 1e9;
const { checkout } = await import(pathToFileURL(process.argv[2]).href);
const report = { results: [], parts: [] };
try {
  const run = await checkout('go');
  if (run.fullStream) { // streamText: read the stream to its end, as a chat UI does
    for await (const part of run.fullStream) {
      report.parts.push(part.type);
      if (part.type === 'tool-result') report.results.push(`${part.toolName}: ${part.output}`);
    }
  } else {
    for (const step of run.steps) {
      for (const part of step.content) if (part.type === 'tool-result') report.results.push(`${part.toolName}: ${part.output}`);
    }
  }
  report.outcome = 'completed';
} catch (error) {
  report.outcome = 'threw';
  report.error = error?.constructor?.name;
}
report.ended = now();
await new Promise((resolve) => setTimeout(resolve, 5000));
console.log(`SIBLINT-VERCEL-REPORT ${JSON.stringify(report)}`);
