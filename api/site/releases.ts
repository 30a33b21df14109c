/**
 * The releases as the API and the pages describe them, from the datapackages the build's release
 * list read (api/loading/releases.ts).
 */
import type { LoadedBuild } from '../loading/load.ts';
import { BULK_FILES, RELEASE_DATAPACKAGE, releasePath, type Release, type ReleasePackage } from '../../contract/research.ts';
import { citationText, citationTitle } from '../http/citation.ts';
import { ApiError } from '../http/problems.ts';

/** A release's datapackage; NOT_FOUND when the build's list has no such release. */
export async function readReleasePackage(build: LoadedBuild, releaseId: string): Promise<ReleasePackage> {
  const pkg = build.releases.get(releaseId);
  if (!pkg) throw new ApiError('NOT_FOUND', `No release "${releaseId}".`);
  return pkg;
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

/** The release's bulk download (none in a release made before it had one). */
export const bulkFiles = (release: Release) => release.files.filter((f) => (BULK_FILES as readonly string[]).includes(f.name));

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
