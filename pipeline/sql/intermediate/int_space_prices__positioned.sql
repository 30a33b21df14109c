-- marketPosition: a space's monthly per-desk price against its city's median of the same product,
-- only where the city figure is published (min_sample_size() spaces); bands in market_verdict.
with prices as (
  select * from int_space_prices__cheapest where product_type not in ('day_pass', 'meeting_room')
),

spaces as (
  select space_id, city_id from int_spaces__slugged
),

city_figures as (
  select * from int_place_prices__aggregated where place_kind = 'city' and is_published
),

final as (
  select
    prices.space_id,
    prices.product_type,
    prices.unit_price as monthly_price_per_desk,
    city_figures.median_price as city_median,
    city_figures.sample_size as city_sample_size,
    market_verdict(prices.unit_price, city_figures.median_price) as verdict,
  from prices
  join spaces on spaces.space_id = prices.space_id
  join city_figures on city_figures.place_id = spaces.city_id and city_figures.product_type = prices.product_type
)

select * from final
