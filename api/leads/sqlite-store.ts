import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { LeadEndpoint } from '../../contract/leads.ts';
import { readMigrations } from './migrations.ts';
import {
  StoreUnavailableError, type IdempotencyClaim, type IdempotencyRecord, type InsertLeadInput, type InsertLeadResult,
  type LeadRow, type LeadStore, type OutboxRow, type OutboxStatus, type RedeliverTarget,
} from './store.ts';

interface RawLead { lead_id: number; reference: string; endpoint: LeadEndpoint; created_at: number; payload_json: string }

interface RawOutbox {
  outbox_id: number; lead_id: number; reference: string; kind: 'team' | 'operator';
  operator_slug: string | null; message_id: string; message_json: string;
  status: OutboxStatus; attempts: number; next_attempt_at: number;
  last_error: string | null; sent_at: number | null; created_at: number;
}

const toLead = (r: RawLead): LeadRow => ({
  leadId: r.lead_id, reference: r.reference, endpoint: r.endpoint,
  createdAt: r.created_at, payload: JSON.parse(r.payload_json),
});

const toOutbox = (r: RawOutbox): OutboxRow => ({
  outboxId: r.outbox_id, leadId: r.lead_id, reference: r.reference, kind: r.kind,
  operatorSlug: r.operator_slug, messageId: r.message_id, message: JSON.parse(r.message_json),
  status: r.status, attempts: r.attempts, nextAttemptAt: r.next_attempt_at,
  lastError: r.last_error, sentAt: r.sent_at, createdAt: r.created_at,
});

const OUTBOX_SELECT = `SELECT o.*, l.reference FROM outbox o JOIN leads l ON l.lead_id = o.lead_id`;

/** Locked or failing disk: the caller answers 502 and the client retries; anything else is a bug. */
function storeError(err: unknown): unknown {
  const code = String((err as { code?: unknown }).code ?? '');
  return /^SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN)/.test(code) ? new StoreUnavailableError(code, { cause: err }) : err;
}

/**
 * Leads, their outbox and idempotency records in one SQLite file (WAL, synchronous=FULL), for one
 * server process: the operator CLI may open it too, but only to read and to mark rows pending.
 */
export class SqliteLeadStore implements LeadStore {
  readonly kind = 'sqlite' as const;
  readonly db: Database.Database;
  /**
   * Claims on idempotency keys, in memory: one server process owns the file, so they need no
   * disk (no second fsync per enquiry), and a restart forgets those of a process that died.
   */
  private readonly claims = new Map<string, { token: string; leaseUntil: number }>();

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
    const applied = new Set(this.db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[]);
    for (const m of readMigrations('sqlite')) {
      if (applied.has(m.version)) continue;
      this.db.transaction(() => {
        this.db.exec(m.sql);
        this.db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)')
          .run(m.version, new Date().toISOString());
      }).immediate();
    }
  }

  private run<T>(fn: () => T): Promise<T> {
    try {
      return Promise.resolve(fn());
    } catch (err) {
      return Promise.reject(storeError(err));
    }
  }

  async schemaVersion(): Promise<number> {
    return (this.db.prepare('SELECT max(version) FROM schema_migrations').pluck().get() as number) ?? 0;
  }

  private idempotencyRecord(endpoint: LeadEndpoint, key: string, notBefore: number): IdempotencyRecord | undefined {
    const row = this.db.prepare(
      `SELECT body_hash, status_code, response_json, created_at FROM idempotency
       WHERE endpoint = ? AND idempotency_key = ? AND created_at >= ?`,
    ).get(endpoint, key, notBefore) as
      | { body_hash: string; status_code: number; response_json: string; created_at: number }
      | undefined;
    return row && {
      bodyHash: row.body_hash, statusCode: row.status_code,
      response: JSON.parse(row.response_json), createdAt: row.created_at,
    };
  }

  getIdempotency(endpoint: LeadEndpoint, key: string, notBefore: number): Promise<IdempotencyRecord | undefined> {
    return this.run(() => this.idempotencyRecord(endpoint, key, notBefore));
  }

  /** The expired record under the key, if any, goes in insertLead's transaction (no write here). */
  claimIdempotency(claim: IdempotencyClaim, leaseUntil: number, now: number): Promise<boolean> {
    const id = claimId(claim);
    const held = this.claims.get(id);
    if (held && held.leaseUntil > now) return Promise.resolve(false);
    this.claims.set(id, { token: claim.token, leaseUntil });
    return Promise.resolve(true);
  }

  releaseIdempotency(claim: IdempotencyClaim): Promise<void> {
    const id = claimId(claim);
    if (this.claims.get(id)?.token === claim.token) this.claims.delete(id);
    return Promise.resolve();
  }

  insertLead(input: InsertLeadInput): Promise<InsertLeadResult> {
    const tx = this.db.transaction((): InsertLeadResult => {
      const idem = input.idempotency;
      if (idem) {
        if (this.claims.get(claimId(idem.claim))?.token !== idem.claim.token) return { ok: false, reason: 'claim-lost' };
        // Held by us and not found fresh before the challenge: whatever record remains has expired.
        this.db.prepare('DELETE FROM idempotency WHERE endpoint = ? AND idempotency_key = ?').run(input.endpoint, idem.claim.key);
      }
      if (this.db.prepare('SELECT 1 FROM leads WHERE reference = ?').get(input.reference)) return { ok: false, reason: 'reference-taken' };
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
        ).run(input.endpoint, idem.claim.key, idem.bodyHash, idem.statusCode, JSON.stringify(idem.response),
          leadId, input.createdAt);
      }
      return { ok: true, leadId };
    });
    return this.run(() => {
      const result = tx.immediate();
      if (result.ok && input.idempotency) this.claims.delete(claimId(input.idempotency.claim));
      return result;
    });
  }

  purgeIdempotency(olderThan: number, now: number): Promise<number> {
    for (const [id, held] of this.claims) if (held.leaseUntil < now) this.claims.delete(id);
    return this.run(() => this.db.prepare('DELETE FROM idempotency WHERE created_at < ?').run(olderThan).changes);
  }

  listLeads(limit = 50): Promise<LeadRow[]> {
    return this.run(() => (this.db.prepare(
      'SELECT * FROM leads ORDER BY created_at DESC, lead_id DESC LIMIT ?',
    ).all(limit) as RawLead[]).map(toLead));
  }

  getLead(reference: string): Promise<LeadRow | undefined> {
    return this.run(() => {
      const r = this.db.prepare('SELECT * FROM leads WHERE reference = ?').get(reference) as RawLead | undefined;
      return r && toLead(r);
    });
  }

  countLeads(): Promise<number> {
    return this.run(() => this.db.prepare('SELECT count(*) FROM leads').pluck().get() as number);
  }

  outboxForLead(leadId: number): Promise<OutboxRow[]> {
    return this.run(() => (this.db.prepare(`${OUTBOX_SELECT} WHERE o.lead_id = ? ORDER BY o.outbox_id`)
      .all(leadId) as RawOutbox[]).map(toOutbox));
  }

  listOutbox(status?: OutboxStatus, limit = 100): Promise<OutboxRow[]> {
    return this.run(() => {
      const rows = status
        ? this.db.prepare(`${OUTBOX_SELECT} WHERE o.status = ? ORDER BY o.outbox_id LIMIT ?`).all(status, limit)
        : this.db.prepare(`${OUTBOX_SELECT} ORDER BY o.outbox_id DESC LIMIT ?`).all(limit);
      return (rows as RawOutbox[]).map(toOutbox);
    });
  }

  outboxCounts(): Promise<Record<OutboxStatus, number>> {
    return this.run(() => {
      const counts = { pending: 0, sent: 0, dead: 0 };
      for (const r of this.db.prepare('SELECT status, count(*) AS n FROM outbox GROUP BY status').all() as
        Array<{ status: OutboxStatus; n: number }>) counts[r.status] = r.n;
      return counts;
    });
  }

  /**
   * One server, so one relay, per file: nothing to reserve against (and a row a crashed process
   * was sending is due again at once after the restart).
   */
  claimDueOutbox(now: number, limit: number): Promise<OutboxRow[]> {
    return this.run(() => (this.db.prepare(
      `${OUTBOX_SELECT} WHERE o.status = 'pending' AND o.next_attempt_at <= ?
       ORDER BY o.next_attempt_at, o.outbox_id LIMIT ?`,
    ).all(now, limit) as RawOutbox[]).map(toOutbox));
  }

  nextDueAt(): Promise<number | undefined> {
    return this.run(() => (this.db.prepare(`SELECT min(next_attempt_at) FROM outbox WHERE status = 'pending'`)
      .pluck().get() as number | null) ?? undefined);
  }

  markSent(outboxIds: number[], now: number): Promise<void> {
    const mark = this.db.prepare(
      `UPDATE outbox SET status = 'sent', attempts = attempts + 1, sent_at = ?, last_error = NULL WHERE outbox_id = ?`,
    );
    return this.run(() => this.db.transaction(() => { for (const id of outboxIds) mark.run(now, id); })());
  }

  markFailed(outboxId: number, error: string, nextAttemptAt: number | null): Promise<void> {
    return this.run(() => {
      if (nextAttemptAt === null) {
        this.db.prepare(
          `UPDATE outbox SET status = 'dead', attempts = attempts + 1, last_error = ? WHERE outbox_id = ?`,
        ).run(error, outboxId);
      } else {
        this.db.prepare(
          `UPDATE outbox SET attempts = attempts + 1, last_error = ?, next_attempt_at = ? WHERE outbox_id = ?`,
        ).run(error, nextAttemptAt, outboxId);
      }
    });
  }

  redeliver(target: RedeliverTarget, now: number): Promise<number> {
    return this.run(() => {
      if (target === 'all-dead') {
        return this.db.prepare(
          `UPDATE outbox SET status = 'pending', attempts = 0, next_attempt_at = ? WHERE status = 'dead'`,
        ).run(now).changes;
      }
      return this.db.prepare(
        `UPDATE outbox SET status = 'pending', attempts = 0, next_attempt_at = ? WHERE outbox_id = ?`,
      ).run(now, target.outboxId).changes;
    });
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}

const claimId = (claim: IdempotencyClaim) => `${claim.endpoint}\u0000${claim.key}`;
