import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ports.ts';

const REDIS_SERVER = '/usr/bin/redis-server';

/** A real redis-server (Debian's, installed by `make system-deps`) on a free loopback port, in a temp dir, without persistence. */
export class TestRedis {
  private child?: ChildProcess;
  private constructor(readonly port: number, private readonly dir: string) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** The running redis-server's process id (a test freezes it with SIGSTOP to make it hang). */
  get pid(): number {
    if (!this.child?.pid) throw new Error('redis-server is not running');
    return this.child.pid;
  }

  static async start(): Promise<TestRedis> {
    if (!existsSync(REDIS_SERVER)) throw new Error(`${REDIS_SERVER} is missing: run \`make system-deps\` (Debian's redis-server)`);
    const redis = new TestRedis(await freePort(), await mkdtemp(join(tmpdir(), 'desk-atlas-redis-')));
    await redis.resume();
    return redis;
  }

  /** Starts it again on the same port (after stop). */
  async resume(): Promise<void> {
    const child = spawn(REDIS_SERVER, [
      '--port', String(this.port), '--bind', '127.0.0.1', '--dir', this.dir, '--save', '', '--appendonly', 'no',
    ], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    let out = '';
    await new Promise<void>((resolve, reject) => {
      const onData = (d: Buffer) => {
        out += d;
        if (/Ready to accept connections/.test(out)) resolve();
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.once('exit', (code) => reject(new Error(`redis-server exited ${code}: ${out}`)));
    });
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
    this.child = undefined;
  }

  async close(): Promise<void> {
    await this.stop();
    await rm(this.dir, { recursive: true, force: true });
  }
}
