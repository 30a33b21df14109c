import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { currentTarget, runCli } from '../support/pipeline-cli.ts';
import { observation, randomTables, tempDir, writeSnapshot } from '../support/pipeline-fixtures.ts';

/** The build current points to is complete: a manifest whose checksums match every file. */
function assertCurrentComplete(dist: string) {
  const dir = path.join(dist, 'current');
  const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
  for (const [file, sha] of Object.entries<string>(manifest.files)) {
    assert.equal(createHash('sha256').update(readFileSync(path.join(dir, file))).digest('hex'), sha, `${file} complete`);
  }
}

describe('pipeline failure paths', () => {
  const dist = tempDir();
  const good = writeSnapshot(randomTables(300));
  let published = '';

  it('publishes a first good build', async () => {
    const run = await runCli(['--data', good, '--dist', dist]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /\[pipeline\] load snapshot .*price_observations=\d+/);
    assert.match(run.stderr, /\[pipeline\] done: build \S+, 300 listings/);
    published = currentTarget(dist);
  });

  it('refuses input with more than 5% of a table quarantined, naming rule, file and row; current untouched', async () => {
    const t = randomTables(300);
    const n = Math.ceil(t.price_observations.length * 0.06);
    for (let i = 0; i < n; i++) t.price_observations.push(observation('sp-00001', 'flex_desk', '-5'));
    const run = await runCli(['--data', writeSnapshot(t), '--dist', dist]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /reject_threshold: price_observations\.csv: \d+ of \d+ rows quarantined .* rule negative_amount .* row \d+/);
    assert.match(run.stderr, /nothing published/);
    assert.equal(currentTarget(dist), published);
    assert.deepEqual(readdirSync(path.join(dist, 'builds')), [published], 'the temporary build is removed');
  });

  it('refuses structural problems: missing file, missing column, duplicate key', async () => {
    const missingFile = writeSnapshot(randomTables(20));
    rmSync(path.join(missingFile, 'zones.csv'));
    const r1 = await runCli(['--data', missingFile, '--dist', dist]);
    assert.equal(r1.code, 1);
    assert.match(r1.stderr, /missing_file: zones\.csv not found/);

    const missingColumn = writeSnapshot(randomTables(20));
    const file = path.join(missingColumn, 'price_observations.csv');
    writeFileSync(file, readFileSync(file, 'utf8').replace('currency,', 'curency,'));
    const r2 = await runCli(['--data', missingColumn, '--dist', dist]);
    assert.equal(r2.code, 1);
    assert.match(r2.stderr, /missing_column: price_observations\.csv: column "currency" missing/);

    const t = randomTables(20);
    t.spaces.push({ ...t.spaces[3] });
    const r3 = await runCli(['--data', writeSnapshot(t), '--dist', dist]);
    assert.equal(r3.code, 1);
    assert.match(r3.stderr, /duplicate_key: spaces\.csv: row 21 repeats space_id "sp-00004" of row 4/);
    assert.equal(currentTarget(dist), published);
  });

  it('refuses a build that halves the listings unless --allow-shrink', async () => {
    const small = writeSnapshot(randomTables(120));
    const refused = await runCli(['--data', small, '--dist', dist]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /listings_shrink: .*from 300 to 120/);
    assert.equal(currentTarget(dist), published);
    const allowed = await runCli(['--data', small, '--dist', dist, '--allow-shrink']);
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.notEqual(currentTarget(dist), published);
    published = currentTarget(dist);
  });

  it('never leaves current pointing at a partial build when the process is killed half-way', async () => {
    const big = writeSnapshot(randomTables(4000, 11));
    let killed = 0;
    for (const stage of ['load snapshot', 'run sql models', 'read marts', 'write shared files', 'write locale en', 'write locale es']) {
      const before = currentTarget(dist);
      const run = await runCli(['--data', big, '--dist', dist, '--allow-shrink'], `[pipeline] ${stage}`);
      const target = currentTarget(dist);
      if (run.signal === 'SIGKILL') {
        killed += 1;
        assert.equal(target, before, `killed after "${stage}": current unchanged`);
      }
      assertCurrentComplete(dist);
      assert.ok(!existsSync(path.join(dist, 'builds', `${target}.tmp`)));
    }
    assert.ok(killed >= 4, `${killed} runs killed mid-build`);
    const leftovers = readdirSync(path.join(dist, 'builds')).filter((n) => n.endsWith('.tmp'));
    assert.ok(leftovers.length >= 1, 'the killed builds left temporary directories');
    const next = await runCli(['--data', big, '--dist', dist, '--allow-shrink']);
    assert.equal(next.code, 0, next.stderr);
    assertCurrentComplete(dist);
    assert.deepEqual(readdirSync(path.join(dist, 'builds')).filter((n) => n.endsWith('.tmp')), [], 'the next build cleans them up');
  });
});
