-- Sample size and figures per place (city, zone, country) and product today (history_month null),
-- and per city and product at the end of each month of the history. The sample is the number of
-- distinct spaces; median() interpolates, so an even sample gives the mean of the two middle values.
-- The average sums exact decimals: a float sum depends on the threads' order and would break reproducibility.
-- `is_published` is the one publish decision of every figure built on these samples.
with prices as (
  select * from int_space_prices__dated
),

spaces as (
  select space_id, city_id, zone_id, country_code from int_spaces__slugged
),

located as (
  select prices.*, spaces.city_id, spaces.zone_id, spaces.country_code,
  from prices
  join spaces on spaces.space_id = prices.space_id
),

by_city as (
  select history_month, 'city' as place_kind, city_id as place_id, product_type,
    count(*)::integer as sample_size, median(unit_price) as median_price, avg(unit_price::decimal(38, 12))::double as average_price,
    min(unit_price) as min_price, max(unit_price) as max_price,
  from located group by history_month, city_id, product_type
),

by_zone as (
  select history_month, 'zone' as place_kind, zone_id as place_id, product_type,
    count(*)::integer as sample_size, median(unit_price) as median_price, avg(unit_price::decimal(38, 12))::double as average_price,
    min(unit_price) as min_price, max(unit_price) as max_price,
  from located where zone_id is not null and history_month is null group by history_month, zone_id, product_type
),

by_country as (
  select history_month, 'country' as place_kind, country_code as place_id, product_type,
    count(*)::integer as sample_size, median(unit_price) as median_price, avg(unit_price::decimal(38, 12))::double as average_price,
    min(unit_price) as min_price, max(unit_price) as max_price,
  from located where history_month is null group by history_month, country_code, product_type
),

final as (
  select *, is_published_sample(sample_size) as is_published from by_city
  union all select *, is_published_sample(sample_size) from by_zone
  union all select *, is_published_sample(sample_size) from by_country
)

select * from final
