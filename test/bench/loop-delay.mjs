/**
 * Preloaded into the API server by the bench (server.ts): every 50 ms, appends to the file named
 * by BENCH_LOOP_DELAY_FILE the time and the longest the event loop was held since the line before
 * (monitorEventLoopDelay), so the pages row reads the server's own stalls beside what a client saw.
 */
import { appendFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';

const file = process.env.BENCH_LOOP_DELAY_FILE;
if (isMainThread && file) {
  const delays = monitorEventLoopDelay({ resolution: 5 });
  delays.enable();
  setInterval(() => {
    appendFileSync(file, `${Date.now()} ${(delays.max / 1e6).toFixed(1)}\n`);
    delays.reset();
  }, 50).unref();
}
