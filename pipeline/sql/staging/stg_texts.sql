-- Every localized text of the snapshot as a row: the inputs' <field>_<locale> columns unpivoted into
-- (entity_kind, entity_id, locale, field, text): one row per column and input row (unpivot leaves out
-- nulls, hence the coalesce), a blank text as null. The ids are trimmed as the other staging models trim them, so that the texts join by id.
with countries_columns as (
  select upper(trim(country_code)) as entity_id, coalesce(columns('^name_'), '') from raw_countries
),

countries as (
  unpivot countries_columns on columns(* exclude (entity_id)) into name source_column value text
),

cities_columns as (
  select trim(city_id) as entity_id, coalesce(columns('^(name|intro)_'), '') from raw_cities
),

cities as (
  unpivot cities_columns on columns(* exclude (entity_id)) into name source_column value text
),

zones_columns as (
  select trim(zone_id) as entity_id, coalesce(columns('^name_'), '') from raw_zones
),

zones as (
  unpivot zones_columns on columns(* exclude (entity_id)) into name source_column value text
),

operators_columns as (
  select trim(operator_id) as entity_id, coalesce(columns('^(tagline|description)_'), '') from raw_operators
),

operators as (
  unpivot operators_columns on columns(* exclude (entity_id)) into name source_column value text
),

spaces_columns as (
  select trim(space_id) as entity_id, coalesce(columns('^(excerpt|description)_'), '') from raw_spaces
),

spaces as (
  unpivot spaces_columns on columns(* exclude (entity_id)) into name source_column value text
),

amenities_columns as (
  select trim(slug) as entity_id, coalesce(columns('^label_'), '') from raw_amenities
),

amenities as (
  unpivot amenities_columns on columns(* exclude (entity_id)) into name source_column value text
),

option_types_columns as (
  select trim(option_type) as entity_id, coalesce(columns('^label_'), '') from raw_option_types
),

option_types as (
  unpivot option_types_columns on columns(* exclude (entity_id)) into name source_column value text
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
