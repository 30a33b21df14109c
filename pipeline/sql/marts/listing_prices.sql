-- Per listing and product (`all` or an option type): fromPrice, the comparable price and marketPosition.
with from_prices as (
  select * from int_space_prices__from
),

comparable_prices as (
  select * from int_space_prices__comparable
),

positions as (
  select * from int_space_prices__positioned
),

spaces as (
  select space_id, space_slug, country_code from int_spaces__slugged
),

countries as (
  select country_code, currency from int_countries__slugged
),

located_spaces as (
  select spaces.space_id, spaces.space_slug, countries.currency,
  from spaces
  join countries on countries.country_code = spaces.country_code
),

joined as (
  select
    coalesce(from_prices.space_id, positions.space_id) as space_id,
    coalesce(from_prices.product_type, positions.product_type) as product_type,
    from_prices.amount as from_amount,
    from_prices.currency as from_currency,
    from_prices.billing_period as from_billing_period,
    positions.verdict,
    published_money(positions.city_median) as city_median,
    positions.city_sample_size,
  from from_prices
  full outer join positions
    on positions.space_id = from_prices.space_id and positions.product_type = from_prices.product_type
),

final as (
  select
    located_spaces.space_slug as slug,
    joined.product_type,
    round(joined.from_amount, 2) as from_amount,
    joined.from_currency,
    joined.from_billing_period,
    comparable_prices.comparable_basis,
    comparable_prices.comparable_amount,
    comparable_prices.comparable_currency,
    comparable_prices.comparable_eur,
    joined.verdict,
    joined.city_median,
    located_spaces.currency as city_currency,
    joined.city_sample_size,
  from joined
  join located_spaces on located_spaces.space_id = joined.space_id
  left join comparable_prices
    on comparable_prices.space_id = joined.space_id and comparable_prices.product_type = joined.product_type
  order by slug, option_type_rank(joined.product_type) nulls first
)

select * from final
