/**
 * The pages row: every type of public page requested once per locale, one after another, on a
 * server that has served none yet (what a page makes once per build is made then), while a
 * second client, on its own thread, asks for /v1/health back to back. The worst health latency is what any request
 * waited behind a page; the largest page is the HTML a page type grows to at this size.
 */
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { LOCALES } from '../../contract/common.ts';
import { loopDelayMax } from './server.ts';
import type { Catalogue } from './traffic.ts';

export interface PageTiming { path: string; status: number; bytes: number; ms: number }
export interface PagesResult {
  pages: PageTiming[];
  /** the slowest /v1/health answered while the pages were requested, ms */
  worstHealthMs: number;
  /** the page requested when that /v1/health was sent */
  worstHealthDuring: string;
  /** the longest the server's own event loop was held meanwhile (monitorEventLoopDelay in the server), ms */
  serverLoopMaxMs: number;
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

/**
 * The second client, on a thread of its own: on the first client's thread, reading a 0.7 MB page
 * delayed its health answers by up to ~25 ms that the server never spent (measured in the server
 * with monitorEventLoopDelay). Each answer is sent as [sent at, ms], on the clock both threads share.
 * Its first request is not measured: it says 'ready' after it. A fresh thread's first fetch took
 * 41–53 ms against a warm, idle server (its HTTP client loaded and compiled), the next 2–7 ms.
 */
const PROBE = `
const { parentPort, workerData } = require('node:worker_threads');
let done = false;
const samples = [];
parentPort.on('message', () => { done = true; });
(async () => {
  await (await fetch(workerData.url)).arrayBuffer();
  parentPort.postMessage('ready');
  while (!done) {
    const sent = performance.timeOrigin + performance.now();
    const res = await fetch(workerData.url);
    await res.arrayBuffer();
    samples.push(sent, performance.timeOrigin + performance.now() - sent);
  }
  parentPort.postMessage(samples);
})();
`;

export async function measurePages(base: string, cat: Catalogue, loopDelayFile: string): Promise<PagesResult> {
  const now = () => performance.timeOrigin + performance.now();
  const probe = new Worker(PROBE, { eval: true, workerData: { url: `${base}/v1/health` } });
  await once(probe, 'message'); // ready (once rejects on the worker's error)
  const samples = once(probe, 'message').then(([health]) => health as number[]);
  const pages: (PageTiming & { from: number })[] = [];
  for (const path of allPagePaths(cat)) {
    const from = now();
    const res = await fetch(`${base}${path}`, { redirect: 'manual', headers: { 'accept-encoding': 'identity' } });
    const bytes = (await res.arrayBuffer()).byteLength;
    pages.push({ path, status: res.status, bytes, ms: now() - from, from });
  }
  const to = now();
  await sleep(100); // the server writes its delays every 50 ms
  const serverLoopMaxMs = loopDelayMax(loopDelayFile, pages[0].from, to);
  probe.postMessage('done');
  const health = await samples;
  await probe.terminate();
  let worstHealthMs = 0;
  let worstHealthDuring = '';
  for (let i = 0; i < health.length; i += 2) {
    if (health[i + 1] <= worstHealthMs) continue;
    worstHealthMs = health[i + 1];
    worstHealthDuring = [...pages].reverse().find((p) => p.from <= health[i])?.path ?? '(before the first page)';
  }
  return { pages: pages.map(({ from: _, ...page }) => page), worstHealthMs, worstHealthDuring, serverLoopMaxMs, healthRequests: health.length / 2 };
}
