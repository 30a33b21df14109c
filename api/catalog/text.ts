/**
 * Site paths in build files. Builds store site-relative paths (`"url":"/media/…"`); SITE_URL is
 * known only at start (docs/design.md §3), so the API resolves them: in JSON files when it loads a
 * build (in their text, before parsing), in NDJSON lines when it renders one.
 */
import type { JsonBytes } from './json-bytes.ts';

/** `"url":"/…"` can only be a key and its value (quotes inside JSON strings are escaped), so a match is exact. */
const SITE_PATH = /"(url|webUrl|methodologyUrl)":"\/(?!\/)/g;

/** Resolves the site paths of a JSON text (as the pipeline writes it: no space around the colon). */
export function resolveSitePathsInJson(json: string, siteUrl: string): string {
  return json.replace(SITE_PATH, (_m, key: string) => `"${key}":"${siteUrl}/`);
}

/**
 * Writes bytes [start, end) with `siteUrl` (UTF-8) put before the site paths at offsets[from],
 * offsets[from + 1], … below end: the bytes are copied, never decoded.
 */
export function writeWithSitePaths(w: JsonBytes, bytes: Buffer, start: number, end: number, offsets: ArrayLike<number>, from: number, siteUrl: Buffer): void {
  let pos = start;
  for (let k = from; k < offsets.length && offsets[k] < end; k++) {
    w.bytes(bytes, pos, offsets[k]).bytes(siteUrl);
    pos = offsets[k];
  }
  w.bytes(bytes, pos, end);
}
