-- The excerpts and descriptions are left out here (stg_texts): they are the bulk of the table and
-- are joined in only when the listing files are written.
with source as (
  select * from raw_spaces
),

final as (
  select
    _row as source_row,
    trim(space_id) as space_id,
    nullif(trim(name), '') as space_name,
    nullif(trim(operator_id), '') as operator_id,
    trim(city_id) as city_id,
    nullif(trim(zone_id), '') as zone_id,
    coalesce(trim(street), '') as street,
    coalesce(trim(house_number), '') as house_number,
    coalesce(trim(postal_code), '') as postal_code,
    nullif(trim(lat), '') as lat_text,
    nullif(trim(lng), '') as lng_text,
    try_cast(lat as double) as lat,
    try_cast(lng as double) as lng,
    list_sort(list_distinct(list_filter(
      list_transform(string_split(coalesce(amenities, ''), ';'), a -> trim(a)),
      a -> a <> ''
    ))) as amenity_slugs,
    nullif(trim(capacity), '') as capacity_text,
    try_cast(capacity as integer) as capacity,
    lower(nullif(trim(capacity_declared), '')) as capacity_declared_text,
    lower(trim(capacity_declared)) = 'true' as is_capacity_declared,
    nullif(trim(rating_score), '') as rating_score_text,
    nullif(trim(rating_count), '') as rating_count_text,
    try_cast(rating_score as double) as rating_score,
    try_cast(rating_count as integer) as rating_count,
    lower(nullif(trim(featured), '')) as featured_text,
    lower(trim(featured)) = 'true' as is_featured,
    nullif(trim(updated_at), '') as updated_at_text,
    try_cast(trim(updated_at) as timestamptz) as updated_at,
  from source
)

select * from final
