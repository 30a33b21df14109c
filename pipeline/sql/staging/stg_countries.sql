with source as (
  select * from raw_countries
),

final as (
  select
    _row as source_row,
    upper(trim(country_code)) as country_code,
    nullif(trim(name_en), '') as name_en,
    nullif(trim(name_de), '') as name_de,
    nullif(trim(name_es), '') as name_es,
    upper(trim(currency)) as currency,
  from source
)

select * from final
