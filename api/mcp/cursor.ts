/**
 * The search tool's cursor: the search's arguments, the page it points to and a random order's
 * seed, as base64url JSON. It is opaque to agents; a damaged one is refused by name.
 */
import { MAX_PAGE } from '../../contract/queries.ts';

export interface SearchPosition {
  /** the search's arguments as the first call gave them */
  args: Record<string, string>;
  page: number;
  seed?: number;
}

export const encodeCursor = (position: SearchPosition) => Buffer.from(JSON.stringify(position)).toString('base64url');

/** The position a cursor names, or undefined for one this server did not make. */
export function decodeCursor(cursor: string): SearchPosition | undefined {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  const { args, page, seed } = (value ?? {}) as Partial<SearchPosition>;
  const plainArgs = !!args && typeof args === 'object' && !Array.isArray(args) && Object.values(args).every((v) => typeof v === 'string');
  if (!plainArgs || !Number.isInteger(page) || page! < 2 || page! > MAX_PAGE) return undefined;
  if (seed !== undefined && !Number.isInteger(seed)) return undefined;
  return { args: args!, page: page!, seed };
}
