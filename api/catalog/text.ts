/** Text-level helpers for build files: site paths, card JSON, array element offsets, hashing. */
import { createHash } from 'node:crypto';

const URL_KEYS = new Set(['url', 'webUrl', 'methodologyUrl']);

/** Builds store site-relative paths; SITE_URL is known only at start (DESIGN.md §3). */
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

/**
 * The same resolution on a JSON text: `"url":"/…"` can only be a key and its value (quotes
 * inside JSON strings are escaped), so a replace is exact.
 */
export function resolveSitePathsInJson(json: string, siteUrl: string): string {
  return json.replace(/"(url|webUrl|methodologyUrl)":"\/(?!\/)/g, (_m, key: string) => `"${key}":"${siteUrl}/`);
}

export const VARYING_CARD_FIELDS = ['fromPrice', 'fromBillingPeriod', 'marketPosition', 'distanceMeters'] as const;

/** A card as JSON without its request-dependent fields and without the closing brace. */
export function stripCardFields(card: Record<string, unknown>): string {
  for (const k of VARYING_CARD_FIELDS) delete card[k];
  return JSON.stringify(card).slice(0, -1);
}

/** Byte offsets [start, end) of each element of a top-level JSON array of objects. */
export function arrayElementOffsets(buf: Buffer): { starts: Float64Array; ends: Float64Array } {
  const starts: number[] = [];
  const ends: number[] = [];
  let depth = 0;
  let inString = false;
  for (let i = 0; i < buf.length; i++) {
    const c = buf[i];
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped byte
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (depth === 1) starts.push(i);
      depth++;
    } else if (c === 125 || c === 93) {
      depth--;
      if (depth === 1) ends.push(i + 1);
    }
  }
  if (depth !== 0 || starts.length !== ends.length) throw new Error('not a JSON array of objects');
  return { starts: Float64Array.from(starts), ends: Float64Array.from(ends) };
}

/** [keyStart, valueStart, valueEnd] of each top-level field of the JSON object text[start..end). keyStart is the key's opening quote. */
export function topLevelFields(s: string, start: number, end: number): number[] {
  const out: number[] = [];
  let i = start + 1;
  const skipWs = () => { while (i < end) { const c = s.charCodeAt(i); if (c === 32 || c === 10 || c === 13 || c === 9) i++; else break; } };
  const skipString = () => { // s[i] is the opening quote
    i++;
    while (i < end) {
      const c = s.charCodeAt(i);
      if (c === 92) i += 2;
      else if (c === 34) { i++; return; } else i++;
    }
  };
  while (i < end) {
    skipWs();
    if (s.charCodeAt(i) === 125) break;
    const keyStart = i;
    skipString();
    skipWs();
    i++; // colon
    skipWs();
    const valueStart = i;
    const c = s.charCodeAt(i);
    if (c === 34) skipString();
    else if (c === 123 || c === 91) {
      let depth = 0;
      while (i < end) {
        const d = s.charCodeAt(i);
        if (d === 34) { skipString(); continue; }
        if (d === 123 || d === 91) depth++;
        else if (d === 125 || d === 93) { depth--; if (depth === 0) { i++; break; } }
        i++;
      }
    } else {
      while (i < end) { const d = s.charCodeAt(i); if (d === 44 || d === 125) break; i++; }
      let e = i;
      while (e > valueStart && s.charCodeAt(e - 1) <= 32) e--;
      out.push(keyStart, valueStart, e);
      skipWs();
      if (s.charCodeAt(i) === 44) i++;
      continue;
    }
    out.push(keyStart, valueStart, i);
    skipWs();
    if (s.charCodeAt(i) === 44) i++;
  }
  return out;
}

/** Character offsets [start, end) of each element of a top-level JSON array of objects. */
export function arrayElementOffsetsText(s: string): { starts: Int32Array; ends: Int32Array } {
  const starts: number[] = [];
  const ends: number[] = [];
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 34) {
      i++;
      while (i < s.length) {
        const d = s.charCodeAt(i);
        if (d === 92) i += 2;
        else if (d === 34) break;
        else i++;
      }
    } else if (c === 123 || c === 91) {
      if (depth === 1) starts.push(i);
      depth++;
    } else if (c === 125 || c === 93) {
      depth--;
      if (depth === 1) ends.push(i + 1);
    }
  }
  if (depth !== 0 || starts.length !== ends.length) throw new Error('not a JSON array of objects');
  return { starts: Int32Array.from(starts), ends: Int32Array.from(ends) };
}

/**
 * The elements of a file holding one top-level JSON array of objects, read in chunks: each
 * element's bytes and byte range, and the sha256 of the whole file once the last is read
 * (`digest()`). Little memory whatever the file's size.
 */
export async function* streamArrayElements(path: string, hash: { update(b: Buffer): unknown }, chunkBytes = 4 << 20): AsyncGenerator<{ bytes: Buffer; start: number; end: number }> {
  const { open } = await import('node:fs/promises');
  const fh = await open(path, 'r');
  try {
    let depth = 0, inString = false, escaped = false, sawArray = false, closed = false;
    let pos = 0, elemStart = -1;
    let pending: Buffer[] = [];
    const chunk = Buffer.allocUnsafe(chunkBytes);
    for (;;) {
      const { bytesRead } = await fh.read(chunk, 0, chunkBytes, pos);
      if (bytesRead === 0) break;
      const buf = chunk.subarray(0, bytesRead);
      hash.update(buf);
      let from = 0; // where the current element's bytes start in this chunk
      for (let i = 0; i < bytesRead; i++) {
        const c = buf[i];
        if (inString) {
          if (escaped) escaped = false;
          else if (c === 92) escaped = true;
          else if (c === 34) inString = false;
          continue;
        }
        if (c === 34) { inString = true; continue; }
        if (c === 123 || c === 91) {
          if (depth === 0) {
            if (c !== 91 || sawArray) throw new Error('not a JSON array of objects');
            sawArray = true;
          } else if (depth === 1) {
            if (c !== 123) throw new Error('not a JSON array of objects');
            elemStart = pos + i;
            from = i;
            pending = [];
          }
          depth++;
        } else if (c === 125 || c === 93) {
          depth--;
          if (depth === 1 && c === 125) {
            pending.push(buf.subarray(from, i + 1));
            const bytes = pending.length === 1 ? Buffer.from(pending[0]) : Buffer.concat(pending);
            pending = [];
            yield { bytes, start: elemStart, end: pos + i + 1 };
            elemStart = -1;
          } else if (depth === 0) closed = true;
          else if (depth < 0) throw new Error('not a JSON array of objects');
        } else if (depth === 0 && c > 32) throw new Error('not a JSON array of objects');
      }
      if (elemStart >= 0) pending.push(Buffer.from(buf.subarray(from)));
      pos += bytesRead;
    }
    if (!sawArray || !closed || depth !== 0) throw new Error('not a JSON array of objects');
  } finally {
    await fh.close();
  }
}

/** The sha256 (hex) of a text given in pieces: the whole text never has to be one string. */
export function sha256OfChunks(chunks: Iterable<string>): string {
  const hash = createHash('sha256');
  for (const chunk of chunks) hash.update(chunk);
  return hash.digest('hex');
}

/** The file text `${JSON.stringify(value)}\n` of an object, one top-level field a piece. */
export function* jsonFileChunks(value: object): Generator<string> {
  let first = true;
  for (const [key, field] of Object.entries(value)) {
    if (field === undefined) continue;
    yield `${first ? '{' : ','}${JSON.stringify(key)}:${JSON.stringify(field)}`;
    first = false;
  }
  yield first ? '{}\n' : '}\n';
}
