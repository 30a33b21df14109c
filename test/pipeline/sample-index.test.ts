/**
 * The chained matched-model index of the committed sample (data/), recomputed in TypeScript from its raw
 * rows (less those the build quarantined), against the history the pipeline publishes.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { runBuild } from '../../pipeline/run.ts';
import { independentChain, independentSpacePrices } from '../support/independent-index.ts';
import { quietProgress, type FixtureRow } from '../support/pipeline-fixtures.ts';

const SAMPLE = join(import.meta.dirname, '..', '..', 'data');
const csv = (file: string) => parse(readFileSync(file, 'utf8'), { columns: true }) as FixtureRow[];

describe('the chained index of the committed sample', () => {
  it('equals a recomputation from data/, for every city, product and month', async () => {
    const built = await runBuild({ dataDir: SAMPLE, distDir: mkdtempSync(join(tmpdir(), 'desk-atlas-sample-index-')), progress: quietProgress });
    const read = (file: string) => readFileSync(join(built.buildDir, file), 'utf8');
    const quarantined = new Set(csv(join(built.buildDir, 'rejects.csv'))
      .filter((r) => r.file === 'price_observations.csv').map((r) => Number(r.row)));
    // rows are numbered from 1 after the header, as rejects.csv counts them
    const observations = csv(join(SAMPLE, 'price_observations.csv')).filter((_, k) => !quarantined.has(k + 1));
    const spaces = csv(join(SAMPLE, 'spaces.csv'));
    const cities = csv(join(SAMPLE, 'cities.csv'));
    const history = JSON.parse(read('price-history.json'));
    const monthEnds = history.months.map((m: string) => Date.UTC(Number(m.slice(0, 4)), Number(m.slice(5, 7)), 1));
    const prices = monthEnds.map((end: number) => independentSpacePrices(spaces, observations, end));
    let indexed = 0;
    let matched = 0;
    for (const city of history.cities) {
      const id = cities.find((c) => c.country_code === city.countryCode && c.name_en === city.city.name)!.city_id;
      for (const series of [{ optionType: 'all', points: city.points }, ...city.byType]) {
        const chain = independentChain(prices.map((byKey: Map<string, any>) => byKey.get(`${id}|${series.optionType}`) ?? new Map()));
        series.points.forEach((p: any, m: number) => {
          const what = `${city.city.slug} ${series.optionType} ${p.month}`;
          assert.equal(p.matchedSpaces, chain[m].matched, `${what} matched`);
          assert.equal(p.index === undefined, chain[m].index === undefined, `${what} indexed`);
          if (p.index !== undefined) assert.ok(Math.abs(p.index - chain[m].index!) <= 0.0051, `${what}: ${p.index} vs ${chain[m].index}`);
          if (p.index !== undefined) indexed += 1;
          matched += p.matchedSpaces;
        });
      }
    }
    assert.ok(indexed >= 500 && matched >= 10_000, `a meaningful check: ${indexed} indexed points, ${matched} matched spaces`);
  });
});
