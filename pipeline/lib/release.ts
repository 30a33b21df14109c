/**
 * Citable releases: each published build's research files copied to `<dist>/releases/<buildId>/`
 * before the build becomes current, with a datapackage.json that pins every file by sha256 and
 * size. A release is written once (to `<buildId>.tmp`, fsynced, renamed) and never rewritten or
 * pruned.
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, renameSync, writeSync } from 'node:fs';
import path from 'node:path';
import { RELEASE_DATAPACKAGE, RELEASE_FILES, RELEASES_DIR, releasePath } from '../../contract/research.ts';
import { BuildError } from './errors.ts';
import { fsyncDir, isAlive } from './publish.ts';

/** The Frictionless name and format of each release file (the CSV resources keep their table schema). */
const RESOURCE_NAMES: Record<(typeof RELEASE_FILES)[number], { name: string; format: string; mediatype: string }> = {
  'price-report.csv': { name: 'price-report', format: 'csv', mediatype: 'text/csv' },
  'price-report-history.csv': { name: 'price-report-history', format: 'csv', mediatype: 'text/csv' },
  'price-index.json': { name: 'price-index', format: 'json', mediatype: 'application/json' },
  'price-history.json': { name: 'price-history', format: 'json', mediatype: 'application/json' },
  'rejects-summary.json': { name: 'rejects-summary', format: 'json', mediatype: 'application/json' },
  'source.json': { name: 'source', format: 'json', mediatype: 'application/json' },
  'methodology.md': { name: 'methodology', format: 'md', mediatype: 'text/markdown' },
};

interface DataPackage { resources: { name: string; path: string }[]; [key: string]: unknown }

/**
 * Copies the research files of a finished build directory into its release and writes the
 * release's datapackage: the build's descriptor with `id`, `version` (the build id), `created`,
 * `homepage` and, per file, a resource whose `path` is the release URL (site-relative), with
 * `hash` (`sha256:<hex>`) and `bytes`.
 */
export function writeRelease(distDir: string, buildId: string, buildDir: string, dataPackage: DataPackage, builtAt: Date): string {
  const releasesDir = path.join(distDir, RELEASES_DIR);
  const finalDir = path.join(releasesDir, buildId);
  if (existsSync(finalDir)) throw new BuildError('release_exists', `${RELEASES_DIR}/${buildId} exists already; a release is never rewritten`);
  mkdirSync(releasesDir, { recursive: true });
  removeStaleReleases(releasesDir);
  const tmpDir = path.join(releasesDir, `${buildId}.tmp`);
  rmSync(tmpDir, { recursive: true, force: true });
  mkdirSync(tmpDir);
  const described = new Map(dataPackage.resources.map((r) => [r.path, r]));
  const resources = RELEASE_FILES.map((file) => {
    const bytes = readFileSync(path.join(buildDir, file));
    writeDurably(path.join(tmpDir, file), bytes);
    return {
      ...(described.get(file) ?? { ...RESOURCE_NAMES[file], encoding: 'utf-8' }),
      path: releasePath(buildId, file),
      bytes: bytes.length,
      hash: `sha256:${createHash('sha256').update(bytes).digest('hex')}`,
    };
  });
  const release = {
    ...dataPackage,
    profile: 'data-package',
    id: releasePath(buildId),
    version: buildId,
    created: builtAt.toISOString(),
    homepage: '/en/price-index',
    resources,
  };
  writeDurably(path.join(tmpDir, RELEASE_DATAPACKAGE), Buffer.from(`${JSON.stringify(release)}\n`));
  fsyncDir(tmpDir);
  renameSync(tmpDir, finalDir);
  fsyncDir(releasesDir);
  return finalDir;
}

function writeDurably(file: string, bytes: Buffer): void {
  const fd = openSync(file, 'w');
  try {
    for (let offset = 0; offset < bytes.length;) offset += writeSync(fd, bytes, offset);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Temporary release directories of killed builds (`<buildId>.tmp`, the build id ends in the pid). */
function removeStaleReleases(releasesDir: string): void {
  for (const name of readdirSync(releasesDir)) {
    const pid = Number(/-(\d+)\.tmp$/.exec(name)?.[1]);
    if (pid && !isAlive(pid)) rmSync(path.join(releasesDir, name), { recursive: true, force: true });
  }
}
