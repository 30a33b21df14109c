with source as (
  select * from raw_fx_reference
),

final as (
  select
    _row as source_row,
    upper(trim(currency)) as currency,
    try_cast(units_per_eur as double) as units_per_eur,
    try_cast(as_of_date as date) as as_of_date,
  from source
)

select * from final
