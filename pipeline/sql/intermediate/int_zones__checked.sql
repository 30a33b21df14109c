with zones as (
  select * from stg_zones
),

cities as (
  select * from int_cities__checked where reject_rule is null
),

names as (
  -- the name in fallback_locale(): every zone must have one, and its slug is made of it
  select entity_id as zone_id, text as name from int_texts__localized
  where entity_kind = 'zone' and field = 'name' and locale = fallback_locale()
),

final as (
  select
    zones.*,
    names.name,
    case
      when zones.zone_id is null or zones.zone_id = '' then 'missing_key'
      when cities.city_id is null then 'unknown_city'
      when names.name is null then 'missing_name'
      -- a zone centre is optional, but when given both halves must be valid
      when (zones.lat_text is not null or zones.lng_text is not null)
        and not (is_valid_lat(zones.lat) and is_valid_lng(zones.lng)) then 'bad_coordinates'
    end as reject_rule,
  from zones
  left join cities on cities.city_id = zones.city_id
  left join names on names.zone_id = zones.zone_id
)

select * from final
