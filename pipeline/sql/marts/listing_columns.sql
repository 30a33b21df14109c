-- The listing columns (contract/build.ts ListingColumnsSchema, encoded into listing-columns.bin) as one JSON text: what the query
-- engine filters and sorts on, by column, one entry per listing in place order (listings.position). Repeated values are
-- stored once (`dict`, in order of first use) and referenced by index (-1 for none); amenities and
-- option types as the ascending indices of the listings that have them.
with numbered as (
  select position as i, * from listings
),

-- every dictionary value with the position of its first use
dict_uses as (
  select 'country' as dict, country_slug as value, i as used_at from numbered
  union all select 'countryCode', country_code, i from numbered
  union all select 'city', city_slug, i from numbered
  union all select 'zone', zone_slug, i from numbered
  union all select 'operator', operator_slug, i from numbered
  union all select 'street', street, i from numbered
  union all select 'houseNumber', house_number, i from numbered
),

dicts as (
  select dict, value, (row_number() over (partition by dict order by min(used_at)) - 1)::integer as id,
  from dict_uses
  where value is not null
  group by dict, value
),

dict_lists as (
  select dict, list(value order by id) as values, from dicts group by dict
),

-- fromPrice (`all`) and fromPriceByType with the comparable price, in the order the columns are read: listing, then product
prices as (
  select
    numbered.i,
    listing_prices.product_type,
    listing_prices.from_amount,
    listing_prices.comparable_basis,
    listing_prices.comparable_amount,
    listing_prices.comparable_currency,
    listing_prices.comparable_eur,
    listing_prices.from_currency,
    listing_prices.from_billing_period,
    case when listing_prices.verdict is not null then {
      'verdict': listing_prices.verdict,
      'median': {'amount': listing_prices.city_median, 'currency': listing_prices.city_currency},
      'sampleSize': listing_prices.city_sample_size,
    } end as market_position,
    numbered.i * 100 + coalesce(option_type_rank(listing_prices.product_type), 0) as used_at,
  from listing_prices
  join numbered on numbered.slug = listing_prices.slug
),

price_dicts as (
  select 'currencies' as dict, currency::varchar as value, min(used_at) as first_use
  from (
    select from_currency as currency, used_at from prices
    union all select comparable_currency, used_at from prices
  )
  where currency is not null group by currency
  union all
  select 'billingPeriods', from_billing_period, min(used_at) from prices where from_billing_period is not null group by from_billing_period
),

price_dict_ids as (
  select dict, value, (row_number() over (partition by dict order by first_use) - 1)::integer as id from price_dicts
),

positions as (
  select market_position, (row_number() over (order by min(used_at)) - 1)::integer as id,
  from prices where market_position is not null group by market_position
),

priced as (
  select
    prices.*,
    currencies.id as currency_id,
    comparable_currencies.id as comparable_currency_id,
    billing_periods.id as billing_period_id,
    positions.id as position_id,
  from prices
  left join price_dict_ids currencies on currencies.dict = 'currencies' and currencies.value = prices.from_currency
  left join price_dict_ids comparable_currencies on comparable_currencies.dict = 'currencies' and comparable_currencies.value = prices.comparable_currency
  left join price_dict_ids billing_periods on billing_periods.dict = 'billingPeriods' and billing_periods.value = prices.from_billing_period
  left join positions on positions.market_position = prices.market_position
),

-- `all` always (fromPrice), the option types where any listing has a price or a position
products as (
  select 'all' as product_type
  union
  select distinct product_type from priced where from_amount is not null or position_id is not null
),

-- one price entry per listing and product seen (null and -1 where the listing has none)
price_grid as (
  select
    products.product_type,
    numbered.i,
    priced.from_amount as amount,
    coalesce(priced.currency_id, -1) as currency,
    coalesce(priced.billing_period_id, -1) as billing_period,
    coalesce(priced.position_id, -1) as market_position,
    priced.comparable_amount,
    priced.comparable_eur,
    coalesce(priced.comparable_currency_id, -1) as comparable_currency,
    coalesce(price_basis_id(priced.comparable_basis), -1) as comparable_basis,
  from products
  cross join numbered
  left join priced on priced.i = numbered.i and priced.product_type = products.product_type
),

price_columns as (
  select
    product_type,
    {
      'amount': coalesce(list(amount order by i), []),
      'currency': coalesce(list(currency order by i), []),
      'billingPeriod': coalesce(list(billing_period order by i), []),
      'marketPosition': coalesce(list(market_position order by i), []),
      'comparableAmount': coalesce(list(comparable_amount order by i), []),
      'comparableEur': coalesce(list(comparable_eur order by i), []),
      'comparableCurrency': coalesce(list(comparable_currency order by i), []),
      'comparableBasis': coalesce(list(comparable_basis order by i), []),
    } as columns,
  from price_grid
  group by product_type
),

indexed as (
  select
    numbered.*,
    country.id as country_id,
    country_code.id as country_code_id,
    city.id as city_id,
    coalesce(zone.id, -1) as zone_id,
    coalesce(operator.id, -1) as operator_id,
    street.id as street_id,
    house_number.id as house_number_id,
  from numbered
  left join dicts country on country.dict = 'country' and country.value = numbered.country_slug
  left join dicts country_code on country_code.dict = 'countryCode' and country_code.value = numbered.country_code
  left join dicts city on city.dict = 'city' and city.value = numbered.city_slug
  left join dicts zone on zone.dict = 'zone' and zone.value = numbered.zone_slug
  left join dicts operator on operator.dict = 'operator' and operator.value = numbered.operator_slug
  left join dicts street on street.dict = 'street' and street.value = numbered.street
  left join dicts house_number on house_number.dict = 'houseNumber' and house_number.value = numbered.house_number
),

postings as (
  select 'amenity' as kind, unnest(amenity_slugs) as value, i from numbered
  union all select 'optionType', unnest(option_types), i from numbered
),

posting_lists as (
  select kind, value, list(i order by i) as indices from postings group by kind, value
),

dict_value as (
  select coalesce((select values from dict_lists where dict_lists.dict = d.dict), []) as values, d.dict
  from (select unnest(['country', 'countryCode', 'city', 'zone', 'operator', 'street', 'houseNumber']) as dict) d
),

final as (
  select to_json({
    'slugs': coalesce(list(slug order by i), []),
    'dict': {
      'country': (select values from dict_value where dict = 'country'),
      'countryCode': (select values from dict_value where dict = 'countryCode'),
      'city': (select values from dict_value where dict = 'city'),
      'zone': (select values from dict_value where dict = 'zone'),
      'operator': (select values from dict_value where dict = 'operator'),
      'street': (select values from dict_value where dict = 'street'),
      'houseNumber': (select values from dict_value where dict = 'houseNumber'),
      'currencies': coalesce((select list(value order by id) from price_dict_ids where dict = 'currencies'), []),
      'billingPeriods': coalesce((select list(value order by id) from price_dict_ids where dict = 'billingPeriods'), []),
      'marketPositions': coalesce((select list(market_position order by id) from positions), []),
    },
    'country': coalesce(list(country_id order by i), []),
    'countryCode': coalesce(list(country_code_id order by i), []),
    'city': coalesce(list(city_id order by i), []),
    'zone': coalesce(list(zone_id order by i), []),
    'operator': coalesce(list(operator_id order by i), []),
    'street': coalesce(list(street_id order by i), []),
    'houseNumber': coalesce(list(house_number_id order by i), []),
    'amenities': coalesce((select map_from_entries(list((value, indices) order by value))
      from posting_lists where kind = 'amenity'), map()),
    'optionTypes': coalesce((select map_from_entries(list((value, indices) order by option_type_rank(value)))
      from posting_lists where kind = 'optionType'), map()),
    'featured': coalesce(list(i order by i) filter (where is_featured), []),
    'capacity': coalesce(list(capacity order by i), []),
    'lat': coalesce(list(lat order by i), []),
    'lng': coalesce(list(lng order by i), []),
    'updatedMs': coalesce(list(epoch_ms(updated_at::timestamptz) order by i), []),
    'ratingScore': coalesce(list(case when rating_count is not null then rating_score end order by i), []),
    'ratingCount': coalesce(list(case when rating_score is not null then rating_count end order by i), []),
    -- (no listings: no price grid)
    'fromPrice': coalesce((select columns from price_columns where product_type = 'all'), {
      'amount': []::double[], 'currency': []::integer[], 'billingPeriod': []::integer[], 'marketPosition': []::integer[],
      'comparableAmount': []::double[], 'comparableEur': []::double[], 'comparableCurrency': []::integer[],
      'comparableBasis': []::integer[],
    }),
  })::varchar as json_head,
  from indexed
)

-- fromPriceByType is added as text, in option type order: as a map in the struct (an ordered list of
-- the products' column structs) it cost 1.4 s of the mart's 2.8 s at 100,000 listings
select
  left(json_head, -1) || ',"fromPriceByType":{' || coalesce((
    select string_agg(to_json(product_type)::varchar || ':' || to_json(columns)::varchar, ',' order by option_type_rank(product_type))
    from price_columns where product_type <> 'all'), '') || '}}' as json,
from final
