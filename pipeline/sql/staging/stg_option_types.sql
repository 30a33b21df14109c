with source as (
  select * from raw_option_types
),

final as (
  select
    _row as source_row,
    trim(option_type) as option_type,
  from source
)

select * from final
