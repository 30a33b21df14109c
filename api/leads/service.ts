import { createHash, randomBytes } from 'node:crypto';
import { CONTRACT_VERSION } from '../../contract/common.ts';
import type { LeadRouting } from '../../contract/build.ts';
import type { ContactBody, InquiryBody, LeadEndpoint, LeadReceipt } from '../../contract/leads.ts';
import { ApiError } from '../http/problems.ts';
import { ChallengeUnavailableError, ChallengeVerifier } from './challenge.ts';
import { composeMessages } from './messages.ts';
import { OutboxRelay, SmtpTransport, SpoolTransport, type MailTransport, type RelayLogger, type RelayOptions } from './outbox.ts';
import { LeadStore, type IdempotencyRecord } from './store.ts';

export interface LeadsConfig {
  dbPath: string;
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
  /** start the outbox loop (default true); the CLI opens the service without it */
  startRelay?: boolean;
  log?: RelayLogger;
}

interface SubmitInput {
  endpoint: LeadEndpoint;
  body: ContactBody | InquiryBody;
  idempotencyKey?: string;
  remoteIp?: string;
  routing: LeadRouting;
}

interface SubmitResult {
  statusCode: number;
  body: { data: LeadReceipt; meta: { contractVersion: string } };
  replayed: boolean;
}

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
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
  private readonly inflight = new Map<string, Promise<SubmitResult>>();
  private purgeTimer: NodeJS.Timeout | undefined;

  private constructor(config: LeadsConfig, opts: LeadsServiceOptions) {
    this.now = opts.now ?? Date.now;
    this.teamEmail = config.teamEmail;
    this.challenge = new ChallengeVerifier({
      secret: config.challengeSecret, verifyUrl: config.challengeVerifyUrl,
      nodeEnv: config.nodeEnv, timeoutMs: opts.challengeTimeoutMs,
    });
    this.store = new LeadStore(config.dbPath);
    const transport = opts.transport
      ?? (config.smtpUrl ? new SmtpTransport(config.smtpUrl) : new SpoolTransport(config.mailSpoolDir));
    this.relay = new OutboxRelay(this.store, transport, { ...opts.relay, now: this.now, log: opts.log });
  }

  /** Opens the database (migrating it), and starts the relay, which first drains any backlog. */
  static open(config: LeadsConfig, opts: LeadsServiceOptions = {}): LeadsService {
    const service = new LeadsService(config, opts);
    service.purgeExpired();
    if (opts.startRelay !== false) {
      service.relay.start();
      service.purgeTimer = setInterval(() => service.purgeExpired(), 60 * 60 * 1000);
      service.purgeTimer.unref();
    }
    return service;
  }

  get challengeEnabled(): boolean { return this.challenge.enabled; }
  get transportKind(): 'smtp' | 'spool' { return this.relay.transport.kind; }

  /** Idempotency records older than 24 h. */
  purgeExpired(): number {
    return this.store.purgeIdempotency(this.now() - IDEMPOTENCY_TTL_MS);
  }

  /** After body validation: idempotency lookup → challenge → one transaction. Throws ApiError. */
  async submit(input: SubmitInput): Promise<SubmitResult> {
    const key = input.idempotencyKey;
    if (key === undefined) return this.execute(input, undefined);
    const hash = bodyHash(input.body);
    const scope = `${input.endpoint}\u0000${key}`;
    for (;;) {
      const record = this.store.getIdempotency(input.endpoint, key, this.now() - IDEMPOTENCY_TTL_MS);
      if (record) return this.replay(record, hash);
      const pending = this.inflight.get(scope);
      if (pending) {
        // Same key in flight: wait for it, then replay what it stored (or go ahead if it stored nothing).
        await pending.catch(() => undefined);
        continue;
      }
      const run = this.execute(input, { key, hash });
      this.inflight.set(scope, run);
      try {
        return await run;
      } finally {
        if (this.inflight.get(scope) === run) this.inflight.delete(scope);
      }
    }
  }

  private replay(record: IdempotencyRecord, hash: string): SubmitResult {
    if (record.bodyHash !== hash) {
      throw new ApiError('IDEMPOTENCY_KEY_CONFLICT',
        'This Idempotency-Key was used with a different body; use a new key for a new enquiry.');
    }
    return { statusCode: record.statusCode, body: record.response as SubmitResult['body'], replayed: true };
  }

  private async execute(input: SubmitInput, idem: { key: string; hash: string } | undefined): Promise<SubmitResult> {
    let verdict;
    try {
      verdict = await this.challenge.verify(input.body.challengeToken, input.remoteIp);
    } catch (err) {
      if (err instanceof ChallengeUnavailableError) {
        throw new ApiError('UPSTREAM_UNAVAILABLE', 'The challenge verifier is unavailable; retry later.');
      }
      // ChallengeMisconfiguredError and the rest: our fault, a 500 from the error handler.
      throw err;
    }
    if (verdict !== 'passed') {
      throw new ApiError('CHALLENGE_FAILED', 'The challenge token is missing or invalid.');
    }

    const { challengeToken: _t, website: _w, ...payload } = input.body;
    for (let attempt = 0; ; attempt++) {
      const createdAt = this.now();
      const reference = newReference();
      const response = { data: { received: true as const, reference }, meta: { contractVersion: CONTRACT_VERSION } };
      try {
        const result = this.store.insertLead({
          reference, endpoint: input.endpoint, createdAt, payload,
          outbox: composeMessages({
            reference, endpoint: input.endpoint, body: input.body, routing: input.routing,
            teamEmail: this.teamEmail, createdAt,
          }),
          idempotency: idem && {
            key: idem.key, bodyHash: idem.hash, statusCode: 200, response,
            notBefore: createdAt - IDEMPOTENCY_TTL_MS,
          },
        });
        if (!result.ok) return this.replay(result.record, idem!.hash);
        this.relay.kick();
        return { statusCode: 200, body: response, replayed: false };
      } catch (err) {
        const unique = (err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE'
          && String((err as Error).message).includes('leads.reference');
        if (!unique || attempt >= 3) throw err;
      }
    }
  }

  async close(): Promise<void> {
    if (this.purgeTimer) clearInterval(this.purgeTimer);
    await this.relay.stop();
    this.relay.transport.close();
    this.store.close();
  }
}
