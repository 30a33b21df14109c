-- The months of the price history: from the month of the first accepted observation to the month
-- of the last (UTC), each as its first day.
with observations as (
  select * from int_price_observations__checked where reject_rule is null
),

final as (
  select unnest(generate_series(
    date_trunc('month', min(observed_at)), date_trunc('month', max(observed_at)), interval 1 month
  ))::date as history_month,
  from observations
)

select * from final
