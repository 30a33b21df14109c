import type { DuckDBConnection } from '@duckdb/node-api';
import { FALLBACK_LOCALE } from '../../contract/common.ts';
import { queryRows } from './models.ts';

/** The model that counts the texts shown in FALLBACK_LOCALE for want of their own. */
export const TEXT_FALLBACKS_TABLE = 'int_text_fallbacks__counted';

export interface TextFallbacks { locale: string; entity_kind: string; field: string; fallback_texts: number }

export const readTextFallbacks = (conn: DuckDBConnection) => queryRows<TextFallbacks>(conn, `select * from ${TEXT_FALLBACKS_TABLE}`);

/** "locale fallbacks fr → en: space excerpt 1600, space description 1600": one line per locale that has any. */
export function describeTextFallbacks(rows: TextFallbacks[]): string[] {
  const byLocale = new Map<string, string[]>();
  for (const r of rows) byLocale.set(r.locale, [...byLocale.get(r.locale) ?? [], `${r.entity_kind} ${r.field} ${r.fallback_texts}`]);
  return [...byLocale].map(([locale, counts]) => `locale fallbacks ${locale} → ${FALLBACK_LOCALE}: ${counts.join(', ')}`);
}
