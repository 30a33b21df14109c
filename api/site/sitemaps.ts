/**
 * The sitemaps (sitemaps.org protocol 0.9): `/sitemap.xml` is an index of each locale's sitemap,
 * cut into numbered parts of SITEMAP_PART_URLS URLs. A part is written once per build, the first
 * time it is asked for, and kept with the build; a request never writes one again.
 */
import type { FastifyInstance } from 'fastify';
import type { LoadedBuild } from '../loading/load.ts';
import { LOCALES, type Locale } from '../../contract/common.ts';
import { CACHE } from '../http/headers.ts';
import { perBuild } from './per-build.ts';
import { sitePaths } from './site-paths.ts';
import { eachInTurns } from './turns.ts';

export const SITEMAP_INDEX_PATH = '/sitemap.xml';
/**
 * The protocol allows 50,000 URLs and 50 MB a file; a part is compressed on each request, and
 * 10,000 URLs (about 1 MB at most, slugs being at most 200 characters) keep that to a few ms.
 */
export const SITEMAP_PART_URLS = 10_000;
const XML_TYPE = 'application/xml; charset=utf-8';
const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

const partPath = (locale: Locale, part: number) => `/sitemaps/${locale}-${part}.xml`;
const PART_NAME = new RegExp(`^(${LOCALES.join('|')})-([1-9]\\d{0,5})\\.xml$`);

const escapeXml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const partCount = async (build: LoadedBuild) => Math.max(1, Math.ceil((await sitePaths(build)).length / SITEMAP_PART_URLS));

/** The parts of every locale's sitemap, in order. */
async function parts(build: LoadedBuild) {
  const count = await partCount(build);
  return LOCALES.flatMap((locale) => Array.from({ length: count }, (_, k) => ({ locale, part: k + 1 })));
}

async function sitemapIndex(build: LoadedBuild, siteUrl: string): Promise<string> {
  const lastmod = build.priceIndexHead.asOf.slice(0, 10);
  const entries = (await parts(build)).map(({ locale, part }) => `<sitemap><loc>${escapeXml(siteUrl + partPath(locale, part))}</loc><lastmod>${lastmod}</lastmod></sitemap>\n`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="${NS}">\n${entries.join('')}</sitemapindex>\n`;
}

function* indices(from: number, to: number): Generator<number> {
  for (let i = from; i < to; i++) yield i;
}

/** Part `part` (1 to partCount) of a locale's sitemap. */
async function sitemapPart(build: LoadedBuild, siteUrl: string, locale: Locale, part: number): Promise<Buffer> {
  const paths = await sitePaths(build);
  const from = (part - 1) * SITEMAP_PART_URLS;
  const to = Math.min(paths.length, from + SITEMAP_PART_URLS);
  const open = `<url><loc>${escapeXml(`${siteUrl}/${locale}`)}`;
  const chunks = [`<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${NS}">\n`];
  // site paths are slugs, digits and `/?=`: nothing in them to escape
  await eachInTurns(indices(from, to), (k) => chunks.push(`${open}${paths.at(k)}</loc></url>\n`));
  chunks.push('</urlset>\n');
  return Buffer.from(chunks.join(''));
}

/** Registers /sitemap.xml and its parts. */
export function installSitemaps(app: FastifyInstance) {
  const { siteUrl } = app.config;
  app.route({
    method: 'GET',
    url: SITEMAP_INDEX_PATH,
    config: { cache: CACHE.geo },
    handler: async (_request, reply) => {
      const { build } = app.catalog.current();
      return reply.type(XML_TYPE).send(await perBuild(build, 'sitemap-index', () => sitemapIndex(build, siteUrl)));
    },
  });
  app.route({
    method: 'GET',
    url: '/sitemaps/:name',
    config: { cache: CACHE.geo },
    handler: async (request, reply) => {
      const { build } = app.catalog.current();
      const m = PART_NAME.exec((request.params as { name: string }).name);
      if (!m || Number(m[2]) > await partCount(build)) return reply.callNotFound();
      const xml = await perBuild(build, `sitemap|${m[1]}|${m[2]}`, () => sitemapPart(build, siteUrl, m[1] as Locale, Number(m[2])));
      return reply.type(XML_TYPE).send(xml);
    },
  });
}
