import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { encodedName, isPrecompressed, PRECOMPRESSED, RELEASE_FILES, RELEASE_ID_PATTERN, RELEASES_DIR, RELEASES_INDEX } from '../../contract/research.ts';
import { runBuild } from '../../pipeline/run.ts';
import { observation, quietProgress, randomTables, tempDir, writeSnapshot, type FixtureTables } from '../support/pipeline-fixtures.ts';

const build = (tables: FixtureTables, distDir: string, night: string) =>
  runBuild({ dataDir: writeSnapshot(tables), distDir, progress: quietProgress, rejectLimit: 1, now: () => new Date(night) });

/** Every file of every release of a dist directory, by `<release>/<file>`. */
function releaseFiles(distDir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const dir = path.join(distDir, RELEASES_DIR);
  for (const release of readdirSync(dir).filter((name) => RELEASE_ID_PATTERN.test(name))) for (const file of readdirSync(path.join(dir, release))) files.set(`${release}/${file}`, readFileSync(path.join(dir, release, file)));
  return files;
}

describe('releases', () => {
  it('are made of the data alone: the same data built elsewhere at another time gives the same release, byte for byte', async () => {
    const t = randomTables(40, 5);
    const [here, there] = [tempDir(), tempDir()];
    const a = await build(t, here, '2026-02-01T01:00:00Z');
    const b = await build(t, there, '2026-03-09T13:30:00Z');
    assert.notEqual(a.buildId, b.buildId);
    assert.equal(a.manifest.releaseId, b.manifest.releaseId);
    const files = releaseFiles(here);
    const encoded = RELEASE_FILES.filter(isPrecompressed).flatMap((f) => PRECOMPRESSED.map(({ encoding }) => encodedName(f, encoding)));
    assert.deepEqual([...files.keys()].sort(), [...RELEASE_FILES, ...encoded, 'datapackage.json'].map((f) => `${a.manifest.releaseId}/${f}`).sort());
    assert.deepEqual(releaseFiles(there), files);
  });

  it('are not written again for the same data: the build publishes and names the release in place', async () => {
    const t = randomTables(40, 6);
    const distDir = tempDir();
    const first = await build(t, distDir, '2026-02-01T01:00:00Z');
    const datapackage = path.join(distDir, RELEASES_DIR, first.manifest.releaseId, 'datapackage.json');
    const written = statSync(datapackage);
    const again = await build(t, distDir, '2026-02-02T01:00:00Z');
    assert.equal(readlinkSync(path.join(distDir, 'current')), path.join('builds', again.buildId), 'the new build is current');
    assert.equal(again.manifest.releaseId, first.manifest.releaseId);
    assert.deepEqual(readdirSync(path.join(distDir, RELEASES_DIR)).sort(), [first.manifest.releaseId, RELEASES_INDEX]);
    const kept = statSync(datapackage);
    assert.equal(kept.ino, written.ino, 'the same file, not a new one');
    assert.equal(kept.mtimeMs, written.mtimeMs);
  });

  it('are new for changed data of the same date', async () => {
    const t = randomTables(40, 7);
    const distDir = tempDir();
    const first = await build(t, distDir, '2026-02-01T01:00:00Z');
    // one more price observed before the latest: the data date stays
    t.price_observations.push(observation(t.spaces[0].space_id, 'flex_desk', '123', 'month', { observed_at: '2025-06-01T09:00:00Z' }));
    const second = await build(t, distDir, '2026-02-02T01:00:00Z');
    assert.notEqual(second.manifest.releaseId, first.manifest.releaseId);
    assert.equal(second.manifest.releaseId.slice(0, 10), first.manifest.releaseId.slice(0, 10));
    const ids = [first.manifest.releaseId, second.manifest.releaseId].sort();
    assert.deepEqual(readdirSync(path.join(distDir, RELEASES_DIR)).sort(), [...ids, RELEASES_INDEX].sort());
    assert.deepEqual(JSON.parse(readFileSync(path.join(distDir, RELEASES_DIR, RELEASES_INDEX), 'utf8')), { releases: ids }, 'the index lists both');
  });

  it('are never overwritten: a release of the same id with other files fails the build, which publishes nothing', async () => {
    const t = randomTables(40, 8);
    const distDir = tempDir();
    const first = await build(t, distDir, '2026-02-01T01:00:00Z');
    const report = path.join(distDir, RELEASES_DIR, first.manifest.releaseId, 'price-report.csv');
    appendFileSync(report, 'XX,extra,row\r\n');
    const tampered = readFileSync(report);
    await assert.rejects(build(t, distDir, '2026-02-02T01:00:00Z'),
      new RegExp(`^BuildError: release_conflict: releases/${first.manifest.releaseId}/price-report\\.csv differs from the build's`));
    assert.ok(readFileSync(report).equals(tampered), 'the release is left as it was');
    assert.equal(readlinkSync(path.join(distDir, 'current')), path.join('builds', first.buildId));
    assert.deepEqual(readdirSync(path.join(distDir, 'builds')), [first.buildId]);
  });

  it('left half-written by a killed build are removed by the next build, even one that writes no release', async () => {
    const t = randomTables(40, 9);
    const distDir = tempDir();
    const first = await build(t, distDir, '2026-02-01T01:00:00Z');
    const releasesDir = path.join(distDir, RELEASES_DIR);
    // a pid above the kernel's limit (2^22) is never alive
    const dead = [`${first.manifest.releaseId}-4194305.tmp`, '20260101T010000000Z-4194305.tmp'];
    const live = `${first.manifest.releaseId}-${process.pid}.tmp`;
    for (const name of [...dead, live]) mkdirSync(path.join(releasesDir, name));
    await build(t, distDir, '2026-02-02T01:00:00Z');
    for (const name of dead) assert.ok(!existsSync(path.join(releasesDir, name)), `${name} removed`);
    assert.ok(existsSync(path.join(releasesDir, live)), 'the temporary directory of a running build is kept');
  });
});
