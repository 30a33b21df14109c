/**
 * A locale's listings as the engine renders them, line i for listing i: cards (CardLines) and markers held in
 * memory (NdjsonLines), details left on disk (DetailLines). The loader makes both and checks them
 * before the engine gets them (api/loading/ndjson.ts, api/loading/records.ts).
 */

/**
 * An NDJSON file's bytes and line starts: line i is bytes [starts[i], starts[i + 1] - 1) (its
 * newline excluded); its site paths are sitePaths[firstSitePath[i]] onwards.
 */
export interface NdjsonLines { bytes: Buffer; starts: Float64Array; sitePaths: Float64Array; firstSitePath: Uint32Array }

/** A locale's cards: line i of texts between lines 2i and 2i + 1 of parts (CARD_FILES, contract/build.ts). */
export interface CardLines { parts: NdjsonLines; texts: NdjsonLines }

/** A details file left on disk, read a line at a time. */
export interface DetailLines {
  /** Line i without its newline; throws DamagedFileError when its bytes are not the ones the pipeline wrote. */
  line(i: number): Buffer;
  close(): Promise<void>;
}

/** Whether bytes [start, end) are `null`. */
export const isNullAt = (bytes: Buffer, start: number, end: number) =>
  end - start === 4 && bytes[start] === 0x6e && bytes[start + 1] === 0x75 && bytes[start + 2] === 0x6c && bytes[start + 3] === 0x6c;

/** Whether line i is `null` (a listing without a marker). */
export const isNullLine = (l: NdjsonLines, i: number): boolean => isNullAt(l.bytes, l.starts[i], l.starts[i + 1] - 1);
