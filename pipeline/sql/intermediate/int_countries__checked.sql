-- Every country row with the first quarantine rule it breaks (null: accepted).
with countries as (
  select * from stg_countries
),

names as (
  -- the name in fallback_locale(): every country must have one, and its slug is made of it
  select entity_id as country_code, text as name from int_texts__localized
  where entity_kind = 'country' and field = 'name' and locale = fallback_locale()
),

final as (
  select
    countries.*,
    names.name,
    case
      when countries.country_code is null or countries.country_code = '' then 'missing_key'
      when not regexp_full_match(countries.country_code, '[A-Z]{2}') then 'bad_country_code'
      when names.name is null then 'missing_name'
      when countries.currency not in ('EUR', 'GBP', 'USD', 'CHF', 'VES', 'AED') then 'unknown_currency'
    end as reject_rule,
  from countries
  left join names on names.country_code = countries.country_code
)

select * from final
