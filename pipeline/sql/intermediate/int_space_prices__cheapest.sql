-- One price per space and product: the unit of every sample (a space counts once per product).
-- Desk products: cheapest monthly price per desk; `all`: cheapest across the desk products;
-- day_pass: cheapest per day; meeting_room: cheapest per hour.
with offers as (
  select * from int_offers__normalised
),

desk_prices as (
  select space_id, option_type as product_type, min(monthly_price_per_desk) as unit_price,
  from offers
  where monthly_price_per_desk is not null
  group by space_id, option_type
),

overall_prices as (
  select space_id, 'all' as product_type, min(monthly_price_per_desk) as unit_price,
  from offers
  where monthly_price_per_desk is not null
  group by space_id
),

per_use_prices as (
  select space_id, option_type as product_type, min(amount) as unit_price,
  from offers
  where amount is not null
    and ((option_type = 'day_pass' and billing_period = 'day')
      or (option_type = 'meeting_room' and billing_period = 'hour'))
  group by space_id, option_type
),

final as (
  select * from desk_prices
  union all select * from overall_prices
  union all select * from per_use_prices
)

select * from final
