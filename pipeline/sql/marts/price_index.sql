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
    case when figures.is_published then round(figures.median_price, 2) end as median_price,
    case when figures.is_published then round(figures.average_price, 2) end as average_price,
    case when figures.is_published then round(figures.min_price, 2) end as min_price,
    case when figures.is_published then round(figures.max_price, 2) end as max_price,
    case when figures.is_published then round(figures.p25_price, 2) end as p25_price,
    case when figures.is_published then round(figures.p75_price, 2) end as p75_price,
    case when figures.is_published then round(figures.median_age_days, 1) end as median_age_days,
    case when figures.is_published then round(figures.stale_share, 4) end as stale_share,
    case when figures.is_published then round(figures.largest_operator_share, 4) end as largest_operator_share,
    quality_flags(figures.is_published, figures.sample_size, figures.median_age_days, figures.largest_operator_share, false)
      as quality_flags,
  from grid
  left join figures on figures.place_id = grid.city_id and figures.product_type = grid.product_type
  order by grid.country_code, grid.city_slug, option_type_rank(grid.product_type) nulls first
)

select * from final
