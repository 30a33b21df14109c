/**
 * The pages row: every type of public page requested once per locale, one after another, on a
 * server that has served none yet (what a page makes once per build is made then), while a
 * second client asks for /v1/health back to back. The worst health latency is what any request
 * waited behind a page; the largest page is the HTML a page type grows to at this size.
 */
import { LOCALES } from '../../contract/common.ts';
import type { Catalogue } from './traffic.ts';

export interface PageTiming { path: string; status: number; bytes: number; ms: number }
export interface PagesResult {
  pages: PageTiming[];
  /** the slowest /v1/health answered while the pages were requested, ms */
  worstHealthMs: number;
  /** the page requested when that /v1/health was sent */
  worstHealthDuring: string;
  healthRequests: number;
}

/** One URL of each page type in a locale, the largest place or the first of its kind. */
export function pagePaths(cat: Catalogue, locale: string): string[] {
  const country = [...cat.countries].sort((a, b) => b.count - a.count)[0];
  const city = [...cat.cities].filter((c) => c.country === country.slug).sort((a, b) => b.count - a.count)[0];
  return [
    `/${locale}`,
    `/${locale}/coworking/${country.slug}`,
    `/${locale}/coworking/${country.slug}/${city.slug}`,
    ...(city.zones.length ? [`/${locale}/coworking/${country.slug}/${city.slug}/${city.zones[0]}`] : []),
    `/${locale}/space/${cat.slugs[0]}`,
    `/${locale}/operator/${cat.operators[0]}`,
    `/${locale}/best/${city.slug}`,
    `/${locale}/prices`,
    `/${locale}/prices/${city.slug}`,
    `/${locale}/price-index`,
    `/${locale}/price-index/${country.slug}`,
    `/${locale}/no-such-page`,
    `/sitemaps/${locale}-1.xml`,
  ];
}

/** Every page type of every locale, the problem pages and the sitemap index once. */
export const allPagePaths = (cat: Catalogue): string[] => [
  '/', '/sitemap.xml', '/robots.txt', '/problems/not-found', '/docs', ...LOCALES.flatMap((l) => pagePaths(cat, l)),
];

export async function measurePages(base: string, cat: Catalogue): Promise<PagesResult> {
  let done = false;
  let worstHealthMs = 0;
  let worstHealthDuring = '';
  let healthRequests = 0;
  let requesting = '';
  const probe = (async () => {
    while (!done) {
      const started = performance.now();
      const during = requesting;
      const res = await fetch(`${base}/v1/health`);
      await res.arrayBuffer();
      const ms = performance.now() - started;
      if (ms > worstHealthMs) [worstHealthMs, worstHealthDuring] = [ms, during];
      healthRequests++;
    }
  })();
  const pages: PageTiming[] = [];
  for (const path of allPagePaths(cat)) {
    requesting = path;
    const started = performance.now();
    const res = await fetch(`${base}${path}`, { redirect: 'manual', headers: { 'accept-encoding': 'identity' } });
    const bytes = (await res.arrayBuffer()).byteLength;
    pages.push({ path, status: res.status, bytes, ms: performance.now() - started });
  }
  done = true;
  await probe;
  return { pages, worstHealthMs, worstHealthDuring, healthRequests };
}
