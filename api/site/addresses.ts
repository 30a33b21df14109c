/**
 * The addresses people type rather than follow: `/` (to the visitor's language), the trailing-slash
 * and bare-`coworking` forms of a locale's home, the favicon and robots.txt. Each is a redirect to
 * the one canonical page or a small document, never a second copy of a page.
 */
import { deflateSync, crc32 } from 'node:zlib';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { FALLBACK_LOCALE, LOCALES, type Locale } from '../../contract/common.ts';
import { citationPath } from '../http/citation.ts';
import { SITEMAP_INDEX_PATH } from './sitemaps.ts';

const ASSET_CACHE = { maxAge: 86400, staleWhileRevalidate: 604800 };

/**
 * The best of our locales for an Accept-Language header (RFC 9110 §12.5.4): ranges by weight, a
 * range matching its primary subtag (`de-AT` → de), `*` any locale; undefined when none is acceptable.
 */
export function negotiateLocale(header: string | undefined): Locale | undefined {
  if (!header) return undefined;
  const ranges = header.split(',').map((part, order) => {
    const [range, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    return { primary: range.trim().split('-')[0], weight: Number.isFinite(weight) ? weight : 0, order };
  });
  // `*` stands for the locales no range names, a range of weight 0 included (it refuses that one)
  const named = new Set(ranges.map((r) => r.primary));
  const acceptable = ranges.filter((r) => r.weight > 0).sort((a, b) => b.weight - a.weight || a.order - b.order);
  for (const r of acceptable) {
    const match = r.primary === '*' ? LOCALES.find((l) => !named.has(l)) : LOCALES.find((l) => l === r.primary);
    if (match) return match;
  }
  return undefined;
}

/** The locale a request is in: its path's first segment when that is one, else its Accept-Language. */
export function requestLocale(request: FastifyRequest): Locale {
  const first = request.url.split(/[/?#]/)[1];
  return LOCALES.find((l) => l === first) ?? negotiateLocale(request.headers['accept-language']) ?? FALLBACK_LOCALE;
}

const queryOf = (url: string) => (url.includes('?') ? url.slice(url.indexOf('?')) : '');

/** The site's mark: a desk on a blue square, drawn on a 32-unit grid as rectangles, once for SVG and once for the ICO. */
const ICON_SIZE = 32;
const ICON_COLOURS = { ground: [0x0b, 0x4f, 0x8a], desk: [0xff, 0xff, 0xff] } as const;
const ICON_RECTS: { x: number; y: number; w: number; h: number; fill: keyof typeof ICON_COLOURS }[] = [
  { x: 0, y: 0, w: 32, h: 32, fill: 'ground' },
  { x: 5, y: 12, w: 22, h: 4, fill: 'desk' },
  { x: 7, y: 16, w: 3, h: 10, fill: 'desk' },
  { x: 22, y: 16, w: 3, h: 10, fill: 'desk' },
  { x: 12, y: 6, w: 8, h: 5, fill: 'desk' },
];

const hex = (rgb: readonly number[]) => `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`;

export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${ICON_SIZE} ${ICON_SIZE}">`
  + ICON_RECTS.map((r) => `<rect x="${r.x}" y="${r.y}" width="${r.w}" height="${r.h}" fill="${hex(ICON_COLOURS[r.fill])}"/>`).join('')
  + '</svg>\n';

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** The same mark as a 32×32 PNG inside an ICO container (the form /favicon.ico is asked for). */
function faviconIco(): Buffer {
  const row = 1 + ICON_SIZE * 3;
  const pixels = Buffer.alloc(row * ICON_SIZE);
  for (const r of ICON_RECTS) {
    for (let y = r.y; y < r.y + r.h; y++) {
      for (let x = r.x; x < r.x + r.w; x++) pixels.set(ICON_COLOURS[r.fill], y * row + 1 + x * 3);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(ICON_SIZE, 0);
  header.writeUInt32BE(ICON_SIZE, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, no filter method, no interlace
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header), pngChunk('IDAT', deflateSync(pixels)), pngChunk('IEND', Buffer.alloc(0)),
  ]);
  const dir = Buffer.alloc(22);
  dir.writeUInt16LE(1, 2); // type: icon
  dir.writeUInt16LE(1, 4); // one image
  dir[6] = ICON_SIZE;
  dir[7] = ICON_SIZE;
  dir.writeUInt16LE(1, 10); // colour planes
  dir.writeUInt16LE(32, 12); // bits per pixel
  dir.writeUInt32LE(png.length, 14);
  dir.writeUInt32LE(dir.length, 18);
  return Buffer.concat([dir, png]);
}

const FAVICON_ICO = faviconIco();

/** Registers `/`, the locales' home aliases, the favicon and robots.txt. */
export function installAddresses(app: FastifyInstance) {
  app.route({
    method: 'GET',
    url: '/',
    handler: (request, reply) => {
      const locale = negotiateLocale(request.headers['accept-language']) ?? FALLBACK_LOCALE;
      return reply.header('vary', 'Accept-Language').redirect(citationPath(locale, { kind: 'home' }) + queryOf(request.url), 302);
    },
  });
  for (const locale of LOCALES) {
    // the home lists every country: it is where `coworking` without a country leads
    for (const alias of [`/${locale}/`, `/${locale}/coworking`, `/${locale}/coworking/`]) {
      app.route({
        method: 'GET',
        url: alias,
        handler: (request, reply) => reply.redirect(citationPath(locale, { kind: 'home' }) + queryOf(request.url), 301),
      });
    }
  }
  app.route({
    method: 'GET',
    url: '/favicon.svg',
    config: { cache: ASSET_CACHE },
    handler: (_request, reply) => reply.type('image/svg+xml').send(FAVICON_SVG),
  });
  app.route({
    method: 'GET',
    url: '/favicon.ico',
    config: { cache: ASSET_CACHE },
    handler: (_request, reply) => reply.type('image/x-icon').send(FAVICON_ICO),
  });
  app.route({
    method: 'GET',
    url: '/robots.txt',
    config: { cache: ASSET_CACHE },
    // the JSON API is for programs; every page links the data it shows
    handler: (_request, reply) => reply.type('text/plain; charset=utf-8')
      .send(`User-agent: *\nDisallow: /v1/\nAllow: /\n\nSitemap: ${app.config.siteUrl}${SITEMAP_INDEX_PATH}\n`),
  });
}
