/**
 * listing-columns.bin (contract/listing-columns.ts): the listing_columns mart's columns and the
 * listing_orders mart's orders, encoded, then decoded and checked as the API will (every section's
 * length, indices in range, every order a permutation) before the file is written.
 */
import type { ListingColumns } from '../../contract/build.ts';
import { decodeListingColumns, encodeListingColumns, LISTING_COLUMNS_FILE, LISTING_ORDERS, type ListingOrder } from '../../contract/listing-columns.ts';
import { BuildError } from './errors.ts';

export function listingColumnsFile(columns: ListingColumns, ordersText: Map<string, string>): Buffer {
  const orders = {} as Record<ListingOrder, number[]>;
  for (const name of LISTING_ORDERS) {
    const text = ordersText.get(name);
    // (no listings: the price orders have no rows to group)
    if (text === undefined && columns.slugs.length > 0) throw new BuildError('invalid_output', `${LISTING_COLUMNS_FILE}: the listing_orders mart has no order ${name}`);
    orders[name] = text === undefined ? [] : JSON.parse(text) as number[];
  }
  const file = encodeListingColumns(columns, orders);
  try {
    decodeListingColumns(file);
  } catch (err) {
    throw new BuildError('invalid_output', (err as Error).message);
  }
  return file;
}
