/**
 * {site}/api/releases: the published builds' research files, kept as immutable releases named by
 * their content (docs/design.md §3), each with its datapackage, CITATION.cff and BibTeX.
 */
import { z } from 'zod';
import { envelope, LocaleSchema, MetaSchema } from '../../../contract/common.ts';
import { RELEASE_DATAPACKAGE, RELEASE_FILES, RELEASE_ID_PATTERN, ReleaseSchema } from '../../../contract/research.ts';
import { LICENSE_URL } from '../../http/citation.ts';
import { CACHE, type CacheHint } from '../../http/headers.ts';
import { ApiError } from '../../http/problems.ts';
import { requestKey } from '../../http/response-cache.ts';
import { defineRoute, type RouteResult } from '../../http/route.ts';
import { bibtex, citationCff, describeRelease, readReleasePackage, resolvedReleasePackage } from '../../site/releases.ts';

/** A release never changes: a year, then revalidate. */
const RELEASE_CACHE: CacheHint = { maxAge: 31_536_000, staleWhileRevalidate: 86_400 };
const STATUSES = [200, 400, 404, 429, 500, 502];
const LICENSE_LINK = `<${LICENSE_URL}>; rel="license"`;
const ReleaseIdSchema = z.string().regex(RELEASE_ID_PATTERN, 'a release id such as 2026-10-29-3f9a1c2b7d4e');

const TYPES: Record<string, string> = {
  json: 'application/json; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  parquet: 'application/vnd.apache.parquet',
};

export const releaseListRoute = defineRoute({
  operationId: 'listReleases',
  method: 'GET',
  url: '/api/releases',
  summary: 'Every release of the research files (immutable, citable)',
  description:
    'Newest data first: one entry per release, with its id (buildId: named by its content, so every build of the same data '
    + 'has the one release), its date, the data date (asOf), whether it is sample data, and every file (URL, bytes, sha256) '
    + 'under /api/releases/{releaseId}/, which never changes. '
    + 'locale (optional, default en) only chooses the language of meta.citation.',
  tags: ['site'],
  querystring: z.object({ locale: LocaleSchema.optional() }),
  response: envelope(z.array(ReleaseSchema), MetaSchema),
  statuses: [200, 400, 429, 500, 502],
  cache: CACHE.priceIndex,
  cacheKey: requestKey,
  rateLimit: 'read',
  handler: async ({ query, build, config, cite }) => {
    const releases = build.releases.packages.map((pkg) => describeRelease(pkg, config.siteUrl));
    return { data: releases, meta: { citation: cite(query.locale ?? 'en', { kind: 'price-index' }) } };
  },
});

export const releaseRoute = defineRoute({
  operationId: 'getRelease',
  method: 'GET',
  url: '/api/releases/:releaseId',
  summary: 'One release of the research files',
  description: 'The release\'s files (URL, bytes, sha256), its datapackage, CITATION.cff and BibTeX; meta.citation names its data date and release id.',
  tags: ['site'],
  params: z.object({ releaseId: ReleaseIdSchema }),
  querystring: z.object({ locale: LocaleSchema.optional() }),
  response: envelope(ReleaseSchema, MetaSchema),
  statuses: STATUSES,
  cache: RELEASE_CACHE,
  cacheKey: requestKey,
  rateLimit: 'read',
  handler: async ({ query, params, build, config, cite }) => {
    const pkg = await readReleasePackage(build, params.releaseId);
    const citation = cite(query.locale ?? 'en', { kind: 'price-index' }, { asOf: pkg.asOf, release: pkg.version });
    return { data: describeRelease(pkg, config.siteUrl), meta: { citation } };
  },
});

export const releaseFileRoute = defineRoute({
  operationId: 'getReleaseFile',
  method: 'GET',
  url: '/api/releases/:releaseId/:file',
  summary: 'A file of a release, byte for byte as published',
  description:
    `The files: ${RELEASE_FILES.join(', ')} (the same bytes forever; their sha256 and size are in the datapackage), `
    + `${RELEASE_DATAPACKAGE} (site paths made absolute), CITATION.cff (Citation File Format 1.2.0) and citation.bib (BibTeX).`,
  tags: ['site'],
  params: z.object({ releaseId: ReleaseIdSchema, file: z.string() }),
  querystring: z.object({}),
  // CSV, Markdown, YAML and BibTeX as text; the JSON files and the datapackage as objects; Parquet as bytes
  response: z.union([z.string(), z.looseObject({})]),
  statuses: STATUSES,
  cache: RELEASE_CACHE,
  rateLimit: 'read',
  handler: async ({ params, build, config }): Promise<RouteResult> => {
    const { releaseId, file } = params;
    if (file === RELEASE_DATAPACKAGE || file === 'CITATION.cff' || file === 'citation.bib') {
      const pkg = await readReleasePackage(build, releaseId);
      if (file === 'CITATION.cff') return { raw: citationCff(pkg, config.siteUrl, config.serviceName), contentType: 'application/x-yaml; charset=utf-8' };
      if (file === 'citation.bib') return { raw: bibtex(pkg, config.siteUrl, config.serviceName), contentType: 'application/x-bibtex; charset=utf-8' };
      return { raw: resolvedReleasePackage(pkg, config.siteUrl, config.serviceName), contentType: TYPES.json, headers: { link: LICENSE_LINK } };
    }
    await readReleasePackage(build, releaseId);
    const extension = file.split('.').pop()!;
    const checking = (RELEASE_FILES as readonly string[]).includes(file) ? build.releases.representations(releaseId, file) : undefined;
    if (!checking) throw new ApiError('NOT_FOUND', `Release ${releaseId} has no file "${file}".`);
    return {
      file: {
        contentType: TYPES[extension],
        headers: { 'content-disposition': `${extension === 'csv' || extension === 'parquet' ? 'attachment' : 'inline'}; filename="${file}"`, link: LICENSE_LINK },
        representations: await checking,
      },
    };
  },
});

export const RELEASE_ROUTES = [releaseListRoute, releaseRoute, releaseFileRoute];
