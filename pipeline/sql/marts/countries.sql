with countries as (
  select * from int_countries__slugged
),

hubs as (
  select * exclude (place_kind) from int_places__hub_figures where place_kind = 'country'
),

final as (
  select
    countries.*,
    hubs.* exclude (place_id),
  from countries
  join hubs on hubs.place_id = countries.country_code
  order by countries.country_slug
)

select * from final
