/**
 * How autocomplete compares names (docs/design.md §5): the pipeline folds every name of the suggest
 * index when it writes suggest-index.bin, the API folds each query the same way.
 */
const SPECIAL: Record<string, string> = {
  ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ð: 'd', þ: 'th', ł: 'l', ı: 'i', ħ: 'h',
};

/** Lower case, accents stripped, ß → ss, ue/ae/oe → u/a/o; every other run of non-alphanumerics one space. */
export function fold(text: string): string {
  const lower = text.toLowerCase().replace(/[ßæœøđðþłıħ]/g, (c) => SPECIAL[c]);
  return lower
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    // German transliteration: a prefix of a word still folds to a prefix of its folded form
    .replace(/([aou])e/g, '$1')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The distinct non-empty folded forms of some names. */
export function foldedNames(...names: (string | null | undefined)[]): string[] {
  const folded = new Set<string>();
  for (const n of new Set(names)) {
    const f = n ? fold(n) : '';
    if (f) folded.add(f);
  }
  return [...folded];
}
