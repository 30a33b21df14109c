import type { FastifyInstance } from 'fastify';
import { after, describe } from 'node:test';
import { pino } from 'pino';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { closeSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { KEYED_FILE, LEAD_ROUTING, type LeadRouting } from '../../contract/build.ts';
import { KeyedRecords } from '../../api/loading/keyed.ts';
import { openRecords } from '../../api/loading/records.ts';
import { BuildWriter } from '../../pipeline/lib/publish.ts';
import { writeKeyedFile } from '../../pipeline/lib/keyed-files.ts';
import type { LeadRoutes } from '../../api/loading/load.ts';
import { staticCatalog } from '../../api/loading/store.ts';
import { LeadsService, type LeadsConfig, type LeadsServiceOptions } from '../../api/leads/service.ts';
import { PostgresLeadStore } from '../../api/leads/postgres-store.ts';
import { SqliteLeadStore } from '../../api/leads/sqlite-store.ts';
import type { LeadStore } from '../../api/leads/store.ts';
import { SITE, sharedBuild, testApp } from '../support/app.ts';
import { sharedPostgres, stopSharedPostgres } from '../support/postgres.ts';

export const ROUTING: LeadRouting = {
  'loft-mitte': { title: 'Loft Mitte', citySlug: 'berlin', operatorSlug: 'spacehub', operatorName: 'SpaceHub', enquiryEmail: 'leads@spacehub.example' },
  'spree-works': { title: 'Spree Works', citySlug: 'berlin', operatorSlug: 'spacehub', operatorName: 'SpaceHub', enquiryEmail: 'leads@spacehub.example' },
  'sol-madrid': { title: 'Sol Madrid', citySlug: 'madrid', operatorSlug: 'workco', operatorName: 'WorkCo', enquiryEmail: 'hola@workco.example' },
  'indie-desk': { title: 'Indie Desk', citySlug: 'madrid', operatorSlug: null, operatorName: null, enquiryEmail: null },
};

/** Personal data used in requests; the captured logs must contain none of it. */
export const PERSON = {
  name: 'Zelda Quarterfield',
  email: 'zelda.quarterfield@example.org',
  phone: '+49 30 5550199',
  message: 'Please call me about a team of eight, budget flexible, secret-marker-9137.',
};

export const contactBody = (extra: Record<string, unknown> = {}) => ({
  name: PERSON.name, email: PERSON.email, locale: 'en', phone: PERSON.phone, message: PERSON.message, ...extra,
});
export const inquiryBody = (extra: Record<string, unknown> = {}) => ({
  ...contactBody(), properties: ['loft-mitte', 'sol-madrid'], ...extra,
});

export function tempDir(t: { after(fn: () => unknown): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'da-leads-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export type StoreKind = 'sqlite' | 'postgres';

/**
 * Runs the same suites against each store: SQLite, and PostgreSQL (a real server started on
 * first use, stopped after the file's tests). Call at the top level of a test file.
 */
export function forEachStore(suites: (kind: StoreKind) => void): void {
  after(stopSharedPostgres);
  for (const kind of ['sqlite', 'postgres'] as const) describe(`on ${kind}`, () => suites(kind));
}

/** The store part of a LeadsConfig, fresh and empty: SQLite (the file in the test's dir) or a new PostgreSQL database. */
export async function storeConfig(kind: StoreKind): Promise<Partial<LeadsConfig>> {
  return kind === 'postgres' ? { databaseUrl: await (await sharedPostgres()).createDatabase() } : {};
}

/** The store behind a config, opened to look at what a test (or another process) wrote. */
export function inspectStore(config: Pick<LeadsConfig, 'dbPath' | 'databaseUrl'>): LeadStore {
  return config.databaseUrl ? new PostgresLeadStore(config.databaseUrl, { poolSize: 2 }) : new SqliteLeadStore(config.dbPath);
}

/** Rows in one of the store's tables, read straight from the database. */
export async function tableRows(store: LeadStore, table: 'idempotency' | 'leads' | 'outbox'): Promise<number> {
  if (store instanceof SqliteLeadStore) return store.db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
  if (store instanceof PostgresLeadStore) return Number((await store.pool.query(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);
  throw new Error(`unknown store ${store.kind}`);
}

export function leadsConfig(dir: string, extra: Partial<LeadsConfig> = {}): LeadsConfig {
  return {
    dbPath: join(dir, 'leads.db'), mailSpoolDir: join(dir, 'mail'), teamEmail: 'team@desk-atlas.test',
    nodeEnv: 'test', ...extra,
  };
}

/** Collects every log line written by the app and the relay. */
export class LogCapture extends Writable {
  lines: string[] = [];
  override _write(chunk: Buffer, _enc: string, cb: () => void) { this.lines.push(chunk.toString()); cb(); }
  get text() { return this.lines.join(''); }
}

/**
 * The real app (buildApp on the fixture build, whose lead routing is `routing`) with the leads
 * service, as api/server.ts makes it. The lead rate limit is raised unless `env` sets it.
 */
/** A routing map as a build's lead routing: written as the pipeline writes it (a keyed file), opened as the loader opens it. */
async function routesOf(routing: LeadRouting): Promise<LeadRoutes> {
  const dir = mkdtempSync(join(tmpdir(), 'desk-atlas-routing-'));
  const writer = new BuildWriter(dir);
  writeKeyedFile(writer, LEAD_ROUTING.name, undefined, routing);
  await writer.synced();
  const linesName = KEYED_FILE.lines(LEAD_ROUTING.name);
  const lines = await openRecords(join(dir, linesName), linesName, readFileSync(join(dir, KEYED_FILE.index(LEAD_ROUTING.name))));
  // kept open as long as the process may use the app (apps are made in hooks as well as in tests)
  process.once('exit', () => { closeSync(lines.fh.fd); rmSync(dir, { recursive: true, force: true }); });
  return new KeyedRecords(lines, JSON.parse(readFileSync(join(dir, KEYED_FILE.keys(LEAD_ROUTING.name)), 'utf8')), SITE);
}

export async function buildTestApp(service: LeadsService, opts: { routing?: LeadRouting; logs?: LogCapture; env?: Record<string, string> } = {}): Promise<FastifyInstance> {
  const { build } = await sharedBuild();
  return testApp({
    env: { RATE_LIMIT_LEADS: '1000000', ...opts.env },
    logger: opts.logs ? pino({ level: 'trace' }, opts.logs) : false,
    catalog: staticCatalog(Object.create(build, { leadRouting: { value: await routesOf(opts.routing ?? ROUTING) } })),
    leads: service,
  });
}

export async function openService(dir: string, config: Partial<LeadsConfig> = {}, opts: LeadsServiceOptions = {}) {
  return LeadsService.open(leadsConfig(dir, config), {
    relay: { pollMs: 50, baseDelayMs: 20, maxDelayMs: 200 }, ...opts,
  });
}

export interface ReceivedMail { raw: string; headers: Record<string, string>; text: string; rcpt: string[] }

function decodeQuotedPrintable(s: string): string {
  const bytes: number[] = [];
  const src = s.replace(/=\r?\n/g, '');
  for (let i = 0; i < src.length; i++) {
    if (src[i] === '=' && /^[0-9A-F]{2}$/i.test(src.slice(i + 1, i + 3))) { bytes.push(parseInt(src.slice(i + 1, i + 3), 16)); i += 2; }
    else bytes.push(...Buffer.from(src[i], 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

function decodeWords(s: string): string {
  return s.replace(/=\?UTF-8\?([QB])\?([^?]*)\?=\s*/gi, (_m, enc: string, data: string) =>
    enc.toUpperCase() === 'B' ? Buffer.from(data, 'base64').toString('utf8') : decodeQuotedPrintable(data.replace(/_/g, ' ')));
}

/** Enough of RFC 5322/2045 for the single-part text messages the relay sends. */
export function parseMail(raw: string, rcpt: string[] = []): ReceivedMail {
  const split = raw.search(/\r?\n\r?\n/);
  const head = raw.slice(0, split).replace(/\r?\n[ \t]+/g, ' ');
  const bodyRaw = raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const headers: Record<string, string> = {};
  for (const line of head.split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).toLowerCase()] = decodeWords(line.slice(i + 1).trim());
  }
  const cte = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  const text = cte === 'quoted-printable' ? decodeQuotedPrintable(bodyRaw)
    : cte === 'base64' ? Buffer.from(bodyRaw.replace(/\s+/g, ''), 'base64').toString('utf8') : bodyRaw;
  return { raw, headers, text: text.replace(/\r\n/g, '\n'), rcpt };
}

const CLIENT_GONE = new Set(['ECONNRESET', 'EPIPE']);

/** A real SMTP server (smtp-server) in the test process; stop() and start() again on the same port. */
export class TestSmtp {
  messages: ReceivedMail[] = [];
  port = 0;
  private server: SMTPServer | undefined;

  async start(): Promise<this> {
    this.server = new SMTPServer({
      authOptional: true, disabledCommands: ['STARTTLS'], logger: false, disableReverseLookup: true, closeTimeout: 50,
      onData: (stream, session, cb) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          this.messages.push(parseMail(Buffer.concat(chunks).toString('utf8'), session.envelope.rcptTo.map((r) => r.address)));
          cb();
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server.removeAllListeners('error');
    // A client killed mid-session (the kill -9 tests) resets its connection, or is gone when the
    // server replies: not the server's failure.
    this.server.on('error', (err: NodeJS.ErrnoException) => { if (!CLIENT_GONE.has(err.code ?? '')) throw err; });
    this.port = (this.server.server.address() as AddressInfo).port;
    return this;
  }

  get url() { return `smtp://127.0.0.1:${this.port}`; }

  async stop(): Promise<void> {
    const s = this.server;
    this.server = undefined;
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  byMessageId(id: string) { return this.messages.filter((m) => m.headers['message-id'] === id); }
}

/**
 * A stand-in for Turnstile's siteverify: tokens are issued by the test and are single-use,
 * like Turnstile's (a second verification of the same token fails with timeout-or-duplicate).
 */
export class TestVerifier {
  readonly secret = 'test-secret';
  mode: 'ok' | 'slow' | 'error' = 'ok';
  slowMs = 1000;
  calls = 0;
  lastRemoteIp: string | undefined;
  private valid = new Set<string>();
  private used = new Set<string>();
  private server: Server | undefined;
  private counter = 0;
  url = '';

  issue(): string {
    const token = `tok-${++this.counter}-${Math.random().toString(36).slice(2)}`;
    this.valid.add(token);
    return token;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.calls++;
        const form = new URLSearchParams(Buffer.concat(chunks).toString());
        this.lastRemoteIp = form.get('remoteip') ?? undefined;
        const answer = (status: number, body: object) => {
          res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
        };
        if (this.mode === 'error') return answer(500, { success: false, 'error-codes': ['internal-error'] });
        const respond = () => {
          if (form.get('secret') !== this.secret) return answer(200, { success: false, 'error-codes': ['invalid-input-secret'] });
          const token = form.get('response') ?? '';
          if (this.used.has(token)) return answer(200, { success: false, 'error-codes': ['timeout-or-duplicate'] });
          if (!this.valid.has(token)) return answer(200, { success: false, 'error-codes': ['invalid-input-response'] });
          this.valid.delete(token);
          this.used.add(token);
          answer(200, { success: true, challenge_ts: new Date().toISOString(), hostname: 'site.test' });
        };
        if (this.mode === 'slow') setTimeout(respond, this.slowMs); else respond();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', () => resolve()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/siteverify`;
    return this;
  }

  async stop(): Promise<void> {
    const s = this.server;
    if (!s) return;
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
}

/** Waits until `check` is true, polling; fails after `timeoutMs`. */
export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 5000, what = 'condition'): Promise<void> {
  const start = Date.now();
  while (!await check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A lead server process (lead-server.ts) on a free loopback port. */
export interface LeadServer {
  child: ChildProcess;
  port: number;
  url: string;
  /** messages its relay reported sent */
  relaySent: number;
  /** kill -9, resolved once the process is gone */
  kill(): Promise<void>;
}

/** The environment a lead server reads its store from: LEADS_DB, or DATABASE_URL. */
export const storeEnv = (config: Pick<LeadsConfig, 'dbPath' | 'databaseUrl'>) => ({
  LEADS_DB: config.dbPath, DATABASE_URL: config.databaseUrl ?? '',
});

export function startLeadServer(env: NodeJS.ProcessEnv): Promise<LeadServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/leads/lead-server.ts'], {
    env: { ...process.env, NODE_ENV: 'test', CHALLENGE_SECRET: '', ...env }, stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let out = '';
    let server: LeadServer | undefined;
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const lines = out.split('\n');
      out = lines.pop()!;
      for (const line of lines) {
        const sent = /^RELAY SENT (\d+)/.exec(line);
        if (sent && server) server.relaySent += Number(sent[1]);
        const listening = /^LISTENING (\d+)/.exec(line);
        if (listening) {
          const port = Number(listening[1]);
          server = {
            child, port, url: `http://127.0.0.1:${port}`, relaySent: 0,
            kill: async () => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL'); await exited; },
          };
          resolve(server);
        }
      }
    });
    child.once('exit', (code) => reject(new Error(`lead server exited before listening (${code})`)));
  });
}
