with source as (
  select * from raw_price_observations
),

final as (
  select
    _row as source_row,
    trim(observation_id) as observation_id,
    trim(space_id) as space_id,
    nullif(trim(offer_id), '') as offer_id,
    trim(option_type) as option_type,
    coalesce(trim(title), '') as offer_title,
    nullif(trim(amount), '') as amount_text,
    try_cast(trim(amount) as double) as amount,
    nullif(upper(trim(currency)), '') as currency,
    nullif(lower(trim(billing_period)), '') as billing_period,
    nullif(trim(min_capacity), '') as min_capacity_text,
    nullif(trim(max_capacity), '') as max_capacity_text,
    try_cast(min_capacity as integer) as min_capacity,
    try_cast(max_capacity as integer) as max_capacity,
    nullif(trim(observed_at), '') as observed_at_text,
    try_cast(trim(observed_at) as timestamptz) as observed_at,
    nullif(trim(source_url), '') as source_url,
  from source
)

select * from final
