-- The bulk download's listings (listings.parquet, listings.csv): one row per published listing with
-- its place, operator and coordinates, in the listings' own order (place, then slug: a total order,
-- so the same data writes the same bytes).
with published as (
  select * from listings
),

final as (
  select
    slug,
    title as name,
    country_code,
    country_slug,
    city_slug,
    zone_slug,
    operator_slug,
    operator_name,
    lat,
    lng,
    capacity,
    updated_at,
  from published
  order by country_slug, city_slug, zone_slug nulls first, slug
)

select * from final
