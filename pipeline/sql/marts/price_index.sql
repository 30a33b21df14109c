-- The price index: per city the overall figure (`all`) and each desk product, monthly per desk.
-- Published only from min_sample_size() distinct spaces; thinner rows carry no figures and no
-- quality measures (quartiles, price age, operator dominance, flags: see quality_flags()).
with cities as (
  select * from int_cities__slugged
),

countries as (
  select * from int_countries__slugged
),

figures as (
  select * from int_place_prices__aggregated where place_kind = 'city'
),

intervals as (
  select * from int_city_prices__median_intervals where history_month is null
),

products as (
  select unnest(price_index_products()) as product_type
),

grid as (
  select cities.*, countries.currency, products.product_type,
  from cities
  join countries on countries.country_code = cities.country_code
  cross join products
),

final as (
  select
    grid.country_code,
    grid.city_slug,
    grid.name as city_name,
    grid.currency,
    grid.product_type,
    coalesce(figures.sample_size, 0) as sample_size,
    coalesce(figures.is_published, false) as is_published,
    case when figures.is_published then published_money(figures.median_price) end as median_price,
    case when figures.is_published then published_money(figures.average_price) end as average_price,
    case when figures.is_published then published_money(figures.min_price) end as min_price,
    case when figures.is_published then published_money(figures.max_price) end as max_price,
    case when figures.is_published then published_money(figures.p25_price) end as p25_price,
    case when figures.is_published then published_money(figures.p75_price) end as p75_price,
    case when figures.is_published then round(figures.median_age_days, 1) end as median_age_days,
    case when figures.is_published then round(figures.stale_share, 4) end as stale_share,
    case when figures.is_published then round(figures.largest_operator_share, 4) end as largest_operator_share,
    quality_flags(figures.is_published, figures.sample_size, figures.median_age_days, figures.largest_operator_share, false)
      as quality_flags,
    case when figures.is_published then published_money(intervals.median_low) end as median_low,
    case when figures.is_published then published_money(intervals.median_high) end as median_high,
  from grid
  left join figures on figures.place_id = grid.city_id and figures.product_type = grid.product_type
  left join intervals on intervals.city_id = grid.city_id and intervals.product_type = grid.product_type
  order by grid.country_code, grid.city_slug, option_type_rank(grid.product_type) nulls first
)

select * from final
