with cities as (
  select * from int_cities__slugged
),

countries as (
  select * from int_countries__slugged
),

spaces as (
  select * from int_spaces__slugged
),

figures as (
  select * from int_place_prices__aggregated where place_kind = 'city' and product_type = 'all'
),

counts as (
  select
    city_id,
    count(*)::integer as property_count,
    count(distinct operator_id)::integer as operator_count,
    count(operator_id)::integer as operated_count,
  from spaces
  group by city_id
),

final as (
  select
    cities.*,
    countries.country_slug,
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
  from cities
  join countries on countries.country_code = cities.country_code
  left join counts on counts.city_id = cities.city_id
  left join figures on figures.place_id = cities.city_id
  order by cities.city_slug
)

select * from final
