-- One price per space and product today (int_space_prices__dated without the history).
with prices as (
  select * from int_space_prices__dated
),

final as (
  select * exclude (history_month) from prices where history_month is null
)

select * from final
