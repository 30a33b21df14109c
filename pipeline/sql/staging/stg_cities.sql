with source as (
  select * from raw_cities
),

final as (
  select
    _row as source_row,
    trim(city_id) as city_id,
    upper(trim(country_code)) as country_code,
    nullif(trim(name_en), '') as name_en,
    nullif(trim(name_de), '') as name_de,
    nullif(trim(name_es), '') as name_es,
    try_cast(lat as double) as lat,
    try_cast(lng as double) as lng,
    coalesce(try_cast(population as bigint), 0) as population,
    nullif(trim(intro_en), '') as intro_en,
    nullif(trim(intro_de), '') as intro_de,
    nullif(trim(intro_es), '') as intro_es,
  from source
)

select * from final
