with cities as (
  select * from int_cities__checked where reject_rule is null
),

based as (
  select
    *,
    coalesce(nullif(slugify(name), ''), 'city-' || slugify(city_id)) as base_slug,
  from cities
),

ranked as (
  select
    *,
    -- the city of a name the catalogue knew first (the lowest GeoNames id) keeps the plain slug
    -- (valencia, 2509954), the others get their country code (valencia-ve, 3625549): adding a
    -- same-named city later never renames a published one
    row_number() over (
      partition by base_slug order by try_cast(city_id as bigint) nulls last, city_id
    ) as name_rank,
  from based
),

candidates as (
  select
    *,
    case when name_rank = 1 and base_slug <> 'map' then base_slug
      else base_slug || '-' || lower(country_code) end as candidate_slug,
  from ranked
),

claims as (
  select city_id as id, candidate_slug, (name_rank, city_id) as claim, true as keeps,
  from candidates
),

final as (
  select
    candidates.city_id,
    slugs.slug as city_slug,
    candidates.country_code,
    candidates.name,
    candidates.lat,
    candidates.lng,
    candidates.population,
  from candidates
  join unique_slugs(claims) as slugs on slugs.id = candidates.city_id
)

select * from final
