with cities as (
  select * from stg_cities
),

countries as (
  select * from int_countries__checked where reject_rule is null
),

final as (
  select
    cities.*,
    case
      when cities.city_id is null or cities.city_id = '' then 'missing_key'
      when countries.country_code is null then 'unknown_country'
      when cities.name_en is null then 'missing_name'
      -- a city needs a real centre: it is published as geo.cities[].center
      when not (is_valid_lat(cities.lat) and is_valid_lng(cities.lng)) then 'bad_coordinates'
    end as reject_rule,
  from cities
  left join countries on countries.country_code = cities.country_code
)

select * from final
