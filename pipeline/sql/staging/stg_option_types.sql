with source as (
  select * from raw_option_types
),

final as (
  select
    _row as source_row,
    trim(option_type) as option_type,
    coalesce(nullif(trim(label_en), ''), trim(option_type)) as label_en,
    coalesce(nullif(trim(label_de), ''), nullif(trim(label_en), ''), trim(option_type)) as label_de,
    coalesce(nullif(trim(label_es), ''), nullif(trim(label_en), ''), trim(option_type)) as label_es,
  from source
)

select * from final
