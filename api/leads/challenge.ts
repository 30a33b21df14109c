const TURNSTILE_VERIFY_URL = 'https://challenges.cloudflare.com/turnstile/v0/siteverify';
const CHALLENGE_TIMEOUT_MS = 5000;

interface ChallengeConfig {
  secret?: string;
  verifyUrl?: string;
  nodeEnv?: string;
  /** the verifier counts as unavailable past this; 5 s by default, shorter in tests */
  timeoutMs?: number;
}

type ChallengeResult = 'passed' | 'failed';

/** The verifier could not be asked (down, slow, 5xx): the caller answers 502 and stores nothing. */
export class ChallengeUnavailableError extends Error {
  constructor(reason: string) {
    super(`challenge verifier unavailable: ${reason}`);
    this.name = 'ChallengeUnavailableError';
  }
}

/** Our own secret was refused: a configuration fault (500), not the client's. */
class ChallengeMisconfiguredError extends Error {
  constructor(codes: string[]) {
    super(`challenge verifier refused our secret: ${codes.join(',')}`);
    this.name = 'ChallengeMisconfiguredError';
  }
}

/** Refuse to start in production without a Turnstile secret. */
function assertChallengeConfig(config: ChallengeConfig): void {
  if (config.nodeEnv?.toLowerCase() === 'production' && !config.secret?.trim()) {
    throw new Error('CHALLENGE_SECRET is required when NODE_ENV=production');
  }
}

/** Cloudflare Turnstile siteverify (or a stand-in at CHALLENGE_VERIFY_URL). */
export class ChallengeVerifier {
  readonly enabled: boolean;
  private readonly secret: string;
  private readonly url: string;
  private readonly timeoutMs: number;

  constructor(config: ChallengeConfig) {
    assertChallengeConfig(config);
    this.secret = config.secret ?? '';
    this.enabled = this.secret !== '';
    this.url = config.verifyUrl || TURNSTILE_VERIFY_URL;
    this.timeoutMs = config.timeoutMs ?? CHALLENGE_TIMEOUT_MS;
  }

  async verify(token: string | undefined, remoteIp: string | undefined): Promise<ChallengeResult> {
    if (!this.enabled) return 'passed';
    if (!token) return 'failed';
    const form = new URLSearchParams({ secret: this.secret, response: token });
    if (remoteIp) form.set('remoteip', remoteIp);
    let body: { success?: unknown; 'error-codes'?: unknown };
    try {
      const res = await fetch(this.url, {
        method: 'POST',
        body: form,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      if (!res.ok) throw new ChallengeUnavailableError(`HTTP ${res.status}`);
      body = (await res.json()) as typeof body;
    } catch (err) {
      if (err instanceof ChallengeUnavailableError) throw err;
      const name = (err as Error).name;
      throw new ChallengeUnavailableError(name === 'TimeoutError' ? `no answer within ${this.timeoutMs} ms` : name);
    }
    if (body.success === true) return 'passed';
    const codes = Array.isArray(body['error-codes']) ? body['error-codes'].map(String) : [];
    if (codes.includes('internal-error')) throw new ChallengeUnavailableError('internal-error');
    if (codes.includes('missing-input-secret') || codes.includes('invalid-input-secret')) {
      throw new ChallengeMisconfiguredError(codes);
    }
    return 'failed';
  }
}
