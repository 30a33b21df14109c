with spaces as (
  select * from int_spaces__checked where reject_rule is null
),

cities as (
  select * from int_cities__slugged
),

based as (
  select
    spaces.*,
    cities.city_slug,
    coalesce(nullif(slugify(spaces.space_name), ''), 'space') as base_slug,
  from spaces
  join cities on cities.city_id = spaces.city_id
),

ranked as (
  select
    *,
    row_number() over (partition by base_slug order by space_id) as name_rank,
  from based
),

candidates as (
  -- a repeated name keeps the plain slug once and gets its city slug appended after that;
  -- `map` is reserved (it would shadow /v1/properties/map)
  select
    *,
    case when name_rank = 1 and base_slug <> 'map' then base_slug
      else base_slug || '-' || city_slug end as candidate_slug,
  from ranked
),

claims as (
  -- still taken (same name in the same city, or a name that already ends in the city): a counter
  select space_id as id, candidate_slug, (name_rank <> 1, space_id) as claim, true as keeps,
  from candidates
),

final as (
  select
    candidates.* exclude (base_slug, name_rank, candidate_slug, reject_rule),
    slugs.slug as space_slug,
  from candidates
  join unique_slugs(claims) as slugs on slugs.id = candidates.space_id
)

select * from final
