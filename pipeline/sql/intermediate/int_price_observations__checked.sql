-- Every price observation with the first quarantine rule it breaks (null: accepted).
with observations as (
  select * from stg_price_observations
),

spaces as (
  select * from int_spaces__checked where reject_rule is null
),

countries as (
  select * from int_countries__checked where reject_rule is null
),

fx as (
  select * from stg_fx_reference
),

snapshot as (
  select * from stg_source
),

located as (
  select
    observations.*,
    spaces.space_id as known_space_id,
    countries.currency as country_currency,
    fx.currency as rated_currency,
    observations.amount / fx.units_per_eur as amount_eur,
    spaces.city_id,
    snapshot.extracted_at,
  from observations
  left join spaces on spaces.space_id = observations.space_id
  left join countries on countries.country_code = spaces.country_code
  left join fx on fx.currency = observations.currency
  cross join snapshot
),

unit_priced as (
  select
    *,
    -- per desk for offices; an office without a desk count has no comparable unit
    case
      when not is_priced_per_office(option_type) then amount
      when max_capacity >= 1 then amount / max_capacity
    end as unit_amount,
  from located
),

-- what an amount is compared with: the offer's own history in the same currency and period (12,000
-- VES is not 40 times 300 USD, nor 3,600 a year 12 times 300 a month) and its peers in the city
-- (aggregates joined back rather than window functions over 1M+ rows: same figures, less work)
offer_minimums as (
  select space_id, offer_id, currency, billing_period, min(case when amount > 0 then amount end) as offer_min_amount,
  from unit_priced
  group by space_id, offer_id, currency, billing_period
),

peer_medians as (
  select
    city_id,
    option_type,
    billing_period,
    currency,
    median(case when amount > 0 then unit_amount end) as peer_median_unit_amount,
    count(case when amount > 0 then unit_amount end) as peer_count,
  from unit_priced
  group by city_id, option_type, billing_period, currency
),

compared as (
  select
    unit_priced.*,
    offer_minimums.offer_min_amount,
    peer_medians.peer_median_unit_amount,
    peer_medians.peer_count,
  from unit_priced
  left join offer_minimums
    on offer_minimums.space_id is not distinct from unit_priced.space_id
    and offer_minimums.offer_id is not distinct from unit_priced.offer_id
    and offer_minimums.currency is not distinct from unit_priced.currency
    and offer_minimums.billing_period is not distinct from unit_priced.billing_period
  left join peer_medians
    on peer_medians.city_id is not distinct from unit_priced.city_id
    and peer_medians.option_type is not distinct from unit_priced.option_type
    and peer_medians.billing_period is not distinct from unit_priced.billing_period
    and peer_medians.currency is not distinct from unit_priced.currency
),

final as (
  select
    -- (the source's URL and the texts are read by no later model: not stored)
    * exclude (known_space_id, country_currency, rated_currency, amount_eur, city_id, extracted_at, unit_amount, offer_min_amount,
      peer_median_unit_amount, peer_count, source_url, observed_at_text, amount_text, min_capacity_text, max_capacity_text),
    case
      when observation_id is null or observation_id = '' then 'missing_key'
      when known_space_id is null then 'unknown_space'
      when offer_id is null then 'missing_offer'
      when option_type not in ('private_office', 'exclusive_bereich', 'fix_desk', 'flex_desk', 'day_pass',
        'meeting_room', 'virtual_office', 'event_space', 'membership') or option_type is null
        then 'unknown_option_type'
      -- a price on request may leave the period empty; a price may not
      when (billing_period is null and amount_text is not null)
        or billing_period not in ('month', 'day', 'hour', 'week', 'year', 'once')
        then 'unknown_billing_period'
      when observed_at is null then 'bad_date'
      -- observed after the snapshot was taken from its source (source.json extractedAt): a clock or
      -- time zone fault, which would move asOf, the history's months and every figure's age
      when observed_at > extracted_at then 'future_date'
      when amount_text is not null and amount is null then 'bad_amount'
      when amount < 0 then 'negative_amount'
      when amount_text is not null and currency is distinct from country_currency then 'currency_mismatch'
      when amount_text is null and currency is not null and currency <> country_currency then 'currency_mismatch'
      -- no exchange rate in fx_reference.csv: the price can be neither checked in euros (below) nor compared
      when currency is not null and rated_currency is null then 'unknown_currency'
      when (min_capacity_text is not null and not coalesce(min_capacity >= 1, false))
        or (max_capacity_text is not null and not coalesce(max_capacity >= 1, false))
        or min_capacity > max_capacity then 'bad_capacity'
      -- published prices of zero, or beyond any real office (EUR-equivalent ceilings by period)
      when amount = 0 then 'implausible_amount'
      when amount_eur > case billing_period
          when 'hour' then 5000 when 'day' then 10000 when 'week' then 50000
          when 'month' then 250000 when 'year' then 3000000 else 250000 end
        then 'implausible_amount'
      -- per desk, a desk product above 20,000 EUR a month is a typing error, not a price
      -- (an office without a desk count has no per-desk price to check)
      when is_desk_product(option_type) and monthly_factor(billing_period) is not null
        and (not is_priced_per_office(option_type) or max_capacity >= 1)
        and amount_eur * monthly_factor(billing_period)
          / (case when is_priced_per_office(option_type) then max_capacity else 1 end) > 20000
        then 'implausible_amount'
      -- a slipped decimal point: ten times the offer's own lowest observation (same currency and period) ...
      when amount > 10 * offer_min_amount then 'implausible_amount'
      -- ... or twenty times the city's median for the same product, period and currency
      when peer_count >= min_sample_size() and unit_amount > 20 * peer_median_unit_amount then 'implausible_amount'
    end as reject_rule,
  from compared
)

select * from final
