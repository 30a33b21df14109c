with zones as (
  select * from int_zones__slugged
),

cities as (
  select * from int_cities__slugged
),

countries as (
  select * from int_countries__slugged
),

spaces as (
  select * from int_spaces__slugged
),

figures as (
  select * from int_place_prices__aggregated where place_kind = 'zone' and product_type = 'all'
),

counts as (
  select
    zone_id,
    count(*)::integer as property_count,
    count(distinct operator_id)::integer as operator_count,
    count(operator_id)::integer as operated_count,
  from spaces
  where zone_id is not null
  group by zone_id
),

final as (
  select
    zones.*,
    cities.city_slug,
    countries.currency,
    coalesce(counts.property_count, 0) as property_count,
    coalesce(counts.operator_count, 0) as operator_count,
    coalesce(counts.operated_count, 0) as operated_count,
    -- hubs publish the median and the price range only with the sample's publish decision
    coalesce(figures.sample_size, 0) as sample_size,
    coalesce(figures.is_published, false) as is_published,
    case when figures.is_published then round(figures.median_price, 2) end as median_price,
    case when figures.is_published then round(figures.min_price, 2) end as min_price,
    case when figures.is_published then round(figures.max_price, 2) end as max_price,
  from zones
  join cities on cities.city_id = zones.city_id
  join countries on countries.country_code = cities.country_code
  left join counts on counts.zone_id = zones.zone_id
  left join figures on figures.place_id = zones.zone_id
  order by cities.city_slug, zones.zone_slug
)

select * from final
