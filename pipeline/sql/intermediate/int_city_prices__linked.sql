-- The links of the history's chained matched-model index (a Jevons index): per city, product and month, the
-- spaces priced at the end of both this month and the month before, each at the price its sample uses (its
-- cheapest monthly price per desk, as the median), their number and the mean of their log price relatives
-- (the log of the geometric mean of the relatives). A space is the same item in both months only when its price is
-- of the same option type: for `all`, a space whose cheapest desk product changed (it added flex desks below its
-- offices' price) is not compared, as a matched model leaves out an item whose quality changed. price_history
-- chains the links.
with prices as (
  select history_month, space_id, product_type, priced_type, unit_price,
  from int_space_prices__dated
  where history_month is not null
),

spaces as (
  select space_id, city_id from int_spaces__slugged
),

final as (
  select
    this_month.history_month,
    spaces.city_id,
    this_month.product_type,
    count(*)::integer as matched_spaces,
    -- summed as decimals: a float sum depends on the threads' order, and a rebuild must give the same bytes
    (sum(ln(this_month.unit_price::double / month_before.unit_price::double)::decimal(38, 18)) / count(*))::decimal(38, 18)
      as mean_log_relative,
  from prices as this_month
  join prices as month_before
    on month_before.space_id = this_month.space_id
    and month_before.product_type = this_month.product_type
    and month_before.priced_type = this_month.priced_type
    and month_before.history_month = (this_month.history_month - interval 1 month)::date
  join spaces on spaces.space_id = this_month.space_id
  group by this_month.history_month, spaces.city_id, this_month.product_type
)

select * from final
