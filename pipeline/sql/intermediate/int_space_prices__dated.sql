-- One price per space and product, today (history_month null: the current offers) and at the end
-- of each month of the history: the unit of every sample (a space counts once per product).
-- Desk products: cheapest monthly price per desk; `all`: cheapest across the desk products;
-- day_pass: cheapest per day; meeting_room: cheapest per hour (today only).
-- observed_at: when the price behind the figure was observed (among equal prices, the latest);
-- priced_type: the option type whose price it is (for `all`, ties then go to the first in option type order).
-- unit_price is an exact decimal (exact_money), as the methodology's rounding rule needs.
with offers as (
  select null::date as history_month, space_id, option_type, amount, billing_period, monthly_price_per_desk, observed_at,
  from int_offers__normalised
  union all
  select history_month, space_id, option_type, amount, billing_period, monthly_price_per_desk, observed_at,
  from int_offers__monthly
),

-- the cheapest price and what goes with it from one arg_min (its key begins with the price): one
-- aggregate state per group instead of a min and an arg_min each
desk_prices as (
  select history_month, space_id, option_type as product_type, cheapest.unit_price, cheapest.observed_at, option_type as priced_type,
  from (
    select history_month, space_id, option_type,
      arg_min({'unit_price': monthly_price_per_desk, 'observed_at': observed_at}, (monthly_price_per_desk, -epoch(observed_at))) as cheapest,
    from offers
    where monthly_price_per_desk is not null
    group by history_month, space_id, option_type
  )
),

overall_prices as (
  select history_month, space_id, 'all' as product_type, cheapest.unit_price, cheapest.observed_at, cheapest.priced_type,
  from (
    select history_month, space_id,
      arg_min({'unit_price': monthly_price_per_desk, 'observed_at': observed_at, 'priced_type': option_type},
        (monthly_price_per_desk, -epoch(observed_at), option_type_rank(option_type))) as cheapest,
    from offers
    where monthly_price_per_desk is not null
    group by history_month, space_id
  )
),

per_use_prices as (
  select history_month, space_id, option_type as product_type, min(exact_money(amount)) as unit_price,
    arg_min(observed_at, (amount, -epoch(observed_at))) as observed_at, option_type as priced_type,
  from offers
  where history_month is null and amount is not null
    and ((option_type = 'day_pass' and billing_period = 'day')
      or (option_type = 'meeting_room' and billing_period = 'hour'))
  group by history_month, space_id, option_type
),

final as (
  select * from desk_prices
  union all select * from overall_prices
  union all select * from per_use_prices
)

select * from final
