with source as (
  select * from raw_amenities
),

final as (
  select
    _row as source_row,
    trim(slug) as amenity_slug,
  from source
)

select * from final
