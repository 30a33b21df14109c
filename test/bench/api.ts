/**
 * API benchmark (not a timed test; `npm run bench` runs it through run.ts):
 *   tsx test/bench/api.ts [--dist bench-data/dist] [--duration 10] [--connections 10]
 * Serves a 100k-listing build (the pipeline's bench build in bench-data/dist when present,
 * else a synthetic one written by the test fixture) with the compiled server (dist/app/api/server.js,
 * as make serve runs it) in a child process and
 * drives it with autocannon: first a bare Fastify route returning a precomputed body the size of
 * a list page (the baseline), then each endpoint with a pool of ≥ 1,000 distinct realistic
 * queries (listings, facets, detail, map; then suggest, market rates, rankings, place and operator
 * hubs). Prints req/s as a ratio to the baseline (run again right before each endpoint, as the
 * machine drifts), p50/p99, start-up time and RSS; then the same without the server's caches.
 * Goals: list ≥ 0.40, facets ≥ 0.30, detail ≥ 0.60, suggest ≥ 0.50, p99 ≤ 10 ms at 10
 * connections, start-up ≤ 3 s, RSS ≤ 1.5 GB.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createRequire } from 'node:module';
import Fastify from 'fastify';
import type { LoadedBuild } from '../../api/build/load.ts';
import { LOCALES } from '../../contract/common.ts';
import { marketQueriesByKind } from './market-queries.ts';

interface AcResult { requests: { average: number }; latency: { p50: number; p99: number }; errors: number; non2xx: number }
// autocannon ships no type declarations; this is the part used here.
const autocannon = createRequire(import.meta.url)('autocannon') as (
  opts: {
    url: string; connections: number; duration: number; requests: { method: string; path: string }[];
    setupClient?: (client: { setRequests(r: { method: string; path: string }[]): void }) => void;
  },
  cb: (err: Error | null, result: AcResult) => void,
) => unknown;

const ROOT = resolve(import.meta.dirname, '..', '..');
const { values } = parseArgs({
  options: {
    dist: { type: 'string' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    'baseline-server': { type: 'string' },
    listings: { type: 'string', default: '100000' },
    // a subset of the endpoints, by name (`--only list,facets`)
    only: { type: 'string' },
    // `on`: the server as deployed; `off`: without its query and response caches; `both`
    caches: { type: 'string', default: 'both' },
    // extra node options for the API server child (e.g. `--server-node-options='--cpu-prof --cpu-prof-dir=/tmp/prof'`)
    'server-node-options': { type: 'string' },
  },
});

// Child mode: the baseline server (a bare route with a fixed body of the given size).
if (values['baseline-server']) {
  const size = Number(values['baseline-server']);
  const body = JSON.stringify({ data: 'x'.repeat(Math.max(0, size - 11)) }).slice(0, size);
  const app = Fastify();
  app.get('/baseline', (_req, reply) => { reply.type('application/json; charset=utf-8').send(body); });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  console.log(`listening on http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`);
  await new Promise(() => undefined);
}

const duration = Number(values.duration);
const connections = Number(values.connections);

async function findDist(): Promise<string> {
  const candidates = [values.dist, 'bench-data/dist'].filter(Boolean) as string[];
  for (const c of candidates) {
    if (!existsSync(join(ROOT, c, 'current', 'manifest.json'))) continue;
    // A private `current` pointing at today's build: a pipeline run publishing meanwhile must
    // not trigger a hot reload in the middle of the measurements.
    const own = join(ROOT, 'bench-data', 'api-bench-dist');
    mkdirSync(own, { recursive: true });
    rmSync(join(own, 'current'), { force: true });
    symlinkSync(realpathSync(join(ROOT, c, 'current')), join(own, 'current'));
    return own;
  }
  const dist = join(ROOT, 'bench-data', 'synthetic-dist');
  if (!existsSync(join(dist, 'current', 'manifest.json'))) {
    const { writeBuildFixture, publish } = await import('../support/build-fixture.ts');
    process.stderr.write(`bench: no pipeline build found; writing a synthetic ${values.listings}-listing build to ${dist}\n`);
    const f = await writeBuildFixture(join(dist, 'builds', 'synthetic'), { extra: Number(values.listings) - 26, buildId: 'synthetic', longText: true });
    await publish(dist, f.dir);
  }
  return dist;
}

interface Child { child: ChildProcess; base: string; startupMs: number; started: number }
/** `node <args>`: the API server as `make serve` runs it (compiled), or a TypeScript child with `--import tsx`. */
function startChild(args: string[], env: Record<string, string>): Promise<Child> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolvePromise, reject) => {
    let out = '';
    let listening = false;
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m && !listening) {
        listening = true;
        resolvePromise({ child, base: m[1], startupMs: performance.now() - started, started });
      }
      if (out.length > 1e6) out = out.slice(-1000);
    });
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}`)));
  });
}

function rssMb(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) };
}

/**
 * autocannon walks one request list from its start on every connection, so all connections would
 * send the same URLs in step (and every cache would hit): each connection gets its own rotation.
 */
function run(base: string, paths: string[]): Promise<AcResult> {
  const requests = paths.map((path) => ({ method: 'GET', path }));
  let clients = 0;
  return new Promise((res, rej) => {
    autocannon({
      url: base,
      connections,
      duration,
      requests,
      setupClient: (client) => {
        const from = Math.floor((clients++ * requests.length) / connections);
        client.setRequests([...requests.slice(from), ...requests.slice(0, from)]);
      },
    }, (err, result) => (err ? rej(err) : res(result)));
  });
}

// ---- the query pool, from the build being served --------------------------------------------
interface Geo { countries: { slug: string }[]; cities: { slug: string; center: { lat: number; lng: number }; zones: { slug: string }[] }[] }

function queryPools(dist: string) {
  const dir = join(dist, 'current');
  const geo = JSON.parse(readFileSync(join(dir, 'geo.en.json'), 'utf8')) as Geo;
  const labels = JSON.parse(readFileSync(join(dir, 'facet-labels.json'), 'utf8')) as { operator: Record<string, unknown>; amenities: Record<string, unknown> };
  const slugs: string[] = [];
  for (const slug of (JSON.parse(readFileSync(join(dir, 'listing-columns.json'), 'utf8')) as { slugs: string[] }).slugs) slugs.push(slug);
  let s = 1;
  const rnd = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 4294967296);
  const pick = <T>(a: T[]) => a[Math.floor(rnd() * a.length)];
  const locales = ['en', 'de', 'es'];
  const operators = Object.keys(labels.operator);
  const amenities = Object.keys(labels.amenities);
  const sorts = ['random', 'date-desc', 'price-asc', 'rating-desc', 'date-asc'];
  const types = ['private_office', 'fix_desk', 'flex_desk', 'day_pass', 'meeting_room'];
  const filters = (): string => {
    const city = pick(geo.cities);
    const p = new URLSearchParams({ locale: pick(locales) });
    const r = rnd();
    if (r < 0.55) p.set('city', city.slug);
    else if (r < 0.7 && city.zones.length) p.set('zone', pick(city.zones).slug);
    else if (r < 0.8) p.set('country', pick(geo.countries).slug);
    if (rnd() < 0.2) p.set('operator', pick(operators));
    if (rnd() < 0.25) p.set('pricingOptionType', pick(types));
    if (rnd() < 0.25) p.set('amenities', [pick(amenities), pick(amenities)].join(','));
    if (rnd() < 0.1) p.set('minCapacity', String(5 + Math.floor(rnd() * 50)));
    if (rnd() < 0.1) { p.set('minPrice', '100'); p.set('maxPrice', String(300 + Math.floor(rnd() * 2000))); }
    if (rnd() < 0.12) {
      p.set('lat', (city.center.lat + (rnd() - 0.5) * 0.05).toFixed(4));
      p.set('lng', (city.center.lng + (rnd() - 0.5) * 0.05).toFixed(4));
      p.set('radiusMeters', String(1000 + Math.floor(rnd() * 9000)));
    }
    return p.toString();
  };
  const list = new Set<string>();
  while (list.size < 2000) {
    let q = filters();
    const sort = pick(sorts);
    if (sort === 'random') q += `&seed=${Math.floor(rnd() * 1e6)}`;
    else q += `&sortBy=${sort}`;
    if (q.includes('lat=') && rnd() < 0.5) q = q.replace(/&sortBy=[a-z-]+/, '') + '&sortBy=distance';
    q += `&page=${1 + Math.floor(rnd() * 3)}`;
    list.add(`/v1/properties?${q}`);
  }
  const facets = new Set<string>();
  while (facets.size < 1500) facets.add(`/v1/facets?${filters()}`);
  const detail = new Set<string>();
  while (detail.size < 3000) detail.add(`/v1/properties/${pick(slugs)}?locale=${pick(locales)}`);
  const map = new Set<string>();
  while (map.size < 1000) map.add(`/v1/properties/map?${filters()}&pageSize=${pick(['200', '500', '1000'])}&sortBy=${pick(['date-desc', 'rating-desc'])}`);
  return { list: [...list], facets: [...facets], detail: [...detail], map: [...map], listings: slugs.length, market: marketPools(dir) };
}

/** The market endpoints' URLs (test/bench/market-queries.ts), from the files the server loads. */
function marketPools(dir: string) {
  const read = (file: string): unknown => JSON.parse(readFileSync(join(dir, file), 'utf8'));
  const perLocale = (name: string) => Object.fromEntries(LOCALES.map((l) => [l, read(`${name}.${l}.json`)]));
  const files = {
    suggest: read('suggest.json'),
    marketRates: perLocale('market-rates'),
    rankings: perLocale('rankings'),
    places: perLocale('places'),
    operators: perLocale('operators'),
  };
  return marketQueriesByKind(files as unknown as LoadedBuild);
}

// ---- main --------------------------------------------------------------------------------------
const dist = await findDist();
const pools = queryPools(dist);
process.stderr.write(`bench: ${pools.listings} listings in ${dist}; ${connections} connections, ${duration} s per run\n`);

const serverEnv = (queryCache: boolean): Record<string, string> => ({
  DIST_DIR: dist, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn',
  // bench-only: a limit that cannot trip, so the limiter still runs on every request
  RATE_LIMIT_READS: '1000000000', RELOAD_POLL_MS: '600000', QUERY_CACHE: queryCache ? '1' : '0',
});
const SERVER = 'dist/app/api/server.js';
if (!existsSync(join(ROOT, SERVER))) throw new Error(`${SERVER} is missing: run make build (make bench does)`);
const serverArgs = [...(values['server-node-options']?.split(' ').filter(Boolean) ?? []), SERVER];
const api = await startChild(serverArgs, serverEnv(true));
const startup = { ms: api.startupMs, ...rssMb(api.child.pid!) };
// Listening is not the whole story: the time until one request to every endpoint has answered
// 200 (datasets parsed on first use, sort orders, the first response of each route).
const firstAnswers = await (async () => {
  const city = pools.list[0].match(/city=([a-z0-9-]+)/)?.[1] ?? 'berlin';
  const paths = [pools.list[0], pools.facets[0], pools.detail[0], pools.map[0], `/v1/search/suggest?q=ber&locale=de`,
    `/v1/rankings?city=${city}&locale=en`, '/v1/geo/bootstrap?locale=en', '/v1/market/rates?locale=en'];
  const statuses = await Promise.all(paths.map(async (p) => (await fetch(`${api.base}${p}`)).status));
  return { ms: performance.now() - api.started, statuses };
})();
const sample = await fetch(`${api.base}${pools.list[0]}`);
const pageBytes = (await sample.text()).length;
const baseline = await startChild(['--import', 'tsx', 'test/bench/api.ts', '--baseline-server', String(pageBytes)], {});

/** One endpoint's run, and the baseline's run right before it (the machine drifts between runs). */
type Row = { name: string; rps: number; base: number; p50: number; p99: number; errors: number; goal?: number };
const row = (name: string, r: AcResult, base: number, goal?: number): Row =>
  ({ name, rps: r.requests.average, base, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx, goal });
const only = values.only?.split(',');
// map last: its pages of up to 1,000 markers churn through gigabytes of garbage, which slows
// whatever runs after it on the same server
const endpoints = ([
  ['list', pools.list, 0.4], ['facets', pools.facets, 0.3], ['detail', pools.detail, 0.6],
  ['suggest', pools.market.suggest, 0.5], ['market rates', pools.market.rates], ['rankings', pools.market.rankings],
  ['place hubs', pools.market.places], ['operator hubs', pools.market.operators], ['map', pools.map],
] as [name: string, pool: string[], goal?: number][]).filter(([name]) => !only || only.includes(name));
const baselines: AcResult[] = [];
const measure = async (server: Child): Promise<Row[]> => {
  const rows: Row[] = [];
  for (const [name, pool, goal] of endpoints) {
    const b = await run(baseline.base, ['/baseline']);
    baselines.push(b);
    rows.push(row(name, await run(server.base, pool), b.requests.average, goal));
  }
  return rows;
};
const caches = values.caches;
const cached = caches === 'off' ? [] : await measure(api);
const after = rssMb(api.child.pid!);
api.child.kill('SIGTERM');

// The same runs against a server without its query and response caches: the engine's own speed.
let uncached: Row[] = [];
if (caches !== 'on') {
  const bare = await startChild(serverArgs, serverEnv(false));
  uncached = await measure(bare);
  bare.child.kill('SIGTERM');
}
baseline.child.kill('SIGTERM');

console.log(`\nAPI benchmark: ${pools.listings} listings, ${connections} connections (each its own rotation of the pool), ${duration} s per endpoint, node ${process.version}`);
const m = pools.market;
console.log(`query pools (distinct): list ${pools.list.length}, facets ${pools.facets.length}, detail ${pools.detail.length}, map ${pools.map.length}, suggest ${m.suggest.length}, market rates ${m.rates.length}, rankings ${m.rankings.length}, place hubs ${m.places.length}, operator hubs ${m.operators.length}; baseline body ${pageBytes} bytes`);
const baseRps = baselines.map((b) => b.requests.average);
console.log(`baseline (bare route, run before each endpoint): ${Math.round(Math.min(...baseRps))}-${Math.round(Math.max(...baseRps))} req/s, p99 ≤ ${Math.max(...baselines.map((b) => b.latency.p99))} ms; each ratio is to the baseline run just before it`);
console.log('| endpoint | goal | baseline req/s | req/s | ratio | p50 ms | p99 ms | errors | caches off: baseline req/s | req/s | ratio | p50 ms | p99 ms | errors |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
const cells = (r: Row) => {
  const ratio = r.rps / r.base;
  const mark = r.goal === undefined ? '' : ratio >= r.goal ? ' ✓' : ' ✗';
  return `${Math.round(r.base)} | ${Math.round(r.rps)} | ${ratio.toFixed(2)}${mark} | ${r.p50} | ${r.p99}${r.p99 <= 10 ? '' : ' ✗'} | ${r.errors}`;
};
const none = '– | – | – | – | – | –';
endpoints.forEach(([name, , goal], i) => console.log(
  `| ${name} | ${goal === undefined ? '' : `≥ ${goal}`} | ${cached[i] ? cells(cached[i]) : none} | ${uncached[i] ? cells(uncached[i]) : none} |`));
console.log(`start-up (spawn to listening, build loaded and indexed): ${(startup.ms / 1000).toFixed(2)} s${startup.ms <= 3000 ? '' : ' (goal ≤ 3 s ✗)'}; one request to each of 8 endpoints answered after ${(firstAnswers.ms / 1000).toFixed(2)} s (statuses ${[...new Set(firstAnswers.statuses)].join(', ')})`);
console.log(`RSS at listening: ${startup.rss} MB (peak so far ${startup.peak} MB); after the runs: ${after.rss} MB; peak: ${after.peak} MB${after.peak <= 1536 ? '' : ' (goal ≤ 1.5 GB ✗)'}`);
process.exit(0);
