with zones as (
  select * from int_zones__checked where reject_rule is null
),

cities as (
  select * from int_cities__slugged
),

based as (
  select
    zones.*,
    -- zone slugs carry their city, so they are unique across cities (madrid-centro)
    cities.city_slug || '-' || coalesce(nullif(slugify(zones.name), ''), slugify(zones.zone_id)) as base_slug,
  from zones
  join cities on cities.city_id = zones.city_id
),

claims as (
  select zone_id as id, base_slug as candidate_slug, zone_id as claim, true as keeps,
  from based
),

final as (
  select
    based.zone_id,
    based.city_id,
    slugs.slug as zone_slug,
    based.name,
    based.lat,
    based.lng,
  from based
  join unique_slugs(claims) as slugs on slugs.id = based.zone_id
)

select * from final
