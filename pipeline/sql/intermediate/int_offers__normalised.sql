-- Current offers with their monthly and per-desk figures (DESIGN.md §3).
with offers as (
  select * from int_offers__latest
),

fx as (
  select * from stg_fx_reference
),

final as (
  select
    offers.*,
    offers.amount * monthly_factor(offers.billing_period) as monthly_amount,
    monthly_price_per_desk(offers.option_type, offers.amount, offers.billing_period, offers.max_capacity)
      as monthly_price_per_desk,
    round(offers.amount / fx.units_per_eur, 4) as sort_amount_eur,
  from offers
  left join fx on fx.currency = offers.currency
)

select * from final
