/**
 * Citable releases: the research files of each published build, kept under
 * `<dist>/releases/<releaseId>/` with a datapackage.json that pins every file by sha256 and size.
 * A release is made of its data alone (no build id or build time in its id or its bytes), so a
 * rebuild of the same data finds its release in place and writes nothing, and every build of that
 * data names the one release. A release is written once (to `<releaseId>-<pid>.tmp`, fsynced,
 * renamed) and never rewritten or pruned.
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, renameSync, writeSync } from 'node:fs';
import path from 'node:path';
import {
  encodedName, isPrecompressed, PRECOMPRESSED, RELEASE_DATAPACKAGE, RELEASE_FILES, releaseId, RELEASE_ID_PATTERN, RELEASES_DIR, RELEASES_INDEX, releasePath,
  type BulkFile, type ReleaseFile,
} from '../../contract/research.ts';
import { BuildError } from './errors.ts';
import { fsyncDir, isAlive } from './publish.ts';

/** The Frictionless name and format of each release file (the tables keep the schema the build's datapackage gives them; the bulk files are described there alone). */
const RESOURCE_NAMES: Record<Exclude<ReleaseFile, BulkFile>, { name: string; format: string; mediatype: string }> = {
  'price-report.csv': { name: 'price-report', format: 'csv', mediatype: 'text/csv' },
  'price-report-history.csv': { name: 'price-report-history', format: 'csv', mediatype: 'text/csv' },
  'price-index.json': { name: 'price-index', format: 'json', mediatype: 'application/json' },
  'price-history.json': { name: 'price-history', format: 'json', mediatype: 'application/json' },
  'rejects-summary.json': { name: 'rejects-summary', format: 'json', mediatype: 'application/json' },
  'source.json': { name: 'source', format: 'json', mediatype: 'application/json' },
  'methodology.md': { name: 'methodology', format: 'md', mediatype: 'text/markdown' },
};

interface DataPackage { asOf: string; resources: { name: string; path: string }[]; [key: string]: unknown }

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * Makes sure the release `id` holds the research files of a finished build directory: writes it
 * when it is new, with the build's descriptor completed into the release's datapackage; leaves it
 * as it is when it holds the same files (the same data built again); fails when it holds others.
 * Returns whether it wrote the release.
 */
export function publishRelease(distDir: string, id: string, buildDir: string, dataPackage: DataPackage): { written: boolean } {
  const files = RELEASE_FILES.map((file) => {
    const bytes = readFileSync(path.join(buildDir, file));
    return { file, bytes, sha256: sha256(bytes) };
  });
  const digests = new Map(files.map((f) => [f.file, f.sha256]));
  const fromBytes = releaseId(dataPackage.asOf, (file) => digests.get(file)!);
  if (fromBytes !== id) throw new BuildError('release_conflict', `the build's research files make release ${fromBytes}, not ${id}, which its manifest names`);
  const releasesDir = path.join(distDir, RELEASES_DIR);
  const finalDir = path.join(releasesDir, id);
  mkdirSync(releasesDir, { recursive: true });
  removeStaleReleases(releasesDir);
  if (existsSync(finalDir)) {
    checkSameFiles(finalDir, id, digests);
    writeReleasesIndex(releasesDir);
    return { written: false };
  }
  const tmpDir = path.join(releasesDir, `${id}-${process.pid}.tmp`);
  rmSync(tmpDir, { recursive: true, force: true });
  mkdirSync(tmpDir);
  const described = new Map(dataPackage.resources.map((r) => [r.path, r]));
  const resources = files.map(({ file, bytes, sha256: hex }) => {
    writeDurably(path.join(tmpDir, file), bytes);
    // the encodings the build made of the file (the server checks each decodes to the file's sha256)
    for (const { encoding } of isPrecompressed(file) ? PRECOMPRESSED : []) writeDurably(path.join(tmpDir, encodedName(file, encoding)), readFileSync(path.join(buildDir, encodedName(file, encoding))));
    return {
      ...(described.get(file) ?? { ...RESOURCE_NAMES[file as Exclude<ReleaseFile, BulkFile>], encoding: 'utf-8' }),
      path: releasePath(id, file),
      bytes: bytes.length,
      hash: `sha256:${hex}`,
    };
  });
  const release = {
    ...dataPackage,
    profile: 'data-package',
    id: releasePath(id),
    version: id,
    // the data's time, not the build's: the same data makes the same bytes
    created: dataPackage.asOf,
    homepage: '/en/price-index',
    resources,
  };
  writeDurably(path.join(tmpDir, RELEASE_DATAPACKAGE), Buffer.from(`${JSON.stringify(release)}\n`));
  fsyncDir(tmpDir);
  renameSync(tmpDir, finalDir);
  fsyncDir(releasesDir);
  writeReleasesIndex(releasesDir);
  return { written: true };
}

/** releases/index.json (RELEASES_INDEX): every release directory's id, replaced with one rename. */
function writeReleasesIndex(releasesDir: string): void {
  const releases = readdirSync(releasesDir).filter((name) => RELEASE_ID_PATTERN.test(name)).sort();
  const tmp = path.join(releasesDir, `${RELEASES_INDEX}-${process.pid}.tmp`);
  writeDurably(tmp, Buffer.from(`${JSON.stringify({ releases })}\n`));
  renameSync(tmp, path.join(releasesDir, RELEASES_INDEX));
  fsyncDir(releasesDir);
}

/** An existing release must hold these very files, each pinned so by its datapackage; it is never rewritten. */
function checkSameFiles(dir: string, id: string, digests: Map<ReleaseFile, string>): void {
  const conflict = (what: string) => new BuildError('release_conflict',
    `${RELEASES_DIR}/${id}/${what}; the id promises this build's research files, and a release is never rewritten`);
  let pinned: Map<string, string>;
  try {
    const pkg = JSON.parse(readFileSync(path.join(dir, RELEASE_DATAPACKAGE), 'utf8')) as { resources: { path: string; hash: string }[] };
    pinned = new Map(pkg.resources.map((r) => [path.basename(r.path), r.hash]));
  } catch (err) {
    throw conflict(`${RELEASE_DATAPACKAGE} is unreadable (${(err as Error).message})`);
  }
  for (const [file, hex] of digests) {
    let found: string;
    try {
      found = sha256(readFileSync(path.join(dir, file)));
    } catch {
      throw conflict(`${file} is missing`);
    }
    if (found !== hex) throw conflict(`${file} differs from the build's (sha256 ${found}, not ${hex})`);
    if (pinned.get(file) !== `sha256:${hex}`) throw conflict(`${RELEASE_DATAPACKAGE} pins ${file} as ${pinned.get(file) ?? 'nothing'}, not sha256:${hex}`);
  }
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

/** Temporary release directories of killed builds (`<id>-<pid>.tmp`). */
function removeStaleReleases(releasesDir: string): void {
  for (const name of readdirSync(releasesDir)) {
    const pid = Number(/-(\d+)\.tmp$/.exec(name)?.[1]);
    if (pid && !isAlive(pid)) rmSync(path.join(releasesDir, name), { recursive: true, force: true });
  }
}
