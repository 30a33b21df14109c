with source as (
  select * from raw_countries
),

final as (
  select
    _row as source_row,
    upper(trim(country_code)) as country_code,
    upper(trim(currency)) as currency,
  from source
)

select * from final
