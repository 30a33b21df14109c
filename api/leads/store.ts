/**
 * The lead store: leads, their outbox and idempotency records. Two implementations behind this
 * one interface: SQLite (sqlite-store.ts, the embedded default, one process per file) and
 * PostgreSQL (postgres-store.ts, when DATABASE_URL is set, shared by every replica).
 */
import type { LeadEndpoint } from '../../contract/leads.ts';

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

export interface LeadRow {
  leadId: number;
  reference: string;
  endpoint: LeadEndpoint;
  createdAt: number;
  payload: Record<string, unknown>;
}

export type OutboxStatus = 'pending' | 'sent' | 'dead';

export interface OutboxRow {
  outboxId: number;
  leadId: number;
  reference: string;
  kind: 'team' | 'operator';
  operatorSlug: string | null;
  messageId: string;
  message: OutgoingMessage;
  status: OutboxStatus;
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

/** The key a request holds while it verifies the challenge and writes (claimIdempotency). */
export interface IdempotencyClaim {
  endpoint: LeadEndpoint;
  key: string;
  token: string;
}

export interface InsertLeadInput {
  reference: string;
  endpoint: LeadEndpoint;
  createdAt: number;
  payload: Record<string, unknown>;
  outbox: NewOutboxRow[];
  /** with a key: the claim is consumed and the record written in the same transaction */
  idempotency?: { claim: IdempotencyClaim; bodyHash: string; statusCode: number; response: unknown };
}

export type InsertLeadResult =
  | { ok: true; leadId: number }
  /** the claim expired and another request took the key: nothing was written */
  | { ok: false; reason: 'claim-lost' }
  /** the reference is taken (50 random bits: practically never): nothing was written */
  | { ok: false; reason: 'reference-taken' };

export type RedeliverTarget = { outboxId: number } | 'all-dead';

export interface LeadStore {
  readonly kind: 'sqlite' | 'postgres';
  /** the highest migration applied */
  schemaVersion(): Promise<number>;

  /** The record under this key written at or after `notBefore`, if any. */
  getIdempotency(endpoint: LeadEndpoint, key: string, notBefore: number): Promise<IdempotencyRecord | undefined>;
  /**
   * Takes the key for this request unless another request holds an unexpired claim on it
   * (then undefined: wait, look again). Drops an expired record under the key.
   */
  claimIdempotency(claim: IdempotencyClaim, leaseUntil: number, now: number, notBefore: number): Promise<boolean>;
  /** Gives the key back without a record (the request failed: errors are not stored). */
  releaseIdempotency(claim: IdempotencyClaim): Promise<void>;
  /** One transaction: the lead, its outbox rows and its idempotency record, or nothing. */
  insertLead(input: InsertLeadInput): Promise<InsertLeadResult>;
  /** Deletes records older than `olderThan` and claims expired before `now`; returns the records deleted. */
  purgeIdempotency(olderThan: number, now: number): Promise<number>;

  listLeads(limit?: number): Promise<LeadRow[]>;
  getLead(reference: string): Promise<LeadRow | undefined>;
  countLeads(): Promise<number>;
  outboxForLead(leadId: number): Promise<OutboxRow[]>;
  listOutbox(status?: OutboxStatus, limit?: number): Promise<OutboxRow[]>;
  outboxCounts(): Promise<Record<OutboxStatus, number>>;

  /**
   * Up to `limit` rows due at `now`, reserved for this relay until `leaseUntil`: another relay
   * sharing the store skips them, and takes them up again after the lease if this one died.
   */
  claimDueOutbox(now: number, limit: number, leaseUntil: number): Promise<OutboxRow[]>;
  nextDueAt(): Promise<number | undefined>;
  /** One statement for the rows a pass delivered together (one commit, not one per message). */
  markSent(outboxIds: number[], now: number): Promise<void>;
  /** `nextAttemptAt` null: a dead letter. */
  markFailed(outboxId: number, error: string, nextAttemptAt: number | null): Promise<void>;
  /** Dead letters (or one row by id, whatever its status) go back to pending with a fresh attempt budget. */
  redeliver(target: RedeliverTarget, now: number): Promise<number>;

  close(): Promise<void>;
}

/**
 * The database cannot be reached (refused, dropped, timed out, shutting down, busy): the request
 * answers 502 UPSTREAM_UNAVAILABLE and may be retried; nothing half-written was committed.
 */
export class StoreUnavailableError extends Error {
  constructor(readonly reason: string, options?: { cause?: unknown }) {
    super(`lead store unavailable: ${reason}`, options);
  }
}
