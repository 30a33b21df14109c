import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { CONTRACT_VERSION } from '../../contract/common.ts';
import type { LeadRouting } from '../../contract/build.ts';
import type { ContactBody, InquiryBody, LeadEndpoint, LeadReceipt } from '../../contract/leads.ts';
import type { ErrorCode } from '../../contract/problem.ts';
import { ChallengeUnavailableError, ChallengeVerifier } from './challenge.ts';
import { composeMessages } from './messages.ts';
import { OutboxRelay, SmtpTransport, SpoolTransport, type MailTransport, type RelayLogger, type RelayOptions } from './outbox.ts';
import { SqliteLeadStore } from './sqlite-store.ts';
import { StoreUnavailableError, type IdempotencyClaim, type IdempotencyRecord, type LeadStore } from './store.ts';

export interface LeadsConfig {
  /** the SQLite file, used when databaseUrl is unset */
  dbPath: string;
  /** PostgreSQL (postgres://…): the store every replica shares */
  databaseUrl?: string;
  mailSpoolDir: string;
  smtpUrl?: string;
  teamEmail: string;
  challengeSecret?: string;
  challengeVerifyUrl?: string;
  nodeEnv?: string;
}

export interface LeadsServiceOptions {
  now?: () => number;
  /** verifier deadline; 5 s unless a test shortens it */
  challengeTimeoutMs?: number;
  relay?: Omit<RelayOptions, 'now' | 'log'>;
  /** replaces the SMTP/spool transport chosen from the config */
  transport?: MailTransport;
  /** start the outbox loop (default true) */
  startRelay?: boolean;
  /**
   * How long a request may hold its Idempotency-Key before another request with the key may take
   * it over (a replica that died mid-request): longer than the challenge deadline plus a write.
   */
  claimLeaseMs?: number;
  log?: RelayLogger;
}

interface SubmitInput {
  endpoint: LeadEndpoint;
  body: ContactBody | InquiryBody;
  idempotencyKey?: string;
  remoteIp?: string;
  routing: LeadRouting;
  /** counts a new enquiry against its sender's limit, or throws to refuse it; a replay is never counted */
  admit?: () => Promise<void>;
}

export interface SubmitResult {
  statusCode: number;
  body: { data: LeadReceipt; meta: { contractVersion: string } };
  replayed: boolean;
}

/** An enquiry the service refuses, with the contract's code for it; the route answers it as a problem. */
export class LeadRefusedError extends Error {
  constructor(
    readonly code: Extract<ErrorCode, 'UPSTREAM_UNAVAILABLE' | 'IDEMPOTENCY_KEY_CONFLICT' | 'CHALLENGE_FAILED'>,
    message: string,
  ) {
    super(message);
  }
}

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const CLAIM_LEASE_MS = 20_000;
/** A request waiting for another with its key looks again after 10 ms, then 20, 40… up to 200 ms. */
const CLAIM_POLL_MS = { first: 10, max: 200 };
const REFERENCE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** `DA-` and 10 symbols of Crockford's base32 (no I, L, O, U): 50 random bits. */
export function newReference(): string {
  const bytes = randomBytes(10);
  let s = 'DA-';
  for (const b of bytes) s += REFERENCE_ALPHABET[b & 31];
  return s;
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The enquiry's identity under an Idempotency-Key: the body with keys sorted, without the
 * challenge token. The token is a single-use credential, not part of what was asked: a form
 * that re-solves the challenge and resends the same enquiry must get its first receipt back,
 * not a conflict (a conflict would push the client to a new key, i.e. a duplicate enquiry).
 */
function bodyHash(body: object): string {
  const { challengeToken: _token, ...rest } = body as Record<string, unknown>;
  return createHash('sha256').update(canonicalJson(rest)).digest('hex');
}

/** Store + challenge + outbox relay: everything behind the two lead operations. */
export class LeadsService {
  readonly store: LeadStore;
  readonly challenge: ChallengeVerifier;
  readonly relay: OutboxRelay;
  private readonly teamEmail: string;
  private readonly now: () => number;
  private readonly claimLeaseMs: number;
  private readonly log: RelayLogger | undefined;
  private purgeTimer: NodeJS.Timeout | undefined;

  private constructor(config: LeadsConfig, opts: LeadsServiceOptions, store: LeadStore) {
    this.now = opts.now ?? Date.now;
    this.teamEmail = config.teamEmail;
    this.claimLeaseMs = opts.claimLeaseMs ?? CLAIM_LEASE_MS;
    this.log = opts.log;
    this.challenge = new ChallengeVerifier({
      secret: config.challengeSecret, verifyUrl: config.challengeVerifyUrl,
      nodeEnv: config.nodeEnv, timeoutMs: opts.challengeTimeoutMs,
    });
    this.store = store;
    const transport = opts.transport
      ?? (config.smtpUrl ? new SmtpTransport(config.smtpUrl) : new SpoolTransport(config.mailSpoolDir));
    this.relay = new OutboxRelay(this.store, transport, { ...opts.relay, now: this.now, log: opts.log });
  }

  /**
   * Opens the store (migrating it), and starts the relay, which first drains any backlog. An
   * unreachable PostgreSQL does not stop the start: enquiries answer 502 until it is back.
   */
  static async open(config: LeadsConfig, opts: LeadsServiceOptions = {}): Promise<LeadsService> {
    // the PostgreSQL client is imported only by the servers that use it (a tenth of a second of start-up)
    const store = config.databaseUrl
      ? new (await import('./postgres-store.ts')).PostgresLeadStore(config.databaseUrl, {
        onError: (err) => opts.log?.warn({ error: err.message }, 'lead store connection lost'),
        log: opts.log,
      })
      : new SqliteLeadStore(config.dbPath);
    let service: LeadsService;
    try {
      service = new LeadsService(config, opts, store);
    } catch (err) {
      await store.close();
      throw err;
    }
    if (store.kind === 'postgres') {
      await store.migrate().catch((err) => {
        if (!(err instanceof StoreUnavailableError)) throw err;
        opts.log?.error({ error: err.reason }, 'lead store unreachable at start-up; enquiries answer 502 until it is back');
      });
    }
    await service.purgeExpired().catch(() => undefined);
    if (opts.startRelay !== false) {
      service.relay.start();
      service.purgeTimer = setInterval(() => {
        service.purgeExpired().catch((err) => opts.log?.warn({ error: String((err as Error).message) }, 'idempotency purge failed'));
      }, 60 * 60 * 1000);
      service.purgeTimer.unref();
    }
    return service;
  }

  get challengeEnabled(): boolean { return this.challenge.enabled; }
  get transportKind(): 'smtp' | 'spool' { return this.relay.transport.kind; }

  /** Idempotency records older than 24 h, and claims whose lease ran out. */
  purgeExpired(): Promise<number> {
    const now = this.now();
    return this.store.purgeIdempotency(now - IDEMPOTENCY_TTL_MS, now);
  }

  /** After body validation: idempotency lookup → limit → challenge → one transaction. Throws LeadRefusedError. */
  async submit(input: SubmitInput): Promise<SubmitResult> {
    // counted once, though a claim lost mid-write runs the request again
    let admitted: Promise<void> | undefined;
    const admit = input.admit;
    const once: SubmitInput = { ...input, admit: admit && (() => (admitted ??= admit())) };
    try {
      const key = input.idempotencyKey;
      if (key === undefined) return (await this.execute(once, undefined))!;
      return await this.submitUnderKey(once, { endpoint: input.endpoint, key, token: randomUUID() }, bodyHash(input.body));
    } catch (err) {
      if (err instanceof StoreUnavailableError) {
        this.log?.warn({ error: err.reason }, 'lead store unavailable');
        throw new LeadRefusedError('UPSTREAM_UNAVAILABLE', 'The enquiry store is unavailable; retry later under the same Idempotency-Key.');
      }
      throw err;
    }
  }

  /**
   * Under a key, across every process that shares the store: claim the key (one request at a
   * time holds it), then replay the record if there is one, else run. A request that finds the
   * key claimed replays the record if it is there by now, else waits and tries again: it replays
   * what the holder stored, or runs itself if the holder stored nothing (errors are not stored) or
   * died. Claiming before looking means a record written by the previous holder is always seen.
   * The primary key on the records is the last word: a request whose claim was taken over writes
   * nothing.
   */
  private async submitUnderKey(input: SubmitInput, claim: IdempotencyClaim, hash: string): Promise<SubmitResult> {
    const record = () => this.store.getIdempotency(claim.endpoint, claim.key, this.now() - IDEMPOTENCY_TTL_MS);
    for (let wait = CLAIM_POLL_MS.first; ; wait = Math.min(wait * 2, CLAIM_POLL_MS.max)) {
      const now = this.now();
      if (!await this.store.claimIdempotency(claim, now + this.claimLeaseMs, now, now - IDEMPOTENCY_TTL_MS)) {
        const stored = await record();
        if (stored) return this.replay(stored, hash);
        await sleep(wait);
        continue;
      }
      let consumed = false;
      try {
        const stored = await record();
        if (stored) return this.replay(stored, hash);
        const result = await this.execute(input, { claim, hash });
        consumed = result !== undefined;
        if (result) return result;
      } finally {
        // Best effort: a claim that cannot be given back expires with its lease.
        if (!consumed) await this.store.releaseIdempotency(claim).catch(() => undefined);
      }
    }
  }

  private replay(record: IdempotencyRecord, hash: string): SubmitResult {
    if (record.bodyHash !== hash) {
      throw new LeadRefusedError('IDEMPOTENCY_KEY_CONFLICT',
        'This Idempotency-Key was used with a different body; use a new key for a new enquiry.');
    }
    return { statusCode: record.statusCode, body: record.response as SubmitResult['body'], replayed: true };
  }

  /** The limit, the challenge, then the write; undefined when the claim on the key was lost meanwhile (nothing written). */
  private async execute(input: SubmitInput, idem: { claim: IdempotencyClaim; hash: string } | undefined): Promise<SubmitResult | undefined> {
    await input.admit?.();
    let verdict;
    try {
      verdict = await this.challenge.verify(input.body.challengeToken, input.remoteIp);
    } catch (err) {
      if (err instanceof ChallengeUnavailableError) {
        throw new LeadRefusedError('UPSTREAM_UNAVAILABLE', 'The challenge verifier is unavailable; retry later.');
      }
      // ChallengeMisconfiguredError and the rest: our fault, a 500 from the error handler.
      throw err;
    }
    if (verdict !== 'passed') {
      throw new LeadRefusedError('CHALLENGE_FAILED', 'The challenge token is missing or invalid.');
    }

    const { challengeToken: _t, website: _w, ...payload } = input.body;
    for (let attempt = 0; ; attempt++) {
      const createdAt = this.now();
      const reference = newReference();
      const response = { data: { received: true as const, reference }, meta: { contractVersion: CONTRACT_VERSION } };
      const result = await this.store.insertLead({
        reference, endpoint: input.endpoint, createdAt, payload,
        outbox: composeMessages({
          reference, endpoint: input.endpoint, body: input.body, routing: input.routing,
          teamEmail: this.teamEmail, createdAt,
        }),
        idempotency: idem && { claim: idem.claim, bodyHash: idem.hash, statusCode: 200, response },
      });
      if (result.ok) {
        this.relay.kick();
        return { statusCode: 200, body: response, replayed: false };
      }
      if (result.reason === 'claim-lost') return undefined;
      if (attempt >= 3) throw new Error('could not draw an unused reference in 4 attempts');
    }
  }

  async close(): Promise<void> {
    if (this.purgeTimer) clearInterval(this.purgeTimer);
    await this.relay.stop();
    this.relay.transport.close();
    await this.store.close();
  }
}
