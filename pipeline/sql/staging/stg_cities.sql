with source as (
  select * from raw_cities
),

final as (
  select
    _row as source_row,
    trim(city_id) as city_id,
    upper(trim(country_code)) as country_code,
    try_cast(lat as double) as lat,
    try_cast(lng as double) as lng,
    coalesce(try_cast(population as bigint), 0) as population,
  from source
)

select * from final
