import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { runBuild } from '../../pipeline/run.ts';
import {
  baseTables, buildFixture, FIXTURE_EXTRACTED_AT, observation, quietProgress, space, tempDir, writeSnapshot, type FixtureTables,
} from '../support/pipeline-fixtures.ts';

function tables(source: unknown): FixtureTables {
  const t = baseTables();
  t.source = source;
  for (let i = 0; i < 5; i++) {
    t.spaces.push(space(`sp-${i}`));
    t.price_observations.push(observation(`sp-${i}`, 'flex_desk', String(200 + i)));
  }
  return t;
}

const build = (dataDir: string) => runBuild({ dataDir, distDir: tempDir(), progress: quietProgress });

describe('provenance of the input (data/source.json)', () => {
  it('says plainly, in the index, the history, the datapackage and the build, that sample data is sample data', async () => {
    const source = { name: 'Test fixture', description: 'Invented spaces and prices.', sampleData: true, extractedAt: FIXTURE_EXTRACTED_AT };
    const b = await buildFixture(tables(source));
    assert.deepEqual(b.json('source.json'), source);
    assert.deepEqual(b.json('price-index.json').source, source);
    assert.deepEqual(b.json('price-history.json').source, source);
    const pkg = b.json('price-report.datapackage.json');
    assert.equal(pkg.sampleData, true);
    assert.match(pkg.description, /^SAMPLE DATA, NOT REAL PRICES: Invented spaces and prices\. /);
    assert.deepEqual(pkg.sources[1], { title: 'Test fixture', description: 'Invented spaces and prices.' });
    assert.ok('source.json' in b.json('manifest.json').inputChecksums);
  });

  it('describes real data without the sample notice, with the page the prices come from', async () => {
    const source = {
      name: 'Operator feed', description: 'Prices published by operators.', sampleData: false, extractedAt: '2026-10-01T06:00:00+02:00',
      url: 'https://feeds.example/prices',
    };
    const b = await buildFixture(tables(source));
    const pkg = b.json('price-report.datapackage.json');
    assert.equal(pkg.sampleData, false);
    assert.doesNotMatch(pkg.description, /SAMPLE/);
    assert.equal(pkg.sources[1].path, 'https://feeds.example/prices');
    assert.equal(b.json('price-index.json').source.sampleData, false);
  });

  it('fails the build when the snapshot does not say what it is, or when it was extracted', async () => {
    const source = { name: 'x', description: 'y', sampleData: true, extractedAt: FIXTURE_EXTRACTED_AT };
    const dir = writeSnapshot(tables(source));
    rmSync(path.join(dir, 'source.json'));
    await assert.rejects(build(dir), { rule: 'missing_file', message: /source\.json not found/ });
    writeFileSync(path.join(dir, 'source.json'), JSON.stringify({ ...source, sampleData: 'yes' }));
    await assert.rejects(build(dir), { rule: 'bad_source', message: /source\.json: sampleData/ });
    const { extractedAt: _, ...undated } = source;
    writeFileSync(path.join(dir, 'source.json'), JSON.stringify(undated));
    await assert.rejects(build(dir), { rule: 'bad_source', message: /source\.json: extractedAt/ });
    // a time without its offset is not a point in time
    writeFileSync(path.join(dir, 'source.json'), JSON.stringify({ ...source, extractedAt: '2026-11-01T00:00:00' }));
    await assert.rejects(build(dir), { rule: 'bad_source', message: /source\.json: extractedAt/ });
    writeFileSync(path.join(dir, 'source.json'), '{');
    await assert.rejects(build(dir), { rule: 'bad_source', message: /not valid JSON/ });
  });
});
