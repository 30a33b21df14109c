-- Every localized text of the snapshot as a row: the inputs' <field>_<locale> columns unpivoted into
-- (entity_kind, entity_id, locale, field, text): one row per column and input row (unpivot leaves out
-- nulls, hence the coalesce), a blank text as null. The ids are trimmed as the other staging models trim them, so that the texts join by id.
with countries as (
  unpivot (select upper(trim(country_code)) as entity_id, coalesce(columns('^name_'), '') from raw_countries)
  on columns(* exclude (entity_id)) into name source_column value text
),

cities as (
  unpivot (select trim(city_id) as entity_id, coalesce(columns('^(name|intro)_'), '') from raw_cities)
  on columns(* exclude (entity_id)) into name source_column value text
),

zones as (
  unpivot (select trim(zone_id) as entity_id, coalesce(columns('^name_'), '') from raw_zones)
  on columns(* exclude (entity_id)) into name source_column value text
),

operators as (
  unpivot (select trim(operator_id) as entity_id, coalesce(columns('^(tagline|description)_'), '') from raw_operators)
  on columns(* exclude (entity_id)) into name source_column value text
),

spaces as (
  unpivot (select trim(space_id) as entity_id, coalesce(columns('^(excerpt|description)_'), '') from raw_spaces)
  on columns(* exclude (entity_id)) into name source_column value text
),

amenities as (
  unpivot (select trim(slug) as entity_id, coalesce(columns('^label_'), '') from raw_amenities)
  on columns(* exclude (entity_id)) into name source_column value text
),

option_types as (
  unpivot (select trim(option_type) as entity_id, coalesce(columns('^label_'), '') from raw_option_types)
  on columns(* exclude (entity_id)) into name source_column value text
),

texts as (
  select 'country' as entity_kind, * from countries
  union all select 'city', * from cities
  union all select 'zone', * from zones
  union all select 'operator', * from operators
  union all select 'space', * from spaces
  union all select 'amenity', * from amenities
  union all select 'option_type', * from option_types
),

final as (
  select
    entity_kind,
    entity_id,
    regexp_extract(source_column, '_([a-z]+)$', 1) as locale,
    regexp_extract(source_column, '^(.+)_[a-z]+$', 1) as field,
    nullif(trim(text), '') as text,
  from texts
)

select * from final
