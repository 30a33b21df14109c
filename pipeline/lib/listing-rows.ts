/**
 * The listing files of each locale as SQL: cards.<locale>.ndjson, markers.<locale>.ndjson and
 * details.<locale>.ndjson (contract/build.ts NDJSON_BUILD_FILES), one JSON text per listing in place
 * order (listings.position), written by DuckDB. Absent optional members are left out (json_member in
 * sql/macros.sql); the request-dependent fields of a card are not in it.
 */
import { copyFileSync } from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';
import { DETAILS_INDEX, LINE_INDEXED_FILES } from '../../contract/build.ts';
import { LOCALES, type Locale } from '../../contract/common.ts';
import { LINE_INDEX_FILE } from '../../contract/line-index.ts';
import type { BuildWriter } from './publish.ts';
import { writeCardParts } from './card-parts.ts';
import { checksOf, type CheckReply, type OutputChecker } from './output-check.ts';
import { jsonObject, sqlText } from './sql-text.ts';
import { dropAllExcept } from './models.ts';

/** Logos carry no size in the snapshot; the site serves them square at this size. */
export const LOGO_SIZE_PX = 256;

/** What listing_row_parts and listing_option_lists are made of. */
const LISTING_PART_SOURCES = ['listings', 'listing_prices', 'pricing_options', 'texts'] as const;

/** What the listing rows are made of once the parts exist: the parts, and the names and texts by locale. */
const LISTING_ROW_SOURCES = ['listing_row_parts', 'listing_option_lists', 'texts', 'int_texts__localized'] as const;

/** Every table writeListingFiles reads. */
export const LISTING_SOURCES = [...LISTING_PART_SOURCES, ...LISTING_ROW_SOURCES];

/** JSON members joined with commas; null when every member is absent. */
const members = (...list: string[]) => `nullif(concat_ws(',', ${list.join(',\n    ')}), '')`;

/**
 * Creates listing_row_parts: per listing (place order), the runs of members of its card, marker and
 * detail lines that are the same in every locale, as JSON text, and what the locales' members are
 * made of; and listing_option_lists: per listing and locale, its pricing options as a JSON array.
 * Run once; listingLinesSql then only adds each locale's names, texts and paths.
 */
export function listingPartsSql(): string {
  // numbers through json_number, money through json_money: written as JavaScript writes them
  const coordinates = `json_member_text('coordinates', case when l.lat is not null and l.lng is not null
    then '{"lat":' || json_number(l.lat) || ',"lng":' || json_number(l.lng) || '}' end)`;
  const operator = `json_member_text('operator', case when l.operator_slug is not null then ${jsonObject(
    `json_member('slug', l.operator_slug)`,
    `json_member('name', l.operator_name)`,
    `json_member('logo', case when nullif(l.operator_logo_path, '') is not null then
      {'url': l.operator_logo_path, 'width': ${LOGO_SIZE_PX}, 'height': ${LOGO_SIZE_PX}, 'alt': l.operator_name} end)`,
  )} end)`;
  const rating = `json_member_text('rating', case when l.rating_score is not null and l.rating_count is not null
    then '{"score":' || json_number(l.rating_score) || ',"count":' || json_number(l.rating_count) || '}' end)`;
  // typeLabel: the option type's label in the locale (the facets' label), beside the operator's own title.
  // What is the same in every locale is made once per option; each locale only adds its label.
  const optionHead = `concat_ws(',', json_member('optionType', o.option_type), json_member('title', o.offer_title))`;
  const optionTail = `concat_ws(',',
    json_member('priceOnRequest', o.is_price_on_request),
    json_member('billingPeriod', o.billing_period),
    json_member_text('price', case when not o.is_price_on_request then json_money(o.amount, o.currency) end),
    json_member('minCapacity', o.min_capacity),
    json_member('maxCapacity', o.max_capacity))`;
  return `
create or replace table listing_option_lists as
with options as (
  select o.slug, o.option_type, ${optionHead} as head, ${optionTail} as tail,
    row_number() over (order by o.slug, option_type_rank(o.option_type), o.amount nulls last,
      billing_period_rank(o.billing_period), o.offer_id) as rank,
  from pricing_options o
)
select o.slug, locales.locale,
  json_array_by_rank(list({'rank': o.rank, 'json': ${jsonObject('o.head', `json_member('typeLabel', t.text)`, 'o.tail')}})) as json,
from options o
cross join (select unnest(locales()) as locale) locales
left join texts t on t.entity_kind = 'option_type' and t.slug = o.option_type and t.field = 'label' and t.locale = locales.locale
group by o.slug, locales.locale;

create or replace table listing_row_parts as
with prices as (
  select * from listing_prices where product_type = 'all'
)

select
  l.space_id, l.position, l.slug, l.city_slug, l.zone_slug, l.street, l.house_number, l.postal_code,
  ${members(`json_member('slug', l.slug)`, `json_member('title', l.title)`, `json_member('countryCode', l.country_code)`)} as card_head,
  ${members(operator, coordinates, rating, `json_member('featured', l.is_featured)`, `json_member('updatedAt', l.updated_at)`)} as card_middle,
  ${members(`json_member('images', l.images)`, `json_member('amenities', l.amenity_slugs)`, `json_member('capacity', l.capacity)`,
    `json_member('capacity_status', l.capacity_status)`)} as card_tail,
  case when l.lat is not null and l.lng is not null then ${jsonObject(`json_member('slug', l.slug)`, `json_member('title', l.title)`,
    coordinates, `json_member('featured', l.is_featured)`, `json_member('image', l.images[1])`)} else 'null' end as marker,
  ${members(`json_member('slug', l.slug)`, `json_member('title', l.title)`, `json_member('featured', l.is_featured)`)} as detail_head,
  ${members(`json_member('images', l.images)`, `json_member('amenities', l.amenity_slugs)`)} as detail_middle,
  json_member('countryCode', l.country_code) as detail_country,
  ${members(operator, coordinates,
    `json_member_text('fromPrice', case when p.from_amount is not null then json_money(p.from_amount, p.from_currency) end)`,
    `json_member('fromBillingPeriod', case when p.from_amount is not null then p.from_billing_period end)`,
    rating, `json_member('updatedAt', l.updated_at)`, `json_member('capacity', l.capacity)`,
    `json_member_text('marketPosition', case when p.verdict is not null then '{"verdict":' || to_json(p.verdict)::varchar
      || ',"median":' || json_money(p.city_median, p.city_currency) || ',"sampleSize":' || json_number(p.city_sample_size) || '}' end)`)} as detail_tail,
from listings l
left join prices p on p.slug = l.slug
order by l.position`;
}

const LISTING_FILES = ['cards', 'markers', 'details'] as const;
type ListingFile = (typeof LISTING_FILES)[number];
const fileName = (file: ListingFile, locale: Locale) => `${file}.${locale}.ndjson`;

/**
 * The lines of a listing file in one locale, in place order: the cards and details join the
 * locale's names, texts, options and paths to the parts; the markers are the parts' own, the same
 * in every locale.
 */
export function listingLinesSql(file: ListingFile, locale: Locale): string {
  if (!/^[a-z]{2}$/.test(locale)) throw new Error(`bad locale ${locale}`);
  if (file === 'markers') return 'select marker as line from listing_row_parts p order by p.position';
  const city = `json_member('city', {'slug': p.city_slug, 'name': city.text})`;
  const zone = `json_member('zone', case when p.zone_slug is not null then {'slug': p.zone_slug, 'name': zone.text} end)`;
  const name = (alias: string, kind: string, slug: string) => `left join texts ${alias} on ${alias}.entity_kind = '${kind}'
  and ${alias}.slug = ${slug} and ${alias}.field = 'name' and ${alias}.locale = '${locale}'`;
  const text = (field: string) => `left join int_texts__localized ${field} on ${field}.entity_kind = 'space'
  and ${field}.entity_id = p.space_id and ${field}.field = '${field}' and ${field}.locale = '${locale}'`;
  const names = `${name('city', 'city', 'p.city_slug')}\n${name('zone', 'zone', 'p.zone_slug')}\n${text('excerpt')}`;
  if (file === 'cards') {
    return `select ${jsonObject('p.card_head', city, zone, 'p.card_middle', `json_member('excerpt', excerpt.text)`, 'p.card_tail')} as line
from listing_row_parts p
${names}
order by p.position`;
  }
  return `select ${jsonObject('p.detail_head',
    `json_member('description', coalesce(description.text, excerpt.text, ''))`,
    `json_member('address', concat_ws(', ',
      nullif(concat_ws(' ', nullif(p.street, ''), nullif(p.house_number, '')), ''),
      nullif(concat_ws(' ', nullif(p.postal_code, ''), nullif(city.text, '')), '')))`,
    'p.detail_middle', `json_member_text('pricingOptions', coalesce(options.json, '[]'))`, `json_member('webUrl', '/${locale}/space/' || p.slug)`,
    'p.detail_country', city, zone, 'p.detail_tail')} as line
from listing_row_parts p
${names}
${text('description')}
left join listing_option_lists options on options.slug = p.slug and options.locale = '${locale}'
order by p.position`;
}

/**
 * Has DuckDB write a listing file of one locale into the build (COPY of the finished line texts in
 * place order, unquoted: a JSON text holds no raw newline), so no line passes through JavaScript
 * here.
 */
async function copyListingFile(conn: DuckDBConnection, writer: BuildWriter, file: ListingFile, locale: Locale): Promise<void> {
  await conn.run(`copy (${listingLinesSql(file, locale)}) to ${sqlText(writer.pathOf(fileName(file, locale)))}
    (format csv, header false, quote '', escape '', delimiter '\t')`);
}

const lineIndexed = (file: ListingFile) => (LINE_INDEXED_FILES as readonly string[]).includes(file);

/**
 * Makes the listing files' parts (listingPartsSql), then has DuckDB write each file
 * (copyListingFile) and the checker's workers read each back as it lands and check every line
 * against its contract schema: the details of every locale first, then the cards, so that the
 * checks left when DuckDB is done are the shortest. A file whose query is the same in every locale
 * (the markers) is written and checked once and copied under each other locale's name. Returns each locale's check (listed
 * with its digests, the details' record index and the line indexes written, both made by the
 * workers from the bytes they checked: the slugs of its cards and details in line order), which
 * fails where it is awaited with the locale's first bad line (lowest line, then cards, markers,
 * details). The other tables are read elsewhere until `readElsewhere` settles (it fails this too);
 * then every table but `keep` (those read after this) is dropped once it is no longer needed here.
 */
export async function writeListingFiles(conn: DuckDBConnection, writer: BuildWriter, checker: OutputChecker, keep: readonly string[], readElsewhere: Promise<unknown>) {
  await conn.run(listingPartsSql());
  await readElsewhere;
  await dropAllExcept(conn, [...LISTING_ROW_SOURCES, ...keep]);
  const replies = new Map(LOCALES.map((l) => [l, {} as Record<ListingFile, Promise<CheckReply>>]));
  const write = async (file: ListingFile, locale: Locale) => {
    await copyListingFile(conn, writer, file, locale);
    const reply = checker.check({
      name: fileName(file, locale), path: writer.pathOf(fileName(file, locale)), schema: file,
      keepSlugs: file !== 'markers', recordIndex: file === 'details', lineIndex: lineIndexed(file),
    });
    reply.catch(() => undefined); // a worker's failure: thrown where the locale's check is awaited
    replies.get(locale)![file] = reply;
  };
  const [first] = LOCALES;
  for (const file of ['markers', 'details', 'cards'] as const) {
    for (const locale of LOCALES) {
      if (locale === first || listingLinesSql(file, locale) !== listingLinesSql(file, first)) await write(file, locale);
      else {
        // the same query in every locale (the markers): the same bytes, checked once
        copyFileSync(writer.pathOf(fileName(file, first)), writer.pathOf(fileName(file, locale)));
        replies.get(locale)![file] = replies.get(first)![file];
      }
    }
  }
  await dropAllExcept(conn, keep);
  // once every locale's cards were checked, split into the parts the API holds (card-parts.ts)
  const cardParts = Promise.all(LOCALES.map((l) => checksOf({ cards: replies.get(l)!.cards }))).then((checks) => writeCardParts(writer,
    new Map(LOCALES.map((l, k) => [l, { path: writer.pathOf(fileName('cards', l)), lineIndex: checks[k].cards.lineIndex! }]))));
  cardParts.catch(() => undefined); // thrown where each locale's check is awaited
  return new Map(LOCALES.map((locale) => {
    const { cards, markers, details } = replies.get(locale)!;
    const check = checksOf({ cards, markers, details }).then(async (checks) => {
      await cardParts;
      for (const file of LISTING_FILES) writer.addWritten(fileName(file, locale), checks[file].digests);
      writer.writeBytes(DETAILS_INDEX.name(locale), checks.details.index!);
      for (const file of LISTING_FILES) if (lineIndexed(file)) writer.writeBytes(LINE_INDEX_FILE(fileName(file, locale)), checks[file].lineIndex!);
      return { cardSlugs: checks.cards.slugs!, detailSlugs: checks.details.slugs! };
    });
    check.catch(() => undefined); // its failure is thrown where its locale awaits it
    return [locale, check];
  }));
}
