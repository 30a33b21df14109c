import pg from 'pg';
import type { LeadEndpoint } from '../../contract/leads.ts';
import { CircuitBreaker, CircuitOpenError, type BreakerLog } from '../circuit-breaker.ts';
import { readMigrations } from './migrations.ts';
import {
  StoreUnavailableError, type IdempotencyClaim, type IdempotencyRecord, type InsertLeadInput, type InsertLeadResult,
  type LeadRow, type LeadStore, type OutboxRow, type OutboxStatus, type RedeliverTarget,
} from './store.ts';

/**
 * How long an enquiry waits on an idempotency call before the store counts as hung: far above a
 * healthy claim (one small commit, a new connection at worst), since a false alarm refuses
 * enquiries until the next probe; paid once per outage, by the enquiries in flight when the
 * database stopped answering (the pool's own limits are 3 s to connect and 15 s per statement).
 */
export const STORE_TIMEOUT_MS = 1000;

/** Every replica migrates at start-up; this lock lets one do it while the others wait. */
const MIGRATION_LOCK = 'desk-atlas:lead-migrations';

/** Connection-level failures: refused, reset, timed out, terminated, server shutting down or full. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
const NETWORK_MESSAGE = /Connection terminated|connection error|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed|Connection ended|Query read timeout/i;

function isUnavailable(err: unknown): boolean {
  const code = String((err as { code?: unknown })?.code ?? '');
  // SQLSTATE classes 08 (connection exception), 53 (insufficient resources), 57 (operator intervention: shutdown, cancel)
  if (/^(08|53|57)[0-9A-Z]{3}$/.test(code)) return true;
  return NETWORK_CODES.has(code) || NETWORK_MESSAGE.test(String((err as Error)?.message ?? ''));
}

/**
 * A database that took too long (no connection, or no answer, in time) rather than one that
 * refused: only that opens the breaker. A refusal already fails fast, and the next call finds the
 * database back the moment it is.
 */
function isHang(err: unknown): boolean {
  return err instanceof StoreUnavailableError && /timeout|timed out/i.test(err.reason);
}

const UNIQUE_VIOLATION = '23505';

function ignoreDropped(): void {}

interface RawLead { lead_id: string; reference: string; endpoint: LeadEndpoint; created_at: string; payload: Record<string, unknown> }

interface RawOutbox {
  outbox_id: string; lead_id: string; reference: string; kind: 'team' | 'operator';
  operator_slug: string | null; message_id: string; message: OutboxRow['message'];
  status: OutboxStatus; attempts: number; next_attempt_at: string;
  last_error: string | null; sent_at: string | null; created_at: string;
}

// BIGINT columns arrive as strings; ids and ms timestamps fit a double exactly.
const toLead = (r: RawLead): LeadRow => ({
  leadId: Number(r.lead_id), reference: r.reference, endpoint: r.endpoint,
  createdAt: Number(r.created_at), payload: r.payload,
});

const toOutbox = (r: RawOutbox): OutboxRow => ({
  outboxId: Number(r.outbox_id), leadId: Number(r.lead_id), reference: r.reference, kind: r.kind,
  operatorSlug: r.operator_slug, messageId: r.message_id, message: r.message,
  status: r.status, attempts: r.attempts, nextAttemptAt: Number(r.next_attempt_at),
  lastError: r.last_error, sentAt: r.sent_at === null ? null : Number(r.sent_at), createdAt: Number(r.created_at),
});

const OUTBOX_COLUMNS = `o.outbox_id, o.lead_id, l.reference, o.kind, o.operator_slug, o.message_id, o.message,
  o.status, o.attempts, o.next_attempt_at, o.last_error, o.sent_at, o.created_at`;
const OUTBOX_SELECT = `SELECT ${OUTBOX_COLUMNS} FROM outbox o JOIN leads l ON l.lead_id = o.lead_id`;

/**
 * The lead, its outbox rows and (with a key) its idempotency record in one statement, so one
 * round trip and one implicit transaction. With a key, the claim is consumed in the same
 * statement: a request whose claim expired and was taken writes nothing.
 */
const INSERT_LEAD = `
WITH claim AS (
  DELETE FROM idempotency_claims
  WHERE $7::text IS NOT NULL AND endpoint = $2::text AND idempotency_key = $7::text AND token = $8::text
  RETURNING 1
), lead AS (
  INSERT INTO leads (reference, endpoint, created_at, payload)
  SELECT $1::text, $2::text, $3::bigint, $4::jsonb
  WHERE $7::text IS NULL OR EXISTS (SELECT 1 FROM claim)
  RETURNING lead_id
), outbox_rows AS (
  INSERT INTO outbox (lead_id, kind, operator_slug, message_id, message, status, attempts, next_attempt_at, created_at)
  SELECT lead.lead_id, o.kind, o.operator_slug, o.message_id, o.message, 'pending', 0, $3::bigint, $3::bigint
  FROM lead, ROWS FROM (jsonb_to_recordset($5::jsonb) AS (kind text, operator_slug text, message_id text, message jsonb))
    WITH ORDINALITY AS o(kind, operator_slug, message_id, message, n)
  ORDER BY o.n
), idempotency_row AS (
  INSERT INTO idempotency (endpoint, idempotency_key, body_hash, status_code, response, lead_id, created_at)
  SELECT $2::text, $7::text, $9::text, $10::integer, $6::json, lead.lead_id, $3::bigint
  FROM lead WHERE $7::text IS NOT NULL
)
SELECT lead_id FROM lead`;

export interface PostgresStoreOptions {
  /** connections per replica (default 10) */
  poolSize?: number;
  /** how long a request waits for a connection before it gets 502 (default 3 s) */
  connectTimeoutMs?: number;
  /** limit per statement (default 10 s): on the server, and on the client 5 s later for a server that stopped answering */
  statementTimeoutMs?: number;
  onError?: (err: Error) => void;
  /** where the circuit breaker logs that it opened and closed */
  log?: BreakerLog;
}

const silent: BreakerLog = { warn: () => undefined, info: () => undefined };

/**
 * Leads, outbox and idempotency records in PostgreSQL, shared by every replica. A pool that
 * reconnects by itself: while the database is unreachable each call fails fast with
 * StoreUnavailableError, and the first call after it is back succeeds (migrating first if the
 * start-up could not).
 *
 * The calls an enquiry makes go through a circuit breaker, so a hung database (connections open,
 * no answers) does not hold requests: the first idempotency call without an answer within
 * STORE_TIMEOUT_MS (or any call that times out waiting for the database) opens it, and until a
 * background `SELECT 1` is answered every enquiry call fails at once with StoreUnavailableError.
 * The lead write itself is refused while the breaker is open but never cut short by it: once
 * sent, its answer is the database's (committed, or failed within the statement timeout), so an
 * enquiry is acknowledged only when stored.
 */
export class PostgresLeadStore implements LeadStore {
  readonly kind = 'postgres' as const;
  readonly pool: pg.Pool;
  private migrated = false;
  private migrating: Promise<void> | undefined;
  private readonly breaker: CircuitBreaker;

  constructor(databaseUrl: string, opts: PostgresStoreOptions = {}) {
    this.pool = new pg.Pool({
      connectionString: databaseUrl,
      max: opts.poolSize ?? 10,
      connectionTimeoutMillis: opts.connectTimeoutMs ?? 3000,
      statement_timeout: opts.statementTimeoutMs ?? 10_000,
      query_timeout: (opts.statementTimeoutMs ?? 10_000) + 5000,
      idleTimeoutMillis: 30_000,
      keepAlive: true,
      application_name: 'desk-atlas',
    });
    // An idle connection the server dropped: the pool discards it and opens another on demand.
    this.pool.on('error', (err) => opts.onError?.(err));
    // A connection can also drop while it is handed out, even before the caller holds it (the
    // server's "ready" and its shutdown notice in one packet): the next query on it fails and the
    // pool discards it on release, so the event only needs a listener, or the process would crash.
    this.pool.on('connect', (client) => client.on('error', ignoreDropped));
    this.breaker = new CircuitBreaker({
      timeoutMs: STORE_TIMEOUT_MS,
      probe: () => this.pool.query('SELECT 1'),
      isOutage: isHang,
      log: opts.log ?? silent,
      messages: {
        opened: 'lead store: PostgreSQL unavailable, enquiries refused until it answers',
        closed: 'lead store: PostgreSQL answers again, enquiries accepted',
      },
    });
  }

  /** An enquiry's call through the breaker; `bounded`: cut short after STORE_TIMEOUT_MS (see the class). */
  private async guarded<T>(op: () => Promise<T>, bounded = true): Promise<T> {
    try {
      // the first call after a start without the database migrates first: DDL is not cut short
      if (!this.migrated) await this.breaker.call(() => this.migrate(), false);
      return await this.breaker.call(op, bounded);
    } catch (err) {
      throw err instanceof CircuitOpenError ? new StoreUnavailableError(err.message, { cause: err }) : err;
    }
  }

  /** Applies the migrations not yet applied; safe with many replicas starting at once. */
  migrate(): Promise<void> {
    if (this.migrated) return Promise.resolve();
    this.migrating ??= this.applyMigrations()
      .then(() => { this.migrated = true; })
      .finally(() => { this.migrating = undefined; });
    return this.migrating;
  }

  private async applyMigrations(): Promise<void> {
    await this.connected(async (client) => {
      await client.query('BEGIN');
      try {
        await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [MIGRATION_LOCK]);
        await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
          version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`);
        const applied = new Set((await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version));
        for (const m of readMigrations('postgres')) {
          if (applied.has(m.version)) continue;
          await client.query(m.sql);
          await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [m.version]);
        }
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      }
    });
  }

  /** Runs `fn` on one pooled connection; failures to reach the database become StoreUnavailableError. */
  private async connected<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      throw new StoreUnavailableError(String((err as Error).message), { cause: err });
    }
    let broken: Error | undefined;
    try {
      return await fn(client);
    } catch (err) {
      if (isUnavailable(err)) {
        broken = err as Error;
        throw new StoreUnavailableError(String((err as Error).message), { cause: err });
      }
      throw err;
    } finally {
      // A connection that failed is not handed out again.
      client.release(broken);
    }
  }

  /** `name`: a statement of the hot path, prepared once per connection. */
  private async query<R extends pg.QueryResultRow>(sql: string, params: unknown[] = [], name?: string): Promise<pg.QueryResult<R>> {
    await this.migrate();
    return this.connected((client) => client.query<R>({ text: sql, values: params, name }));
  }

  async schemaVersion(): Promise<number> {
    const { rows } = await this.query<{ v: number | null }>('SELECT max(version) AS v FROM schema_migrations');
    return rows[0].v ?? 0;
  }

  async getIdempotency(endpoint: LeadEndpoint, key: string, notBefore: number): Promise<IdempotencyRecord | undefined> {
    const { rows } = await this.guarded(() => this.query<{ body_hash: string; status_code: number; response: unknown; created_at: string }>(
      `SELECT body_hash, status_code, response, created_at FROM idempotency
       WHERE endpoint = $1 AND idempotency_key = $2 AND created_at >= $3`, [endpoint, key, notBefore], 'get-idempotency'));
    const r = rows[0];
    return r && { bodyHash: r.body_hash, statusCode: r.status_code, response: r.response, createdAt: Number(r.created_at) };
  }

  async claimIdempotency(claim: IdempotencyClaim, leaseUntil: number, now: number, notBefore: number): Promise<boolean> {
    const { rows } = await this.guarded(() => this.query(
      `WITH claimed AS (
         INSERT INTO idempotency_claims (endpoint, idempotency_key, token, lease_until) VALUES ($1, $2, $3, $4)
         ON CONFLICT (endpoint, idempotency_key) DO UPDATE SET token = excluded.token, lease_until = excluded.lease_until
         WHERE idempotency_claims.lease_until <= $5
         RETURNING 1
       ), expired AS (
         DELETE FROM idempotency WHERE endpoint = $1 AND idempotency_key = $2 AND created_at < $6
           AND EXISTS (SELECT 1 FROM claimed)
       )
       SELECT 1 FROM claimed`,
      [claim.endpoint, claim.key, claim.token, leaseUntil, now, notBefore], 'claim-idempotency'));
    return rows.length === 1;
  }

  async releaseIdempotency(claim: IdempotencyClaim): Promise<void> {
    await this.guarded(() => this.query('DELETE FROM idempotency_claims WHERE endpoint = $1 AND idempotency_key = $2 AND token = $3',
      [claim.endpoint, claim.key, claim.token], 'release-idempotency'));
  }

  async insertLead(input: InsertLeadInput): Promise<InsertLeadResult> {
    const idem = input.idempotency;
    const outbox = input.outbox.map((o) => ({ kind: o.kind, operator_slug: o.operatorSlug, message_id: o.messageId, message: o.message }));
    try {
      const { rows } = await this.guarded(() => this.query<{ lead_id: string }>(INSERT_LEAD, [
        input.reference, input.endpoint, input.createdAt, JSON.stringify(input.payload), JSON.stringify(outbox),
        idem ? JSON.stringify(idem.response) : null, idem?.claim.key ?? null, idem?.claim.token ?? null,
        idem?.bodyHash ?? null, idem?.statusCode ?? null,
      ], 'insert-lead'), false);
      return rows.length ? { ok: true, leadId: Number(rows[0].lead_id) } : { ok: false, reason: 'claim-lost' };
    } catch (err) {
      const e = err as { code?: string; constraint?: string };
      if (e.code === UNIQUE_VIOLATION && e.constraint === 'leads_reference_key') return { ok: false, reason: 'reference-taken' };
      // A record under the key already (its writer's claim had expired): that one stands.
      if (e.code === UNIQUE_VIOLATION && e.constraint === 'idempotency_pkey') return { ok: false, reason: 'claim-lost' };
      throw err;
    }
  }

  async purgeIdempotency(olderThan: number, now: number): Promise<number> {
    await this.query('DELETE FROM idempotency_claims WHERE lease_until < $1', [now]);
    return (await this.query('DELETE FROM idempotency WHERE created_at < $1', [olderThan])).rowCount ?? 0;
  }

  async listLeads(limit = 50): Promise<LeadRow[]> {
    return (await this.query<RawLead>('SELECT * FROM leads ORDER BY created_at DESC, lead_id DESC LIMIT $1', [limit])).rows.map(toLead);
  }

  async getLead(reference: string): Promise<LeadRow | undefined> {
    const r = (await this.query<RawLead>('SELECT * FROM leads WHERE reference = $1', [reference])).rows[0];
    return r && toLead(r);
  }

  async countLeads(): Promise<number> {
    return Number((await this.query<{ n: string }>('SELECT count(*) AS n FROM leads')).rows[0].n);
  }

  async outboxForLead(leadId: number): Promise<OutboxRow[]> {
    return (await this.query<RawOutbox>(`${OUTBOX_SELECT} WHERE o.lead_id = $1 ORDER BY o.outbox_id`, [leadId])).rows.map(toOutbox);
  }

  async listOutbox(status?: OutboxStatus, limit = 100): Promise<OutboxRow[]> {
    const { rows } = status
      ? await this.query<RawOutbox>(`${OUTBOX_SELECT} WHERE o.status = $1 ORDER BY o.outbox_id LIMIT $2`, [status, limit])
      : await this.query<RawOutbox>(`${OUTBOX_SELECT} ORDER BY o.outbox_id DESC LIMIT $1`, [limit]);
    return rows.map(toOutbox);
  }

  async outboxCounts(): Promise<Record<OutboxStatus, number>> {
    const counts = { pending: 0, sent: 0, dead: 0 };
    for (const r of (await this.query<{ status: OutboxStatus; n: string }>('SELECT status, count(*) AS n FROM outbox GROUP BY status')).rows) {
      counts[r.status] = Number(r.n);
    }
    return counts;
  }

  /** SKIP LOCKED: relays claiming at the same moment get disjoint rows; the lease covers the send. */
  async claimDueOutbox(now: number, limit: number, leaseUntil: number): Promise<OutboxRow[]> {
    const { rows } = await this.query<RawOutbox>(
      `WITH due AS (
         SELECT outbox_id FROM outbox WHERE status = 'pending' AND next_attempt_at <= $1
         ORDER BY next_attempt_at, outbox_id LIMIT $2 FOR UPDATE SKIP LOCKED
       ), claimed AS (
         UPDATE outbox o SET next_attempt_at = $3 FROM due WHERE o.outbox_id = due.outbox_id
         RETURNING o.*
       )
       SELECT ${OUTBOX_COLUMNS} FROM claimed o JOIN leads l ON l.lead_id = o.lead_id ORDER BY o.outbox_id`,
      [now, limit, leaseUntil], 'claim-due-outbox');
    return rows.map(toOutbox);
  }

  async nextDueAt(): Promise<number | undefined> {
    const v = (await this.query<{ v: string | null }>(`SELECT min(next_attempt_at) AS v FROM outbox WHERE status = 'pending'`, [], 'next-due')).rows[0].v;
    return v === null ? undefined : Number(v);
  }

  async markSent(outboxIds: number[], now: number): Promise<void> {
    await this.query(
      `UPDATE outbox SET status = 'sent', attempts = attempts + 1, sent_at = $1, last_error = NULL WHERE outbox_id = ANY($2::bigint[])`,
      [now, outboxIds], 'mark-sent');
  }

  async markFailed(outboxId: number, error: string, nextAttemptAt: number | null): Promise<void> {
    if (nextAttemptAt === null) {
      await this.query(`UPDATE outbox SET status = 'dead', attempts = attempts + 1, last_error = $1 WHERE outbox_id = $2`, [error, outboxId]);
    } else {
      await this.query(`UPDATE outbox SET attempts = attempts + 1, last_error = $1, next_attempt_at = $2 WHERE outbox_id = $3`,
        [error, nextAttemptAt, outboxId]);
    }
  }

  async redeliver(target: RedeliverTarget, now: number): Promise<number> {
    const { rowCount } = target === 'all-dead'
      ? await this.query(`UPDATE outbox SET status = 'pending', attempts = 0, next_attempt_at = $1 WHERE status = 'dead'`, [now])
      : await this.query(`UPDATE outbox SET status = 'pending', attempts = 0, next_attempt_at = $1 WHERE outbox_id = $2`, [now, target.outboxId]);
    return rowCount ?? 0;
  }

  async close(): Promise<void> {
    this.breaker.stop();
    await this.pool.end();
  }
}
