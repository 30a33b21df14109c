with operators as (
  select * from int_operators__checked where reject_rule is null
),

based as (
  select
    *,
    coalesce(nullif(slugify(operator_name), ''), slugify(operator_id)) as base_slug,
  from operators
),

ranked as (
  select
    *,
    row_number() over (partition by base_slug order by operator_id) as name_rank,
  from based
),

final as (
  select
    operator_id,
    -- `map` is reserved, so an operator of that name starts at map-2
    case
      when base_slug = 'map' then base_slug || '-' || (name_rank + 1)
      when name_rank = 1 then base_slug
      else base_slug || '-' || name_rank
    end as operator_slug,
    operator_name,
    logo_path,
    website,
    -- an address that cannot receive mail is dropped, not published (the lead router needs a real one)
    case when regexp_full_match(coalesce(enquiry_email, ''),
      '[A-Za-z0-9_%+-]+(\.[A-Za-z0-9_%+-]+)*@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}')
      then enquiry_email end as enquiry_email,
  from ranked
)

select * from final
