with zones as (
  select * from stg_zones
),

cities as (
  select * from int_cities__checked where reject_rule is null
),

final as (
  select
    zones.*,
    case
      when zones.zone_id is null or zones.zone_id = '' then 'missing_key'
      when cities.city_id is null then 'unknown_city'
      when zones.name_en is null then 'missing_name'
      -- a zone centre is optional, but when given both halves must be valid
      when (zones.lat_text is not null or zones.lng_text is not null)
        and not (is_valid_lat(zones.lat) and is_valid_lng(zones.lng)) then 'bad_coordinates'
    end as reject_rule,
  from zones
  left join cities on cities.city_id = zones.city_id
)

select * from final
