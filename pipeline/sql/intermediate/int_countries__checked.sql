-- Every country row with the first quarantine rule it breaks (null: accepted).
with countries as (
  select * from stg_countries
),

final as (
  select
    *,
    case
      when country_code is null or country_code = '' then 'missing_key'
      when not regexp_full_match(country_code, '[A-Z]{2}') then 'bad_country_code'
      when name_en is null then 'missing_name'
      when currency not in ('EUR', 'GBP', 'USD', 'CHF', 'VES', 'AED') then 'unknown_currency'
    end as reject_rule,
  from countries
)

select * from final
