/**
 * `make bench` (100,000 spaces) and `make bench-1m` (1,000,000): the issue's table, measured
 * through the CLIs and HTTP only.
 *
 *   tsx test/bench/run.ts [--spaces 100000] [--duration 10] [--connections 10] [--caches off,on]
 *     [--rows list,list-filtered,list-sorted,facets,detail,suggest,pages] [--reuse-build]
 *     [--detail-slugs 100000] [--server-node-options='--max-old-space-size=8192'] [--pipeline-only]
 *
 * 1. The scale snapshot: `tsx pipeline/generate/main.ts --spaces N --out bench-data/<size>/data`
 *    (kept while the generator's sources are unchanged; not measured).
 * 2. The pipeline, measured: `npm run data -- --data … --dist bench-data/<size>/dist
 *    --allow-shrink` (compiled, `make build`) into a fresh dist (`--reuse-build` skips it when a build is there;
 *    `--pipeline-only` stops after it).
 * 3. For each cache setting, the bundled server (`node dist/server/server.js`, `make build`)
 *    on that dist: start-up (spawn → first 200 from /v1/health and the catalogue; the median of
 *    three starts, the last of which serves the rows), the pages row on that fresh server
 *    (pages.ts: every page type once per locale, the worst concurrent /v1/health), a warm-up,
 *    then each row: the bare route and the API in turns (SLICES each, in the order ABBA…), with
 *    the same freshly drawn traffic (traffic.ts); peak RSS (VmHWM) at the end.
 * Prints the markdown table; exits 1 when something could not be measured or a request failed.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { combined, load, type LoadResult } from './load.ts';
import { ensureDataset, runPipeline, sizeLabel, type PipelineRun } from './pipeline.ts';
import { ROOT, startApi, startBaseline, type Process } from './server.ts';
import { measurePages } from './pages.ts';
import { render, type ModeResult, type RowResult } from './table.ts';
import { prng } from '../support/build-fixture.ts';
import { discover, ROWS, traffic, type Catalogue, type Row } from './traffic.ts';

const { values } = parseArgs({
  options: {
    spaces: { type: 'string', default: '100000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    caches: { type: 'string', default: 'off,on' },
    rows: { type: 'string', default: [...ROWS, 'pages'].join(',') },
    'reuse-build': { type: 'boolean', default: false },
    'pipeline-only': { type: 'boolean', default: false },
    'detail-slugs': { type: 'string', default: '100000' },
    'server-node-options': { type: 'string', default: '' },
  },
  strict: true,
});

function positive(name: string, value: string): number {
  const x = Number(value);
  if (!Number.isInteger(x) || x < 1) throw new Error(`--${name} must be a positive integer, got "${value}"`);
  return x;
}
const spaces = positive('spaces', values.spaces);
const seconds = positive('duration', values.duration);
const connections = positive('connections', values.connections);
const detailSlugs = positive('detail-slugs', values['detail-slugs']);
const PAGES_ROW = 'pages';
const asked = values.rows.split(',').map((r) => r.trim());
for (const r of asked) if (r !== PAGES_ROW && !ROWS.includes(r as Row)) throw new Error(`--rows: unknown row "${r}" (rows: ${[...ROWS, PAGES_ROW].join(', ')})`);
const rows = asked.filter((r) => r !== PAGES_ROW) as Row[];
const pagesRow = asked.includes(PAGES_ROW);
const caches = values.caches.split(',').map((c) => c.trim());
for (const c of caches) if (c !== 'on' && c !== 'off') throw new Error(`--caches: "${c}" is neither on nor off`);
const nodeOptions = values['server-node-options'].split(' ').filter(Boolean);
const say = (line: string): void => { process.stderr.write(`bench: ${line}\n`); };
const context = `node ${process.version}, ${cpus().length} CPUs, load average ${loadavg()[0].toFixed(1)} at the start`;

const data = await ensureDataset(spaces);
if (data.generatedSeconds !== undefined) say(`generated in ${data.generatedSeconds.toFixed(1)} s`);
const dist = join(ROOT, 'bench-data', sizeLabel(spaces), 'dist');
const loopDelayFile = join(ROOT, 'bench-data', sizeLabel(spaces), 'server-loop-delays.txt');
let pipeline: PipelineRun | undefined;
if (values['reuse-build'] && existsSync(join(dist, 'current'))) {
  say(`reusing the build in ${dist}`);
} else {
  say(`pipeline: ${data.dir} → ${dist}`);
  pipeline = await runPipeline(data.dir, dist);
  say(`pipeline: ${pipeline.exit} after ${pipeline.seconds.toFixed(1)} s, peak RSS ${pipeline.peakRssMb ?? 'n/a'} MB`);
}

/**
 * Starts of the server per cache setting, the table giving their median: the first start after
 * the pipeline can read part of the build from disk rather than the page cache (on this VM, which
 * keeps ~2 GB of file pages, right after the pipeline wrote 1.2 GB).
 */
const STARTS = 3;
/**
 * A row's seconds are cut into this many turns of each server, taken in the order bare, API, API,
 * bare, …: the host's speed changes within minutes (other tenants), and turns let such a change
 * reach both sides of a ratio alike rather than one of them.
 */
const SLICES = 5;
const slices = Math.min(SLICES, seconds);
const modes: ModeResult[] = [];
let catalogue: Catalogue | undefined;
let baseline: Process | undefined;
let failed = pipeline !== undefined && !pipeline.ok;

/** A few requests of each row before measuring: every path must answer 200. */
async function checkTraffic(base: string, cat: Catalogue): Promise<void> {
  for (const row of rows) {
    const t = traffic(row, cat, 1);
    let empty = 0;
    const statuses = new Map<number, number>();
    for (let i = 0; i < 60; i++) {
      const path = t.next();
      const res = await fetch(`${base}${path}`);
      const body = await res.json() as { data?: unknown };
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (Array.isArray(body.data) && body.data.length === 0) empty++;
      if (res.status !== 200) say(`  ${res.status} for ${path}: ${JSON.stringify(body).slice(0, 300)}`);
    }
    say(`traffic check, ${row}: ${[...statuses].map(([s, k]) => `${k} × ${s}`).join(', ')}; ${empty} empty lists`);
  }
}

if (!failed && !values['pipeline-only']) {
  for (const setting of caches) {
    const queryCache = setting === 'on';
    const mode: ModeResult = { queryCache, rows: [] };
    modes.push(mode);
    let api: Process | undefined;
    mode.startupsMs = [];
    try {
      // the last start serves the rows
      for (let k = 0; k < STARTS; k++) {
        await api?.stop();
        writeFileSync(loopDelayFile, '');
        api = await startApi({ dist, queryCache, nodeOptions, timeoutMs: 600_000, loopDelayFile });
        mode.startupsMs.push(api.startupMs);
        say(`caches ${setting}: start ${k + 1} of ${STARTS} serving after ${(api.startupMs / 1000).toFixed(2)} s, peak RSS ${api.peakRssMb()} MB`);
      }
    } catch (err) {
      mode.failure = (err as Error).message;
      say(`caches ${setting}: ${mode.failure}`);
      failed = true;
      continue;
    }
    if (!api) continue;
    if (!catalogue) {
      catalogue = await discover(api.base, detailSlugs);
      say(`discovered ${catalogue.countries.length} countries, ${catalogue.cities.length} cities, ${catalogue.operators.length} operators, `
        + `${catalogue.slugs.length} space slugs, ${catalogue.names.length} names to type`);
      await checkTraffic(api.base, catalogue);
      const page = await fetch(`${api.base}/v1/properties?locale=en`);
      const bodyFile = join(ROOT, 'bench-data', sizeLabel(spaces), 'list-page.json');
      writeFileSync(bodyFile, Buffer.from(await page.arrayBuffer()));
      baseline = await startBaseline(bodyFile);
      await load(baseline.base, () => '/v1/properties?locale=en', connections, Math.min(2, seconds));
    }
    if (pagesRow) {
      mode.pages = await measurePages(api.base, catalogue, loopDelayFile);
      const largest = mode.pages.pages.reduce((a, b) => (b.bytes > a.bytes ? b : a));
      const slowest = mode.pages.pages.reduce((a, b) => (b.ms > a.ms ? b : a));
      say(`caches ${setting}, pages: worst /v1/health ${mode.pages.worstHealthMs.toFixed(1)} ms (sent during ${mode.pages.worstHealthDuring}), server's event loop held at most ${mode.pages.serverLoopMaxMs.toFixed(1)} ms, over ${mode.pages.healthRequests} requests; `
        + `largest ${largest.path} ${(largest.bytes / 1e6).toFixed(2)} MB; slowest ${slowest.path} ${slowest.ms.toFixed(0)} ms`);
      for (const p of mode.pages.pages) if (p.status >= 500) failed = true;
    }
    // warm-up: a mix of every row, not measured
    const mix = rows.map((row, i) => traffic(row, catalogue!, 1000 + i));
    const random = prng(99);
    if (mix.length) await load(api.base, () => mix[Math.floor(random() * mix.length)].next(), connections, Math.min(5, seconds));
    for (const [i, row] of rows.entries()) {
      const seed = 1 + i;
      const t = traffic(row, catalogue, seed);
      const sides = [
        { server: baseline!, next: traffic(row, catalogue, seed).next, runs: [] as LoadResult[], cpuMs: 0 },
        { server: api, next: t.next, runs: [] as LoadResult[], cpuMs: 0 },
      ];
      for (let k = 0; k < slices; k++) {
        for (const side of k % 2 === 0 ? sides : [...sides].reverse()) {
          const cpu = side.server.cpuMs();
          side.runs.push(await load(side.server.base, side.next, connections, seconds / slices));
          side.cpuMs += side.server.cpuMs() - cpu;
        }
      }
      const [base, measured] = sides.map((side) => combined(side.runs, seconds));
      const cpuUs = {
        baseline: (sides[0].cpuMs * 1000) / base.requests,
        api: (sides[1].cpuMs * 1000) / measured.requests,
      };
      const result: RowResult = { row, baseline: base, api: measured, cpuUs, distinct: t.distinct(), sent: t.sent() };
      mode.rows.push(result);
      if (measured.failures > 0) failed = true;
      say(`caches ${setting}, ${row}: ${Math.round(measured.rps)} req/s against ${Math.round(base.rps)} (${(measured.rps / base.rps).toFixed(3)}), `
        + `p50 ${measured.p50} ms, p99 ${measured.p99} ms, ${measured.failures} failed, ${t.distinct()} distinct of ${t.sent()}`);
    }
    mode.peakRssMb = api.peakRssMb();
    await api.stop();
  }
  await baseline?.stop();
}

process.stdout.write(`\n${render({
  spaces, observations: data.observations, listings: catalogue?.listings, pipeline, modes, connections, seconds, slices, context,
}, rows)}\n`);
if (pipeline && !pipeline.ok) {
  say(`the pipeline failed (${pipeline.exit}) at ${spaces} spaces, peak RSS ${pipeline.peakRssMb ?? 'n/a'} MB: `
    + 'this size does not build on this machine; nothing was served');
}
process.exit(failed ? 1 : 0);
