-- One row per quarantined input row: the file, its row number (1 = first row after the header) and the rule.
with countries as (select 'countries.csv' as file_name, source_row, reject_rule from int_countries__checked),
cities as (select 'cities.csv' as file_name, source_row, reject_rule from int_cities__checked),
zones as (select 'zones.csv' as file_name, source_row, reject_rule from int_zones__checked),
operators as (select 'operators.csv' as file_name, source_row, reject_rule from int_operators__checked),
spaces as (select 'spaces.csv' as file_name, source_row, reject_rule from int_spaces__checked),
images as (select 'space_images.csv' as file_name, source_row, reject_rule from int_space_images__checked),
observations as (select 'price_observations.csv' as file_name, source_row, reject_rule from int_price_observations__checked),

unioned as (
  select * from countries
  union all select * from cities
  union all select * from zones
  union all select * from operators
  union all select * from spaces
  union all select * from images
  union all select * from observations
),

final as (
  select file_name, source_row, reject_rule
  from unioned
  where reject_rule is not null
  order by file_name, source_row
)

select * from final
