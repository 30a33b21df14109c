/**
 * `npm run bench` / `make bench`: the pipeline benchmark (test/bench/pipeline.ts, which also
 * builds the 100k-listing bench build in bench-data/dist) when present, then the API benchmark
 * on that build, the suggest index in-process, then the enquiries benchmark (test/bench/leads.ts).
 * Not a timed test.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..', '..');
const args = process.argv.slice(2);
let failed = false;
for (const bench of ['test/bench/pipeline.ts', 'test/bench/api.ts', 'test/bench/suggest.ts', 'test/bench/leads.ts']) {
  if (!existsSync(resolve(ROOT, bench))) continue;
  process.stderr.write(`\n== ${bench}\n`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', bench, ...(bench.endsWith('api.ts') ? args : [])], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) {
    failed = true;
    process.stderr.write(`${bench} exited ${r.status}\n`);
  }
}
process.exit(failed ? 1 : 0);
