-- The long texts of a space (excerpt, description in en/de/es), kept apart from stg_spaces so that
-- they are not copied through every model: the listing files join them in by space_id at the end.
with source as (
  select * from raw_spaces
),

final as (
  select
    trim(space_id) as space_id,
    nullif(trim(excerpt_en), '') as excerpt_en,
    nullif(trim(excerpt_de), '') as excerpt_de,
    nullif(trim(excerpt_es), '') as excerpt_es,
    nullif(trim(description_en), '') as description_en,
    nullif(trim(description_de), '') as description_de,
    nullif(trim(description_es), '') as description_es,
  from source
)

select * from final
