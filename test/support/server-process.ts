import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// The server as `make serve` runs it (package.json's `serve`: node, its flags, the bundle that
// `make build`, a prerequisite of make test, writes into dist/server).
export const ROOT = join(import.meta.dirname, '..', '..');
const [, ...SERVE_ARGS] = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { serve: string } }).scripts.serve.split(' ');
export const SERVER_ARGS: readonly string[] = SERVE_ARGS;
export const SERVER = join(ROOT, SERVE_ARGS.at(-1)!);

export interface ServerProcess {
  child: ChildProcess;
  base: string;
  output(): string;
}

/** Starts the compiled server on a free loopback port and resolves once it says it listens. */
export async function startServer(distDir: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  assert.ok(existsSync(SERVER), `${SERVER} is missing: run make build`);
  const child = spawn(process.execPath, [...SERVER_ARGS.slice(0, -1), SERVER], {
    cwd: ROOT,
    env: {
      ...process.env, DIST_DIR: distDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', RELOAD_POLL_MS: '100',
      LEADS_DB: join(distDir, 'leads.db'), LEADS_MAIL_SPOOL: join(distDir, 'mail'), ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => { out += d; });
  child.stderr!.on('data', (d) => { out += d; });
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 30_000);
    child.stdout!.on('data', () => {
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`server exited ${code}: ${out}`)); });
  });
  return { child, base, output: () => out };
}

/** fetch's keep-alive pool would hold the test process open for its idle timeout. */
export async function closeFetchPool(): Promise<void> {
  await (globalThis as Record<symbol, { destroy?: () => Promise<void> }>)[Symbol.for('undici.globalDispatcher.1')]?.destroy?.();
}
