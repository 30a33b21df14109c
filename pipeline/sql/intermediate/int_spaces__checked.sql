with spaces as (
  select * from stg_spaces
),

cities as (
  select * from int_cities__checked where reject_rule is null
),

zones as (
  select * from int_zones__checked where reject_rule is null
),

operators as (
  select * from int_operators__checked where reject_rule is null
),

amenities as (
  select list(amenity_slug) as known_slugs from stg_amenities
),

final as (
  select
    spaces.*,
    cities.country_code,
    case
      when spaces.space_id is null or spaces.space_id = '' then 'missing_key'
      when spaces.space_name is null then 'missing_name'
      when cities.city_id is null then 'unknown_city'
      -- the zone must exist and belong to the space's city
      when spaces.zone_id is not null and zones.zone_id is null then 'unknown_zone'
      when spaces.operator_id is not null and operators.operator_id is null then 'unknown_operator'
      -- coordinates come as a pair or not at all
      when (spaces.lat_text is not null or spaces.lng_text is not null)
        and not (is_valid_lat(spaces.lat) and is_valid_lng(spaces.lng)) then 'bad_coordinates'
      when spaces.capacity_text is not null and (spaces.capacity is null or spaces.capacity < 1) then 'bad_capacity'
      when (spaces.rating_score_text is not null or spaces.rating_count_text is not null)
        and not (spaces.rating_score between 0 and 5 and spaces.rating_count >= 0) then 'bad_rating'
      when coalesce(spaces.featured_text, 'false') not in ('true', 'false')
        or coalesce(spaces.capacity_declared_text, 'false') not in ('true', 'false') then 'bad_flag'
      when spaces.updated_at_text is not null and spaces.updated_at is null then 'bad_date'
      when len(list_filter(spaces.amenity_slugs, a -> not list_contains(amenities.known_slugs, a))) > 0
        then 'unknown_amenity'
    end as reject_rule,
  from spaces
  cross join amenities
  left join cities on cities.city_id = spaces.city_id
  left join zones on zones.zone_id = spaces.zone_id and zones.city_id = spaces.city_id
  left join operators on operators.operator_id = spaces.operator_id
)

select * from final
