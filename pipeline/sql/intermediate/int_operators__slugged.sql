with operators as (
  select * from int_operators__checked where reject_rule is null
),

based as (
  select
    *,
    coalesce(nullif(slugify(operator_name), ''), slugify(operator_id)) as base_slug,
  from operators
),

claims as (
  -- `map` is reserved, so an operator of that name starts at map-2
  select operator_id as id, base_slug as candidate_slug, operator_id as claim, base_slug <> 'map' as keeps,
  from based
),

final as (
  select
    based.operator_id,
    slugs.slug as operator_slug,
    based.operator_name,
    based.logo_path,
    based.website,
    -- an address that cannot receive mail is dropped, not published (the lead router needs a real one)
    case when regexp_full_match(coalesce(based.enquiry_email, ''),
      '[A-Za-z0-9_%+-]+(\.[A-Za-z0-9_%+-]+)*@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}')
      then based.enquiry_email end as enquiry_email,
  from based
  join unique_slugs(claims) as slugs on slugs.id = based.operator_id
)

select * from final
