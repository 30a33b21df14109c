-- Every priced desk offer as it stood at the end of each month of the history: its latest accepted
-- observation before the month ended (ties as in int_offers__latest: observed_at, then
-- observation_id). An observation holds until the next one of its offer; a price on request
-- then counts as no price.
with observations as (
  select * from int_price_observations__checked where reject_rule is null
),

spaces as (
  select space_id from int_spaces__slugged
),

months as (
  select history_month, (history_month + interval 1 month)::timestamptz as month_end, from int_history_months__listed
),

superseded as (
  select
    observations.*,
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

final as (
  select
    months.history_month,
    superseded.space_id,
    superseded.offer_id,
    superseded.option_type,
    superseded.amount,
    coalesce(superseded.billing_period, 'month') as billing_period,
    superseded.monthly_price_per_desk,
    superseded.observed_at,
  from superseded
  join months
    on superseded.observed_at < months.month_end
    -- the next observation of the offer came after the month's end (one at the same instant with a
    -- higher observation_id supersedes it at once); two inequalities: one range join
    and months.month_end <= coalesce(superseded.superseded_at, 'infinity'::timestamptz)
  where superseded.monthly_price_per_desk is not null
)

select * from final
