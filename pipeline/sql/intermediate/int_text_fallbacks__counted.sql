-- How many texts of the snapshot show the fallback_locale()'s text for want of their own, per locale,
-- entity kind and field (the run summary prints them): a locale whose input columns are empty is
-- published in the fallback locale, and this says how much of it.
with texts as (
  select * from int_texts__localized
),

final as (
  select
    locale,
    entity_kind,
    field,
    count(*)::integer as fallback_texts,
  from texts
  where is_fallback
  group by locale, entity_kind, field
  order by list_position(locales(), locale), entity_kind, field
)

select * from final
