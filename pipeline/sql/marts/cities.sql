with cities as (
  select * from int_cities__slugged
),

countries as (
  select * from int_countries__slugged
),

hubs as (
  select * exclude (place_kind) from int_places__hub_figures where place_kind = 'city'
),

final as (
  select
    cities.*,
    countries.country_slug,
    countries.currency,
    hubs.* exclude (place_id),
  from cities
  join countries on countries.country_code = cities.country_code
  join hubs on hubs.place_id = cities.city_id
  order by cities.city_slug
)

select * from final
