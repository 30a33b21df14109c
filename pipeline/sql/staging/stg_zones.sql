with source as (
  select * from raw_zones
),

final as (
  select
    _row as source_row,
    trim(zone_id) as zone_id,
    trim(city_id) as city_id,
    nullif(trim(lat), '') as lat_text,
    nullif(trim(lng), '') as lng_text,
    try_cast(lat as double) as lat,
    try_cast(lng as double) as lng,
  from source
)

select * from final
