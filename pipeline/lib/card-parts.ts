/**
 * The cards as the API holds them (CARD_FILES, contract/build.ts), split from cards.<locale>.ndjson
 * once every locale's file was checked: per listing, the bytes every locale's card begins with and
 * ends with are written once, and only each locale's bytes between them apart. The split is taken
 * from the checked bytes themselves, so joining the parts gives each card back byte for byte.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { CARD_FILES } from '../../contract/build.ts';
import type { Locale } from '../../contract/common.ts';
import { encodeLineIndex, LINE_INDEX_FILE, lineIndexOf } from '../../contract/line-index.ts';
import type { BuildWriter } from './publish.ts';

/** How many bytes of each locale's cards are read at a time. */
const CHUNK_BYTES = 8 << 20;
const NEWLINE = Buffer.from('\n');

/** The line starts and site path count of an encoded line index (contract/line-index.ts: a 16-byte head with both counts, then n + 1 float64s). */
function startsOf(lineIndex: Uint8Array): { starts: Float64Array; sitePaths: number } {
  const head = Buffer.from(lineIndex.buffer, lineIndex.byteOffset, lineIndex.byteLength);
  const n = head.readUInt32LE(4);
  return { starts: new Float64Array(lineIndex.slice(16, 16 + 8 * (n + 1)).buffer), sitePaths: head.readUInt32LE(8) };
}

function readRange(path: string, from: number, to: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    const bytes = Buffer.allocUnsafe(to - from);
    for (let filled = 0; filled < bytes.length;) {
      const n = readSync(fd, bytes, filled, bytes.length - filled, from + filled);
      if (n === 0) throw new Error(`${path} ends before byte ${to}`);
      filled += n;
    }
    return bytes;
  } finally {
    closeSync(fd);
  }
}

/**
 * How many bytes every locale's line of a card (`lines`) begins with and ends with alike: the
 * beginning stops before the last byte, so that every card's end (its closing brace) is in its
 * shared end, which the API puts the request-dependent fields before.
 */
function sharedEnds(lines: Uint8Array[]): { begin: number; end: number } {
  const shortest = Math.min(...lines.map((b) => b.length));
  let begin = 0;
  while (begin < shortest - 1 && lines.every((b) => b[begin] === lines[0][begin])) begin++;
  let end = 0;
  while (end < shortest - begin && lines.every((b) => b[b.length - 1 - end] === lines[0][lines[0].length - 1 - end])) end++;
  return { begin, end };
}

/** Appends a card's lines in every locale (without newlines), split, to the lines of card-parts.ndjson and each locale's card-texts. */
export function splitCard(lines: Buffer[], parts: Buffer[], texts: Buffer[][]): void {
  const { begin, end } = sharedEnds(lines);
  parts.push(lines[0].subarray(0, begin), NEWLINE, lines[0].subarray(lines[0].length - end), NEWLINE);
  lines.forEach((b, k) => texts[k].push(b.subarray(begin, b.length - end), NEWLINE));
}

/**
 * Writes card-parts.ndjson and card-texts.<locale>.ndjson with their line indexes from the cards
 * files (`cards` by locale: each file's path and encoded line index, as its check gave them).
 * Fails if a site path would be cut in two (their count must be the cards files').
 */
export function writeCardParts(writer: BuildWriter, cards: Map<Locale, { path: string; lineIndex: Uint8Array }>): void {
  const locales = [...cards.keys()];
  const indexes = locales.map((l) => startsOf(cards.get(l)!.lineIndex));
  const starts = indexes.map((x) => x.starts);
  const n = starts[0].length - 1;
  for (const [k, s] of starts.entries()) if (s.length - 1 !== n) throw new Error(`cards.${locales[k]}.ndjson has ${s.length - 1} lines, cards.${locales[0]}.ndjson ${n}`);
  const parts: Buffer[] = [];
  const texts: Buffer[][] = locales.map(() => []);
  for (let first = 0; first < n;) {
    let last = first + 1;
    while (last < n && starts[0][last + 1] - starts[0][first] <= CHUNK_BYTES) last++;
    const chunks = locales.map((l, k) => readRange(cards.get(l)!.path, starts[k][first], starts[k][last]));
    const chunkParts: Buffer[] = [], chunkTexts: Buffer[][] = locales.map(() => []);
    for (let i = first; i < last; i++) {
      const lines = chunks.map((c, k) => c.subarray(starts[k][i] - starts[k][first], starts[k][i + 1] - starts[k][first] - 1));
      splitCard(lines, chunkParts, chunkTexts);
    }
    // copied out, so that no chunk read is kept
    parts.push(Buffer.concat(chunkParts));
    chunkTexts.forEach((t, k) => texts[k].push(Buffer.concat(t)));
    first = last;
  }
  const partsBytes = Buffer.concat(parts);
  const partsIndex = lineIndexOf(partsBytes);
  writer.writeBytes(CARD_FILES.parts, partsBytes);
  writer.writeBytes(LINE_INDEX_FILE(CARD_FILES.parts), encodeLineIndex(partsIndex));
  locales.forEach((l, k) => {
    const bytes = Buffer.concat(texts[k]);
    const index = lineIndexOf(bytes);
    if (partsIndex.sitePaths.length + index.sitePaths.length !== indexes[k].sitePaths) throw new Error(`cards.${l}.ndjson: splitting its cards cut a site path`);
    writer.writeBytes(CARD_FILES.texts(l), bytes);
    writer.writeBytes(LINE_INDEX_FILE(CARD_FILES.texts(l)), encodeLineIndex(index));
  });
}
