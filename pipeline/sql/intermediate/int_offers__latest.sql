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

-- the latest observation of each offer: observed_at, then observation_id (a grouped arg_max:
-- no sort of every observation)
latest as (
  select unnest(arg_max(
    {'space_id': space_id, 'offer_id': offer_id, 'observation_id': observation_id, 'option_type': option_type,
      'offer_title': offer_title, 'amount': amount, 'currency': currency, 'billing_period': billing_period,
      'min_capacity': min_capacity, 'max_capacity': max_capacity, 'observed_at': observed_at},
    {'observed_at': observed_at, 'observation_id': observation_id})),
  from observations
  group by space_id, offer_id
),

located as (
  select
    latest.*,
    countries.currency as country_currency,
  from latest
  join spaces on spaces.space_id = latest.space_id
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
  from located
)

select * from final
