-- The price history: per city, product (`all` and each desk product) and month, the figures of
-- the offers as they stood at the month's end, under the same sample rule and publish decision as
-- the price index (whose figures equal the last month's).
with cities as (
  select * from int_cities__slugged
),

countries as (
  select * from int_countries__slugged
),

months as (
  select * from int_history_months__listed
),

figures as (
  select * from int_place_prices__dated where place_kind = 'city' and history_month is not null
),

products as (
  select unnest(price_index_products()) as product_type
),

grid as (
  select cities.*, countries.currency, products.product_type, months.history_month,
  from cities
  join countries on countries.country_code = cities.country_code
  cross join products
  cross join months
),

final as (
  select
    grid.country_code,
    grid.city_slug,
    grid.name_en as city_name,
    grid.currency,
    grid.product_type,
    strftime(grid.history_month, '%Y-%m') as month,
    coalesce(figures.sample_size, 0) as sample_size,
    coalesce(figures.is_published, false) as is_published,
    case when figures.is_published then round(figures.median_price, 2) end as median_price,
    case when figures.is_published then round(figures.average_price, 2) end as average_price,
    case when figures.is_published then round(figures.min_price, 2) end as min_price,
    case when figures.is_published then round(figures.max_price, 2) end as max_price,
  from grid
  left join figures
    on figures.place_id = grid.city_id
    and figures.product_type = grid.product_type
    and figures.history_month = grid.history_month
  order by grid.country_code, grid.city_slug, option_type_rank(grid.product_type) nulls first, grid.history_month
)

select * from final
