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

located as (
  select
    grid.*,
    figures.* exclude (history_month, product_type, is_published),
    coalesce(figures.is_published, false) as is_published,
    -- a break: published after an unpublished month, with a published month before that
    coalesce(figures.is_published, false)
      and not coalesce(lag(figures.is_published) over series, false)
      and coalesce(bool_or(figures.is_published) over series_before, false) as is_break,
  from grid
  left join figures
    on figures.place_id = grid.city_id
    and figures.product_type = grid.product_type
    and figures.history_month = grid.history_month
  window
    series as (partition by grid.city_id, grid.product_type order by grid.history_month),
    series_before as (partition by grid.city_id, grid.product_type order by grid.history_month
      rows between unbounded preceding and 1 preceding)
),

final as (
  select
    country_code,
    city_slug,
    name as city_name,
    currency,
    product_type,
    strftime(history_month, '%Y-%m') as month,
    coalesce(sample_size, 0) as sample_size,
    is_published,
    case when is_published then published_money(median_price) end as median_price,
    case when is_published then published_money(average_price) end as average_price,
    case when is_published then published_money(min_price) end as min_price,
    case when is_published then published_money(max_price) end as max_price,
    case when is_published then published_money(p25_price) end as p25_price,
    case when is_published then published_money(p75_price) end as p75_price,
    case when is_published then round(median_age_days, 1) end as median_age_days,
    case when is_published then round(stale_share, 4) end as stale_share,
    case when is_published then round(largest_operator_share, 4) end as largest_operator_share,
    quality_flags(is_published, sample_size, median_age_days, largest_operator_share, is_break) as quality_flags,
  from located
  order by country_code, city_slug, option_type_rank(product_type) nulls first, history_month
)

select * from final
