/**
 * `suggest-index.bin`: the autocomplete index (GET /v1/search/suggest) as the pipeline builds it
 * once per build and the API loads it, without sorting or parsing anything large. It indexes the
 * entries of suggest.<locale>.ndjson (SUGGEST_FILES in contract/build.ts), in rank order: an
 * entry's line is its rank.
 *
 * Words are the distinct folded words of every name (contract/fold.ts), sorted by UTF-16 code
 * units; names are numbered in rank order of their entries. Lengths and positions in words are
 * UTF-16 code units, as JavaScript strings count them.
 *
 * Layout: the magic `DASG`, then SECTIONS in order, each a little-endian uint32 byte length and
 * its bytes (text as UTF-8, words or prefixes separated by one space; arrays as little-endian
 * int32), padded with zeros to a multiple of 4 bytes.
 */
import { MAX_SUGGEST_LIMIT } from './market.ts';

export const SUGGEST_INDEX_FILE = 'suggest-index.bin';
const MAGIC = 'DASG';

/** Prefixes shorter than this allow no typo and match too many names to walk: their answers are in the file. */
export const SUGGEST_SHORT_PREFIX = 4;

/**
 * A longer prefix of some word whose walk visits this many postings (of the words it matches,
 * exactly or by a typo) has its answer in the file too: walking them per request would cost with
 * the catalogue, not the answer.
 */
export const SUGGEST_HEAVY_POSTINGS = 500;

export interface SuggestIndexData {
  /** the distinct words, sorted */
  words: string[];
  /** the names word w occurs in, ascending: postingNames[postingStart[w] .. postingStart[w + 1]) */
  postingStart: Int32Array;
  postingNames: Int32Array;
  /** the entry (rank) of each name; ascending */
  nameEntry: Int32Array;
  /** the distinct words of name n: nameWords[nameWordStart[n] .. nameWordStart[n + 1]) */
  nameWordStart: Int32Array;
  nameWords: Int32Array;
  /** the first rank of each entry's weight (typo matches order by weight before their exact prefix) */
  weightStart: Int32Array;
  /**
   * Block i (i < the longest word's length): the words longer than i, sorted by the word without
   * its character i, then by word: deletionWords[deletionStart[i] .. deletionStart[i + 1]).
   * A query one substitution or one missing letter at position i away from a word's prefix finds
   * it in block i by one binary search.
   */
  deletionStart: Int32Array;
  deletionWords: Int32Array;
  /**
   * The one-token queries answered here, sorted: every prefix shorter than SUGGEST_SHORT_PREFIX of
   * some word, and the longer ones whose walk visits SUGGEST_HEAVY_POSTINGS postings
   */
  answeredPrefixes: string[];
  /** how many entries match each answered prefix, and the best MAX_SUGGEST_LIMIT of them (ranks, best first) */
  answerTotal: Int32Array;
  answerTopStart: Int32Array;
  answerTop: Int32Array;
}

type Section = { [K in keyof SuggestIndexData]: SuggestIndexData[K] extends string[] ? 'text' : 'int32' };
const SECTIONS: Section = {
  words: 'text', postingStart: 'int32', postingNames: 'int32', nameEntry: 'int32', nameWordStart: 'int32',
  nameWords: 'int32', weightStart: 'int32', deletionStart: 'int32', deletionWords: 'int32',
  answeredPrefixes: 'text', answerTotal: 'int32', answerTopStart: 'int32', answerTop: 'int32',
};
const KEYS = Object.keys(SECTIONS) as (keyof SuggestIndexData)[];

/** The word `w` without its character `i`, compared with `key` by UTF-16 code units. */
export function compareDeleted(w: string, i: number, key: string): number {
  const n = w.length - 1;
  const m = Math.min(n, key.length);
  for (let j = 0; j < m; j++) {
    const c = w.charCodeAt(j < i ? j : j + 1);
    const k = key.charCodeAt(j);
    if (c !== k) return c - k;
  }
  return n - key.length;
}

export function encodeSuggestIndex(data: SuggestIndexData): Buffer {
  const parts: Buffer[] = [Buffer.from(MAGIC, 'latin1')];
  for (const key of KEYS) {
    const value = data[key];
    const bytes = SECTIONS[key] === 'text'
      ? Buffer.from((value as string[]).join(' '), 'utf8')
      : Buffer.from((value as Int32Array).buffer, (value as Int32Array).byteOffset, (value as Int32Array).byteLength);
    const head = Buffer.alloc(4);
    head.writeUInt32LE(bytes.length);
    parts.push(head, bytes, Buffer.alloc((4 - (bytes.length % 4)) % 4));
  }
  return Buffer.concat(parts);
}

/**
 * Reads suggest-index.bin for `entryCount` entries and checks its structure (every id in range,
 * every list in the order the lookups' binary searches rely on); throws on the first fault.
 */
export function decodeSuggestIndex(buf: Buffer, entryCount: number): SuggestIndexData {
  const d = readSuggestIndex(buf);
  checkStructure(d, entryCount);
  return d;
}

/** Reads the sections of suggest-index.bin, their structure unchecked (the API's loader reads a file its worker checked with decodeSuggestIndex). */
export function readSuggestIndex(buf: Buffer): SuggestIndexData {
  if (buf.length < 4 || buf.toString('latin1', 0, 4) !== MAGIC) throw new Error('not a suggest index (no DASG magic)');
  const data = {} as Record<keyof SuggestIndexData, unknown>;
  let at = 4;
  for (const key of KEYS) {
    if (at + 4 > buf.length) throw new Error(`cut short before section ${key}`);
    const length = buf.readUInt32LE(at);
    at += 4;
    if (at + length > buf.length) throw new Error(`section ${key} is ${length} bytes, the file holds ${buf.length - at}`);
    if (SECTIONS[key] === 'text') {
      const text = buf.toString('utf8', at, at + length);
      data[key] = text ? text.split(' ') : [];
    } else {
      if (length % 4 !== 0) throw new Error(`section ${key} is ${length} bytes, not whole int32s`);
      const ints = new Int32Array(length / 4);
      Buffer.from(ints.buffer).set(buf.subarray(at, at + length));
      data[key] = ints;
    }
    at += length + ((4 - (length % 4)) % 4);
  }
  if (at !== buf.length) throw new Error(`${buf.length - at} bytes after the last section`);
  return data as unknown as SuggestIndexData;
}

function checkStructure(d: SuggestIndexData, entryCount: number): void {
  const fail = (msg: string): never => { throw new Error(msg); };
  const words = d.words.length, names = d.nameEntry.length;
  for (let w = 0; w < words; w++) {
    if (!d.words[w]) fail(`word ${w} is empty`);
    if (w > 0 && !(d.words[w - 1] < d.words[w])) fail(`words not sorted at ${w} (${d.words[w - 1]}, ${d.words[w]})`);
  }
  /** `start` delimits `count` lists of `items` whose values lie in [0, bound), each ascending when `ascending` */
  const lists = (name: string, start: Int32Array, items: Int32Array, count: number, bound: number, ascending: boolean) => {
    if (start.length !== count + 1 || start[0] !== 0 || start[count] !== items.length) fail(`${name}: ${start.length - 1} lists over ${items.length} items, expected ${count}`);
    for (let k = 0; k < count; k++) {
      if (start[k + 1] < start[k]) fail(`${name}: list ${k} ends before it starts`);
      for (let j = start[k]; j < start[k + 1]; j++) {
        if (!(items[j] >= 0 && items[j] < bound)) fail(`${name}: list ${k} holds ${items[j]}, out of range`);
        if (ascending && j > start[k] && items[j] <= items[j - 1]) fail(`${name}: list ${k} not ascending`);
      }
    }
  };
  lists('postings', d.postingStart, d.postingNames, words, names, true);
  for (let n = 0; n < names; n++) {
    if (!(d.nameEntry[n] >= 0 && d.nameEntry[n] < entryCount)) fail(`name ${n} belongs to entry ${d.nameEntry[n]}, out of range`);
    if (n > 0 && d.nameEntry[n] < d.nameEntry[n - 1]) fail(`names not in rank order at ${n}`);
  }
  lists('name words', d.nameWordStart, d.nameWords, names, words, false);
  if (d.weightStart.length !== entryCount) fail(`weightStart has ${d.weightStart.length} entries, the suggest lines ${entryCount}`);
  for (let r = 0; r < entryCount; r++) if (d.weightStart[r] !== r && (r === 0 || d.weightStart[r] !== d.weightStart[r - 1])) fail(`weightStart ${r} is ${d.weightStart[r]}`);
  let longest = 0;
  for (const w of d.words) longest = Math.max(longest, w.length);
  lists('deletion blocks', d.deletionStart, d.deletionWords, longest, words, false);
  for (let i = 0; i < longest; i++) {
    const from = d.deletionStart[i], to = d.deletionStart[i + 1];
    for (let j = from; j < to; j++) {
      const w = d.words[d.deletionWords[j]];
      if (w.length <= i) fail(`deletion block ${i} holds ${w}, not longer than ${i}`);
      if (j > from) {
        const before = d.words[d.deletionWords[j - 1]];
        const order = -compareDeleted(w, i, before.slice(0, i) + before.slice(i + 1));
        if (order > 0 || (order === 0 && d.deletionWords[j - 1] >= d.deletionWords[j])) fail(`deletion block ${i} not sorted at ${j - from}`);
      }
    }
  }
  const prefixes = d.answeredPrefixes.length;
  for (let p = 0; p < prefixes; p++) {
    const s = d.answeredPrefixes[p];
    if (!s || (p > 0 && !(d.answeredPrefixes[p - 1] < s))) fail(`answered prefix ${p} (${s}) empty or out of order`);
  }
  if (d.answerTotal.length !== prefixes) fail(`${d.answerTotal.length} answer totals for ${prefixes} prefixes`);
  lists('prefix answers', d.answerTopStart, d.answerTop, prefixes, entryCount, false);
  for (let p = 0; p < prefixes; p++) {
    const top = d.answerTopStart[p + 1] - d.answerTopStart[p];
    if (top > MAX_SUGGEST_LIMIT || top !== Math.min(d.answerTotal[p], MAX_SUGGEST_LIMIT)) fail(`answered prefix ${d.answeredPrefixes[p]}: ${top} answers for ${d.answerTotal[p]} matches`);
  }
}
