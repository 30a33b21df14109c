-- Every priced desk offer as it stood at the end of each month of the history: its latest accepted
-- observation before the month ended (ties as in int_offers__latest: observed_at, then
-- observation_id). An observation holds until the next one of its offer; a price on request
-- then counts as no price.
with observations as (
  select space_id, offer_id, observation_id, option_type, amount, billing_period, max_capacity, observed_at,
  from int_price_observations__checked where reject_rule is null
),

spaces as (
  select space_id from int_spaces__slugged
),

-- the months of the history with their ends as one list: each observation takes from it the months
-- it holds at the end of (a filter per row, streamed; a range join held both sides and did not spill)
months as (
  select list({'history_month': history_month, 'month_end': (history_month + interval 1 month)::timestamptz} order by history_month)
    as months,
  from int_history_months__listed
),

superseded as (
  select
    observations.space_id, observations.offer_id, observations.option_type, observations.amount, observations.billing_period,
    observations.observed_at,
    -- once per observation, not once per month it holds
    monthly_price_per_desk(observations.option_type, observations.amount, observations.billing_period, observations.max_capacity)
      as monthly_price_per_desk,
    lead(observations.observed_at) over (
      partition by observations.space_id, observations.offer_id
      order by observations.observed_at, observations.observation_id
    ) as superseded_at,
  from observations
  join spaces on spaces.space_id = observations.space_id
),

held as (
  select
    superseded.*,
    -- the next observation of the offer came after the month's end (one at the same instant with a
    -- higher observation_id supersedes it at once)
    unnest(list_filter(months.months, m -> superseded.observed_at < m.month_end
      and m.month_end <= coalesce(superseded.superseded_at, 'infinity'::timestamptz))) as month,
  from superseded
  cross join months
  where superseded.monthly_price_per_desk is not null
),

final as (
  select
    held.month.history_month,
    held.space_id,
    held.offer_id,
    held.option_type,
    held.amount,
    coalesce(held.billing_period, 'month') as billing_period,
    held.monthly_price_per_desk,
    held.observed_at,
  from held
)

select * from final
