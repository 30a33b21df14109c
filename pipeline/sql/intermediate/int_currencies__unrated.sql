-- The currencies of price observations that fx_reference.csv has no rate for (quarantined as
-- unknown_currency), with their rows: the run summary names them.
with observations as (
  select * from int_price_observations__checked where reject_rule = 'unknown_currency'
),

final as (
  select
    currency,
    count(*)::integer as observations,
  from observations
  group by currency
  order by currency
)

select * from final
