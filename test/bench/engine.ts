/**
 * In-process benchmark of the query engine (not a timed test):
 *   tsx test/bench/engine.ts --dist DIR [--queries 3000] [--seed 1] [--only facets]
 * Loads a build with loadBuild (caches off) and measures, per query, the CPU time (µs, so a busy
 * machine does not count) a request costs the engine: match + page + card JSON for lists, facets
 * (the payload's JSON bytes) for facets, lookup + the items' JSON for suggest. Every query is drawn fresh (filters, seeds,
 * pages, what a person has typed), as users send them. Uses only the engine's and the suggest
 * index's public methods.
 */
import { parseArgs } from 'node:util';
import { loadBuild } from '../../api/loading/load.ts';
import type { Engine, Filters } from '../../api/catalog/engine.ts';
import { BytesOut } from '../../api/catalog/facet-payload.ts';
import { JsonBytes } from '../../api/catalog/json-bytes.ts';
import { LOCALES, type Locale } from '../../contract/common.ts';
import type { SortBy } from '../../contract/queries.ts';
import { prng } from '../support/build-fixture.ts';
import { facetsPayload } from '../support/facets.ts';

const { values } = parseArgs({
  options: {
    dist: { type: 'string', default: 'bench-data/dist/current' },
    queries: { type: 'string', default: '3000' },
    seed: { type: 'string', default: '1' },
    // only the scenarios whose name contains this text
    only: { type: 'string', default: '' },
  },
});

const started = performance.now();
const build = await loadBuild(values.dist!, { siteUrl: 'https://deskatlas.test' });
const engine: Engine = build.engine;
console.log(`loaded ${engine.n} listings in ${Math.round(performance.now() - started)} ms`);

const rnd = prng(Number(values.seed));
const pick = <T>(a: readonly T[]): T => a[Math.floor(rnd() * a.length)];
const all = facetsPayload(engine, {}, 'en').payload;
const facetValues = Object.fromEntries(all.facets.map((f) => [f.key, f.values.map((v) => v.value)]));

/** The filters of a random listing's card (city, zone, operator as apps pick them), plus random others. */
function randomFilters(): Filters {
  const card = JSON.parse(engine.cardJson(Math.floor(rnd() * engine.n), 'en', {})) as {
    city?: { slug: string }; zone?: { slug: string }; operator?: { slug: string }; coordinates?: { lat: number; lng: number };
  };
  const f: Filters = {};
  const r = rnd();
  if (r < 0.15) f.country = pick(facetValues.country);
  else if (r < 0.55 && card.city) f.city = card.city.slug;
  else if (r < 0.7 && card.zone) f.zone = card.zone.slug;
  if (rnd() < 0.15 && card.operator) f.operator = card.operator.slug;
  if (rnd() < 0.3) f.pricingOptionType = pick(facetValues.pricingOptionType) as Filters['pricingOptionType'];
  if (rnd() < 0.4) f.amenities = [...new Set([pick(facetValues.amenities), ...(rnd() < 0.4 ? [pick(facetValues.amenities)] : [])])];
  if (rnd() < 0.15) f.currency = pick(['EUR', 'GBP', 'USD', 'CHF'] as const);
  if (rnd() < 0.15) f.minCapacity = pick([5, 10, 50, 150]);
  if (rnd() < 0.15) { f.minPrice = pick([0, 100, 300]); f.maxPrice = pick([500, 1000, 3000]); }
  if (rnd() < 0.1 && card.coordinates) Object.assign(f, { lat: card.coordinates.lat, lng: card.coordinates.lng, radiusMeters: pick([1000, 5000, 20000]) });
  else if (rnd() < 0.08 && card.coordinates) {
    const { lat, lng } = card.coordinates;
    f.bbox = { west: Math.max(-180, lng - 0.2), south: Math.max(-90, lat - 0.1), east: Math.min(180, lng + 0.2), north: Math.min(90, lat + 0.1) };
  }
  return f;
}

function listPage(f: Filters, sort: SortBy, seed: number, page: number, pageSize: number): number {
  const set = engine.match(f);
  const { indices } = engine.page(set, f, sort, seed, (page - 1) * pageSize, pageSize);
  let bytes = 0;
  for (const i of indices) bytes += engine.cardJson(i, 'en', f).length;
  return bytes;
}

/** The facets as the route writes them: the payload's bytes. */
const facetsBody = (f: Filters, locale: Locale) => engine.facets(f, locale, new BytesOut(new JsonBytes(48 * 1024)));

/** Names people type, as the benchmark's traffic draws them: places in every locale and space titles. */
const placeNames = LOCALES.flatMap((locale) => build.geo[locale].countries.map((c) => ({ text: c.name, locale }))
  .concat(build.geo[locale].cities.flatMap((c) => [c.name, ...c.zones.map((z) => z.name)].map((text) => ({ text, locale })))));

/** What a person has typed so far (test/bench/traffic.ts): 1–12 characters, sometimes two words, from 5 on a typo in a quarter. */
function suggestQuery(): { q: string; locale: Locale; limit: number } {
  const name = rnd() < 0.5 ? pick(placeNames) : { text: engine.title(Math.floor(rnd() * engine.n), 'en'), locale: pick(LOCALES) };
  const length = Math.min(name.text.length, 1 + Math.floor(rnd() * rnd() * 12));
  let q = name.text.slice(0, Math.max(1, length));
  if (q.length >= 5 && rnd() < 0.25) {
    const i = 1 + Math.floor(rnd() * (q.length - 2));
    q = rnd() < 0.5 ? q.slice(0, i) + q.slice(i + 1) : q.slice(0, i) + q[i + 1] + q[i] + q.slice(i + 2);
  }
  return { q: q.trim() || q, locale: name.locale, limit: rnd() < 0.2 ? 5 + Math.floor(rnd() * 6) : 8 };
}

const SORTED: SortBy[] = ['date-desc', 'date-asc', 'rating-desc', 'price-asc'];
const seed = () => Math.floor(rnd() * 2 ** 31);
/** Each scenario draws a query (untimed) and returns what answering it costs (timed). */
const scenarios: Record<string, () => () => unknown> = {
  'list, no filter, random (no seed)': () => { const s = seed(); return () => listPage({}, 'random', s, 1, 20); },
  'list, no filter, random, pages 1-500 × 50': () => { const s = seed(), p = 1 + Math.floor(rnd() * 500); return () => listPage({}, 'random', s, p, 50); },
  'list, random filter mixes, random order': () => { const f = randomFilters(), s = seed(); return () => listPage(f, 'random', s, 1, 20); },
  'list, random filter mixes, sorted, pages 1-5': () => { const f = randomFilters(), s = pick(SORTED), p = 1 + Math.floor(rnd() * 5); return () => listPage(f, s, 0, p, 20); },
  'facets, random filter mixes': () => { const f = randomFilters(), l = pick(LOCALES); return () => facetsBody(f, l); },
  'facets, no filter': () => { const l = pick(LOCALES); return () => facetsBody({}, l); },
  'suggest (prefixes of names, typos)': () => {
    const { q, locale, limit } = suggestQuery();
    return () => {
      const w = new JsonBytes();
      build.suggestIndex.writeItems(w, build.suggestIndex.search(q, limit).ranks, locale);
      return w.finish();
    };
  },
};

const count = Number(values.queries);
const rows: string[] = [];
for (const [name, draw] of Object.entries(scenarios)) {
  if (!name.includes(values.only!)) continue;
  for (let k = 0; k < 50; k++) draw()(); // warm-up
  const times = new Float64Array(count);
  for (let k = 0; k < count; k++) {
    const run = draw();
    const t = process.cpuUsage();
    run();
    const used = process.cpuUsage(t);
    times[k] = used.user + used.system;
  }
  times.sort();
  const at = (q: number) => times[Math.min(count - 1, Math.floor(q * count))];
  const mean = times.reduce((a, b) => a + b, 0) / count;
  rows.push(`| ${name} | ${Math.round(at(0.5))} | ${Math.round(at(0.99))} | ${Math.round(times[count - 1])} | ${Math.round(mean)} |`);
}
console.log(`\n${count} queries each, µs of CPU time per query (match + page + cards, facets, or suggest lookup + items)\n`);
console.log('| query | p50 | p99 | max | mean |\n|---|---:|---:|---:|---:|');
for (const r of rows) console.log(r);
await build.close();
