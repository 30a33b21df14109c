import type { SendMailOptions, SentMessageInfo, Transporter } from 'nodemailer';
import { mkdirSync, openSync, writeSync, fsyncSync, closeSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { LeadStore, OutboxRow, OutgoingMessage } from './store.ts';

/** Messages in flight at once (and SMTP connections in the pool): the relay claims this many rows at a time. */
const RELAY_CONCURRENCY = 4;

export interface MailTransport {
  readonly kind: 'smtp' | 'spool';
  send(message: OutgoingMessage, messageId: string): Promise<void>;
  close(): void;
}

/**
 * A nodemailer transporter made when the first message is sent, nodemailer imported with it: its
 * ~470 kB would otherwise be compiled at every start-up, on the thread that loads the catalogue.
 */
class LazyTransporter {
  private made: Promise<Transporter> | undefined;
  constructor(private readonly options: object) {}

  async sendMail(mail: SendMailOptions): Promise<SentMessageInfo> {
    this.made ??= import('nodemailer').then((m) => m.default.createTransport(this.options as never));
    return (await this.made).sendMail(mail);
  }

  close(): void { void this.made?.then((t) => t.close(), () => undefined); }
}

const toMail = (m: OutgoingMessage, messageId: string): SendMailOptions => ({
  from: m.from, to: m.to, replyTo: m.replyTo, subject: m.subject, text: m.text,
  messageId, date: new Date(m.date),
});

export class SmtpTransport implements MailTransport {
  readonly kind = 'smtp' as const;
  private readonly transporter: LazyTransporter;
  constructor(url: string, opts: { timeoutMs?: number } = {}) {
    const timeout = opts.timeoutMs ?? 30_000;
    // Pooled: one SMTP session carries many messages instead of a handshake per message.
    this.transporter = new LazyTransporter({
      url, pool: true, maxConnections: RELAY_CONCURRENCY, maxMessages: 100,
      connectionTimeout: timeout, greetingTimeout: timeout, socketTimeout: timeout,
    });
  }
  async send(message: OutgoingMessage, messageId: string): Promise<void> {
    await this.transporter.sendMail(toMail(message, messageId));
  }
  close(): void { this.transporter.close(); }
}

/** With no SMTP: one .eml file per message, written to a temp name, fsynced, renamed into place. */
export class SpoolTransport implements MailTransport {
  readonly kind = 'spool' as const;
  private readonly composer = new LazyTransporter({ streamTransport: true, buffer: true, newline: 'windows' });
  constructor(readonly dir: string) { mkdirSync(dir, { recursive: true }); }
  async send(message: OutgoingMessage, messageId: string): Promise<void> {
    const info = await this.composer.sendMail(toMail(message, messageId));
    const raw = info.message as unknown as Buffer;
    // Named after the Message-ID: a redelivery overwrites its own file instead of adding a copy.
    const name = `${messageId.replace(/^<|>$/g, '').replace(/[^A-Za-z0-9._-]/g, '_')}.eml`;
    const tmp = join(this.dir, `.${name}.${randomBytes(4).toString('hex')}.tmp`);
    const fd = openSync(tmp, 'w');
    try { writeSync(fd, raw); fsyncSync(fd); } finally { closeSync(fd); }
    renameSync(tmp, join(this.dir, name));
  }
  close(): void { this.composer.close(); }
}

export interface RelayOptions {
  now?: () => number;
  /** how often the relay looks for due rows when nobody kicks it */
  pollMs?: number;
  /** first retry delay; doubles on each failure up to maxDelayMs */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** after this many failed attempts a message becomes a dead letter (CLI: redeliver) */
  maxAttempts?: number;
  /**
   * How long a claimed row is reserved for this relay (PostgreSQL: relays of other replicas skip
   * it); a replica that dies mid-send leaves its rows to the others after this. Longer than a send.
   */
  leaseMs?: number;
  log?: RelayLogger;
}

export interface RelayLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

const silent: RelayLogger = { info() {}, warn() {}, error() {} };

/** SMTP errors can quote addresses; the log keeps the code and the shape, not the address. */
export function redactError(err: unknown): string {
  const e = err as { code?: string; responseCode?: number; message?: string };
  const msg = String(e?.message ?? err).replace(/[^\s<>"',;:@]+@[^\s<>"',;:]+/g, '<address>').slice(0, 300);
  return [e?.code, e?.responseCode, msg].filter((x) => x !== undefined && x !== '').join(' ');
}

export function backoffDelay(attempts: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempts - 1));
}

/**
 * Delivers outbox rows in the server process; with PostgreSQL one relay runs in every replica and
 * each claims its rows (SKIP LOCKED, then a lease), so a message is sent by one of them. At least
 * once: a crash between the send and the commit of `sent` repeats the send, with the same
 * Message-ID, so receivers can drop the copy.
 */
export class OutboxRelay {
  private readonly now: () => number;
  private readonly pollMs: number;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  readonly maxAttempts: number;
  private readonly leaseMs: number;
  private readonly log: RelayLogger;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private stopping = false;
  private current: Promise<void> | undefined;
  private again = false;

  constructor(private readonly store: LeadStore, readonly transport: MailTransport, opts: RelayOptions = {}) {
    this.now = opts.now ?? Date.now;
    this.pollMs = opts.pollMs ?? 1000;
    this.baseDelayMs = opts.baseDelayMs ?? 1000;
    this.maxDelayMs = opts.maxDelayMs ?? 60 * 60 * 1000;
    this.maxAttempts = opts.maxAttempts ?? 15;
    this.leaseMs = opts.leaseMs ?? 2 * 60 * 1000;
    this.log = opts.log ?? silent;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.stopping = false;
    this.schedule(0);
  }

  /** New rows are waiting: deliver now rather than at the next poll. */
  kick(): void {
    if (!this.running) return;
    if (this.current) { this.again = true; return; }
    this.schedule(0);
  }

  /** Stops the loop and waits for the messages being sent, if any. */
  async stop(): Promise<void> {
    this.running = false;
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.current;
  }

  private schedule(ms: number): void {
    if (!this.running) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.current = this.pass().finally(() => { this.current = undefined; });
    }, ms);
    this.timer.unref?.();
  }

  /** A drain, then the next one: now if kicked meanwhile, else when the next row falls due (at most pollMs). */
  private async pass(): Promise<void> {
    let wait = this.pollMs;
    try {
      await this.drain();
      const next = await this.store.nextDueAt();
      if (next !== undefined) wait = Math.max(0, Math.min(this.pollMs, next - this.now()));
    } catch (err) {
      this.log.error({ error: redactError(err) }, 'outbox pass failed');
    }
    const kicked = this.again;
    this.again = false;
    this.schedule(kicked ? 0 : wait);
  }

  /** One pass: deliver every due row, a few claimed at a time, until none is due. */
  async drain(): Promise<{ sent: number; failed: number }> {
    if (!this.running) this.stopping = false;
    let sent = 0;
    let failed = 0;
    while (!this.stopping) {
      const now = this.now();
      const due = await this.store.claimDueOutbox(now, RELAY_CONCURRENCY, now + this.leaseMs);
      if (due.length === 0) break;
      const delivered = (await Promise.all(due.map((row) => this.deliver(row)))).filter((id) => id !== undefined);
      if (delivered.length) await this.store.markSent(delivered, this.now());
      sent += delivered.length;
      failed += due.length - delivered.length;
    }
    if (sent || failed) this.log.info({ sent, failed }, 'outbox pass');
    return { sent, failed };
  }

  /**
   * Sends one row: its id once sent (the caller marks it), or undefined after recording the
   * failure. A store failure propagates (the row stays claimed until its lease ends).
   */
  private async deliver(row: OutboxRow): Promise<number | undefined> {
    try {
      await this.transport.send(row.message, row.messageId);
      return row.outboxId;
    } catch (err) {
      const attempts = row.attempts + 1;
      const error = redactError(err);
      const fields = { outboxId: row.outboxId, reference: row.reference, kind: row.kind, attempts, error };
      if (attempts >= this.maxAttempts) {
        await this.store.markFailed(row.outboxId, error, null);
        this.log.error(fields, 'outbox message dead-lettered');
      } else {
        await this.store.markFailed(row.outboxId, error, this.now() + backoffDelay(attempts, this.baseDelayMs, this.maxDelayMs));
        this.log.warn(fields, 'outbox delivery failed; will retry');
      }
      return undefined;
    }
  }
}
