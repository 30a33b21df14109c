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

ranked as (
  select
    *,
    row_number() over (partition by base_slug order by zone_id) as name_rank,
  from based
),

final as (
  select
    zone_id,
    city_id,
    case when name_rank = 1 then base_slug else base_slug || '-' || name_rank end as zone_slug,
    name,
    lat,
    lng,
  from ranked
)

select * from final
