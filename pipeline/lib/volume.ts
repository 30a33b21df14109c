/**
 * Volume guards: the counts of a build (the manifest's rowCounts) against those of the build
 * `current` points to. A count that falls by more than its limit fails the build unless
 * --allow-shrink: a cut or half-exported file looks valid row by row.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { BuildError, type BuildFailureRule } from './errors.ts';
import { INPUT_TABLES, type InputTableName } from './inputs.ts';
import { queryRows } from './models.ts';

/** The largest fall against the previous build that publishes without --allow-shrink, as a share of the previous count. */
export const SHRINK_LIMITS = {
  /** published listings */
  listings: 0.5,
  /** rows of every input table */
  rows: 0.1,
  /** the distinct counts of DISTINCT_COUNTS */
  distinct: 0.1,
} as const;

/**
 * Besides its rows, what an input table holds where its rows are history or detail: the manifest
 * count `input.<table>.<name>` is the number of distinct values of these columns.
 */
export const DISTINCT_COUNTS = {
  price_observations: { offers: ['space_id', 'offer_id'], spaces: ['space_id'] },
  space_images: { spaces: ['space_id'] },
} as const satisfies Partial<Record<InputTableName, Record<string, readonly string[]>>>;

/** The manifest counts of the input: `input.<table>` rows read, `input.<table>.<distinct>`, `input.<table>.rejected` rows quarantined (rejects.csv rows: file first). */
export async function inputVolumes(
  conn: DuckDBConnection, rowCounts: Record<InputTableName, number>, rejectRows: readonly (readonly string[])[],
): Promise<Record<string, number>> {
  const rejectedByFile = new Map<string, number>();
  for (const [file] of rejectRows) rejectedByFile.set(file, (rejectedByFile.get(file) ?? 0) + 1);
  const counts: Record<string, number> = {};
  for (const table of Object.keys(INPUT_TABLES) as InputTableName[]) {
    counts[`input.${table}`] = rowCounts[table];
    counts[`input.${table}.rejected`] = rejectedByFile.get(INPUT_TABLES[table].file) ?? 0;
  }
  for (const [table, distinct] of Object.entries(DISTINCT_COUNTS) as [InputTableName, Record<string, readonly string[]>][]) {
    const select = Object.entries(distinct)
      .map(([name, columns]) => `count(distinct (${columns.map((c) => `"${c}"`).join(', ')}))::integer as "${name}"`).join(', ');
    const [row] = await queryRows<Record<string, number>>(conn, `select ${select} from raw_${table}`);
    for (const name of Object.keys(distinct)) counts[`input.${table}.${name}`] = row[name];
  }
  return counts;
}

interface Guard { count: string; rule: BuildFailureRule; file: string; what: string; limit: number }

function guards(): Guard[] {
  const list: Guard[] = [{ count: 'listings', rule: 'listings_shrink', file: 'spaces.csv', what: 'listings', limit: SHRINK_LIMITS.listings }];
  for (const table of Object.keys(INPUT_TABLES) as InputTableName[]) {
    const { file } = INPUT_TABLES[table];
    list.push({ count: `input.${table}`, rule: 'volume_shrink', file, what: 'rows', limit: SHRINK_LIMITS.rows });
    for (const name of Object.keys((DISTINCT_COUNTS as Partial<Record<InputTableName, object>>)[table] ?? {})) {
      list.push({ count: `input.${table}.${name}`, rule: 'volume_shrink', file, what: `distinct ${name}`, limit: SHRINK_LIMITS.distinct });
    }
  }
  return list;
}

const percent = (share: number) => `${(100 * share).toFixed(1).replace(/\.0$/, '')}%`;

/** Fails when a count fell beyond its limit; names every such count, the listings first. */
export function checkVolumes(
  previous: { buildId: string; rowCounts: Record<string, number> } | null, counts: Record<string, number>, allowShrink: boolean,
): void {
  if (!previous || allowShrink) return;
  const falls = guards().flatMap((guard) => {
    const before = previous.rowCounts[guard.count];
    const now = counts[guard.count];
    if (typeof before !== 'number' || before === 0 || typeof now !== 'number') return [];
    const fall = (before - now) / before;
    return fall > guard.limit ? [{ guard, before, now, fall }] : [];
  });
  if (falls.length === 0) return;
  const byFile = new Map<string, string[]>();
  for (const { guard, before, now, fall } of falls) {
    const list = byFile.get(guard.file) ?? byFile.set(guard.file, []).get(guard.file)!;
    list.push(guard.rule === 'listings_shrink'
      ? `listings fell from ${before} to ${now} (more than half)`
      : `${guard.what} fell from ${before} to ${now} (−${percent(fall)}, limit ${percent(guard.limit)})`);
  }
  throw new BuildError(falls[0].guard.rule,
    `${[...byFile].map(([file, list]) => `${file}: ${list.join(', ')}`).join('; ')} against build ${previous.buildId}; ` +
      'rerun with --allow-shrink (make data ALLOW_SHRINK=1) if intended');
}
