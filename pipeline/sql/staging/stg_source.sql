with source as (
  select * from raw_source
),

final as (
  select
    extracted_at::timestamptz as extracted_at,
  from source
)

select * from final
