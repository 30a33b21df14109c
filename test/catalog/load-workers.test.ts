import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { BuildLoadError, loadBuild } from '../../api/loading/load.ts';
import { LoadWorkers } from '../../api/loading/workers.ts';
import { xxh64Hex } from '../../contract/file-digests.ts';
import { removeDir, writeBuildFixture } from '../support/build-fixture.ts';
import { SITE } from '../support/app.ts';

const dirs: string[] = [];
after(async () => { for (const d of dirs) await removeDir(d); });

async function aFile(): Promise<{ path: string; bytes: Buffer }> {
  const dir = await mkdtemp(join(tmpdir(), 'desk-atlas-workers-'));
  dirs.push(dir);
  const bytes = Buffer.from('{"a":1}\n');
  await writeFile(join(dir, 'a.json'), bytes);
  return { path: join(dir, 'a.json'), bytes };
}

// a job that no worker will answer must fail with the reason: a load waiting on it would hang a reload forever
describe('load workers', { timeout: 60_000 }, () => {
  it('read a file and take its xxh64 while they run', async () => {
    const { path, bytes } = await aFile();
    const workers = new LoadWorkers(1);
    try {
      const read = await workers.read(path, true);
      assert.equal(read.xxh64, xxh64Hex(bytes));
      assert.deepEqual(read.bytes, bytes);
    } finally {
      await workers.close();
    }
  });

  it('refuse a job waiting when they are closed, and every job after', async () => {
    const { path } = await aFile();
    const workers = new LoadWorkers(1);
    // given in the same turn as the close: the worker is still starting and never takes it
    const waiting = workers.read(path, false);
    const closing = workers.close();
    await assert.rejects(waiting, /the load workers are closed/);
    await closing;
    await assert.rejects(workers.read(path, false), /the load workers are closed/);
  });

  it('refuse jobs once a worker has stopped', async () => {
    const { path } = await aFile();
    const workers = new LoadWorkers(2);
    const read = workers.read(path, false);
    await read;
    // a worker ended without close(), as a crash would end it (nothing else reaches a thread from outside)
    const threads = (workers as unknown as { workers: { terminate(): Promise<number> }[] }).workers;
    await threads[0].terminate();
    await assert.rejects(workers.read(path, false), /a load worker stopped \(exit code 1\)/);
    await workers.close();
  });

  it('make a build load given stopped workers fail with a build error, not wait', async () => {
    const fixture = await writeBuildFixture();
    dirs.push(fixture.dir);
    const workers = new LoadWorkers(1);
    await workers.close();
    await assert.rejects(loadBuild(fixture.dir, { siteUrl: SITE, workers }), (err: Error) => err instanceof BuildLoadError && /the load workers are closed/.test(err.message));
  });
});
