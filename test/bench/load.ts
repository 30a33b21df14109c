/**
 * One autocannon run in which every request takes its path from a generator, called as the
 * request is sent (`setupRequest`): traffic is drawn fresh for each request, not replayed from a
 * pool.
 */
import { createRequire } from 'node:module';

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  /** connection errors, timeouts and non-2xx answers */
  failures: number;
}

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}
interface Request { method: string; path: string }
// autocannon ships no type declarations; this is the part used here.
const autocannon = createRequire(import.meta.url)('autocannon') as (
  opts: {
    url: string; connections: number; duration: number;
    requests: Array<{ method: string; setupRequest: (request: Request) => Request }>;
  },
  done: (err: Error | null, result: AutocannonResult) => void,
) => unknown;

export function load(base: string, next: () => string, connections: number, seconds: number): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    autocannon({
      url: base, connections, duration: seconds,
      requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: next() }) }],
    }, (err, r) => {
      if (err) return reject(err);
      resolve({
        rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, requests: r.requests.total,
        failures: r.errors + r.timeouts + r.non2xx,
      });
    });
  });
}

/** Runs of one server taken in turns with another's, as one: their requests over their time, the median p50, the worst p99. */
export function combined(runs: readonly LoadResult[], seconds: number): LoadResult {
  const requests = runs.reduce((sum, r) => sum + r.requests, 0);
  const p50s = runs.map((r) => r.p50).sort((a, b) => a - b);
  return {
    rps: requests / seconds,
    p50: p50s[p50s.length >> 1],
    p99: Math.max(...runs.map((r) => r.p99)),
    requests,
    failures: runs.reduce((sum, r) => sum + r.failures, 0),
  };
}
