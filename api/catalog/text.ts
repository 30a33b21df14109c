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

/** The same resolution on UTF-8 JSON bytes (a whole NDJSON file), without decoding them to one string. */
export function resolveSitePathsInBytes(bytes: Buffer, siteUrl: string): Buffer {
  if (!siteUrl) return bytes;
  // latin1 maps each byte to one character, so match positions are byte offsets (the pattern is ASCII)
  const text = bytes.toString('latin1');
  const site = Buffer.from(siteUrl);
  const parts: Buffer[] = [];
  let last = 0;
  SITE_PATH.lastIndex = 0;
  for (let m = SITE_PATH.exec(text); m; m = SITE_PATH.exec(text)) {
    const at = m.index + m[1].length + 4; // after `"key":"`
    parts.push(bytes.subarray(last, at), site);
    last = at;
  }
  if (last === 0) return bytes;
  parts.push(bytes.subarray(last));
  return Buffer.concat(parts);
}
