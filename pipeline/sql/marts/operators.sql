-- Operator hubs: listings, cities, and the operator's median position against its cities' medians
-- (ratio of each space's monthly per-desk price to its city median; published from min_sample_size() spaces).
with operators as (
  select * from int_operators__slugged
),

spaces as (
  select * from int_spaces__slugged
),

cities as (
  select * from int_cities__slugged
),

positions as (
  select * from int_space_prices__positioned where product_type = 'all'
),

operator_cities as (
  select
    spaces.operator_id,
    count(*)::integer as property_count,
    list(distinct cities.city_slug order by cities.city_slug) as city_slugs,
  from spaces
  join cities on cities.city_id = spaces.city_id
  where spaces.operator_id is not null
  group by spaces.operator_id
),

operator_positions as (
  select
    spaces.operator_id,
    count(*)::integer as sample_size,
    median(positions.monthly_price_per_desk / positions.city_median) as median_ratio,
  from positions
  join spaces on spaces.space_id = positions.space_id
  where spaces.operator_id is not null
  group by spaces.operator_id
),

final as (
  select
    operators.*,
    coalesce(operator_cities.property_count, 0) as property_count,
    coalesce(operator_cities.city_slugs, []) as city_slugs,
    coalesce(operator_positions.sample_size, 0) as position_sample_size,
    case when is_published_sample(operator_positions.sample_size)
      then market_verdict(operator_positions.median_ratio, 1) end as position_verdict,
  from operators
  left join operator_cities on operator_cities.operator_id = operators.operator_id
  left join operator_positions on operator_positions.operator_id = operators.operator_id
  order by operators.operator_slug
)

select * from final
