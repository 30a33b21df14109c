/**
 * The nightly pipeline: `npm run data` / `make data`.
 *   tsx pipeline/build.ts [--data DIR] [--dist DIR] [--allow-shrink] [--keep N]
 * Exit code 0 when a build was published, 1 when it failed (dist/current untouched), 2 on bad arguments.
 */
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { DEFAULT_DIST_DIR } from '../contract/build.ts';
import { runBuild } from './run.ts';
import { BuildError } from './lib/errors.ts';
import { createProgress } from './lib/progress.ts';

const USAGE = 'usage: tsx pipeline/build.ts [--data DIR] [--dist DIR] [--allow-shrink] [--keep N]';

/** Runs the CLI on `args`, writing progress and failures to `stderr`; returns the exit code. */
export async function main(args = process.argv.slice(2), stderr = (text: string) => { process.stderr.write(text); }): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        data: { type: 'string', default: 'data' },
        dist: { type: 'string', default: process.env.DIST_DIR || DEFAULT_DIST_DIR },
        'allow-shrink': { type: 'boolean', default: false },
        keep: { type: 'string', default: '5' },
        help: { type: 'boolean', default: false },
      },
      strict: true,
    }));
  } catch (err) {
    stderr(`${(err as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const keep = Number(values.keep);
  if (!Number.isInteger(keep) || keep < 1) {
    stderr(`--keep must be an integer >= 1\n${USAGE}\n`);
    return 2;
  }
  try {
    await runBuild({
      dataDir: values.data!, distDir: values.dist!, allowShrink: values['allow-shrink'], keep,
      progress: createProgress((line) => stderr(`${line}\n`)),
    });
    return 0;
  } catch (err) {
    const message = err instanceof BuildError ? err.message : (err as Error).stack ?? String(err);
    stderr(`[pipeline] build failed, nothing published: ${message}\n`);
    return 1;
  }
}

// run as a command (not when a test imports main)
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) process.exitCode = await main();
