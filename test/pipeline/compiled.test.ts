/**
 * `npm run data` (make data, the compose job, the benchmark) runs the pipeline compiled to
 * dist/app by `make build` (a prerequisite of make test): its SQL models, methodology and checker
 * threads beside the JavaScript. It must publish the very files the source does.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { ManifestSchema } from '../../contract/build.ts';
import { runBuild } from '../../pipeline/run.ts';
import { quietProgress, tempDir } from '../support/pipeline-fixtures.ts';

const run = promisify(execFile);
const SAMPLE = path.resolve('data');
const COMPILED = 'dist/app/pipeline/build.js';
const files = (dist: string) => ManifestSchema.parse(JSON.parse(readFileSync(path.join(dist, 'current', 'manifest.json'), 'utf8'))).files;

describe('the compiled pipeline (npm run data)', () => {
  it('runs dist/app/pipeline/build.js and publishes the same files as the source', async () => {
    assert.ok(existsSync(COMPILED), `${COMPILED} is missing: make build compiles it (make test does)`);
    assert.match(JSON.parse(readFileSync('package.json', 'utf8')).scripts.data, /^node .*dist\/app\/pipeline\/build\.js$/);
    const compiledDist = tempDir();
    const { stderr } = await run('npm', ['run', '--silent', 'data', '--', '--data', SAMPLE, '--dist', compiledDist]);
    assert.match(stderr, /\[pipeline\] done: build /);
    assert.match(readlinkSync(path.join(compiledDist, 'current')), /^builds\//);

    const sourceDist = tempDir();
    await runBuild({ dataDir: SAMPLE, distDir: sourceDist, progress: quietProgress });
    const compiled = files(compiledDist);
    assert.ok(Object.keys(compiled).length > 40);
    assert.deepEqual(compiled, files(sourceDist));
  });
});
