-- Per city and product: monthly per-desk figures for the desk products (shown even when thin,
-- flagged: not `is_published`), per day for day passes and per hour for meeting rooms (shown only
-- when `is_published`); `all` carries the city sample.
with cities as (
  select * from int_cities__slugged
),

countries as (
  select * from int_countries__slugged
),

figures as (
  select * from int_place_prices__aggregated where place_kind = 'city'
),

offers as (
  select * from int_offers__latest
),

spaces as (
  select * from int_spaces__slugged
),

price_points as (
  -- current published prices: latest observation per offer, price on request excluded
  select spaces.city_id, count(*)::integer as price_point_count,
  from offers
  join spaces on spaces.space_id = offers.space_id
  where not offers.is_price_on_request
  group by spaces.city_id
),

property_counts as (
  select city_id, count(*)::integer as property_count from spaces group by city_id
),

final as (
  select
    cities.city_slug,
    cities.country_code,
    countries.country_slug,
    countries.currency,
    coalesce(property_counts.property_count, 0) as property_count,
    coalesce(price_points.price_point_count, 0) as price_point_count,
    figures.product_type,
    figures.sample_size,
    coalesce(figures.is_published, false) as is_published,
    published_money(figures.median_price) as median_price,
    published_money(figures.min_price) as min_price,
    published_money(figures.max_price) as max_price,
  from cities
  join countries on countries.country_code = cities.country_code
  left join property_counts on property_counts.city_id = cities.city_id
  left join price_points on price_points.city_id = cities.city_id
  left join figures on figures.place_id = cities.city_id
  order by cities.city_slug, option_type_rank(figures.product_type) nulls first
)

select * from final
