/**
 * Pipeline benchmark (not a timed test; not run by `make test`):
 *   tsx test/bench/pipeline.ts [--spaces 100000] [--data bench-data/100k] [--dist bench-data/dist]
 * Generates the scale snapshot when it is missing (pipeline/generate), runs the whole build in a
 * child process and prints its wall time and peak RSS. Goal: ≤ 60 s and ≤ 4 GB on 2 cores.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    spaces: { type: 'string', default: '100000' },
    data: { type: 'string' },
    dist: { type: 'string', default: 'bench-data/dist' },
  },
});
const spaces = Number(values.spaces);
const dataDir = values.data ?? `bench-data/${spaces >= 1000 ? `${spaces / 1000}k` : spaces}`;

if (!existsSync(path.join(dataDir, 'spaces.csv'))) {
  const generator = 'pipeline/generate/main.ts';
  if (!existsSync(generator)) {
    process.stderr.write(`bench: ${generator} is not available yet; cannot generate ${dataDir}\n`);
    process.exit(1);
  }
  process.stderr.write(`bench: generating ${spaces} spaces into ${dataDir} …\n`);
  const t0 = performance.now();
  const gen = spawnSync(process.execPath, ['--import', 'tsx', generator, '--spaces', String(spaces), '--out', dataDir], { stdio: 'inherit' });
  if (gen.status !== 0) process.exit(gen.status ?? 1);
  process.stderr.write(`bench: generated in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
}

const useTime = existsSync('/usr/bin/time');
const nodeArgs = ['--import', 'tsx', 'pipeline/build.ts', '--data', dataDir, '--dist', values.dist!, '--allow-shrink', '--keep', '2'];
const [cmd, args] = useTime ? ['/usr/bin/time', ['-v', process.execPath, ...nodeArgs]] : [process.execPath, nodeArgs];

const t0 = performance.now();
const child = spawn(cmd, args, { stdio: ['ignore', 'inherit', 'pipe'] });
let stderr = '';
let partial = '';
child.stderr.setEncoding('utf8');
// the build's progress lines go through; /usr/bin/time's report (tab-indented) is kept for below
child.stderr.on('data', (chunk: string) => {
  stderr += chunk;
  const lines = (partial + chunk).split('\n');
  partial = lines.pop()!;
  for (const line of lines) if (!line.startsWith('\t')) process.stderr.write(`${line}\n`);
});
child.on('close', (code) => {
  const wallSeconds = (performance.now() - t0) / 1000;
  const rssKb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(stderr)?.[1] ?? NaN);
  const rss = Number.isNaN(rssKb) ? 'n/a (no /usr/bin/time)' : `${(rssKb / 1024 / 1024).toFixed(2)} GB`;
  process.stdout.write(
    `\npipeline benchmark: ${spaces} spaces from ${dataDir}\n` +
      `  exit code   ${code}\n  wall time   ${wallSeconds.toFixed(1)} s (goal ≤ 60 s)\n  peak RSS    ${rss} (goal ≤ 4 GB)\n`,
  );
  process.exitCode = code ?? 1;
});
