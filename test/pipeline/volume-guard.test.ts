/**
 * Volume guards against the previous build: the committed sample's price file cut at a line
 * boundary (the last 40% of its rows gone) is valid row by row, so only its volume gives it away.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { SHRINK_LIMITS } from '../../pipeline/lib/volume.ts';
import { currentTarget, runCli } from '../support/pipeline-cli.ts';
import { tempDir } from '../support/pipeline-fixtures.ts';

const PRICES = 'price_observations.csv';

/** The sample with the last 40% of the price file's rows cut off at a line boundary. */
function cutSample(): { dir: string; before: number; after: number } {
  const dir = tempDir('desk-atlas-cut-');
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync('data').filter((n) => /\.(csv|json)$/.test(n))) writeFileSync(path.join(dir, f), readFileSync(path.join('data', f)));
  const lines = readFileSync(path.join('data', PRICES), 'utf8').split('\n');
  const before = lines.length - 2;
  const after = Math.round(before * 0.6);
  writeFileSync(path.join(dir, PRICES), `${lines.slice(0, 1 + after).join('\n')}\n`);
  return { dir, before, after };
}

describe('volume guards', () => {
  const dist = tempDir();
  const cut = cutSample();
  let published = '';

  it('publishes the sample as the previous build, its counts in the manifest', async () => {
    const run = await runCli(['--data', 'data', '--dist', dist]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /changes: no previous build to compare with/);
    published = currentTarget(dist);
    const { rowCounts } = JSON.parse(readFileSync(path.join(dist, 'current', 'manifest.json'), 'utf8'));
    assert.equal(rowCounts['input.price_observations'], cut.before);
    assert.ok(rowCounts['input.price_observations.offers'] > 1000 && rowCounts['input.price_observations.offers'] < cut.before);
    assert.equal(typeof rowCounts['input.price_observations.rejected'], 'number');
  });

  it('refuses the cut price file with a clear message: which file, which counts, how far, the limit; current untouched', async () => {
    const run = await runCli(['--data', cut.dir, '--dist', dist]);
    assert.equal(run.code, 1, run.stderr);
    const limit = `${SHRINK_LIMITS.rows * 100}%`;
    assert.match(run.stderr, new RegExp(
      `build failed, nothing published: volume_shrink: price_observations\\.csv: rows fell from ${cut.before} to ${cut.after} \\(−40(\\.0)?%, limit ${limit}\\), ` +
        `distinct offers fell from \\d+ to \\d+ \\(−\\d+(\\.\\d)?%, limit ${limit}\\).* against build ${published}; rerun with --allow-shrink`));
    assert.doesNotMatch(run.stderr, /spaces\.csv|listings_shrink/, 'only the shrunk table is named');
    assert.equal(currentTarget(dist), published);
    assert.deepEqual(readdirSync(path.join(dist, 'builds')), [published]);
  });

  it('publishes it with --allow-shrink, and the summary says what changed', async () => {
    const run = await runCli(['--data', cut.dir, '--dist', dist, '--allow-shrink']);
    assert.equal(run.code, 0, run.stderr);
    assert.notEqual(currentTarget(dist), published);
    assert.match(run.stderr, new RegExp(`changes against build ${published}:`));
    assert.match(run.stderr, new RegExp(`price_observations\\.csv +rows in ${cut.after} \\(was ${cut.before}, −${cut.before - cut.after}\\), quarantined \\d+ \\(was \\d+, −\\d+\\), kept \\d+`));
    assert.match(run.stderr, /spaces\.csv +rows in 1600 \(same\), quarantined 0 \(same\), kept 1600 \(same\)/);
    const moved = /published figures moved in (\d+) of (\d+) cities:/.exec(run.stderr);
    assert.ok(moved, run.stderr);
    assert.ok(Number(moved[1]) > 20, `${moved[1]} cities moved`);
    assert.match(run.stderr, /\[pipeline\] {5}berlin: index median [\d.]+ → [\d.]+/);
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
