-- Current offers with their monthly, per-desk and comparable figures (docs/design.md §3).
with offers as (
  select * from int_offers__latest
),

fx as (
  select * from stg_fx_reference
),

final as (
  select
    offers.*,
    monthly_equivalent(offers.amount, offers.billing_period) as monthly_amount,
    monthly_price_per_desk(offers.option_type, offers.amount, offers.billing_period, offers.max_capacity)
      as monthly_price_per_desk,
    -- the comparable price (contract/prices.ts): month, week and year as their monthly equivalent,
    -- day, hour and once as they are; in the offer's currency, and in EUR through the FX table
    price_basis(offers.billing_period) as price_basis,
    round(coalesce(monthly_equivalent(offers.amount, offers.billing_period), offers.amount), 2) as comparable_amount,
    round(coalesce(monthly_equivalent(offers.amount, offers.billing_period), offers.amount) / fx.units_per_eur, 4) as comparable_eur,
  from offers
  left join fx on fx.currency = offers.currency
)

select * from final
