import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { LeadEndpoint } from '../../contract/leads.ts';

/** Versioned, append-only: a released migration is never edited, a new one is added. */
const MIGRATIONS: string[] = [
  `
  CREATE TABLE leads (
    lead_id INTEGER PRIMARY KEY,
    reference TEXT NOT NULL UNIQUE,
    endpoint TEXT NOT NULL CHECK (endpoint IN ('contact', 'inquiry')),
    created_at INTEGER NOT NULL,
    payload_json TEXT NOT NULL
  );
  CREATE INDEX leads_created_at ON leads (created_at);

  CREATE TABLE outbox (
    outbox_id INTEGER PRIMARY KEY,
    lead_id INTEGER NOT NULL REFERENCES leads (lead_id),
    kind TEXT NOT NULL CHECK (kind IN ('team', 'operator')),
    operator_slug TEXT,
    message_id TEXT NOT NULL UNIQUE,
    message_json TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'sent', 'dead')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    last_error TEXT,
    sent_at INTEGER,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX outbox_due ON outbox (status, next_attempt_at);

  CREATE TABLE idempotency (
    endpoint TEXT NOT NULL,
    idempotency_key TEXT NOT NULL,
    body_hash TEXT NOT NULL,
    status_code INTEGER NOT NULL,
    response_json TEXT NOT NULL,
    lead_id INTEGER REFERENCES leads (lead_id),
    created_at INTEGER NOT NULL,
    PRIMARY KEY (endpoint, idempotency_key)
  );
  CREATE INDEX idempotency_created_at ON idempotency (created_at);
  `,
];

export interface OutgoingMessage {
  from: string;
  to: string;
  replyTo?: string;
  subject: string;
  text: string;
  /** ms since epoch: the Date header, stable across retries */
  date: number;
}

export interface NewOutboxRow {
  kind: 'team' | 'operator';
  operatorSlug: string | null;
  messageId: string;
  message: OutgoingMessage;
}

interface LeadRow {
  leadId: number;
  reference: string;
  endpoint: LeadEndpoint;
  createdAt: number;
  payload: Record<string, unknown>;
}

export interface OutboxRow {
  outboxId: number;
  leadId: number;
  reference: string;
  kind: 'team' | 'operator';
  operatorSlug: string | null;
  messageId: string;
  message: OutgoingMessage;
  status: 'pending' | 'sent' | 'dead';
  attempts: number;
  nextAttemptAt: number;
  lastError: string | null;
  sentAt: number | null;
  createdAt: number;
}

export interface IdempotencyRecord {
  bodyHash: string;
  statusCode: number;
  response: unknown;
  createdAt: number;
}

interface InsertLeadInput {
  reference: string;
  endpoint: LeadEndpoint;
  createdAt: number;
  payload: Record<string, unknown>;
  outbox: NewOutboxRow[];
  idempotency?: { key: string; bodyHash: string; statusCode: number; response: unknown; notBefore: number };
}

type InsertLeadResult =
  | { ok: true; leadId: number }
  | { ok: false; reason: 'idempotency-taken'; record: IdempotencyRecord };

interface RawOutbox {
  outbox_id: number; lead_id: number; reference: string; kind: 'team' | 'operator';
  operator_slug: string | null; message_id: string; message_json: string;
  status: 'pending' | 'sent' | 'dead'; attempts: number; next_attempt_at: number;
  last_error: string | null; sent_at: number | null; created_at: number;
}

const toOutbox = (r: RawOutbox): OutboxRow => ({
  outboxId: r.outbox_id, leadId: r.lead_id, reference: r.reference, kind: r.kind,
  operatorSlug: r.operator_slug, messageId: r.message_id, message: JSON.parse(r.message_json),
  status: r.status, attempts: r.attempts, nextAttemptAt: r.next_attempt_at,
  lastError: r.last_error, sentAt: r.sent_at, createdAt: r.created_at,
});

const OUTBOX_SELECT = `SELECT o.*, l.reference FROM outbox o JOIN leads l ON l.lead_id = o.lead_id`;

/** Leads, their outbox and idempotency records in one SQLite file (WAL, synchronous=FULL). */
export class LeadStore {
  readonly db: Database.Database;

  constructor(path: string) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    // FULL: a commit is on disk before the 200 goes out; a power cut loses no acknowledged enquiry.
    this.db.pragma('synchronous = FULL');
    this.db.pragma('busy_timeout = 5000');
    this.db.pragma('foreign_keys = ON');
    this.migrate();
  }

  private migrate(): void {
    this.db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)`);
    const applied = new Set(
      this.db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[],
    );
    MIGRATIONS.forEach((sql, i) => {
      const version = i + 1;
      if (applied.has(version)) return;
      this.db.transaction(() => {
        this.db.exec(sql);
        this.db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)')
          .run(version, new Date().toISOString());
      }).immediate();
    });
  }

  schemaVersion(): number {
    return (this.db.prepare('SELECT max(version) FROM schema_migrations').pluck().get() as number) ?? 0;
  }

  getIdempotency(endpoint: LeadEndpoint, key: string, notBefore: number): IdempotencyRecord | undefined {
    const row = this.db.prepare(
      `SELECT body_hash, status_code, response_json, created_at FROM idempotency
       WHERE endpoint = ? AND idempotency_key = ? AND created_at >= ?`,
    ).get(endpoint, key, notBefore) as
      | { body_hash: string; status_code: number; response_json: string; created_at: number }
      | undefined;
    if (!row) return undefined;
    return {
      bodyHash: row.body_hash, statusCode: row.status_code,
      response: JSON.parse(row.response_json), createdAt: row.created_at,
    };
  }

  /** One transaction: the lead, its outbox rows and its idempotency record, or nothing. */
  insertLead(input: InsertLeadInput): InsertLeadResult {
    const tx = this.db.transaction((): InsertLeadResult => {
      const idem = input.idempotency;
      if (idem) {
        const existing = this.getIdempotency(input.endpoint, idem.key, idem.notBefore);
        if (existing) return { ok: false, reason: 'idempotency-taken', record: existing };
        this.db.prepare('DELETE FROM idempotency WHERE endpoint = ? AND idempotency_key = ?')
          .run(input.endpoint, idem.key);
      }
      const leadId = Number(this.db.prepare(
        'INSERT INTO leads (reference, endpoint, created_at, payload_json) VALUES (?, ?, ?, ?)',
      ).run(input.reference, input.endpoint, input.createdAt, JSON.stringify(input.payload)).lastInsertRowid);
      const insertOutbox = this.db.prepare(
        `INSERT INTO outbox (lead_id, kind, operator_slug, message_id, message_json, status,
           attempts, next_attempt_at, created_at)
         VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?)`,
      );
      for (const o of input.outbox) {
        insertOutbox.run(leadId, o.kind, o.operatorSlug, o.messageId, JSON.stringify(o.message),
          input.createdAt, input.createdAt);
      }
      if (idem) {
        this.db.prepare(
          `INSERT INTO idempotency (endpoint, idempotency_key, body_hash, status_code, response_json,
             lead_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
        ).run(input.endpoint, idem.key, idem.bodyHash, idem.statusCode, JSON.stringify(idem.response),
          leadId, input.createdAt);
      }
      return { ok: true, leadId };
    });
    return tx.immediate();
  }

  purgeIdempotency(olderThan: number): number {
    return this.db.prepare('DELETE FROM idempotency WHERE created_at < ?').run(olderThan).changes;
  }

  listLeads(limit = 50): LeadRow[] {
    const rows = this.db.prepare(
      'SELECT * FROM leads ORDER BY created_at DESC, lead_id DESC LIMIT ?',
    ).all(limit) as Array<{ lead_id: number; reference: string; endpoint: LeadEndpoint; created_at: number; payload_json: string }>;
    return rows.map((r) => ({
      leadId: r.lead_id, reference: r.reference, endpoint: r.endpoint,
      createdAt: r.created_at, payload: JSON.parse(r.payload_json),
    }));
  }

  getLead(reference: string): LeadRow | undefined {
    const r = this.db.prepare('SELECT * FROM leads WHERE reference = ?').get(reference) as
      | { lead_id: number; reference: string; endpoint: LeadEndpoint; created_at: number; payload_json: string }
      | undefined;
    return r && {
      leadId: r.lead_id, reference: r.reference, endpoint: r.endpoint,
      createdAt: r.created_at, payload: JSON.parse(r.payload_json),
    };
  }

  countLeads(): number {
    return this.db.prepare('SELECT count(*) FROM leads').pluck().get() as number;
  }

  outboxForLead(leadId: number): OutboxRow[] {
    return (this.db.prepare(`${OUTBOX_SELECT} WHERE o.lead_id = ? ORDER BY o.outbox_id`).all(leadId) as RawOutbox[])
      .map(toOutbox);
  }

  listOutbox(status?: OutboxRow['status'], limit = 100): OutboxRow[] {
    const rows = status
      ? this.db.prepare(`${OUTBOX_SELECT} WHERE o.status = ? ORDER BY o.outbox_id LIMIT ?`).all(status, limit)
      : this.db.prepare(`${OUTBOX_SELECT} ORDER BY o.outbox_id DESC LIMIT ?`).all(limit);
    return (rows as RawOutbox[]).map(toOutbox);
  }

  outboxCounts(): Record<OutboxRow['status'], number> {
    const counts = { pending: 0, sent: 0, dead: 0 };
    for (const r of this.db.prepare('SELECT status, count(*) AS n FROM outbox GROUP BY status').all() as
      Array<{ status: OutboxRow['status']; n: number }>) counts[r.status] = r.n;
    return counts;
  }

  dueOutbox(now: number, limit: number): OutboxRow[] {
    return (this.db.prepare(
      `${OUTBOX_SELECT} WHERE o.status = 'pending' AND o.next_attempt_at <= ?
       ORDER BY o.next_attempt_at, o.outbox_id LIMIT ?`,
    ).all(now, limit) as RawOutbox[]).map(toOutbox);
  }

  nextDueAt(): number | undefined {
    return (this.db.prepare(`SELECT min(next_attempt_at) FROM outbox WHERE status = 'pending'`)
      .pluck().get() as number | null) ?? undefined;
  }

  markSent(outboxId: number, now: number): void {
    this.db.prepare(
      `UPDATE outbox SET status = 'sent', attempts = attempts + 1, sent_at = ?, last_error = NULL
       WHERE outbox_id = ?`,
    ).run(now, outboxId);
  }

  markFailed(outboxId: number, error: string, nextAttemptAt: number | null): void {
    if (nextAttemptAt === null) {
      this.db.prepare(
        `UPDATE outbox SET status = 'dead', attempts = attempts + 1, last_error = ? WHERE outbox_id = ?`,
      ).run(error, outboxId);
    } else {
      this.db.prepare(
        `UPDATE outbox SET attempts = attempts + 1, last_error = ?, next_attempt_at = ? WHERE outbox_id = ?`,
      ).run(error, nextAttemptAt, outboxId);
    }
  }

  /** Dead letters (or one row by id, whatever its status) go back to pending with a fresh attempt budget. */
  redeliver(target: { outboxId: number } | 'all-dead', now: number): number {
    if (target === 'all-dead') {
      return this.db.prepare(
        `UPDATE outbox SET status = 'pending', attempts = 0, next_attempt_at = ? WHERE status = 'dead'`,
      ).run(now).changes;
    }
    return this.db.prepare(
      `UPDATE outbox SET status = 'pending', attempts = 0, next_attempt_at = ? WHERE outbox_id = ?`,
    ).run(now, target.outboxId).changes;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
