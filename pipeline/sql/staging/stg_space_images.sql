with source as (
  select * from raw_space_images
),

final as (
  select
    _row as source_row,
    trim(space_id) as space_id,
    try_cast(position as integer) as image_position,
    trim(path) as image_path,
    try_cast(width as integer) as width_px,
    try_cast(height as integer) as height_px,
    coalesce(alt, '') as alt_text,
  from source
)

select * from final
