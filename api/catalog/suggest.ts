/**
 * The autocomplete (docs/design.md §5, GET /v1/search/suggest) over a build's suggest-index.bin
 * (contract/suggest-index.ts) and suggestion lines. A one-token query the file answers (short and
 * heavy prefixes) is one binary search; any other walks the postings of its words
 * (contract/suggest-search.ts).
 */
import { LOCALES, type Locale } from '../../contract/common.ts';
import { MAX_SUGGEST_LIMIT } from '../../contract/market.ts';
import type { SuggestIndexData } from '../../contract/suggest-index.ts';
import { MAX_TOKENS, SuggestMatcher, tokens, type SuggestResult } from '../../contract/suggest-search.ts';
import { ASCII, type JsonBytes } from './json-bytes.ts';
import { isNullAt } from './listing-lines.ts';

/** suggest.<locale>.ndjson held in memory: entry i (rank i) is bytes [starts[i], starts[i + 1] - 1), `null` past the first locale where it is the first's. */
export interface SuggestLines { bytes: Buffer; starts: Float64Array }

export class SuggestIndex {
  private readonly matcher: SuggestMatcher;

  /** `lines`: each locale's entries in rank order; `index`: suggest-index.bin over them, checked (contract/suggest-index.ts). */
  constructor(private readonly lines: Record<Locale, SuggestLines>, private readonly index: SuggestIndexData) {
    this.matcher = new SuggestMatcher(index);
  }

  get size(): number {
    return this.index.weightStart.length;
  }

  /** Writes the entries of `ranks` as the endpoint returns them in `locale`: a JSON array of their lines' bytes (the first locale's where the line is `null`). */
  writeItems(w: JsonBytes, ranks: readonly number[], locale: Locale): void {
    const own = this.lines[locale], first = this.lines[LOCALES[0]];
    w.byte(ASCII.openBracket);
    for (let k = 0; k < ranks.length; k++) {
      if (k > 0) w.byte(ASCII.comma);
      const r = ranks[k];
      const { bytes, starts } = isNullAt(own.bytes, own.starts[r], own.starts[r + 1] - 1) ? first : own;
      w.bytes(bytes, starts[r], starts[r + 1] - 1);
    }
    w.byte(ASCII.closeBracket);
  }

  /** The best `limit` entries for `q`, and how many entries matched. */
  search(q: string, limit: number): SuggestResult {
    const qs = tokens(q).slice(0, MAX_TOKENS);
    if (qs.length === 0) return { total: 0, ranks: [] };
    if (qs.length === 1 && limit <= MAX_SUGGEST_LIMIT) {
      const answered = this.answered(qs[0], limit);
      if (answered) return answered;
    }
    return this.matcher.walk(qs, limit);
  }

  /** The file's answer to the one-token query `t`, if it holds one. */
  private answered(t: string, limit: number): SuggestResult | null {
    const { answeredPrefixes, answerTotal, answerTopStart, answerTop } = this.index;
    let lo = 0;
    let hi = answeredPrefixes.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (answeredPrefixes[mid] < t) lo = mid + 1;
      else hi = mid;
    }
    if (answeredPrefixes[lo] !== t) return null;
    const from = answerTopStart[lo];
    return { total: answerTotal[lo], ranks: Array.from(answerTop.subarray(from, Math.min(answerTopStart[lo + 1], from + limit))) };
  }
}
