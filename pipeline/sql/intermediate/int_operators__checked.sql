with operators as (
  select * from stg_operators
),

final as (
  select
    *,
    case
      when operator_id is null or operator_id = '' then 'missing_key'
      when operator_name is null then 'missing_name'
    end as reject_rule,
  from operators
)

select * from final
