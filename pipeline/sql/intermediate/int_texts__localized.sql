-- One row per entity, text field and locale of locales(), with the fallback applied once: a name, a
-- label, or a listing's excerpt or description missing in a locale is the fallback_locale()'s (a
-- label missing there too is its key); a city's intro and an operator's tagline and description
-- have no fallback (null: the hubs write their own). A listing without a description shows its
-- excerpt (listing-rows.ts). is_fallback marks a text that is the fallback_locale()'s for want of
-- its own (int_text_fallbacks__counted counts them).
with texts as materialized (
  select * from stg_texts where nullif(entity_id, '') is not null and locale in locales()
),

fallbacks as (
  select entity_kind, entity_id, field, text from texts where locale = fallback_locale()
),

ruled as (
  select *, field in ('name', 'label') or entity_kind = 'space' as has_fallback from texts
),

final as (
  select
    ruled.entity_kind,
    ruled.entity_id,
    ruled.locale,
    ruled.field,
    case
      when ruled.has_fallback
        then coalesce(ruled.text, fallbacks.text, case when ruled.field = 'label' then ruled.entity_id end)
      else ruled.text
    end as text,
    ruled.has_fallback and ruled.text is null and fallbacks.text is not null as is_fallback,
  from ruled
  left join fallbacks
    on fallbacks.entity_kind = ruled.entity_kind
    and fallbacks.entity_id = ruled.entity_id
    and fallbacks.field = ruled.field
)

select * from final
