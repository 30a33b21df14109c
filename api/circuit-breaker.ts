/**
 * A circuit breaker for a dependency that requests would otherwise wait on (Redis for the rate
 * limits, PostgreSQL for the enquiry store). Closed, calls go through, each bounded by the
 * owner's timeout. The first call that times out or fails as an outage opens it: the callers still
 * waiting are released at that moment, and from then on calls are refused at once
 * (CircuitOpenError), so no request waits on a hung dependency beyond that first timeout. While
 * open, a probe runs in the background every PROBE_EVERY_MS, bounded by the same timeout; the
 * first one answered closes it. One line is logged when it opens and one when it closes.
 */

/** How often an open breaker probes its dependency; also what a refused caller is told to wait. */
export const PROBE_EVERY_MS = 1000;

/** The breaker answered instead of the dependency: it is open, or opened while the call waited. */
export class CircuitOpenError extends Error {}

export interface BreakerLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface CircuitBreakerOptions {
  /** longer than any healthy answer: exceeding it counts as an outage */
  timeoutMs: number;
  /** a cheap call that succeeds when the dependency answers again (PING, SELECT 1) */
  probe: () => Promise<unknown>;
  /** which failures are outages (others pass through and leave it closed); default every failure */
  isOutage?: (err: unknown) => boolean;
  log: BreakerLog;
  /** the line logged when it opens, and when it closes */
  messages: { opened: string; closed: string };
}

/**
 * Calls `fn` once `ms` have passed and the I/O that arrived meanwhile has been handled (timers run
 * before the poll phase, immediates after it): a process that was itself short of CPU, with the
 * answer waiting in its socket when the timer fires, does not blame the dependency. Returns the
 * cancel function.
 */
function after(ms: number, fn: () => void): () => void {
  let immediate: NodeJS.Immediate | undefined;
  const timer = setTimeout(() => { immediate = setImmediate(fn); }, ms);
  return () => {
    clearTimeout(timer);
    clearImmediate(immediate);
  };
}

export class CircuitBreaker {
  private open = false;
  private stopped = false;
  private probeTimer: NodeJS.Timeout | undefined;
  /** the bounded calls in flight, each a way to release its caller */
  private readonly waiting = new Set<(err: Error) => void>();

  constructor(private readonly opts: CircuitBreakerOptions) {}

  get isOpen(): boolean {
    return this.open;
  }

  /**
   * Runs `op` unless the breaker is open (then rejects at once with CircuitOpenError). An outage
   * failure of `op` opens it. `bounded` (the default): the caller also gets CircuitOpenError when
   * `op` takes longer than the timeout (which opens the breaker) or when the breaker opens while it
   * waits. Unbounded: the caller gets `op`'s own outcome whenever it comes (a write whose result
   * must not be guessed).
   */
  call<T>(op: () => Promise<T>, bounded = true): Promise<T> {
    if (this.open) return Promise.reject(new CircuitOpenError('open: the dependency did not answer its last call'));
    const outcome = op().catch((err: unknown) => {
      if (this.opts.isOutage?.(err) ?? true) this.trip(err);
      throw err;
    });
    if (!bounded) return outcome;
    return new Promise<T>((resolve, reject) => {
      const release = (err: Error) => {
        this.waiting.delete(release);
        cancel();
        reject(err);
      };
      const cancel = after(this.opts.timeoutMs, () => this.trip(new Error(`no answer within ${this.opts.timeoutMs} ms`)));
      this.waiting.add(release);
      outcome.then((value) => {
        this.waiting.delete(release);
        cancel();
        resolve(value);
      }, release);
    });
  }

  /** Stops probing (the owner is closing). */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.probeTimer);
  }

  private trip(cause: unknown): void {
    if (this.open) return;
    this.open = true;
    const reason = String((cause as Error)?.message ?? cause);
    this.opts.log.warn({ err: reason }, this.opts.messages.opened);
    for (const release of [...this.waiting]) release(new CircuitOpenError(`opened: ${reason}`, { cause }));
    this.scheduleProbe();
  }

  private scheduleProbe(): void {
    if (this.stopped) return;
    this.probeTimer = setTimeout(() => void this.probe(), PROBE_EVERY_MS);
    this.probeTimer.unref();
  }

  private async probe(): Promise<void> {
    let cancel = () => {};
    const deadline = new Promise<never>((_, reject) => {
      cancel = after(this.opts.timeoutMs, () => reject(new Error('probe timed out')));
    });
    try {
      await Promise.race([this.opts.probe(), deadline]);
    } catch {
      this.scheduleProbe();
      return;
    } finally {
      cancel();
    }
    if (this.stopped) return;
    this.open = false;
    this.opts.log.info({}, this.opts.messages.closed);
  }
}
