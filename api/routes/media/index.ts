/**
 * Sample images (docs/design.md §3): builds reference images under {site}/media/…; this process answers
 * there with a generated placeholder (an SVG naming the space or operator), so a client renders
 * the sample catalogue offline. Real deployments put a CDN or object store in front of /media.
 */
import { z } from 'zod';
import type { LoadedBuild } from '../../loading/load.ts';
import { CACHE } from '../../http/headers.ts';
import { ApiError } from '../../http/problems.ts';
import { defineRoute } from '../../http/route.ts';

interface Placeholder { label: string; caption: string; width: number; height: number }

const byBuild = new WeakMap<LoadedBuild, Promise<Map<string, Placeholder>>>();

/** Every image URL of a build with what its placeholder shows; built once per build, on first use. */
function placeholders(build: LoadedBuild, siteUrl: string): Promise<Map<string, Placeholder>> {
  let map = byBuild.get(build);
  if (!map) {
    map = collectPlaceholders(build, siteUrl);
    byBuild.set(build, map);
    map.catch(() => byBuild.delete(build));
  }
  return map;
}

async function collectPlaceholders(build: LoadedBuild, siteUrl: string): Promise<Map<string, Placeholder>> {
  const map = new Map<string, Placeholder>();
  const sitePath = (url: string) => (url.startsWith(siteUrl) ? url.slice(siteUrl.length) : url);
  const noFilters = {} as Parameters<LoadedBuild['engine']['cardJson']>[2];
  for (let i = 0; i < build.engine.n; i++) {
    const card = JSON.parse(build.engine.cardJson(i, 'en', noFilters)) as {
      title: string; images: { url: string; width: number; height: number; alt: string }[];
    };
    for (const img of card.images) {
      map.set(sitePath(img.url), { label: card.title, caption: img.alt, width: img.width, height: img.height });
    }
  }
  for (const slug of build.operators.en.keys()) {
    const hub = (await build.operators.en.get(slug))! as { name: string; logo?: { url: string; width: number; height: number } };
    if (hub.logo) map.set(sitePath(hub.logo.url), { label: hub.name, caption: 'logo', width: hub.logo.width, height: hub.logo.height });
  }
  return map;
}

const escapeXml = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

function placeholderSvg(p: Placeholder): string {
  const { width: w, height: h } = p;
  const size = Math.max(12, Math.round(Math.min(w / 16, h / 6)));
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" role="img" aria-label="${escapeXml(p.label)}">`
    + `<rect width="100%" height="100%" fill="#e8eef3"/>`
    + `<text x="50%" y="48%" text-anchor="middle" font-family="sans-serif" font-size="${size}" fill="#23415a">${escapeXml(p.label)}</text>`
    + `<text x="50%" y="${48 + Math.round((size * 150) / h)}%" text-anchor="middle" font-family="sans-serif" font-size="${Math.round(size * 0.6)}" fill="#5b7489">${escapeXml(p.caption)}</text>`
    + '</svg>';
}

export const mediaRoute = defineRoute({
  operationId: 'getMedia',
  method: 'GET',
  url: '/media/*',
  summary: 'Sample images: a generated SVG placeholder naming the space',
  description: 'Image and logo URLs of the sample catalogue point here; each answers with an SVG placeholder of the '
    + 'declared width and height that names the space or operator. Unknown paths answer 404.',
  tags: ['site'],
  querystring: z.object({}),
  response: z.string(),
  statuses: [200, 400, 404, 429, 500, 502],
  cache: CACHE.media,
  rateLimit: 'read',
  handler: async ({ request, build, config }) => {
    const path = `/media/${(request.params as { '*': string })['*'] ?? ''}`;
    const p = (await placeholders(build, config.siteUrl)).get(path);
    if (!p) throw new ApiError('NOT_FOUND', 'No image at that path.');
    return { raw: placeholderSvg(p), contentType: 'image/svg+xml; charset=utf-8' };
  },
});
