/**
 * The processes under measurement: the bundled API server (`node --no-concurrent-recompilation
 * dist/server/server.js`, exactly as `make serve` runs it: test/support/server-process.ts) and the bare Fastify route the ratios are taken against
 * (baseline-server.ts). Both are driven only through their environment and HTTP.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../support/ports.ts';
import { ROOT, SERVER, SERVER_ARGS } from '../support/server-process.ts';

export { ROOT };

export interface Process {
  child: ChildProcess;
  base: string;
  /** spawn → first 200 from /v1/health and the catalogue (ms) */
  startupMs: number;
  /** peak RSS so far, MB (VmHWM) */
  peakRssMb(): number;
  /** CPU time used so far, every thread (user and system), ms */
  cpuMs(): number;
  stop(): Promise<void>;
}

/** clock ticks per second of /proc's CPU times */
const TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100; // Linux's USER_HZ
  }
})();

/** utime + stime of /proc/<pid>/stat (fields 14 and 15; the command name before them may hold spaces), ms */
function cpuMsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS;
  } catch {
    return Number.NaN; // the process is gone
  }
}

function statusKb(pid: number, key: 'VmHWM' | 'VmRSS'): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  } catch {
    return 0; // the process is gone
  }
}

async function ok(url: string): Promise<boolean> {
  try {
    const res = await fetch(url);
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  }
}

/**
 * Spawns `node <args>` and waits until every `ready` path answers 200. A child that exits
 * first, or does not answer within `timeoutMs`, fails with its exit status and peak RSS.
 */
async function start(args: string[], env: Record<string, string>, ready: string[], timeoutMs: number): Promise<Process> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: ROOT, env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' }, stdio: ['ignore', 'ignore', 'inherit'],
  });
  let peakKb = 0;
  const exited = new Promise<string>((resolve) => child.once('exit', (code, signal) => resolve(signal ? `killed by ${signal}` : `exit ${code}`)));
  let exit: string | undefined;
  void exited.then((e) => { exit = e; });
  for (;;) {
    peakKb = Math.max(peakKb, statusKb(child.pid!, 'VmHWM'));
    if (exit !== undefined) {
      throw new Error(`${args.join(' ')}: ${exit} before serving${exit === 'killed by SIGKILL' ? ' (out of memory?)' : ''}; peak RSS ${Math.round(peakKb / 1024)} MB`);
    }
    if (performance.now() - started > timeoutMs) {
      child.kill('SIGKILL');
      throw new Error(`${args.join(' ')}: not serving after ${timeoutMs / 1000} s; peak RSS ${Math.round(peakKb / 1024)} MB`);
    }
    let serving = true;
    for (const path of ready) if (serving) serving = await ok(`${base}${path}`);
    if (serving) break;
    await sleep(10);
  }
  const startupMs = performance.now() - started;
  return {
    child, base, startupMs,
    peakRssMb: () => Math.round(Math.max(peakKb, statusKb(child.pid!, 'VmHWM')) / 1024),
    cpuMs: () => cpuMsOf(child.pid!),
    stop: async () => {
      if (exit !== undefined) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export interface ApiOptions { dist: string; queryCache: boolean; nodeOptions: string[]; timeoutMs: number; loopDelayFile: string }

/** The API server on `dist`, with the read limit raised so it never answers 429, its event loop's delays written to `loopDelayFile` (loop-delay.mjs). */
export function startApi({ dist, queryCache, nodeOptions, timeoutMs, loopDelayFile }: ApiOptions): Promise<Process> {
  if (!existsSync(SERVER)) throw new Error(`${SERVER} is missing: run make build (make bench does)`);
  return start([...nodeOptions, '--import', LOOP_DELAY, ...SERVER_ARGS.slice(0, -1), SERVER], {
    DIST_DIR: dist, QUERY_CACHE: queryCache ? '1' : '0', RATE_LIMIT_READS: '1000000000', LOG_LEVEL: 'warn', BENCH_LOOP_DELAY_FILE: loopDelayFile,
  }, ['/v1/health', '/v1/geo/bootstrap?locale=en'], timeoutMs);
}

const LOOP_DELAY = new URL('./loop-delay.mjs', import.meta.url).href;

/** The longest the server's event loop was held between two times (epoch ms), from its loop-delay file. */
export function loopDelayMax(file: string, from: number, to: number): number {
  let max = 0;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const [at, ms] = line.split(' ').map(Number);
    // a line covers the 50 ms before it
    if (at >= from && at - 50 <= to) max = Math.max(max, ms);
  }
  return max;
}

/** The bare route: every GET answers the bytes in `bodyFile`. */
export function startBaseline(bodyFile: string): Promise<Process> {
  return start(['--import', 'tsx', 'test/bench/baseline-server.ts', bodyFile], {}, ['/'], 30_000);
}
