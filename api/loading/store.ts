import { EventEmitter } from 'node:events';
import { watch, type FSWatcher } from 'node:fs';
import { readlink, realpath } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { loadBuild, type LoadedBuild } from './load.ts';
import type { LoadWorkers } from './workers.ts';

/**
 * What a request is answered from: a build, in an object made anew each time one is swapped in.
 * What lives and dies with its being served (the HTTP layer's response cache,
 * api/http/response-cache.ts) is kept against this object, so a swap starts without it.
 */
export interface Served {
  readonly build: LoadedBuild;
}

/** Where the request handlers get the build to answer with. */
export interface CatalogSource {
  current(): Served;
  /** A line or file of this build was found damaged on disk (DamagedFileError): the request got a 500. */
  damaged(build: LoadedBuild, err: Error): void;
}

const served = (build: LoadedBuild): Served => ({ build });

/** A fixed build (tests, benchmarks). */
export function staticCatalog(build: LoadedBuild): CatalogSource {
  const fixed = served(build);
  return { current: () => fixed, damaged: () => undefined };
}

export interface StoreLogger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface CatalogStoreOptions {
  siteUrl: string;
  log: StoreLogger;
  /** how often to check where `current` points, as a fallback to fs.watch (ms) */
  pollMs?: number;
}

/** `backing-off`: `current` still points at a build that failed to load, not tried again yet. */
export type ReloadOutcome = 'swapped' | 'unchanged' | 'failed' | 'backing-off';

/** How long a replaced build's files stay open for the requests that started on it. */
const RETIRE_AFTER_MS = 60_000;
/** A build that failed is tried again after this, doubling per failure up to the maximum, in case the cause was passing. */
const RETRY_FIRST_MS = 60_000;
const RETRY_MAX_MS = 3_600_000;

/**
 * Serves `<distDir>/current` and follows it. A new target (the pipeline renames a new symlink
 * over `current`) or SIGHUP loads the build in the background, checked as at start-up
 * (loadBuild); only a build that loads replaces the reference that requests read. Requests already running keep the
 * build they started with. A build that fails to load is logged and the old one keeps serving;
 * its target is remembered, and the watcher does not load it again until `current` points
 * elsewhere, SIGHUP asks, or its back-off has passed (1 minute, doubling per failure, at most an
 * hour): a broken build costs one load, not one per poll. Emits `swap` (build) and `failed` (error).
 * The store owns the builds it loaded: a replaced one is closed a minute later, and close() closes
 * every one still open.
 */
export class CatalogStore extends EventEmitter implements CatalogSource {
  private served: Served;
  /** builds whose damage was reported: one recovery attempt each */
  private readonly recovering = new WeakSet<LoadedBuild>();
  private queue: Promise<unknown> = Promise.resolve();
  private watcher?: FSWatcher;
  private timer?: NodeJS.Timeout;
  private debounce?: NodeJS.Timeout;
  private failedTarget?: { dir: string; failures: number; retryAt: number };
  /** replaced builds not closed yet, each with the timer that will close it */
  private readonly retiring = new Map<LoadedBuild, NodeJS.Timeout>();
  private closed = false;

  private constructor(readonly distDir: string, private readonly opts: CatalogStoreOptions, build: LoadedBuild) {
    super();
    this.served = served(build);
  }

  get link(): string {
    return join(this.distDir, 'current');
  }

  /** Loads the current build (on `workers` when given, which it closes); throws when there is none that loads. */
  static async open(distDir: string, opts: CatalogStoreOptions, workers?: LoadWorkers): Promise<CatalogStore> {
    const target = await realpath(join(distDir, 'current')).catch(async (err: Error) => {
      await workers?.close();
      throw err;
    });
    const started = Date.now();
    const build = await loadBuild(target, { siteUrl: opts.siteUrl, workers, log: opts.log });
    opts.log.info({ buildId: build.id, dir: target, listings: build.engine.n, ms: Date.now() - started }, 'build loaded');
    return new CatalogStore(distDir, opts, build);
  }

  current(): Served {
    return this.served;
  }

  /** Loads `current` if it points somewhere new (or always, with force). Reloads never overlap. */
  reload(force = false): Promise<ReloadOutcome> {
    return this.enqueue(force, false);
  }

  /**
   * A line or a served file of the served build is damaged on disk: logged, and `current` is loaded again
   * (once per build), every detail line checked this time, so a repaired or newer build replaces
   * it while a still damaged one is refused. Meanwhile the other lines keep being served.
   */
  damaged(build: LoadedBuild, err: Error): void {
    if (build !== this.served.build || this.recovering.has(build)) return;
    this.recovering.add(build);
    this.opts.log.error({ err, buildId: build.id, dir: build.dir }, 'damaged build file; reloading the build');
    void this.enqueue(true, true);
  }

  private enqueue(force: boolean, checkAllDetails: boolean): Promise<ReloadOutcome> {
    const run = this.queue.then(() => this.doReload(force, checkAllDetails));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async doReload(force: boolean, checkAllDetails: boolean): Promise<ReloadOutcome> {
    if (this.closed) return 'unchanged';
    const { target, missing } = await this.resolveLink();
    if (!force && target === this.served.build.dir) return 'unchanged';
    const started = Date.now();
    const failed = this.failedTarget?.dir === target ? this.failedTarget : undefined;
    if (!force && failed && started < failed.retryAt) return 'backing-off';
    try {
      if (missing) throw missing;
      const build = await loadBuild(target, { siteUrl: this.opts.siteUrl, checkAllDetails, log: this.opts.log });
      const old = this.served.build;
      const previous = old.id;
      this.served = served(build);
      this.failedTarget = undefined;
      // Requests that started on the old build may still read its detail files for a moment.
      this.retiring.set(old, setTimeout(() => {
        this.retiring.delete(old);
        void old.close();
      }, RETIRE_AFTER_MS).unref());
      this.opts.log.info({ buildId: build.id, previous, dir: target, listings: build.engine.n, ms: Date.now() - started }, 'build swapped in');
      this.emit('swap', build);
      return 'swapped';
    } catch (err) {
      const failures = (failed?.failures ?? 0) + 1;
      const retryInMs = Math.min(RETRY_FIRST_MS * 2 ** (failures - 1), RETRY_MAX_MS);
      this.failedTarget = { dir: target, failures, retryAt: Date.now() + retryInMs };
      if (missing && err === missing) {
        // not a fault of the code: the message says it all, a stack would only repeat it
        this.opts.log.error({ link: this.link, dir: target, error: missing.message, failures, retryInMs }, 'build reload failed: current points to no build; still serving the previous one');
      } else {
        this.opts.log.error({ err, dir: target, failures, retryInMs }, 'build rejected; still serving the previous one');
      }
      this.emit('failed', err);
      return 'failed';
    }
  }

  /**
   * Where `current` points. A dangling link (its build removed) or a missing one is a target that
   * fails like a build that does not load, with the same back-off: `missing` says why.
   */
  private async resolveLink(): Promise<{ target: string; missing?: Error }> {
    try {
      return { target: await realpath(this.link) };
    } catch (err) {
      const pointsAt = await readlink(this.link).then((to) => resolve(this.distDir, to), () => this.link);
      return { target: pointsAt, missing: err as Error };
    }
  }

  /** Follows `current`: fs.watch on the dist directory, with polling as the fallback. */
  watch(): void {
    const check = () => { void this.reload(false); };
    try {
      this.watcher = watch(this.distDir, (_event, name) => {
        if (name && !String(name).startsWith('current') && !String(name).startsWith('.current')) return;
        clearTimeout(this.debounce);
        this.debounce = setTimeout(check, 50);
      });
      this.watcher.on('error', () => undefined);
    } catch {
      // no fs.watch (some network file systems): polling alone
    }
    if (this.opts.pollMs) {
      this.timer = setInterval(check, this.opts.pollMs);
      this.timer.unref();
    }
  }

  /** Stops following `current` (reload() still loads it). */
  unwatch(): void {
    this.watcher?.close();
    clearInterval(this.timer);
    clearTimeout(this.debounce);
  }

  /** Stops following `current` and, once a reload under way has ended, closes every build still open: call it when no request reads them any more. */
  async close(): Promise<void> {
    this.closed = true;
    this.unwatch();
    await this.queue;
    for (const [build, timer] of this.retiring) {
      clearTimeout(timer);
      await build.close();
    }
    this.retiring.clear();
    await this.served.build.close();
  }
}
