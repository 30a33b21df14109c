-- Sample size and figures per place (city, zone, country) and product today (history_month null),
-- and per city and product at the end of each month of the history. The sample is the number of
-- distinct spaces; median() interpolates, so an even sample gives the mean of the two middle values.
-- Prices are exact decimals (int_space_prices__dated): the quantiles interpolate them exactly and the average
-- divides their exact sum, so a published figure is the exact value rounded by the methodology's rule.
-- `is_published` is the one publish decision of every figure built on these samples.
-- Per city also the quality measures: quartiles, the age of the prices behind the figure (whole days
-- from their observation to the reference time: the data's asOf today, the month's end or asOf if
-- earlier for a month) and the share of the spaces run by the largest operator (an independent
-- space is its own operator).
with prices as (
  select * from int_space_prices__dated
),

spaces as (
  select space_id, city_id, zone_id, country_code, operator_id from int_spaces__slugged
),

as_of as (
  select max(observed_at) as as_of from int_price_observations__checked where reject_rule is null
),

-- the reference time of each month, computed once per month rather than once per price
reference_times as (
  select
    history_month,
    epoch(coalesce(least((history_month + interval 1 month)::timestamptz, as_of.as_of), as_of.as_of)) as reference_epoch,
  from (select distinct history_month from prices)
  cross join as_of
),

located as (
  select
    prices.*,
    spaces.city_id,
    spaces.zone_id,
    spaces.country_code,
    spaces.operator_id,
    floor((reference_times.reference_epoch - epoch(prices.observed_at)) / 86400)::integer as age_days,
  from prices
  join spaces on spaces.space_id = prices.space_id
  join reference_times on reference_times.history_month is not distinct from prices.history_month
),

-- spaces of the largest operator; an independent space is its own operator (one space), so a sample
-- without an operator's spaces has 1 (by_city)
largest_operators as (
  select history_month, city_id, product_type, max(operator_spaces) as largest_operator_spaces,
  from (
    select history_month, city_id, product_type, count(*) as operator_spaces,
    from located where operator_id is not null group by history_month, city_id, product_type, operator_id
  )
  group by history_month, city_id, product_type
),

city_figures as (
  select history_month, place_kind, place_id, product_type, sample_size,
    quartiles[2] as median_price, average_price, min_price, max_price, quartiles[1] as p25_price, quartiles[3] as p75_price,
    median_age_days, stale_share,
  from (
    select history_month, 'city' as place_kind, city_id as place_id, product_type,
      count(*)::integer as sample_size,
      -- the quartiles from one sorted sample: the median is the middle one (median() is quantile_cont 0.5)
      quantile_cont(unit_price, [0.25, 0.5, 0.75]) as quartiles,
      exact_quotient(sum(unit_price), count(*)) as average_price,
      min(unit_price) as min_price, max(unit_price) as max_price,
      median(age_days) as median_age_days,
      avg((age_days > stale_price_days())::integer::decimal(38, 12))::double as stale_share,
    from located group by history_month, city_id, product_type
  )
),

by_city as (
  select
    city_figures.*,
    coalesce(largest_operators.largest_operator_spaces, 1) / city_figures.sample_size as largest_operator_share,
  from city_figures
  left join largest_operators
    on largest_operators.history_month is not distinct from city_figures.history_month
    and largest_operators.city_id = city_figures.place_id
    and largest_operators.product_type = city_figures.product_type
),

by_zone as (
  select history_month, 'zone' as place_kind, zone_id as place_id, product_type,
    count(*)::integer as sample_size, median(unit_price) as median_price, exact_quotient(sum(unit_price), count(*)) as average_price,
    min(unit_price) as min_price, max(unit_price) as max_price,
    null::decimal(18, 9) as p25_price, null::decimal(18, 9) as p75_price, null::double as median_age_days, null::double as stale_share,
    null::double as largest_operator_share,
  from located where zone_id is not null and history_month is null group by history_month, zone_id, product_type
),

by_country as (
  select history_month, 'country' as place_kind, country_code as place_id, product_type,
    count(*)::integer as sample_size, median(unit_price) as median_price, exact_quotient(sum(unit_price), count(*)) as average_price,
    min(unit_price) as min_price, max(unit_price) as max_price,
    null::decimal(18, 9) as p25_price, null::decimal(18, 9) as p75_price, null::double as median_age_days, null::double as stale_share,
    null::double as largest_operator_share,
  from located where history_month is null group by history_month, country_code, product_type
),

final as (
  select *, is_published_sample(sample_size) as is_published from by_city
  union all select *, is_published_sample(sample_size) from by_zone
  union all select *, is_published_sample(sample_size) from by_country
)

select * from final
