-- fromPrice: the cheapest published price of a space (any period), overall and per option type.
with offers as (
  select * from int_offers__normalised where amount is not null
),

ranked_overall as (
  select
    space_id, 'all' as product_type, amount, currency, billing_period,
    row_number() over (
      partition by space_id
      order by amount, billing_period_rank(billing_period), option_type_rank(option_type), offer_id
    ) as price_rank,
  from offers
),

ranked_by_type as (
  select
    space_id, option_type as product_type, amount, currency, billing_period,
    row_number() over (
      partition by space_id, option_type
      order by amount, billing_period_rank(billing_period), offer_id
    ) as price_rank,
  from offers
),

final as (
  select * exclude (price_rank) from ranked_overall where price_rank = 1
  union all
  select * exclude (price_rank) from ranked_by_type where price_rank = 1
)

select * from final
