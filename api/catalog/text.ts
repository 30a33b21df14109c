/**
 * Site paths in build files. Builds store site-relative paths (`"url":"/media/…"`); SITE_URL is
 * known only at start (DESIGN.md §3), so the API resolves them when it loads a build.
 */

const URL_KEYS = new Set(['url', 'webUrl', 'methodologyUrl']);
/** `"url":"/…"` can only be a key and its value (quotes inside JSON strings are escaped), so a match is exact. */
const SITE_PATH = /"(url|webUrl|methodologyUrl)":"\/(?!\/)/g;

/** Resolves the site paths of a parsed value in place. */
export function resolveSitePaths<T>(value: T, siteUrl: string): T {
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) {
      for (const x of v) if (x && typeof x === 'object') walk(x);
      return;
    }
    const o = v as Record<string, unknown>;
    for (const k in o) {
      const x = o[k];
      if (typeof x === 'string') {
        if (URL_KEYS.has(k) && x.charCodeAt(0) === 47 && x.charCodeAt(1) !== 47) o[k] = siteUrl + x;
      } else if (x && typeof x === 'object') {
        walk(x);
      }
    }
  };
  if (value && typeof value === 'object') walk(value);
  return value;
}

/** The same resolution on a JSON text. */
export function resolveSitePathsInJson(json: string, siteUrl: string): string {
  return json.replace(SITE_PATH, (_m, key: string) => `"${key}":"${siteUrl}/`);
}

const URL_KEY_TAIL = Buffer.from('rl":"/');
const endsWith = (bytes: Buffer, end: number, ascii: string) => {
  if (end < ascii.length) return false;
  for (let k = 0; k < ascii.length; k++) if (bytes[end - ascii.length + k] !== ascii.charCodeAt(k)) return false;
  return true;
};

/** The same resolution on UTF-8 JSON bytes (a whole NDJSON file), without decoding them to a string. */
export function resolveSitePathsInBytes(bytes: Buffer, siteUrl: string): Buffer {
  if (!siteUrl) return bytes;
  // every key ends in `rl":"/`: find those, then check the key before and the byte after
  const at: number[] = [];
  for (let k = bytes.indexOf(URL_KEY_TAIL); k >= 0; k = bytes.indexOf(URL_KEY_TAIL, k + URL_KEY_TAIL.length)) {
    const slash = k + URL_KEY_TAIL.length - 1;
    if (bytes[slash + 1] === 0x2f) continue; // `//host`: not a site path
    if (endsWith(bytes, k, '"u') || endsWith(bytes, k, '"webU') || endsWith(bytes, k, '"methodologyU')) at.push(slash);
  }
  if (!at.length) return bytes;
  const site = Buffer.from(siteUrl);
  const out = Buffer.allocUnsafe(bytes.length + at.length * site.length);
  let from = 0, to = 0;
  for (const slash of at) {
    out.set(bytes.subarray(from, slash), to);
    to += slash - from;
    out.set(site, to);
    to += site.length;
    from = slash;
  }
  out.set(bytes.subarray(from), to);
  return out;
}
