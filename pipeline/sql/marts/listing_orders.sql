-- The sort orders of listing-columns.bin (LISTING_ORDERS in contract/listing-columns.ts), one row
-- per order: its name and the listing positions (listings.position) in its order as a JSON list.
-- The keys are those listing_columns writes; every tie breaks by slug, and listings without a key
-- come last in both directions.
with numbered as (
  select
    position as i,
    slug,
    -- ties break by slug: its rank, an integer, sorts much faster than the text
    row_number() over (order by slug) as slug_rank,
    epoch_ms(updated_at::timestamptz) as updated_ms,
    case when rating_count is not null then rating_score end as rating_score,
    case when rating_score is not null and rating_count is not null then rating_count else 0 end as rating_count,
    case when lat is not null and lng is not null then lat end as coordinates_lat,
  from listings
),

-- the products listing_columns writes price columns for (`all` always): the others order by slug
priced_products as (
  select 'all' as product_type
  union
  select distinct listing_prices.product_type
  from listing_prices
  join numbered on numbered.slug = listing_prices.slug
  where listing_prices.from_amount is not null or listing_prices.verdict is not null
),

comparable as (
  select
    listing_prices.slug,
    listing_prices.product_type,
    price_basis_rank(listing_prices.product_type, listing_prices.comparable_basis) as basis_rank,
    listing_prices.comparable_eur,
  from listing_prices
  join priced_products on priced_products.product_type = listing_prices.product_type
  where listing_prices.comparable_amount is not null
    and price_basis_id(listing_prices.comparable_basis) >= 0
    and listing_prices.comparable_eur is not null
),

price_keys as (
  select products.product_type, numbered.i, numbered.slug_rank, comparable.basis_rank, comparable.comparable_eur,
  from (select unnest(['all'] || option_types_in_order()) as product_type) products
  cross join numbered
  left join comparable on comparable.slug = numbered.slug and comparable.product_type = products.product_type
),

orders as (
  select 'slug' as sort, list(i order by slug_rank) as listings from numbered
  union all
  select 'date-desc', list(i order by updated_ms desc nulls last, slug_rank) from numbered
  union all
  select 'date-asc', list(i order by updated_ms asc nulls last, slug_rank) from numbered
  union all
  select 'rating-desc', list(i order by rating_score desc nulls last, rating_count desc, slug_rank) from numbered
  union all
  select 'lat', list(i order by coordinates_lat asc nulls last, slug_rank) from numbered
  union all
  select
    case when product_type = 'all' then 'price-asc' else 'price-asc.' || product_type end,
    list(i order by basis_rank asc nulls last, comparable_eur asc nulls last, slug_rank),
  from price_keys
  group by product_type
  union all
  select
    case when product_type = 'all' then 'price-desc' else 'price-desc.' || product_type end,
    list(i order by basis_rank asc nulls last, comparable_eur desc nulls last, slug_rank),
  from price_keys
  group by product_type
)

select sort, to_json(coalesce(listings, []))::varchar as listings from orders
