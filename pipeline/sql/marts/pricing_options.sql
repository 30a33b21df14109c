-- The current pricing options of every listing (latest observation per offer), in display order.
with offers as (
  select * from int_offers__latest
),

spaces as (
  select space_id, space_slug from int_spaces__slugged
),

final as (
  select
    spaces.space_slug as slug,
    offers.offer_id,
    offers.option_type,
    offers.offer_title,
    offers.is_price_on_request,
    offers.billing_period,
    round(offers.amount, 2) as amount,
    offers.currency,
    offers.min_capacity,
    offers.max_capacity,
  from offers
  join spaces on spaces.space_id = offers.space_id
  order by
    slug,
    option_type_rank(offers.option_type),
    offers.amount nulls last,
    billing_period_rank(offers.billing_period),
    offers.offer_id
)

select * from final
