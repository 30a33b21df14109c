/**
 * The listing files of one locale as SQL: one row per listing in slug order with the JSON text of
 * its line in cards.<locale>.ndjson, markers.<locale>.ndjson and details.<locale>.ndjson
 * (contract/build.ts NDJSON_BUILD_FILES). Absent optional members are left out (json_member in
 * sql/macros.sql); the request-dependent fields of a card are not in it.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { NDJSON_BUILD_FILES } from '../../contract/build.ts';
import type { Locale } from '../../contract/common.ts';
import type { BuildWriter } from './publish.ts';
import { lineValidator } from './validate.ts';

/** Logos carry no size in the snapshot; the site serves them square at this size. */
export const LOGO_SIZE_PX = 256;

/** What listingRowsSql reads: the marts and the texts view over the raw spaces. */
export const LISTING_ROW_SOURCES = ['listings', 'listing_prices', 'pricing_options', 'stg_space_texts', 'raw_spaces', 'raw_spaces_load'] as const;

const object = (...members: string[]) => `'{' || concat_ws(',', ${members.join(',\n    ')}) || '}'`;

export function listingRowsSql(locale: Locale): string {
  if (!/^[a-z]{2}$/.test(locale)) throw new Error(`bad locale ${locale}`);
  const common = {
    slug: `json_member('slug', l.slug)`,
    title: `json_member('title', l.title)`,
    featured: `json_member('featured', l.is_featured)`,
    countryCode: `json_member('countryCode', l.country_code)`,
    city: `json_member('city', {'slug': l.city_slug, 'name': l.city_name_${locale}})`,
    zone: `json_member('zone', case when l.zone_slug is not null then {'slug': l.zone_slug, 'name': l.zone_name_${locale}} end)`,
    operator: `json_member_text('operator', case when l.operator_slug is not null then ${object(
      `json_member('slug', l.operator_slug)`,
      `json_member('name', l.operator_name)`,
      `json_member('logo', case when nullif(l.operator_logo_path, '') is not null then
        {'url': l.operator_logo_path, 'width': ${LOGO_SIZE_PX}, 'height': ${LOGO_SIZE_PX}, 'alt': l.operator_name} end)`,
    )} end)`,
    coordinates: `json_member('coordinates', case when l.lat is not null and l.lng is not null then {'lat': l.lat, 'lng': l.lng} end)`,
    rating: `json_member('rating', case when l.rating_score is not null and l.rating_count is not null
      then {'score': l.rating_score, 'count': l.rating_count} end)`,
    updatedAt: `json_member('updatedAt', l.updated_at)`,
    images: `json_member('images', l.images)`,
    amenities: `json_member('amenities', l.amenity_slugs)`,
    capacity: `json_member('capacity', l.capacity)`,
  };
  const option = object(
    `json_member('optionType', o.option_type)`,
    `json_member('title', o.offer_title)`,
    `json_member('priceOnRequest', o.is_price_on_request)`,
    `json_member('billingPeriod', o.billing_period)`,
    `json_member('price', case when not o.is_price_on_request then {'amount': o.amount, 'currency': o.currency} end)`,
    `json_member('minCapacity', o.min_capacity)`,
    `json_member('maxCapacity', o.max_capacity)`,
  );
  return `
with options as (
  select o.slug, '[' || string_agg(${option}, ',' order by
    option_type_rank(o.option_type), o.amount nulls last, billing_period_rank(o.billing_period), o.offer_id) || ']' as json,
  from pricing_options o
  group by o.slug
),

prices as (
  select * from listing_prices where product_type = 'all'
)

select
  ${object(common.slug, common.title, common.countryCode, common.city, common.zone, common.operator, common.coordinates,
    common.rating, common.featured, common.updatedAt,
    `json_member('excerpt', coalesce(t.excerpt_${locale}, t.excerpt_en))`,
    common.images, common.amenities, common.capacity, `json_member('capacity_status', l.capacity_status)`)} as card,
  case when l.lat is not null and l.lng is not null then ${object(common.slug, common.title, common.coordinates, common.featured,
    `json_member('image', l.images[1])`)} else 'null' end as marker,
  ${object(common.slug, common.title, common.featured,
    `json_member('description', coalesce(t.description_${locale}, t.description_en, t.excerpt_${locale}, t.excerpt_en, ''))`,
    `json_member('address', concat_ws(', ',
      nullif(concat_ws(' ', nullif(l.street, ''), nullif(l.house_number, '')), ''),
      nullif(concat_ws(' ', nullif(l.postal_code, ''), nullif(l.city_name_${locale}, '')), '')))`,
    common.images, common.amenities,
    `json_member_text('pricingOptions', coalesce(options.json, '[]'))`,
    `json_member('webUrl', '/${locale}/space/' || l.slug)`,
    common.countryCode, common.city, common.zone, common.operator, common.coordinates,
    `json_member('fromPrice', case when p.from_amount is not null then {'amount': p.from_amount, 'currency': p.from_currency} end)`,
    `json_member('fromBillingPeriod', case when p.from_amount is not null then p.from_billing_period end)`,
    common.rating, common.updatedAt, common.capacity,
    `json_member('marketPosition', case when p.verdict is not null then
      {'verdict': p.verdict, 'median': {'amount': p.city_median, 'currency': p.city_currency}, 'sampleSize': p.city_sample_size} end)`)} as detail,
from listings l
left join stg_space_texts t on t.space_id = l.space_id
left join options on options.slug = l.slug
left join prices p on p.slug = l.slug
order by l.slug`;
}

/**
 * Streams the listing rows of one locale into its three NDJSON files, validating every line
 * against its contract schema. Returns the slugs of the cards and details, in line order.
 */
export async function writeListingFiles(conn: DuckDBConnection, writer: BuildWriter, locale: Locale) {
  const names = { cards: `cards.${locale}.ndjson`, markers: `markers.${locale}.ndjson`, details: `details.${locale}.ndjson` };
  const valid = {
    cards: lineValidator(names.cards, NDJSON_BUILD_FILES.cards),
    markers: lineValidator(names.markers, NDJSON_BUILD_FILES.markers),
    details: lineValidator(names.details, NDJSON_BUILD_FILES.details),
  };
  const out = { cards: writer.openText(names.cards), markers: writer.openText(names.markers), details: writer.openText(names.details) };
  const cardSlugs: string[] = [];
  const detailSlugs: string[] = [];
  let i = 0;
  for await (const chunk of await conn.stream(listingRowsSql(locale))) {
    const [cards, markers, details] = [0, 1, 2].map((c) => chunk.getColumnValues(c) as string[]);
    for (let row = 0; row < cards.length; row++, i++) {
      const card = JSON.parse(cards[row]) as { slug: string };
      valid.cards(card, i);
      valid.markers(JSON.parse(markers[row]), i);
      const detail = JSON.parse(details[row]) as { slug: string };
      valid.details(detail, i);
      cardSlugs.push(card.slug);
      detailSlugs.push(detail.slug);
      out.cards.write(`${cards[row]}\n`);
      out.markers.write(`${markers[row]}\n`);
      out.details.write(`${details[row]}\n`);
    }
  }
  out.cards.close();
  out.markers.close();
  out.details.close();
  return { cardSlugs, detailSlugs };
}
