/**
 * The run summary against the previous build: rows in and out per input table, and the cities
 * whose published figures moved, with the figures before and after.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { runBuild } from '../../pipeline/run.ts';
import { createProgress } from '../../pipeline/lib/progress.ts';
import { quietProgress, tempDir } from '../support/pipeline-fixtures.ts';

const BERLIN = '2950159';

/** The sample with every price of Berlin's spaces doubled and one space of another city removed from spaces.csv. */
function changedSample(): string {
  const dir = tempDir('desk-atlas-summary-');
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync('data').filter((n) => /\.(csv|json)$/.test(n))) writeFileSync(path.join(dir, f), readFileSync(path.join('data', f)));
  const spaces = parse(readFileSync('data/spaces.csv')) as string[][];
  const cityOf = new Map(spaces.slice(1).map((r) => [r[0], r[spaces[0].indexOf('city_id')]]));
  const prices = parse(readFileSync('data/price_observations.csv')) as string[][];
  const amount = prices[0].indexOf('amount');
  for (const row of prices.slice(1)) {
    if (cityOf.get(row[1]) === BERLIN && row[amount] !== '') row[amount] = String(Number(row[amount]) * 2);
  }
  writeFileSync(path.join(dir, 'price_observations.csv'), stringify(prices));
  return dir;
}

it('names the cities whose published figures moved, and the rows in and out of every table', async () => {
  const dist = tempDir();
  const first = await runBuild({ dataDir: 'data', distDir: dist, progress: quietProgress });
  const lines: string[] = [];
  await runBuild({ dataDir: changedSample(), distDir: dist, progress: createProgress((line) => lines.push(line)) });
  const summary = lines.slice(lines.findIndex((l) => l.includes('changes against build')));
  assert.equal(summary[0], `[pipeline] changes against build ${first.buildId}:`);
  for (const file of ['countries', 'cities', 'zones', 'operators', 'spaces', 'space_images', 'price_observations', 'amenities', 'option_types', 'fx_reference']) {
    assert.ok(summary.some((l) => new RegExp(`^\\[pipeline\\] +${file}\\.csv +rows in \\d+ \\(same\\), quarantined \\d+ \\(.*\\), kept \\d+`).test(l)), `${file}: ${summary.join('\n')}`);
  }
  const moved = summary.findIndex((l) => /published figures moved in 1 of \d+ cities:$/.test(l));
  assert.ok(moved > 0, summary.join('\n'));
  const berlin = summary[moved + 1];
  const before = /index median ([\d.]+) → ([\d.]+)/.exec(berlin);
  assert.ok(berlin.startsWith('[pipeline]     berlin: ') && before, berlin);
  assert.equal(Number(before[2]), Number(before[1]) * 2, 'the doubled median, before and after');
  assert.equal(summary.length, moved + 2, 'no other city is listed');
});
