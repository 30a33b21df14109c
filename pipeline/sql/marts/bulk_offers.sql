-- The bulk download's offers (offers.parquet, offers.csv): one row per current offer of a published
-- listing, with the listing's place, operator and coordinates, the offer as published, and its
-- comparable figures: the monthly price per desk the price index uses, and the comparable amount
-- (int_offers__normalised) in the offer's currency and in EUR. In the listings' order, each
-- listing's offers as its page shows them (marts/pricing_options.sql), offer_id last: a total order.
with offers as (
  select * from int_offers__normalised
),

published as (
  select * from listings
),

final as (
  select
    published.slug,
    offers.offer_id,
    published.country_code,
    published.country_slug,
    published.city_slug,
    published.zone_slug,
    published.operator_slug,
    published.operator_name,
    published.lat,
    published.lng,
    offers.option_type,
    offers.offer_title,
    offers.billing_period,
    round(offers.amount, 2) as amount,
    offers.currency,
    offers.is_price_on_request as price_on_request,
    offers.min_capacity,
    offers.max_capacity,
    published_money(offers.monthly_price_per_desk) as monthly_price_per_desk,
    offers.comparable_amount,
    offers.price_basis as comparable_basis,
    offers.comparable_eur,
    iso_utc(offers.observed_at) as observed_at,
  from offers
  join published on published.space_id = offers.space_id
  order by
    published.country_slug, published.city_slug, published.zone_slug nulls first, published.slug,
    option_type_rank(offers.option_type),
    offers.amount nulls last,
    billing_period_rank(offers.billing_period),
    offers.offer_id
)

select * from final
