/**
 * The bulk download (contract/research.ts BULK_FILES): the bulk_listings and bulk_offers marts,
 * each written by DuckDB as Parquet and as CSV in the mart's order.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { BULK_FILES, isPrecompressed } from '../../contract/research.ts';
import { precompress } from './precompress.ts';
import { CSV_COPY_OPTIONS } from './research.ts';
import type { BuildWriter } from './publish.ts';
import { sqlText } from './sql-text.ts';

/** Each bulk table's mart; its files are `<table>.parquet` and `<table>.csv`. */
const BULK_TABLES = { listings: 'bulk_listings', offers: 'bulk_offers' } as const;
export const BULK_MARTS = Object.values(BULK_TABLES);

/**
 * One row group per 122,880 rows, filled in the mart's order whatever the thread count (DuckDB
 * keeps insertion order), and zstd: the same rows give the same bytes, so the same release id.
 */
const PARQUET = '(format parquet, compression zstd)';

/** Writes listings.parquet, listings.csv, offers.parquet and offers.csv, the CSVs precompressed; returns each table's row count. */
export async function writeBulkFiles(conn: DuckDBConnection, writer: BuildWriter): Promise<Record<keyof typeof BULK_TABLES, number>> {
  const rows = { listings: 0, offers: 0 };
  for (const [table, mart] of Object.entries(BULK_TABLES) as [keyof typeof BULK_TABLES, string][]) {
    for (const [extension, options] of [['parquet', PARQUET], ['csv', CSV_COPY_OPTIONS]]) {
      const file = `${table}.${extension}`;
      const copied = await conn.run(`copy (from ${mart}) to ${sqlText(writer.pathOf(file))} ${options}`);
      writer.adopt(file);
      rows[table] = Number(copied.rowsChanged);
    }
  }
  await precompress(writer, BULK_FILES.filter(isPrecompressed));
  return rows;
}
