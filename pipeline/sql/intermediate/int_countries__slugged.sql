with countries as (
  select * from int_countries__checked where reject_rule is null
),

based as (
  select
    *,
    coalesce(nullif(slugify(name), ''), lower(country_code)) as base_slug,
  from countries
),

ranked as (
  select
    *,
    row_number() over (partition by base_slug order by country_code) as name_rank,
  from based
),

final as (
  select
    country_code,
    -- `map` is reserved; a repeated name keeps the plain slug once, the others get the code
    case when name_rank = 1 and base_slug <> 'map' then base_slug
      else base_slug || '-' || lower(country_code) end as country_slug,
    name,
    currency,
  from ranked
)

select * from final
