-- Best-of score within each city (pipeline/methodology.md, "Ranking score"; the weights and constants are
-- contract/rules.ts's, as macros):
--   score = ranking_score(rating, value, amenities) = 100 × the weighted sum, each term in 0..1
--   rating    = Bayesian average (prior: the city's mean rating, weight rating_prior_reviews() reviews) ÷ 5;
--               neutral_term() for everyone when the city has no review data
--   value     = min(city median ÷ own monthly per-desk price, value_cap()) ÷ value_cap(); neutral_term() without a price
--               or without a published city median. Both sides on the same comparable basis: month,
--               week and year prices as their monthly equivalent, per desk; day, hour and one-off
--               prices and non-desk products left out (int_space_prices__cheapest)
-- entry price: the listing's fromPrice with its billing period
--   amenities = own amenity count ÷ the city's largest amenity count (0 when none)
with spaces as (
  select * from int_spaces__slugged
),

cities as (
  select * from int_cities__slugged
),

prices as (
  select * from int_space_prices__cheapest where product_type = 'all'
),

city_figures as (
  select * from int_place_prices__aggregated
  where place_kind = 'city' and product_type = 'all' and is_published
),

from_prices as (
  select * from int_space_prices__from where product_type = 'all'
),

city_reviews as (
  select
    city_id,
    sum(case when rating_count > 0 then rating_count else 0 end) as review_count,
    sum(case when rating_count > 0 then (rating_score * rating_count)::decimal(38, 6) else 0 end)::double
      / nullif(sum(case when rating_count > 0 then rating_count else 0 end), 0) as mean_rating,
    max(len(amenity_slugs)) as max_amenity_count,
  from spaces
  group by city_id
),

terms as (
  select
    spaces.space_id,
    spaces.space_slug,
    spaces.space_name,
    spaces.city_id,
    cities.city_slug,
    len(spaces.amenity_slugs)::integer as amenity_count,
    spaces.rating_score,
    spaces.rating_count,
    coalesce(city_reviews.review_count, 0) > 0 as has_review_data,
    case
      when coalesce(city_reviews.review_count, 0) = 0 then neutral_term()
      else (rating_prior_reviews() * city_reviews.mean_rating + coalesce(spaces.rating_score * spaces.rating_count, 0))
        / (rating_prior_reviews() + coalesce(spaces.rating_count, 0)) / 5
    end as rating_term,
    case
      when prices.unit_price > 0 and city_figures.median_price is not null
        then least(city_figures.median_price / prices.unit_price, value_cap()) / value_cap()
      else neutral_term()
    end as value_term,
    coalesce(len(spaces.amenity_slugs) / nullif(city_reviews.max_amenity_count, 0), 0) as amenity_term,
    from_prices.amount as entry_amount,
    from_prices.currency as entry_currency,
    from_prices.billing_period as entry_billing_period,
  from spaces
  join cities on cities.city_id = spaces.city_id
  left join city_reviews on city_reviews.city_id = spaces.city_id
  left join prices on prices.space_id = spaces.space_id
  left join city_figures on city_figures.place_id = spaces.city_id
  left join from_prices on from_prices.space_id = spaces.space_id
),

final as (
  select
    city_slug,
    space_slug as slug,
    space_name as title,
    round(ranking_score(rating_term, value_term, amenity_term), 2) as score,
    amenity_count,
    round(entry_amount, 2) as entry_amount,
    entry_currency,
    entry_billing_period,
    has_review_data,
    rating_score,
    rating_count,
  from terms
  order by city_slug, score desc, slug
)

select * from final
