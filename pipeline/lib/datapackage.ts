import {
  DOMINANT_OPERATOR_SHARE, INDEX_BASE, LOW_RELIABILITY_SAMPLE_SIZE, MEDIAN_INTERVAL_LEVEL, MIN_SAMPLE_SIZE, QUALITY_FLAG_LETTERS as FLAG,
  STALE_PRICE_DAYS,
} from '../../contract/rules.ts';
import type { SnapshotSource } from '../../contract/market.ts';
import { BILLING_PERIODS, CURRENCIES, OPTION_TYPES } from '../../contract/common.ts';
import { PRICE_BASES } from '../../contract/prices.ts';

const money = (name: string, title: string) => ({
  name, type: 'number', title,
  description: `${title} monthly price per desk in the city's currency, rounded to cents; empty when the row is not published`,
});

const PLACE_FIELDS = [
  { name: 'country_code', type: 'string', title: 'Country code', description: 'ISO 3166-1 alpha-2', constraints: { required: true, pattern: '^[A-Z]{2}$' } },
  { name: 'city_slug', type: 'string', title: 'City slug', constraints: { required: true, pattern: '^[a-z0-9-]+$' } },
  { name: 'city_name', type: 'string', title: 'City name (English)', constraints: { required: true } },
  { name: 'currency', type: 'string', title: 'Currency', description: 'ISO 4217 code of the prices', constraints: { required: true, enum: ['EUR', 'GBP', 'USD', 'CHF', 'VES', 'AED'] } },
  { name: 'product_type', type: 'string', title: 'Product type', description: '"all" for the city row (each space at its cheapest desk product), otherwise the desk product', constraints: { required: true, enum: ['all', 'private_office', 'exclusive_bereich', 'fix_desk', 'flex_desk', 'membership'] } },
];

const FIGURE_FIELDS = [
  { name: 'sample_size', type: 'integer', title: 'Sample size', description: 'Distinct spaces with a monthly per-desk price', constraints: { required: true, minimum: 0 } },
  { name: 'published', type: 'boolean', title: 'Published', description: `true at a sample of ${MIN_SAMPLE_SIZE} or more; otherwise the figures are empty`, trueValues: ['true'], falseValues: ['false'], constraints: { required: true } },
  money('median', 'Median'),
  money('average', 'Average (arithmetic mean)'),
  money('min', 'Minimum'),
  money('max', 'Maximum'),
];

const QUALITY_FIELDS = [
  money('p25', 'First quartile (25th percentile, interpolated)'),
  money('p75', 'Third quartile (75th percentile, interpolated)'),
  { name: 'median_age_days', type: 'number', title: 'Median price age (days)', description: 'Median of the whole days between the observation of each price behind the figure and the reference time (as_of; a month\'s end in the history); empty when not published' },
  { name: 'stale_share', type: 'number', title: `Share older than ${STALE_PRICE_DAYS} days`, description: `Share (0–1) of the prices behind the figure observed more than ${STALE_PRICE_DAYS} days before the reference time; empty when not published`, constraints: { minimum: 0, maximum: 1 } },
  { name: 'largest_operator_share', type: 'number', title: 'Largest operator share', description: 'Share (0–1) of the spaces behind the figure run by its largest operator (an independent space is its own operator); empty when not published', constraints: { minimum: 0, maximum: 1 } },
  {
    name: 'flags', type: 'string', title: 'Flags',
    description: `Flag letters of a published figure, in alphabetical order: ${FLAG.stalePrices} stale prices (median age over ${STALE_PRICE_DAYS} days), `
      + `${FLAG.breakInSeries} break in series (history: published after an unpublished month, or the index starts again at ${INDEX_BASE}), ${FLAG.dominantOperator} one operator runs `
      + `${DOMINANT_OPERATOR_SHARE * 100}% or more of the spaces, ${FLAG.lowReliability} low reliability (fewer than ${LOW_RELIABILITY_SAMPLE_SIZE} spaces); empty when none or not published`,
    constraints: { pattern: '^a?b?o?u?$' },
  },
  money('median_low', `Median, lower bound of its ${MEDIAN_INTERVAL_LEVEL * 100}% confidence interval (an order statistic of the sample, by binomial ranks)`),
  money('median_high', `Median, upper bound of its ${MEDIAN_INTERVAL_LEVEL * 100}% confidence interval`),
];

const INDEX_FIELDS = [
  {
    name: 'index', type: 'number', title: 'Chained matched-model index',
    description: `Jevons index chained month to month over the spaces priced at both month ends (each at its monthly per-desk price), `
      + `${INDEX_BASE} at the first month of a segment; a month whose link has fewer than ${MIN_SAMPLE_SIZE} matched spaces ends the `
      + `segment and the next starts again at ${INDEX_BASE} (flag ${FLAG.breakInSeries}); empty where no segment reaches the month`,
    constraints: { exclusiveMinimum: 0 },
  },
  {
    name: 'matched_spaces', type: 'integer', title: 'Matched spaces',
    description: 'Spaces priced at the end of both this month and the month before: the sample of the index\'s link', constraints: { required: true, minimum: 0 },
  },
];

const CSV_RESOURCE = {
  profile: 'tabular-data-resource',
  format: 'csv',
  mediatype: 'text/csv',
  encoding: 'utf-8',
  dialect: { delimiter: ',', quoteChar: '"', doubleQuote: true, header: true },
};

/**
 * The Frictionless Data Package that describes price-report.csv and price-report-history.csv (CC BY 4.0).
 * Sample data says so first thing in its description, and in `sampleData`.
 */
export function priceReportDataPackage(asOf: string, source: SnapshotSource, serviceName = 'Desk Atlas') {
  const sampleNote = source.sampleData ? `SAMPLE DATA, NOT REAL PRICES: ${source.description} ` : '';
  return {
    profile: 'tabular-data-package',
    name: 'desk-atlas-price-report',
    title: `${serviceName} price report: monthly price per desk by city`,
    description:
      sampleNote +
      'Median, average, minimum and maximum monthly price per desk of coworking spaces per city, overall (product_type "all") ' +
      'and per desk product, today and at the end of each month of the history. Prices are the figures operators publish, ' +
      'normalised to a month (year ÷ 12, week × 52 ÷ 12) and to one desk (private offices divided by their desks). A row is ' +
      `published at a sample of ${MIN_SAMPLE_SIZE} distinct spaces or more, with a ${MEDIAN_INTERVAL_LEVEL * 100}% confidence interval of its median. ` +
      'The history adds a chained matched-model index that compares the same spaces month to month, so that a change in which ' +
      'spaces are listed does not read as a change in price.',
    version: asOf.slice(0, 10),
    asOf,
    licenses: [{
      name: 'CC-BY-4.0',
      title: 'Creative Commons Attribution 4.0 International',
      path: 'https://creativecommons.org/licenses/by/4.0/',
    }],
    sampleData: source.sampleData,
    sources: [
      { title: serviceName, path: '/en/price-index' },
      { title: source.name, description: source.description, ...(source.url ? { path: source.url } : {}) },
    ],
    citation: `Source: ${serviceName}, Coworking price index, /en/price-index, CC BY 4.0`,
    resources: [
      {
        name: 'price-report',
        path: 'price-report.csv',
        ...CSV_RESOURCE,
        schema: {
          fields: [
            ...PLACE_FIELDS,
            ...FIGURE_FIELDS,
            { name: 'as_of', type: 'datetime', format: 'default', title: 'As of', description: 'Time of the latest price observation in the data', constraints: { required: true } },
            ...QUALITY_FIELDS,
          ],
          primaryKey: ['city_slug', 'product_type'],
          missingValues: [''],
        },
      },
      {
        name: 'price-report-history',
        path: 'price-report-history.csv',
        ...CSV_RESOURCE,
        schema: {
          fields: [
            ...PLACE_FIELDS,
            { name: 'month', type: 'yearmonth', title: 'Month', description: 'The month (UTC) at whose end the offers are taken as they stood', constraints: { required: true } },
            ...FIGURE_FIELDS,
            ...QUALITY_FIELDS,
            ...INDEX_FIELDS,
          ],
          primaryKey: ['city_slug', 'product_type', 'month'],
          missingValues: [''],
        },
      },
    ],
  };
}

const required = { required: true };
const SLUG = { required: true, pattern: '^[a-z0-9-]+$' };
const OPTIONAL_SLUG = { pattern: '^[a-z0-9-]+$' };

/** A listing's slug, place, operator and coordinates: the first columns of both bulk tables. */
const LISTING_PLACE_FIELDS = [
  { name: 'country_code', type: 'string', title: 'Country code', description: 'ISO 3166-1 alpha-2', constraints: { required: true, pattern: '^[A-Z]{2}$' } },
  { name: 'country_slug', type: 'string', title: 'Country slug', constraints: SLUG },
  { name: 'city_slug', type: 'string', title: 'City slug', constraints: SLUG },
  { name: 'zone_slug', type: 'string', title: 'Zone slug', description: 'The district within the city; empty when the listing has none', constraints: OPTIONAL_SLUG },
  { name: 'operator_slug', type: 'string', title: 'Operator slug', description: 'Empty for an independent space', constraints: OPTIONAL_SLUG },
  { name: 'operator_name', type: 'string', title: 'Operator name', description: 'Empty for an independent space' },
  { name: 'lat', type: 'number', title: 'Latitude', description: 'WGS 84 degrees; empty when the source gives no valid location', constraints: { minimum: -90, maximum: 90 } },
  { name: 'lng', type: 'number', title: 'Longitude', description: 'WGS 84 degrees; empty when the source gives no valid location', constraints: { minimum: -180, maximum: 180 } },
];

const LISTINGS_FIELDS = [
  { name: 'slug', type: 'string', title: 'Listing slug', description: 'The listing\'s key: /v1/properties/{slug}', constraints: { ...SLUG, unique: true } },
  { name: 'name', type: 'string', title: 'Name', description: 'The space\'s name as published', constraints: required },
  ...LISTING_PLACE_FIELDS,
  { name: 'capacity', type: 'integer', title: 'Capacity', description: 'Desks or people the space holds; empty when unknown', constraints: { minimum: 1 } },
  { name: 'updated_at', type: 'datetime', title: 'Updated at', description: 'When the source last changed the listing (UTC); empty when not stated' },
];

const OFFERS_FIELDS = [
  { name: 'slug', type: 'string', title: 'Listing slug', description: 'The listing the offer belongs to (listings.slug)', constraints: SLUG },
  { name: 'offer_id', type: 'string', title: 'Offer id', description: 'The source\'s id of the offer, unique within its listing', constraints: required },
  ...LISTING_PLACE_FIELDS,
  { name: 'option_type', type: 'string', title: 'Option type', constraints: { required: true, enum: [...OPTION_TYPES] } },
  { name: 'offer_title', type: 'string', title: 'Offer title', description: 'The operator\'s own text' },
  { name: 'billing_period', type: 'string', title: 'Billing period', description: 'What the amount buys', constraints: { required: true, enum: [...BILLING_PERIODS] } },
  { name: 'amount', type: 'number', title: 'Amount', description: 'The price as published, in currency, rounded to cents; empty on request', constraints: { minimum: 0 } },
  { name: 'currency', type: 'string', title: 'Currency', description: 'ISO 4217 code of amount and comparable_amount', constraints: { required: true, enum: [...CURRENCIES] } },
  { name: 'price_on_request', type: 'boolean', title: 'Price on request', description: 'true when the operator publishes no amount', trueValues: ['true'], falseValues: ['false'], constraints: required },
  { name: 'min_capacity', type: 'integer', title: 'Minimum capacity', description: 'Fewest people the offer is for; empty when not stated', constraints: { minimum: 1 } },
  { name: 'max_capacity', type: 'integer', title: 'Maximum capacity', description: 'Most people the offer is for (an office\'s desks); empty when not stated', constraints: { minimum: 1 } },
  {
    name: 'monthly_price_per_desk', type: 'number', title: 'Monthly price per desk',
    description: 'The figure the price index is made of, in currency, rounded to cents: a monthly amount (year ÷ 12, week × 52 ÷ 12) '
      + 'per desk (an office divided by its max_capacity); empty for a day, hour or one-off price, an office without a desk count, '
      + 'what is not a desk product, and a price on request',
  },
  { name: 'comparable_amount', type: 'number', title: 'Comparable amount', description: 'The amount as listings compare it, in currency: a month, week or year as its monthly equivalent, a day, hour or one-off price as it is; empty on request' },
  { name: 'comparable_basis', type: 'string', title: 'Comparable basis', description: 'What comparable_amount is a price of', constraints: { enum: [...PRICE_BASES] } },
  { name: 'comparable_eur', type: 'number', title: 'Comparable amount in EUR', description: 'comparable_amount converted at the snapshot\'s reference rate, to four decimals; empty on request or without a rate' },
  { name: 'observed_at', type: 'datetime', title: 'Observed at', description: 'When the offer\'s current price was observed (UTC)', constraints: required },
];

const PARQUET_RESOURCE = { profile: 'tabular-data-resource', format: 'parquet', mediatype: 'application/vnd.apache.parquet' };

/** The bulk download's four files (contract/research.ts BULK_FILES), Parquet and CSV of the same rows, with their table schemas. */
function bulkResources() {
  const tables = [
    { name: 'listings', title: 'Listings: one row per published space', fields: LISTINGS_FIELDS, primaryKey: ['slug'] },
    { name: 'offers', title: 'Offers: one row per current price offer of a listing', fields: OFFERS_FIELDS, primaryKey: ['slug', 'offer_id'] },
  ];
  return tables.flatMap(({ name, title, fields, primaryKey }) => {
    const schema = { fields, primaryKey, missingValues: [''] };
    return [
      { name: `${name}-parquet`, title, path: `${name}.parquet`, ...PARQUET_RESOURCE, schema },
      { name, title, path: `${name}.csv`, ...CSV_RESOURCE, schema },
    ];
  });
}

/** A release's datapackage: the price report's, with the bulk download beside its tables. */
export function releaseDataPackage(priceReport: ReturnType<typeof priceReportDataPackage>) {
  return { ...priceReport, resources: [...priceReport.resources, ...bulkResources()] };
}
