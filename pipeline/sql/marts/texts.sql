-- The texts of the build files (int_texts__localized) by the slug of what they name: one row per
-- published country, city, zone and operator, amenity and option type, field and locale. The
-- listings' own texts are joined by space_id where the listing files are written (listing-rows.ts).
with texts as (
  select * from int_texts__localized
),

slugs as (
  select 'country' as entity_kind, country_code as entity_id, country_slug as slug from int_countries__slugged
  union all select 'city', city_id, city_slug from int_cities__slugged
  union all select 'zone', zone_id, zone_slug from int_zones__slugged
  union all select 'operator', operator_id, operator_slug from int_operators__slugged
  union all select 'amenity', amenity_slug, amenity_slug from stg_amenities
  union all select 'option_type', option_type, option_type from stg_option_types
),

final as (
  select
    slugs.entity_kind,
    slugs.slug,
    texts.locale,
    texts.field,
    texts.text,
  from slugs
  join texts on texts.entity_kind = slugs.entity_kind and texts.entity_id = slugs.entity_id
  order by slugs.entity_kind, slugs.slug, texts.field, texts.locale
)

select * from final
