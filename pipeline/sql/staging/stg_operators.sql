with source as (
  select * from raw_operators
),

final as (
  select
    _row as source_row,
    trim(operator_id) as operator_id,
    nullif(trim(name), '') as operator_name,
    nullif(trim(logo_path), '') as logo_path,
    nullif(trim(website), '') as website,
    nullif(trim(enquiry_email), '') as enquiry_email,
  from source
)

select * from final
