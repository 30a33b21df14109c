/**
 * In-process latency of the suggest index (goal: p99 ≤ 2 ms), part of `make bench`; not a timed
 * test. Uses the 100k bench build's suggest.json when it exists (bench-data/dist/current), else a
 * synthetic index of 20,000 spaces. Prints p50, p99 and max over every query of a realistic pool.
 */
import { existsSync, readFileSync } from 'node:fs';
import { SuggestIndex } from '../../api/catalog/suggest.ts';
import { SuggestFileSchema, type SuggestEntry } from '../../contract/build.ts';
import { LOCALES } from '../../contract/common.ts';

const BENCH_FILE = 'bench-data/dist/current/suggest.json';

function syntheticEntries(): SuggestEntry[] {
  const words = ['Desk', 'Garden', 'Loft', 'Works', 'Hub', 'Atelier', 'Collective', 'Studio', 'Haus', 'Casa', 'Nest', 'Lab', 'Quill', 'Harbor'];
  const L = (s: string) => ({ en: s, de: s, es: s });
  const cities = [['munich', 'Munich', 'München', 'Múnich'], ['barcelona', 'Barcelona', 'Barcelona', 'Barcelona'], ['berlin', 'Berlin', 'Berlin', 'Berlín']];
  const out: SuggestEntry[] = cities.map(([slug, en, de, es], i) => ({
    kind: 'city', slug, label: { en, de, es }, sublabel: null, center: null, propertyCount: 100 - i,
    names: [...new Set([en, de, es])], weight: 100 - i,
  }));
  for (let i = 0; i < 20_000; i++) {
    const name = `${words[i % 14]} ${words[(i * 7) % 14]} ${i}`;
    out.push({ kind: 'property', slug: `space-${i}`, label: L(name), sublabel: null, center: null, propertyCount: null, names: [name], weight: 1 });
  }
  return out;
}

const fromBuild = existsSync(BENCH_FILE);
const entries = fromBuild ? SuggestFileSchema.parse(JSON.parse(readFileSync(BENCH_FILE, 'utf8'))) : syntheticEntries();
const t0 = performance.now();
const index = new SuggestIndex(entries);
const buildMs = performance.now() - t0;

// What people type: prefixes of real names in every locale, and the same with one letter dropped.
const queries: [string, (typeof LOCALES)[number]][] = [];
for (let i = 0; i < entries.length && queries.length < 5000; i += Math.max(1, Math.floor(entries.length / 1200))) {
  const e = entries[i];
  const locale = LOCALES[i % 3];
  const name = e.label[locale];
  for (const len of [1, 2, 4, 6]) if (name.length >= len) queries.push([name.slice(0, len), locale]);
  if (name.length >= 6) queries.push([name.slice(0, 2) + name.slice(3, 7), locale]);
}
for (const q of ['munc', 'muenchen', 'münchen', 'barcelna', 'xyzzy']) queries.push([q, 'en']);

for (const [q, l] of queries.slice(0, 500)) index.search(q, l, 8); // warm up
const times: number[] = [];
for (const [q, l] of queries) {
  const s = performance.now();
  index.search(q, l, 8);
  times.push(performance.now() - s);
}
times.sort((a, b) => a - b);
const pct = (p: number) => times[Math.min(times.length - 1, Math.floor(times.length * p))].toFixed(3);
console.log(`suggest in-process: ${entries.length} entries (${fromBuild ? BENCH_FILE : 'synthetic'}), index built in ${buildMs.toFixed(0)} ms; `
  + `${times.length} queries: p50 ${pct(0.5)} ms, p99 ${pct(0.99)} ms (goal ≤ 2), max ${times[times.length - 1].toFixed(3)} ms`);
