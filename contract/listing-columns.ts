/**
 * `listing-columns.bin`: what the query engine filters and sorts on (the listing_columns mart,
 * ListingColumnsSchema in contract/build.ts) with the sort orders, as typed arrays the API views
 * without parsing or sorting anything. Listing i is the listing at index i of `slugs` (place order).
 *
 * Layout: the magic `DACL`, a little-endian uint32 byte length of the header, the header (UTF-8
 * JSON, ListingColumnsHeaderSchema), zeros up to a multiple of 8 bytes, then the sections, each at
 * the offset the header gives (a multiple of 8 from the start of the file), little-endian:
 * - `slugs`: text, the slugs joined by `\n`;
 * - per listing (one entry each): int32 `country`, `countryCode`, `city`, `street`, `houseNumber`
 *   (into the header's dictionaries), `zone`, `operator` (-1: none), `capacity`, `ratingCount`
 *   (0: none); float64 `lat`, `lng`, `updatedMs`, `ratingScore` (NaN: none);
 * - lists of ascending listing indices (int32): `featured`, `amenities.<slug>`, `optionTypes.<type>`;
 * - prices, `fromPrice.<column>` and `fromPriceByType.<type>.<column>` (the columns of
 *   PriceColumnsSchema): float64 `amount`, `comparableAmount`, `comparableEur` (NaN: none), int32
 *   the others (-1: none);
 * - `order.<name>` (LISTING_ORDERS): int32, every listing index once, in the order of the sort;
 * and what the API would otherwise derive from those at every start (the build makes them once):
 * - `rank.<name>` (RANKED_ORDERS): int32 per listing, its place in `order.<name>`;
 * - `slugSlots`: int32, slugSlotCount(listings) slots, each listing's index + 1 at its slug's
 *   fnv1a (contract/fnv1a.ts) masked to the table, or the next free slot after it (0: empty);
 * - `cosLat`: float64 per listing, latitudeCosine (contract/geo.ts) of its latitude (NaN: none);
 *   `hasCoords`: uint32 words, bit i set when listing i has coordinates;
 * - per listing with coordinates (the first entries of `order.lat`): float64 `latSorted`, their
 *   latitudes in that order; int32 `cells.order` and `cells.cell`, those listings by cell of the
 *   grid and their cells (contract/cell-grid.ts cellsOf).
 * A listing with a latitude but no longitude, or the reverse, has neither (`lat`, `lng` NaN).
 */
import { z } from 'zod';
import { ListingColumnsSchema, type ListingColumns } from './build.ts';
import { cellsOf } from './cell-grid.ts';
import { AmenitySlugSchema, OPTION_TYPES, OptionTypeSchema, type OptionType } from './common.ts';
import { fnv1a } from './fnv1a.ts';
import { latitudeCosine } from './geo.ts';
import { PRICE_BASES } from './prices.ts';

export const LISTING_COLUMNS_FILE = 'listing-columns.bin';
const MAGIC = 'DACL';

/**
 * The orders the pipeline's SQL computes (the listing_orders mart), each a permutation of the
 * listings; every tie breaks by slug (UTF-16 code units; slugs are ASCII). `slug` is by slug alone;
 * dates and ratings descending or ascending with listings without one last; `price-asc` and
 * `price-desc` (overall) and `price-asc.<type>`, `price-desc.<type>` by the position of the
 * comparable price's basis in the product's order (contract/prices.ts), then by its EUR amount,
 * listings without a comparable price last; `lat` by latitude, listings without coordinates (no
 * latitude or no longitude) last: the API's geographic filters search it.
 */
export const LISTING_ORDERS = [
  'slug', 'date-desc', 'date-asc', 'rating-desc', 'price-asc', 'price-desc', 'lat',
  ...OPTION_TYPES.flatMap((t) => [`price-asc.${t}`, `price-desc.${t}`] as const),
] as const;
export type ListingOrder = (typeof LISTING_ORDERS)[number];
/** The orders whose ranks the API reads (to sort a set, to break ties by slug); `lat` is only walked. */
export const RANKED_ORDERS = LISTING_ORDERS.filter((o): o is Exclude<ListingOrder, 'lat'> => o !== 'lat');
export type RankedOrder = (typeof RANKED_ORDERS)[number];

/** The slots of the slug table of n listings: at most half of them full. */
export const slugSlotCount = (n: number) => 2 ** Math.ceil(Math.log2(2 * n + 2));
const words = (n: number) => (n + 31) >>> 5;

/** The price order of a product (`all` or an option type). */
export const priceOrder = (product: OptionType | 'all', direction: 'asc' | 'desc'): ListingOrder =>
  (product === 'all' ? `price-${direction}` : `price-${direction}.${product}`) as ListingOrder;

type Dict = ListingColumns['dict'];
type PriceColumns = ListingColumns['fromPrice'];

const INDEX_COLUMNS = ['country', 'countryCode', 'city', 'street', 'houseNumber'] as const;
const NULLABLE_INDEX_COLUMNS = ['zone', 'operator'] as const;
const COUNT_COLUMNS = ['capacity', 'ratingCount'] as const;
/** NaN both when the listing lacks either */
const COORDINATES = ['lat', 'lng'] as const;
const FLOAT_COLUMNS = ['updatedMs', 'ratingScore'] as const;
const PRICE_FLOAT_COLUMNS = ['amount', 'comparableAmount', 'comparableEur'] as const;
/** the price columns coded as indices, with the dictionary (or list) they point into */
const PRICE_INDEX_COLUMNS = { currency: 'currencies', billingPeriod: 'billingPeriods', marketPosition: 'marketPositions', comparableCurrency: 'currencies', comparableBasis: null } as const;

export interface PriceColumnsData {
  amount: Float64Array; comparableAmount: Float64Array; comparableEur: Float64Array;
  currency: Int32Array; billingPeriod: Int32Array; marketPosition: Int32Array; comparableCurrency: Int32Array; comparableBasis: Int32Array;
}

/** What the build derives from the columns and orders for the engine, which views it as it is. */
export interface ListingIndexes {
  /** each listing's place in each order */
  ranks: Record<RankedOrder, Int32Array>;
  slugSlots: Int32Array;
  cosLat: Float64Array;
  hasCoords: Uint32Array;
  /** the latitudes of the listings with coordinates, in the latitude order */
  latSorted: Float64Array;
  cells: { order: Int32Array; cells: Int32Array };
}

/** listing-columns.bin decoded: views on the file's bytes (copies only where a section is not aligned in memory). */
export interface ListingColumnsData extends ListingIndexes {
  slugs: string[];
  dict: Dict;
  country: Int32Array; countryCode: Int32Array; city: Int32Array; street: Int32Array; houseNumber: Int32Array;
  zone: Int32Array; operator: Int32Array;
  capacity: Int32Array; ratingCount: Int32Array;
  lat: Float64Array; lng: Float64Array; updatedMs: Float64Array; ratingScore: Float64Array;
  featured: Int32Array;
  amenities: Record<string, Int32Array>;
  optionTypes: Partial<Record<OptionType, Int32Array>>;
  fromPrice: PriceColumnsData;
  fromPriceByType: Partial<Record<OptionType, PriceColumnsData>>;
  orders: Record<ListingOrder, Int32Array>;
}

const SectionSchema = z.strictObject({
  type: z.enum(['text', 'int32', 'uint32', 'float64']),
  /** bytes from the start of the file, a multiple of 8 */
  offset: z.int().min(0),
  /** entries (text: bytes) */
  length: z.int().min(0),
});
export const ListingColumnsHeaderSchema = z.strictObject({
  listings: z.int().min(0),
  dict: ListingColumnsSchema.shape.dict,
  amenities: z.array(AmenitySlugSchema),
  optionTypes: z.array(OptionTypeSchema),
  /** the option types with price columns (fromPriceByType) */
  pricedTypes: z.array(OptionTypeSchema),
  sections: z.record(z.string(), SectionSchema),
});
type Header = z.infer<typeof ListingColumnsHeaderSchema>;
/**
 * What the loader checks of a header: all but the dictionaries' entries (a 22,000-entry dictionary
 * of market positions at 100,000 listings), which the pipeline checked before it published and the
 * manifest's checksum vouches for.
 */
const HeaderStructureSchema = ListingColumnsHeaderSchema.extend({
  dict: z.strictObject(Object.fromEntries(Object.keys(ListingColumnsSchema.shape.dict.shape).map((k) => [k, z.array(z.unknown())])) as Record<keyof Dict, z.ZodArray<z.ZodUnknown>>),
});
type Section = z.infer<typeof SectionSchema>;

const align8 = (x: number) => Math.ceil(x / 8) * 8;
const nullAs = (v: number | null, none: number) => (v === null ? none : v);
const BYTES = { text: 1, int32: 4, uint32: 4, float64: 8 } as const;
const TYPED = { int32: Int32Array, uint32: Uint32Array, float64: Float64Array } as const;

/** Each listing's index + 1 at its slug's hash in a table of slugSlotCount slots, or the next free slot after it. */
function slotsBySlug(slugs: readonly string[]): Int32Array {
  const slots = new Int32Array(slugSlotCount(slugs.length));
  const mask = slots.length - 1;
  for (let i = 0; i < slugs.length; i++) {
    let h = fnv1a(slugs[i]) & mask;
    while (slots[h] !== 0) h = (h + 1) & mask;
    slots[h] = i + 1;
  }
  return slots;
}

/** The file, from the mart's columns and the orders (each a list of listing indices). */
export function encodeListingColumns(c: ListingColumns, orders: Record<ListingOrder, ArrayLike<number>>): Buffer {
  const parts: { name: string; type: Section['type']; bytes: Uint8Array; length: number }[] = [];
  const int32 = (name: string, values: ArrayLike<number>) => {
    const a = Int32Array.from(values);
    parts.push({ name, type: 'int32', bytes: new Uint8Array(a.buffer), length: a.length });
  };
  const float64 = (name: string, values: ArrayLike<number>) => {
    const a = Float64Array.from(values);
    parts.push({ name, type: 'float64', bytes: new Uint8Array(a.buffer), length: a.length });
  };
  const n = c.slugs.length;
  const located = (i: number) => c.lat[i] !== null && c.lng[i] !== null;
  const lat = Float64Array.from(c.lat, (v, i) => (located(i) ? v! : Number.NaN));
  const lng = Float64Array.from(c.lng, (v, i) => (located(i) ? v! : Number.NaN));
  const text = Buffer.from(c.slugs.join('\n'), 'utf8');
  parts.push({ name: 'slugs', type: 'text', bytes: text, length: text.length });
  for (const k of [...INDEX_COLUMNS, ...NULLABLE_INDEX_COLUMNS]) int32(k, c[k]);
  for (const k of COUNT_COLUMNS) int32(k, c[k].map((v) => nullAs(v, 0)));
  float64('lat', lat);
  float64('lng', lng);
  for (const k of FLOAT_COLUMNS) float64(k, c[k].map((v) => nullAs(v, Number.NaN)));
  int32('featured', c.featured);
  for (const [a, list] of Object.entries(c.amenities)) int32(`amenities.${a}`, list);
  for (const [t, list] of Object.entries(c.optionTypes)) int32(`optionTypes.${t}`, list!);
  const prices = (prefix: string, p: PriceColumns) => {
    for (const k of PRICE_FLOAT_COLUMNS) float64(`${prefix}.${k}`, p[k].map((v) => nullAs(v, Number.NaN)));
    for (const k of Object.keys(PRICE_INDEX_COLUMNS) as (keyof typeof PRICE_INDEX_COLUMNS)[]) int32(`${prefix}.${k}`, p[k]);
  };
  prices('fromPrice', c.fromPrice);
  for (const [t, p] of Object.entries(c.fromPriceByType)) prices(`fromPriceByType.${t}`, p!);
  for (const name of LISTING_ORDERS) int32(`order.${name}`, orders[name]);
  for (const name of RANKED_ORDERS) {
    const rank = new Int32Array(n);
    for (let k = 0; k < orders[name].length; k++) rank[orders[name][k]] = k;
    int32(`rank.${name}`, rank);
  }
  int32('slugSlots', slotsBySlug(c.slugs));
  float64('cosLat', lat.map(latitudeCosine));
  const hasCoords = new Uint32Array(words(n));
  let withCoords = 0;
  for (let i = 0; i < n; i++) if (located(i)) { hasCoords[i >>> 5] |= 1 << (i & 31); withCoords++; }
  parts.push({ name: 'hasCoords', type: 'uint32', bytes: new Uint8Array(hasCoords.buffer), length: hasCoords.length });
  // the latitude order puts those with coordinates first (decodeListingColumns checks it)
  const latOrder = Int32Array.from(orders.lat).subarray(0, withCoords);
  float64('latSorted', Array.from(latOrder, (i) => lat[i]));
  const cells = cellsOf(latOrder, lat, lng);
  int32('cells.order', cells.order);
  int32('cells.cell', cells.cells);

  const header = (offsets: number[]): Buffer => Buffer.from(JSON.stringify({
    listings: c.slugs.length,
    dict: c.dict,
    amenities: Object.keys(c.amenities),
    optionTypes: Object.keys(c.optionTypes) as OptionType[],
    pricedTypes: Object.keys(c.fromPriceByType) as OptionType[],
    sections: Object.fromEntries(parts.map((p, k) => [p.name, { type: p.type, offset: offsets[k], length: p.length }])),
  } satisfies Header), 'utf8');
  // the offsets depend on the header's length, which depends on the offsets' digits: settle it
  let offsets = parts.map(() => 0);
  let head = header(offsets);
  for (;;) {
    let at = align8(8 + head.length);
    const next = parts.map((p) => { const o = at; at = align8(at + p.bytes.length); return o; });
    const nextHead = header(next);
    if (nextHead.length === head.length && next.every((o, k) => o === offsets[k])) break;
    offsets = next;
    head = nextHead;
  }
  const out = Buffer.alloc(parts.length ? align8(offsets[parts.length - 1] + parts[parts.length - 1].bytes.length) : align8(8 + head.length));
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt32LE(head.length, 4);
  head.copy(out, 8);
  parts.forEach((p, k) => out.set(p.bytes, offsets[k]));
  return out;
}

/**
 * Views listing-columns.bin and checks the structure the engine relies on: every section present
 * with its length (one entry per listing, or a permutation of them), dictionary indices in range,
 * lists of listing indices ascending, every order a permutation. Throws on the first fault, naming
 * the section. The values themselves are the pipeline's to check (it did, before it published).
 * `checked: true` views bytes that passed these checks elsewhere (the API's load worker): the
 * header's structure and every entry (indices in range, lists ascending, orders permutations)
 * are not checked again.
 */
export function decodeListingColumns(buf: Buffer, { checked = false } = {}): ListingColumnsData {
  const fail = (msg: string): never => { throw new Error(`${LISTING_COLUMNS_FILE}: ${msg}`); };
  if (buf.length < 8 || buf.toString('latin1', 0, 4) !== MAGIC) fail(`not a listing columns file (no ${MAGIC} magic)`);
  const headLength = buf.readUInt32LE(4);
  if (8 + headLength > buf.length) fail(`the header is ${headLength} bytes, the file holds ${buf.length - 8}`);
  let raw: unknown;
  try {
    raw = JSON.parse(buf.toString('utf8', 8, 8 + headLength));
  } catch (err) {
    return fail(`the header is not JSON: ${(err as Error).message}`);
  }
  let h = raw as Header;
  if (!checked) {
    const parsed = HeaderStructureSchema.safeParse(raw);
    if (!parsed.success) return fail(`the header is invalid: ${parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    h = { ...parsed.data, dict: parsed.data.dict as Dict };
  }
  const n = h.listings;

  const section = (name: string, type: Section['type']): Section => {
    const s = h.sections[name] ?? fail(`no section ${name}`);
    if (s.type !== type) fail(`section ${name} is ${s.type}, expected ${type}`);
    const bytes = s.length * BYTES[type];
    if (s.offset % 8 !== 0 || s.offset < 8 + headLength || s.offset + bytes > buf.length) fail(`section ${name} (${bytes} bytes at ${s.offset}) lies outside the file's ${buf.length} bytes`);
    return s;
  };
  const view = <T extends Int32Array | Uint32Array | Float64Array>(Type: { new(b: ArrayBufferLike, o: number, l: number): T; new(l: number): T; BYTES_PER_ELEMENT: number }, s: Section): T => {
    const at = buf.byteOffset + s.offset;
    if (at % Type.BYTES_PER_ELEMENT === 0) return new Type(buf.buffer, at, s.length);
    const copy = new Type(s.length);
    new Uint8Array(copy.buffer).set(buf.subarray(s.offset, s.offset + s.length * Type.BYTES_PER_ELEMENT));
    return copy;
  };
  const perListing = <T extends Int32Array | Float64Array>(name: string, Type: typeof Int32Array | typeof Float64Array): T => {
    const s = section(name, Type === Int32Array ? 'int32' : 'float64');
    if (s.length !== n) fail(`${name} has ${s.length} entries for ${n} listings`);
    return view(Type as never, s) as T;
  };
  const indices = (name: string, size: number, nullable: boolean): Int32Array => {
    const a = perListing<Int32Array>(name, Int32Array);
    if (!checked) for (let i = 0; i < n; i++) if (a[i] >= size || (a[i] < 0 && !(nullable && a[i] === -1))) fail(`${name}[${i}] is ${a[i]}, out of range`);
    return a;
  };
  const ascending = (name: string): Int32Array => {
    const a = view(Int32Array, section(name, 'int32'));
    if (!checked) for (let k = 0; k < a.length; k++) if (!(a[k] >= 0 && a[k] < n) || (k > 0 && a[k] <= a[k - 1])) fail(`${name} is not a list of ascending listing indices (entry ${k})`);
    return a;
  };
  const permutation = (name: string): Int32Array => {
    const a = perListing<Int32Array>(name, Int32Array);
    if (checked) return a;
    const seen = new Uint8Array(n);
    for (let k = 0; k < n; k++) {
      const i = a[k];
      if (!(i >= 0 && i < n) || seen[i]) fail(`${name} is not an order of the listings (entry ${k} is ${i})`);
      seen[i] = 1;
    }
    return a;
  };
  /** a section of `length` entries (what the build derived): its entries are the manifest's checksum's to vouch for */
  const sized = <K extends keyof typeof TYPED>(name: string, type: K, length: number): InstanceType<(typeof TYPED)[K]> => {
    const s = section(name, type);
    if (s.length !== length) fail(`${name} has ${s.length} entries, expected ${length}`);
    return view(TYPED[type] as never, s);
  };

  const slugsSection = section('slugs', 'text');
  const slugs = n === 0 ? [] : buf.toString('utf8', slugsSection.offset, slugsSection.offset + slugsSection.length).split('\n');
  if (slugs.length !== n) fail(`slugs has ${slugs.length} entries for ${n} listings`);
  const prices = (prefix: string): PriceColumnsData => {
    const p = {} as Record<string, Float64Array | Int32Array>;
    for (const k of PRICE_FLOAT_COLUMNS) p[k] = perListing(`${prefix}.${k}`, Float64Array);
    for (const [k, dict] of Object.entries(PRICE_INDEX_COLUMNS)) p[k] = indices(`${prefix}.${k}`, dict ? h.dict[dict].length : PRICE_BASES.length, true);
    return p as unknown as PriceColumnsData;
  };
  const data = {
    slugs,
    dict: h.dict,
    ...Object.fromEntries(INDEX_COLUMNS.map((k) => [k, indices(k, h.dict[k].length, false)])),
    ...Object.fromEntries(NULLABLE_INDEX_COLUMNS.map((k) => [k, indices(k, h.dict[k].length, true)])),
    ...Object.fromEntries(COUNT_COLUMNS.map((k) => [k, perListing(k, Int32Array)])),
    ...Object.fromEntries([...COORDINATES, ...FLOAT_COLUMNS].map((k) => [k, perListing(k, Float64Array)])),
    featured: ascending('featured'),
    amenities: Object.fromEntries(h.amenities.map((a) => [a, ascending(`amenities.${a}`)])),
    optionTypes: Object.fromEntries(h.optionTypes.map((t) => [t, ascending(`optionTypes.${t}`)])),
    fromPrice: prices('fromPrice'),
    fromPriceByType: Object.fromEntries(h.pricedTypes.map((t) => [t, prices(`fromPriceByType.${t}`)])),
    orders: Object.fromEntries(LISTING_ORDERS.map((o) => [o, permutation(`order.${o}`)])),
  } as unknown as Omit<ListingColumnsData, keyof ListingIndexes>;
  const located = section('latSorted', 'float64').length;
  if (located > n) fail(`latSorted has ${located} entries for ${n} listings`);
  const derived: ListingIndexes = {
    ranks: Object.fromEntries(RANKED_ORDERS.map((o) => [o, sized(`rank.${o}`, 'int32', n)])) as Record<RankedOrder, Int32Array>,
    slugSlots: sized('slugSlots', 'int32', slugSlotCount(n)),
    cosLat: sized('cosLat', 'float64', n),
    hasCoords: sized('hasCoords', 'uint32', words(n)),
    latSorted: sized('latSorted', 'float64', located),
    cells: { order: sized('cells.order', 'int32', located), cells: sized('cells.cell', 'int32', located) },
  };
  if (!checked) checkDerived(data, derived, fail);
  return { ...data, ...derived };
}

/**
 * The entries of what the build derived that the engine would misread unseen: the slug order sorts
 * the slugs, each once (a slug is looked up among them); the latitude order puts every listing with
 * coordinates first, by latitude (the geographic filters search it). The rest the encoder made from
 * the orders and columns checked here, and the manifest's checksum vouches for: only their lengths are checked.
 */
function checkDerived(data: Omit<ListingColumnsData, keyof ListingIndexes>, derived: ListingIndexes, fail: (msg: string) => never): void {
  const { slugs, orders, lat, lng } = data;
  const n = slugs.length;
  for (let k = 1; k < n; k++) {
    const before = slugs[orders.slug[k - 1]], slug = slugs[orders.slug[k]];
    if (before === slug) fail(`slug ${slug} used twice`);
    if (before > slug) fail(`order.slug does not sort ${slug}`);
  }
  const { latSorted } = derived;
  let located = 0;
  for (let i = 0; i < n; i++) if (!Number.isNaN(lat[i]) && !Number.isNaN(lng[i])) located++;
  for (let k = 0; k < latSorted.length; k++) {
    const i = orders.lat[k], l = lat[i];
    if (Number.isNaN(l) || Number.isNaN(lng[i]) || (k > 0 && l < latSorted[k - 1]) || latSorted[k] !== l) fail(`order.lat does not sort ${slugs[i]} by latitude`);
  }
  if (latSorted.length !== located) fail(`latSorted has ${latSorted.length} entries for ${located} listings with coordinates`);
}
