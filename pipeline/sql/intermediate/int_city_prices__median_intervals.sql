-- The confidence interval of each published city median, today (history_month null) and at the end of each
-- month of the history: two prices of the sample, the l-th lowest and the l-th highest, where l is the largest
-- rank with P(B ≤ l − 1) ≤ median_interval_tail() for B ~ Binomial(n, ½), n the sample size. The interval then
-- covers the true median at least 1 − 2 × median_interval_tail() of the time whatever the prices' distribution
-- (order statistics: deterministic, no resampling). Where no rank qualifies (n ≤ 5 at 95%) l is 1: the
-- minimum and the maximum.
with prices as (
  select * from int_space_prices__dated
),

spaces as (
  select space_id, city_id from int_spaces__slugged
),

located as (
  select prices.history_month, spaces.city_id, prices.product_type, prices.unit_price,
  from prices
  join spaces on spaces.space_id = prices.space_id
  where list_contains(price_index_products(), prices.product_type)
),

samples as (
  select history_month, city_id, product_type, count(*)::integer as sample_size,
  from located
  group by history_month, city_id, product_type
  having is_published_sample(count(*))
),

-- P(B = k) for k from well below the tail to n / 2: the terms more than 10 standard deviations (5√n) under
-- the mean add up to less than 1e-20 and are left out
terms as (
  select n, k, exp(lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1) - n * ln(2)) as probability,
  from (
    select n, unnest(range(greatest(0, n // 2 - 5 * ceil(sqrt(n))::bigint), n // 2 + 1)) as k,
    from (select distinct sample_size::bigint as n from samples)
  )
),

ranks as (
  select n, coalesce(max(k) filter (where at_most <= median_interval_tail()) + 1, 1) as lower_rank,
  from (select n, k, sum(probability) over (partition by n order by k) as at_most, from terms)
  group by n
),

ranked as (
  select located.*, samples.sample_size,
    row_number() over (partition by located.history_month, located.city_id, located.product_type order by located.unit_price)
      as price_rank,
  from located
  join samples
    on samples.history_month is not distinct from located.history_month
    and samples.city_id = located.city_id
    and samples.product_type = located.product_type
),

final as (
  select ranked.history_month, ranked.city_id, ranked.product_type, ranks.lower_rank,
    min(ranked.unit_price) filter (where ranked.price_rank = ranks.lower_rank) as median_low,
    max(ranked.unit_price) filter (where ranked.price_rank = ranked.sample_size + 1 - ranks.lower_rank) as median_high,
  from ranked
  join ranks on ranks.n = ranked.sample_size
  where ranked.price_rank in (ranks.lower_rank, ranked.sample_size + 1 - ranks.lower_rank)
  group by all
)

select * from final
