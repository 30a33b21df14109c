-- One row per published listing (accepted space), in place order: the base of listing cards,
-- property details, listing facts, lead routing and the suggest index. The names and texts are
-- not here: the listing files and the suggest index read them per locale (texts, int_texts__localized).
with spaces as (
  select * from int_spaces__slugged
),

countries as (
  select * from int_countries__slugged
),

cities as (
  select * from int_cities__slugged
),

zones as (
  select * from int_zones__slugged
),

operators as (
  select * from int_operators__slugged
),

images as (
  select * from int_space_images__checked where reject_rule is null
),

offers as (
  select * from int_offers__latest
),

-- (an ordered aggregate, list(… order by …), is several times slower than sorting each small
-- list afterwards: the sort keys lead the struct, then are dropped)
image_lists as (
  select
    space_id,
    list_transform(
      list_sort(list({ 'position': image_position, 'row': source_row, 'url': image_path, 'width': width_px,
        'height': height_px, 'alt': alt_text })),
      i -> { 'url': i.url, 'width': i.width, 'height': i.height, 'alt': i.alt }
    ) as images,
  from images
  group by space_id
),

option_type_lists as (
  select
    space_id,
    list_transform(list_sort(list(distinct option_type_rank(option_type))), r -> option_type_of_rank(r)) as option_types,
  from offers
  group by space_id
),

final as (
  select
    spaces.space_id,
    spaces.space_slug as slug,
    -- the listing index of every build file (listing-columns.bin, the NDJSON lines): listings by
    -- country, city, zone, then slug, so each place's listings are one range of indices
    (row_number() over (order by countries.country_slug, cities.city_slug, zones.zone_slug nulls first, spaces.space_slug) - 1)::integer as position,
    spaces.space_name as title,
    spaces.country_code,
    countries.country_slug,
    cities.city_slug,
    zones.zone_slug,
    operators.operator_slug,
    operators.operator_name,
    operators.logo_path as operator_logo_path,
    operators.enquiry_email,
    spaces.lat,
    spaces.lng,
    spaces.street,
    spaces.house_number,
    spaces.postal_code,
    spaces.amenity_slugs,
    spaces.capacity,
    case
      when spaces.capacity is null then null
      when spaces.is_capacity_declared then 'confirmed'
      else 'possible_undeclared'
    end as capacity_status,
    iso_utc(spaces.updated_at) as updated_at,
    spaces.rating_score,
    spaces.rating_count,
    spaces.is_featured,
    coalesce(image_lists.images, []) as images,
    coalesce(option_type_lists.option_types, []) as option_types,
  from spaces
  join countries on countries.country_code = spaces.country_code
  join cities on cities.city_id = spaces.city_id
  left join zones on zones.zone_id = spaces.zone_id
  left join operators on operators.operator_id = spaces.operator_id
  left join image_lists on image_lists.space_id = spaces.space_id
  left join option_type_lists on option_type_lists.space_id = spaces.space_id
  order by position
)

select * from final
