import { createHash } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, readdir, readlink, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ManifestSchema, type Manifest } from '../../contract/build.ts';
import {
  encodedName, isPrecompressed, PRECOMPRESSED, RELEASE_DATAPACKAGE, ReleasePackageSchema, RELEASES_DIR, RELEASES_INDEX, ReleasesIndexSchema,
} from '../../contract/research.ts';

export interface DownloadLogger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface BuildDownloaderOptions {
  /** where a published dist directory is served as static files: `current/manifest.json`, `builds/<id>/<file>` */
  baseUrl: string;
  /** this replica's own DIST_DIR, which its CatalogStore follows */
  distDir: string;
  log: DownloadLogger;
}

/** `backing-off`: the build at the base URL failed its checks and is not downloaded again yet. */
export type DownloadOutcome = 'downloaded' | 'unchanged' | 'failed' | 'backing-off';

/** As the build store does for a build that fails to load: try again after 1 minute, doubling, at most an hour. */
const RETRY_FIRST_MS = 60_000;
const RETRY_MAX_MS = 3_600_000;
/** Downloaded builds kept besides the current one, for requests still answered from them. */
const KEEP_PREVIOUS = 2;
const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

class DownloadError extends Error {}

/**
 * `BUILD_URL`: a replica that does not share the pipeline's volume polls a base URL that serves
 * a dist directory, downloads the build `current` names when it is new, checks every file's
 * sha256 against the manifest while it streams to disk, fetches the releases it lacks (the
 * build's own among them), and only then publishes it to its own
 * DIST_DIR (rename of `current`), where the CatalogStore loads it with every check of a local
 * build. A build with a file that does not match is deleted, never published, and not
 * downloaded again until its back-off has passed or another build is published.
 */
export class BuildDownloader {
  private running?: Promise<DownloadOutcome>;
  private failed?: { buildId: string; failures: number; retryAt: number };

  constructor(private readonly opts: BuildDownloaderOptions) {}

  /** One poll; polls never overlap. */
  sync(): Promise<DownloadOutcome> {
    this.running ??= this.doSync().finally(() => { this.running = undefined; });
    return this.running;
  }

  private url(path: string): string {
    return `${this.opts.baseUrl.replace(/\/+$/, '')}/${path}`;
  }

  private async doSync(): Promise<DownloadOutcome> {
    let manifestText: string;
    let manifest: Manifest;
    try {
      const res = await fetch(this.url('current/manifest.json'), { cache: 'no-store' });
      if (!res.ok) throw new DownloadError(`GET current/manifest.json: HTTP ${res.status}`);
      manifestText = await res.text();
      const parsed = ManifestSchema.safeParse(JSON.parse(manifestText));
      if (!parsed.success) throw new DownloadError(`current/manifest.json is not a manifest of this build format: ${parsed.error.issues[0]?.message}`);
      manifest = parsed.data;
    } catch (err) {
      this.opts.log.error({ err, buildUrl: this.opts.baseUrl }, 'build download: cannot read the published manifest');
      return 'failed';
    }
    const { buildId } = manifest;
    if (await this.isCurrent(buildId)) return 'unchanged';
    const failed = this.failed?.buildId === buildId ? this.failed : undefined;
    if (failed && Date.now() < failed.retryAt) return 'backing-off';

    const builds = join(this.opts.distDir, 'builds');
    const partial = join(builds, `.download-${buildId}-${process.pid}`);
    const started = Date.now();
    try {
      await rm(partial, { recursive: true, force: true });
      await mkdir(partial, { recursive: true });
      let bytes = 0;
      for (const [name, sha256] of Object.entries(manifest.files)) {
        if (!FILE_NAME.test(name)) throw new DownloadError(`the manifest lists a file outside the build directory: ${JSON.stringify(name)}`);
        bytes += await this.download(`builds/${buildId}/${name}`, join(partial, name), sha256);
      }
      await writeFile(join(partial, 'manifest.json'), manifestText);
      await this.syncReleases(manifest.releaseId);
      await rm(join(builds, buildId), { recursive: true, force: true });
      await rename(partial, join(builds, buildId));
      await this.publish(buildId);
      this.failed = undefined;
      this.opts.log.info({ buildId, files: Object.keys(manifest.files).length, bytes, ms: Date.now() - started }, 'build downloaded and checked; published to DIST_DIR');
      await this.prune(buildId);
      return 'downloaded';
    } catch (err) {
      await rm(partial, { recursive: true, force: true });
      const failures = (failed?.failures ?? 0) + 1;
      const retryInMs = Math.min(RETRY_FIRST_MS * 2 ** (failures - 1), RETRY_MAX_MS);
      this.failed = { buildId, failures, retryAt: Date.now() + retryInMs };
      this.opts.log.error({ err, buildId, failures, retryInMs }, 'build download refused; still serving the previous build');
      return 'failed';
    }
  }

  /**
   * Downloads the releases the origin lists (RELEASES_INDEX, and the build's own in any case) that
   * this DIST_DIR lacks: a release is immutable, so one in place is never fetched again. Each is
   * written beside, every file checked against its datapackage's sha256 (the compressed siblings
   * are checked by the server, which decodes each before it serves it), then renamed into place.
   * One that fails is logged and left out (its URLs 404), and tried again with the next build: the
   * build's data is not held back for its citable copy.
   */
  private async syncReleases(own: string): Promise<void> {
    let listed: string[] = [];
    try {
      const res = await fetch(this.url(`${RELEASES_DIR}/${RELEASES_INDEX}`), { cache: 'no-store' });
      if (res.ok) listed = ReleasesIndexSchema.parse(await res.json()).releases;
    } catch (err) {
      this.opts.log.error({ err, buildUrl: this.opts.baseUrl }, `build download: ${RELEASES_DIR}/${RELEASES_INDEX} unreadable; only the build's own release is fetched`);
    }
    for (const id of new Set([own, ...listed])) {
      if (existsSync(join(this.opts.distDir, RELEASES_DIR, id))) continue;
      await this.downloadRelease(id).catch((err: Error) => this.opts.log.error({ err, release: id }, 'release download refused'));
    }
  }

  private async downloadRelease(id: string): Promise<void> {
    const dir = join(this.opts.distDir, RELEASES_DIR);
    const partial = join(dir, `${id}-${process.pid}.tmp`);
    await rm(partial, { recursive: true, force: true });
    await mkdir(partial, { recursive: true });
    try {
      const res = await fetch(this.url(`${RELEASES_DIR}/${id}/${RELEASE_DATAPACKAGE}`), { cache: 'no-store' });
      if (!res.ok) throw new DownloadError(`GET ${RELEASES_DIR}/${id}/${RELEASE_DATAPACKAGE}: HTTP ${res.status}`);
      const text = await res.text();
      const pkg = ReleasePackageSchema.safeParse(JSON.parse(text));
      if (!pkg.success || pkg.data.version !== id) throw new DownloadError(`${RELEASES_DIR}/${id}/${RELEASE_DATAPACKAGE} is not the datapackage of release ${id}`);
      for (const resource of pkg.data.resources) {
        const name = resource.path.split('/').pop()!;
        if (!FILE_NAME.test(name)) throw new DownloadError(`the datapackage lists a file outside the release: ${JSON.stringify(resource.path)}`);
        const bytes = await this.download(`${RELEASES_DIR}/${id}/${name}`, join(partial, name), resource.hash.slice('sha256:'.length));
        if (bytes !== resource.bytes) throw new DownloadError(`${RELEASES_DIR}/${id}/${name}: ${bytes} bytes, not the datapackage's ${resource.bytes}`);
        for (const { encoding } of isPrecompressed(name) ? PRECOMPRESSED : []) await this.download(`${RELEASES_DIR}/${id}/${encodedName(name, encoding)}`, join(partial, encodedName(name, encoding))).catch(() => undefined);
      }
      await writeFile(join(partial, RELEASE_DATAPACKAGE), text);
      await rename(partial, join(dir, id));
    } finally {
      await rm(partial, { recursive: true, force: true });
    }
  }

  /** Streams one file to disk, hashing it on the way; throws unless its sha256 is the one expected, if any. Returns its size. */
  private async download(path: string, to: string, expected?: string): Promise<number> {
    const res = await fetch(this.url(path), { cache: 'no-store' });
    if (!res.ok || !res.body) throw new DownloadError(`GET ${path}: HTTP ${res.status}`);
    const hash = createHash('sha256');
    let size = 0;
    const tap = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    });
    await pipeline(Readable.fromWeb(res.body as import('node:stream/web').ReadableStream), tap, createWriteStream(to));
    const actual = hash.digest('hex');
    if (expected !== undefined && actual !== expected) throw new DownloadError(`${path}: sha256 ${actual} does not match the manifest's ${expected}`);
    return size;
  }

  private async isCurrent(buildId: string): Promise<boolean> {
    try {
      return await readlink(join(this.opts.distDir, 'current')) === join('builds', buildId);
    } catch {
      return false;
    }
  }

  /** As the pipeline publishes: a relative symlink renamed over `current`. */
  private async publish(buildId: string): Promise<void> {
    const tmp = join(this.opts.distDir, `.current-${process.pid}-${Date.now()}`);
    await symlink(join('builds', buildId), tmp);
    await rename(tmp, join(this.opts.distDir, 'current'));
  }

  private async prune(current: string): Promise<void> {
    const builds = join(this.opts.distDir, 'builds');
    const entries = await Promise.all((await readdir(builds))
      .filter((name) => name !== current && !name.startsWith('.'))
      .map(async (name) => ({ name, mtime: (await stat(join(builds, name))).mtimeMs })));
    entries.sort((a, b) => b.mtime - a.mtime);
    for (const old of entries.slice(KEEP_PREVIOUS)) await rm(join(builds, old.name), { recursive: true, force: true });
  }
}
