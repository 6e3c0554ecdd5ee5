/**
 * A gateway in its own process, so the fuzz harness can watch its event loop without counting
 * the test's own work. Prints one JSON line (url and keys) when ready, then answers each line on
 * stdin: "probe" → the longest event-loop delay since the last probe, in ms; "close" → exits.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { startHarness } from '../e2e/harness.ts';

const h = await startHarness({ RATE_LIMIT_PER_MINUTE: '1000000' });
const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();
process.stdout.write(`${JSON.stringify({ url: h.url, ws: h.ws, other: h.other, dataDir: h.config.dataDir })}\n`);
loop.reset();

for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'probe') {
    process.stdout.write(`${JSON.stringify({ maxMs: loop.max / 1e6 })}\n`);
    loop.reset();
  } else if (line === 'close') {
    break;
  }
}
loop.disable();
await h.close();
process.exit(0);
