/**
 * The releases on disk (`<dist>/releases/<releaseId>/`, written by the pipeline, never rewritten):
 * read when asked, since they are small and change only when a build is published.
 */
import { readdir, readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { LoadedBuild } from '../build/load.ts';
import { RELEASE_DATAPACKAGE, RELEASE_ID_PATTERN, RELEASES_DIR, releasePath, type Release } from '../../contract/research.ts';
import { citationText, citationTitle } from '../http/citation.ts';
import { ApiError } from '../http/problems.ts';

export interface ReleasePackage {
  version: string;
  created: string;
  asOf: string;
  sampleData: boolean;
  description: string;
  resources: { name: string; path: string; bytes: number; hash: string }[];
  [key: string]: unknown;
}

/** Where the releases of a build's dist directory are: `<dist>/releases` beside `<dist>/builds/<id>` (or `<dist>/current`). */
export function releasesDir(build: LoadedBuild): string {
  const parent = dirname(build.dir);
  return join(basename(parent) === 'builds' ? dirname(parent) : parent, RELEASES_DIR);
}

export async function readReleaseFile(build: LoadedBuild, releaseId: string, file: string): Promise<Buffer> {
  if (!RELEASE_ID_PATTERN.test(releaseId)) throw new ApiError('NOT_FOUND', `No release "${releaseId}".`);
  try {
    return await readFile(join(releasesDir(build), releaseId, file));
  } catch {
    throw new ApiError('NOT_FOUND', `Release ${releaseId} has no ${file}.`);
  }
}

export async function readReleasePackage(build: LoadedBuild, releaseId: string): Promise<ReleasePackage> {
  return JSON.parse((await readReleaseFile(build, releaseId, RELEASE_DATAPACKAGE)).toString('utf8'));
}

/**
 * Every release's datapackage, the newest data first (by asOf; releases of the same data date by
 * id, since a release named by its content has no time of its own).
 */
export async function listReleasePackages(build: LoadedBuild): Promise<ReleasePackage[]> {
  const names = await readdir(releasesDir(build)).catch(() => [] as string[]);
  const packages = await Promise.all(names.filter((n) => RELEASE_ID_PATTERN.test(n)).map((id) => readReleasePackage(build, id)));
  const newestFirst = (a: string, b: string) => (a < b ? 1 : a > b ? -1 : 0);
  return packages.sort((a, b) => newestFirst(a.asOf, b.asOf) || newestFirst(a.version, b.version));
}

/** The release as /api/releases lists it, its URLs absolute. */
export function describeRelease(pkg: ReleasePackage, siteUrl: string): Release {
  const id = pkg.version;
  return {
    buildId: id,
    created: pkg.created,
    asOf: pkg.asOf,
    sampleData: pkg.sampleData,
    url: siteUrl + releasePath(id),
    datapackage: siteUrl + releasePath(id, RELEASE_DATAPACKAGE),
    citationCff: siteUrl + releasePath(id, 'CITATION.cff'),
    bibtex: siteUrl + releasePath(id, 'citation.bib'),
    files: pkg.resources.map((r) => ({ name: r.path.split('/').pop()!, url: siteUrl + r.path, bytes: r.bytes, hash: r.hash })),
  };
}

/** The release's datapackage as served: site paths absolute, the attribution naming the data date and release. */
export function resolvedReleasePackage(pkg: ReleasePackage, siteUrl: string, serviceName: string): string {
  const absolute = (p: unknown) => (typeof p === 'string' && p.startsWith('/') && !p.startsWith('//') ? siteUrl + p : p);
  const page = { kind: 'price-index' } as const;
  return JSON.stringify({
    ...pkg,
    id: absolute(pkg.id),
    homepage: absolute(pkg.homepage),
    sources: (pkg.sources as { path?: string }[] | undefined)?.map((s) => ({ ...s, ...(s.path ? { path: absolute(s.path) } : {}) })),
    citation: citationText('en', serviceName, citationTitle('en', page), `${siteUrl}/en/price-index`, { asOf: pkg.asOf, release: pkg.version }),
    resources: pkg.resources.map((r) => ({ ...r, path: absolute(r.path) })),
  });
}

const yamlString = (s: string) => JSON.stringify(s);
const bibtexText = (s: string) => s.replace(/[{}\\]/g, '');

/** CITATION.cff (Citation File Format 1.2.0) of a release. */
export function citationCff(pkg: ReleasePackage, siteUrl: string, serviceName: string): string {
  const id = pkg.version;
  return [
    'cff-version: 1.2.0',
    'message: "If you use these data, please cite them as below."',
    'type: dataset',
    `title: ${yamlString(`${serviceName} coworking price index, release ${id} (data as of ${pkg.asOf.slice(0, 10)})`)}`,
    'authors:',
    `  - name: ${yamlString(serviceName)}`,
    `version: ${yamlString(id)}`,
    `date-released: ${pkg.created.slice(0, 10)}`,
    'license: CC-BY-4.0',
    `url: ${yamlString(siteUrl + releasePath(id))}`,
    'identifiers:',
    '  - type: url',
    `    value: ${yamlString(siteUrl + releasePath(id, RELEASE_DATAPACKAGE))}`,
    '    description: "Frictionless Data Package of the release: every file with its sha256 and size"',
    `abstract: ${yamlString(pkg.description)}`,
    '',
  ].join('\n');
}

/** A BibTeX entry (@misc) of a release. */
export function bibtex(pkg: ReleasePackage, siteUrl: string, serviceName: string): string {
  const id = pkg.version;
  return [
    `@misc{deskatlas_${id.replace(/[^A-Za-z0-9]/g, '_')},`,
    `  author = {{${bibtexText(serviceName)}}},`,
    `  title = {{${bibtexText(serviceName)}} coworking price index, release ${id} (data as of ${pkg.asOf.slice(0, 10)})},`,
    `  year = {${pkg.created.slice(0, 4)}},`,
    `  version = {${id}},`,
    `  url = {${siteUrl + releasePath(id)}},`,
    `  note = {CC BY 4.0.${pkg.sampleData ? ' Sample data: the prices are invented.' : ''}},`,
    '}',
    '',
  ].join('\n');
}
