/**
 * Volume guards against the previous build: a price file cut at a line boundary (the last 40% of
 * its rows gone) is valid row by row, so only its volume gives it away.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { main } from '../../pipeline/build.ts';
import { SHRINK_LIMITS } from '../../pipeline/lib/volume.ts';
import { currentTarget } from '../support/pipeline-cli.ts';
import { randomTables, tempDir, writeSnapshot } from '../support/pipeline-fixtures.ts';

const PRICES = 'price_observations.csv';

/** The pipeline's command line, in this process: exit code and everything it wrote to stderr. */
async function pipeline(args: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const code = await main(args, (text) => { stderr += text; });
  return { code, stderr };
}

describe('volume guards', () => {
  const dist = tempDir();
  const full = writeSnapshot(randomTables(300));
  const cut = writeSnapshot(randomTables(300));
  const lines = readFileSync(path.join(full, PRICES), 'utf8').split('\n');
  const before = lines.length - 2;
  const after = Math.round(before * 0.6);
  writeFileSync(path.join(cut, PRICES), `${lines.slice(0, 1 + after).join('\n')}\n`);
  let published = '';

  it('publishes a first build, its input counts in the manifest', async () => {
    const run = await pipeline(['--data', full, '--dist', dist]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /changes: no previous build to compare with/);
    published = currentTarget(dist);
    const { rowCounts } = JSON.parse(readFileSync(path.join(dist, 'current', 'manifest.json'), 'utf8'));
    assert.equal(rowCounts['input.price_observations'], before);
    assert.ok(rowCounts['input.price_observations.offers'] > 300 && rowCounts['input.price_observations.offers'] < before);
    assert.equal(rowCounts['input.price_observations.rejected'], 0);
    assert.equal(rowCounts['input.spaces'], 300);
  });

  it('refuses the cut price file with a clear message: which file, which counts, how far, the limit; current untouched', async () => {
    const run = await pipeline(['--data', cut, '--dist', dist]);
    assert.equal(run.code, 1, run.stderr);
    const limit = `${SHRINK_LIMITS.rows * 100}%`;
    assert.match(run.stderr, new RegExp(
      `build failed, nothing published: volume_shrink: price_observations\\.csv: rows fell from ${before} to ${after} \\(−40(\\.0)?%, limit ${limit}\\), ` +
        `distinct offers fell from \\d+ to \\d+ \\(−\\d+(\\.\\d)?%, limit ${limit}\\).* against build ${published}; rerun with --allow-shrink`));
    assert.doesNotMatch(run.stderr, /spaces\.csv|listings_shrink/, 'only the shrunk table is named');
    assert.equal(currentTarget(dist), published);
    assert.deepEqual(readdirSync(path.join(dist, 'builds')), [published]);
  });

  it('publishes it with --allow-shrink, and the summary says what changed', async () => {
    const run = await pipeline(['--data', cut, '--dist', dist, '--allow-shrink']);
    assert.equal(run.code, 0, run.stderr);
    assert.notEqual(currentTarget(dist), published);
    assert.match(run.stderr, new RegExp(`changes against build ${published}:`));
    assert.match(run.stderr, new RegExp(`price_observations\\.csv +rows in ${after} \\(was ${before}, −${before - after}\\), quarantined 0 \\(same\\), kept ${after} \\(was ${before}, −${before - after}\\)`));
    assert.match(run.stderr, /spaces\.csv +rows in 300 \(same\), quarantined 0 \(same\), kept 300 \(same\)/);
    assert.match(run.stderr, /published figures moved in [1-4] of 4 cities:\n(\[pipeline\] {5}[a-z-]+: (index|rate) [^\n]* → [^\n]*\n)+/);
  });

  it('make data passes ALLOW_SHRINK=1 and ARGS on, and make help lists DATA, DIST and ALLOW_SHRINK', () => {
    const make = (...args: string[]) => execFileSync('make', ['-s', ...args], { encoding: 'utf8' });
    assert.match(make('-n', 'data', 'ALLOW_SHRINK=1', 'DATA=in', 'DIST=out'), /--data in --dist out --allow-shrink/);
    assert.match(make('-n', 'data', 'ARGS=--allow-shrink'), /--data data --dist \S+ +--allow-shrink/);
    assert.doesNotMatch(make('-n', 'data', 'ALLOW_SHRINK=0'), /--allow-shrink/);
    const help = make('help');
    assert.match(help, /make data: .*DATA.*DIST.*ALLOW_SHRINK=1/);
  });
});
