/**
 * What a build changes against the build `current` points to, for the run summary: rows in and
 * out of every input table, and the cities whose published figures moved (price index medians,
 * market-rate medians).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import type { MarketRatesFileSchema, PriceIndexFileSchema } from '../../contract/build.ts';
import { INPUT_TABLES, type InputTableName } from './inputs.ts';

export interface BuildFigures {
  buildId: string;
  rowCounts: Record<string, number>;
  /** by city slug: published figure name → amount; null when the build's figure files are of a format this reader does not know (a build before a format upgrade) */
  cities: Map<string, Map<string, number>> | null;
}

/** The counts and published city figures of a build directory; null when it has no manifest this reader can read. */
export function readBuildFigures(dir: string): BuildFigures | null {
  const read = (file: string) => JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
  if (!existsSync(path.join(dir, 'manifest.json'))) return null;
  let manifest: { buildId: string; rowCounts?: Record<string, number> };
  try {
    manifest = read('manifest.json');
    if (typeof manifest.buildId !== 'string') return null;
  } catch {
    return null;
  }
  const rowCounts = manifest.rowCounts ?? {};
  try {
    const cities = new Map<string, Map<string, number>>();
    const figuresOf = (slug: string) => cities.get(slug) ?? cities.set(slug, new Map()).get(slug)!;
    for (const c of (read('price-index.json') as z.infer<typeof PriceIndexFileSchema>).cities) {
      const figures = figuresOf(c.city.slug);
      if (c.median) figures.set('index median', c.median.amount);
      for (const t of c.byType ?? []) if (t.median) figures.set(`index ${t.optionType}`, t.median.amount);
    }
    for (const { rates } of (read('market-rates.json') as z.infer<typeof MarketRatesFileSchema>).cities) {
      const figures = figuresOf(rates.city.slug);
      for (const t of rates.byType) figures.set(`rate ${t.optionType}`, t.median.amount);
      if (rates.dayPass) figures.set('rate day pass', rates.dayPass.median.amount);
      if (rates.meetingRoom) figures.set('rate meeting room', rates.meetingRoom.median.amount);
    }
    return { buildId: manifest.buildId, rowCounts, cities };
  } catch {
    return { buildId: manifest.buildId, rowCounts, cities: null };
  }
}

const signed = (n: number) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '±0');

function figureChanges(before: Map<string, number> | undefined, after: Map<string, number> | undefined): string[] {
  const names = new Set([...(before?.keys() ?? []), ...(after?.keys() ?? [])]);
  return [...names].flatMap((name) => {
    const a = before?.get(name);
    const b = after?.get(name);
    if (a === b) return [];
    return [`${name} ${a ?? 'unpublished'} → ${b ?? 'unpublished'}`];
  });
}

/** Summary lines: one per input table (rows read, quarantined, kept), then the cities whose figures moved. */
export function describeChanges(previous: BuildFigures | null, next: BuildFigures): string[] {
  if (!previous) return ['changes: no previous build to compare with'];
  const lines = [`changes against build ${previous.buildId}:`];
  const count = (figures: BuildFigures, key: string) => figures.rowCounts[key];
  for (const table of Object.keys(INPUT_TABLES) as InputTableName[]) {
    const part = (label: string, now: number, before: number | undefined) =>
      `${label} ${now}${before === undefined ? '' : before === now ? ' (same)' : ` (was ${before}, ${signed(now - before)})`}`;
    const inNow = count(next, `input.${table}`);
    const rejectedNow = count(next, `input.${table}.rejected`);
    const inBefore = count(previous, `input.${table}`);
    const rejectedBefore = count(previous, `input.${table}.rejected`);
    lines.push(`  ${INPUT_TABLES[table].file.padEnd(24)} ${[
      part('rows in', inNow, inBefore),
      part('quarantined', rejectedNow, rejectedBefore),
      part('kept', inNow - rejectedNow, inBefore === undefined || rejectedBefore === undefined ? undefined : inBefore - rejectedBefore),
    ].join(', ')}`);
  }
  lines.push(`  ${'listings'.padEnd(24)} ${next.rowCounts.listings} (${previous.rowCounts.listings === undefined ? 'new' : signed(next.rowCounts.listings - previous.rowCounts.listings)})`);
  if (!previous.cities || !next.cities) {
    lines.push(`  published figures: not compared (build ${previous.buildId} keeps them in files of another build format)`);
    return lines;
  }
  const previousCities = previous.cities, nextCities = next.cities;
  const slugs = [...new Set([...previousCities.keys(), ...nextCities.keys()])].sort();
  const moved = slugs.flatMap((slug) => {
    const changes = figureChanges(previousCities.get(slug), nextCities.get(slug));
    if (changes.length === 0) return [];
    const shown = changes.slice(0, 3).join(', ') + (changes.length > 3 ? `, … ${changes.length - 3} more` : '');
    return [`    ${slug}: ${shown}`];
  });
  lines.push(moved.length === 0
    ? `  published figures: no city moved (${nextCities.size} cities)`
    : `  published figures moved in ${moved.length} of ${slugs.length} cities:`, ...moved);
  return lines;
}
