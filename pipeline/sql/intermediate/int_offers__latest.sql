-- The current state of every offer: its latest accepted observation.
with observations as (
  select * from int_price_observations__checked where reject_rule is null
),

spaces as (
  select space_id, country_code from int_spaces__slugged
),

countries as (
  select country_code, currency from int_countries__slugged
),

ranked as (
  select
    observations.*,
    row_number() over (
      partition by observations.space_id, observations.offer_id
      order by observations.observed_at desc, observations.observation_id desc
    ) as recency_rank,
    countries.currency as country_currency,
  from observations
  join spaces on spaces.space_id = observations.space_id
  join countries on countries.country_code = spaces.country_code
),

final as (
  select
    space_id,
    offer_id,
    observation_id,
    option_type,
    offer_title,
    amount,
    amount is null as is_price_on_request,
    coalesce(currency, country_currency) as currency,
    coalesce(billing_period, 'month') as billing_period,
    min_capacity,
    max_capacity,
    observed_at,
  from ranked
  where recency_rank = 1
)

select * from final
