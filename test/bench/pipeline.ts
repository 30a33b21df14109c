/**
 * The benchmark's data: the scale snapshot written by the generator's CLI (kept in
 * bench-data/<size>/data and written again only when the generator's sources changed; not
 * measured), and the pipeline run on it through its CLI into a fresh bench-data/<size>/dist,
 * measured end to end: wall time and peak RSS (/usr/bin/time; the largest of the processes).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './server.ts';

const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');
const TIME = '/usr/bin/time';
const PIPELINE = 'dist/app/pipeline/build.js';

export function sizeLabel(spaces: number): string {
  if (spaces % 1_000_000 === 0) return `${spaces / 1_000_000}m`;
  if (spaces % 1000 === 0) return `${spaces / 1000}k`;
  return String(spaces);
}

export interface Dataset { dir: string; spaces: number; observations: number; generatedSeconds?: number }

interface Stamp { spaces: number; generator: string; observations: number }

function generatorHash(): string {
  const hash = createHash('sha256');
  const dir = join(ROOT, 'pipeline', 'generate');
  for (const file of readdirSync(dir).sort()) hash.update(file).update(readFileSync(join(dir, file)));
  return hash.digest('hex').slice(0, 16);
}

interface Exit { code: number | null; signal: NodeJS.Signals | null; seconds: number; stderr: string }

/** Runs a command with its output passed through (stderr also kept), timed. */
function run(cmd: string, args: string[]): Promise<Exit> {
  const started = performance.now();
  const child = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'pipe'] });
  let stderr = '';
  let partial = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr += chunk;
    if (stderr.length > 1e6) stderr = stderr.slice(-1e5);
    const lines = (partial + chunk).split('\n');
    partial = lines.pop()!;
    // /usr/bin/time's report is tab-indented: kept, not shown
    for (const line of lines) if (!line.startsWith('\t')) process.stderr.write(`${line}\n`);
  });
  return new Promise((resolve) => child.on('close', (code, signal) =>
    resolve({ code, signal, seconds: (performance.now() - started) / 1000, stderr })));
}

export async function ensureDataset(spaces: number): Promise<Dataset> {
  const dir = join(ROOT, 'bench-data', sizeLabel(spaces), 'data');
  const stampFile = `${dir}.stamp.json`;
  const generator = generatorHash();
  const stamp = existsSync(stampFile) ? JSON.parse(readFileSync(stampFile, 'utf8')) as Stamp : undefined;
  if (stamp && stamp.spaces === spaces && stamp.generator === generator && existsSync(join(dir, 'spaces.csv'))) {
    return { dir, spaces, observations: stamp.observations };
  }
  rmSync(dir, { recursive: true, force: true });
  rmSync(stampFile, { force: true });
  mkdirSync(dir, { recursive: true });
  process.stderr.write(`bench: generating ${spaces} spaces into ${dir} (not measured)\n`);
  const gen = await run(TSX, ['pipeline/generate/main.ts', '--spaces', String(spaces), '--out', dir]);
  if (gen.code !== 0) throw new Error(`the generator exited ${gen.code ?? gen.signal}`);
  const observations = Number(/price_observations (\d+)/.exec(gen.stderr)?.[1] ?? NaN);
  writeFileSync(stampFile, JSON.stringify({ spaces, generator, observations } satisfies Stamp));
  return { dir, spaces, observations, generatedSeconds: gen.seconds };
}

export interface PipelineRun {
  ok: boolean;
  /** `exit 0`, `exit 1`, `killed by SIGKILL` */
  exit: string;
  seconds: number;
  /** largest RSS of the pipeline's processes, MB; undefined without /usr/bin/time */
  peakRssMb?: number;
}

/** `npm run data -- --data DIR --dist DIR --allow-shrink` (the pipeline compiled by `make build`, with its heap size, package.json) into a fresh `dist`. */
export async function runPipeline(dataDir: string, dist: string): Promise<PipelineRun> {
  if (!existsSync(join(ROOT, PIPELINE))) throw new Error(`${PIPELINE} is missing: run make build (make bench does)`);
  rmSync(dist, { recursive: true, force: true });
  const args = ['npm', 'run', '--silent', 'data', '--', '--data', dataDir, '--dist', dist, '--allow-shrink'];
  const timed = existsSync(TIME);
  const r = timed ? await run(TIME, ['-v', ...args]) : await run(args[0], args.slice(1));
  // time(1) reports a child killed by a signal as its own exit 128+n, with a line saying so
  const signal = r.signal ?? /Command terminated by signal (\d+)/.exec(r.stderr)?.[1];
  const exit = signal ? `killed by ${signal === '9' ? 'SIGKILL' : signal}` : `exit ${r.code}`;
  const rssKb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr)?.[1] ?? NaN);
  return { ok: r.code === 0 && !signal, exit, seconds: r.seconds, peakRssMb: timed ? Math.round(rssKb / 1024) : undefined };
}
