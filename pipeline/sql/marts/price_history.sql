-- The price history: per city, product (`all` and each desk product) and month, the figures of
-- the offers as they stood at the month's end, under the same sample rule and publish decision as
-- the price index (whose figures equal the last month's), and the chained matched-model index.
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

intervals as (
  select * from int_city_prices__median_intervals where history_month is not null
),

links as (
  select * from int_city_prices__linked
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
    intervals.median_low,
    intervals.median_high,
    coalesce(links.matched_spaces, 0) as matched_spaces,
    -- a link is published from min_sample_size() matched spaces; a month without one starts a new segment
    is_published_sample(links.matched_spaces) as is_linked,
    links.mean_log_relative,
  from grid
  left join figures
    on figures.place_id = grid.city_id
    and figures.product_type = grid.product_type
    and figures.history_month = grid.history_month
  left join intervals
    on intervals.city_id = grid.city_id
    and intervals.product_type = grid.product_type
    and intervals.history_month = grid.history_month
  left join links
    on links.city_id = grid.city_id
    and links.product_type = grid.product_type
    and links.history_month = grid.history_month
),

segmented as (
  select
    located.*,
    sum(case when is_linked then 0 else 1 end) over series_to_date as segment,
    -- the index is defined where a link is published, and at the month before the first link of a segment (its base)
    is_linked or coalesce(lead(is_linked) over series, false) as is_indexed,
    -- the median resumes: published after an unpublished month, with a published month before that
    is_published
      and not coalesce(lag(is_published) over series, false)
      and coalesce(bool_or(is_published) over series_before, false) as is_median_break,
  from located
  window
    series as (partition by city_id, product_type order by history_month),
    series_to_date as (partition by city_id, product_type order by history_month
      rows between unbounded preceding and current row),
    series_before as (partition by city_id, product_type order by history_month
      rows between unbounded preceding and 1 preceding)
),

chained as (
  select
    segmented.*,
    case when is_indexed then index_base() * exp(
      sum(case when is_linked then mean_log_relative else 0 end) over segment_to_date
    ) end as chained_index,
    -- a break: the median resumes, or the index starts again at its base after an earlier segment
    is_median_break
      or (is_indexed and not is_linked and coalesce(bool_or(is_indexed) over series_before, false)) as is_break,
  from segmented
  window
    segment_to_date as (partition by city_id, product_type, segment order by history_month
      rows between unbounded preceding and current row),
    series_before as (partition by city_id, product_type order by history_month
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
    case when is_published then published_money(median_low) end as median_low,
    case when is_published then published_money(median_high) end as median_high,
    round(chained_index, 2) as chained_index,
    matched_spaces,
  from chained
  order by country_code, city_slug, option_type_rank(product_type) nulls first, history_month
)

select * from final
