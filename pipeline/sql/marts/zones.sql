with zones as (
  select * from int_zones__slugged
),

cities as (
  select * from int_cities__slugged
),

countries as (
  select * from int_countries__slugged
),

hubs as (
  select * exclude (place_kind) from int_places__hub_figures where place_kind = 'zone'
),

final as (
  select
    zones.*,
    cities.city_slug,
    countries.currency,
    hubs.* exclude (place_id),
  from zones
  join cities on cities.city_id = zones.city_id
  join countries on countries.country_code = cities.country_code
  join hubs on hubs.place_id = zones.zone_id
  order by cities.city_slug, zones.zone_slug
)

select * from final
