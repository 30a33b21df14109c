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
    nullif(trim(tagline_en), '') as tagline_en,
    nullif(trim(tagline_de), '') as tagline_de,
    nullif(trim(tagline_es), '') as tagline_es,
    nullif(trim(description_en), '') as description_en,
    nullif(trim(description_de), '') as description_de,
    nullif(trim(description_es), '') as description_es,
  from source
)

select * from final
