/**
 * The pages' HTML templates and what every one of them formats with in a locale, shared by the
 * loading thread and the page worker (page-worker.ts), which renders the longest pages the same.
 */
import { join } from 'node:path';
import { Eta } from 'eta';
import type { Locale } from '../../contract/common.ts';
import { QUALITY_FLAG_LETTERS } from '../../contract/rules.ts';
import { SEARCH_STRINGS } from './search-strings.ts';
import { formatDate, formatMoney, formatNumber, formatShare, STRINGS } from './strings.ts';

export const eta = new Eta({ views: join(import.meta.dirname, 'templates'), cache: true, autoEscape: true });

/** The words and formatters of a locale the templates are given (functions: a worker makes its own). */
export function localeFormat(locale: Locale) {
  return {
    t: STRINGS[locale],
    money: (m: { amount: number; currency: string }) => formatMoney(locale, m),
    share: (x: number) => formatShare(locale, x),
    number: (n: number) => formatNumber(locale, n),
    flagLegend: Object.entries(QUALITY_FLAG_LETTERS).map(([k, letter]) => ({ letter, meaning: STRINGS[locale].flagMeaning[k as keyof typeof QUALITY_FLAG_LETTERS] })),
    date: (iso: string) => formatDate(locale, iso),
    searchWords: SEARCH_STRINGS[locale],
  };
}
