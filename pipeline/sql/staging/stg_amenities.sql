with source as (
  select * from raw_amenities
),

final as (
  select
    _row as source_row,
    trim(slug) as amenity_slug,
    coalesce(nullif(trim(label_en), ''), trim(slug)) as label_en,
    coalesce(nullif(trim(label_de), ''), nullif(trim(label_en), ''), trim(slug)) as label_de,
    coalesce(nullif(trim(label_es), ''), nullif(trim(label_en), ''), trim(slug)) as label_es,
  from source
)

select * from final
