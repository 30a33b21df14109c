with cities as (
  select * from stg_cities
),

countries as (
  select * from int_countries__checked where reject_rule is null
),

names as (
  -- the name in fallback_locale(): every city must have one, and its slug is made of it
  select entity_id as city_id, text as name from int_texts__localized
  where entity_kind = 'city' and field = 'name' and locale = fallback_locale()
),

final as (
  select
    cities.*,
    names.name,
    case
      when cities.city_id is null or cities.city_id = '' then 'missing_key'
      when countries.country_code is null then 'unknown_country'
      when names.name is null then 'missing_name'
      -- a city needs a real centre: it is published as geo.cities[].center
      when not (is_valid_lat(cities.lat) and is_valid_lng(cities.lng)) then 'bad_coordinates'
    end as reject_rule,
  from cities
  left join countries on countries.country_code = cities.country_code
  left join names on names.city_id = cities.city_id
)

select * from final
