-- What the hub of each place (country, city, zone) publishes about it: its listings, their
-- operators and, with the sample's publish decision, the median and the price range of its
-- spaces over every product. Places without a listing count 0.
with places as (
  select 'country' as place_kind, country_code as place_id from int_countries__slugged
  union all
  select 'city', city_id from int_cities__slugged
  union all
  select 'zone', zone_id from int_zones__slugged
),

spaces as (
  select * from int_spaces__slugged
),

located as (
  select 'country' as place_kind, country_code as place_id, operator_id from spaces
  union all
  select 'city', city_id, operator_id from spaces
  union all
  select 'zone', zone_id, operator_id from spaces where zone_id is not null
),

counts as (
  select
    place_kind,
    place_id,
    count(*)::integer as property_count,
    count(distinct operator_id)::integer as operator_count,
    count(operator_id)::integer as operated_count,
  from located
  group by place_kind, place_id
),

figures as (
  select * from int_place_prices__aggregated where product_type = 'all'
),

final as (
  select
    places.place_kind,
    places.place_id,
    coalesce(counts.property_count, 0) as property_count,
    coalesce(counts.operator_count, 0) as operator_count,
    coalesce(counts.operated_count, 0) as operated_count,
    coalesce(figures.sample_size, 0) as sample_size,
    coalesce(figures.is_published, false) as is_published,
    case when figures.is_published then published_money(figures.median_price) end as median_price,
    case when figures.is_published then published_money(figures.min_price) end as min_price,
    case when figures.is_published then published_money(figures.max_price) end as max_price,
  from places
  left join counts on counts.place_kind = places.place_kind and counts.place_id = places.place_id
  left join figures on figures.place_kind = places.place_kind and figures.place_id = places.place_id
)

select * from final
