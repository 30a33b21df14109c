-- The comparable price of a space, overall (`all`) and per option type (contract/prices.ts): of its
-- priced offers, those on the first basis in the product's order (its own basis first: monthly
-- overall, per day for day passes, per hour for meeting rooms …), the cheapest in EUR.
-- price-asc sorts on it; minPrice/maxPrice and the facets' priceRange read it when it is on the
-- product's basis.
with offers as (
  select * from int_offers__normalised where amount is not null and comparable_eur is not null
),

by_product as (
  select space_id, 'all' as product_type, * exclude (space_id) from offers
  union all
  select space_id, option_type as product_type, * exclude (space_id) from offers
),

ranked as (
  select
    *,
    row_number() over (
      partition by space_id, product_type
      order by price_basis_rank(product_type, price_basis), comparable_eur, comparable_amount,
        option_type_rank(option_type), offer_id
    ) as price_rank,
  from by_product
),

final as (
  select
    space_id,
    product_type,
    price_basis as comparable_basis,
    comparable_amount,
    currency as comparable_currency,
    comparable_eur,
  from ranked
  where price_rank = 1
)

select * from final
