-- Sample size, figures and the publish decision per place and product today
-- (int_place_prices__dated without the history).
with figures as (
  select * from int_place_prices__dated
),

final as (
  select * exclude (history_month) from figures where history_month is null
)

select * from final
