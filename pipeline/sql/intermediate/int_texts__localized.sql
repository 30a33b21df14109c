-- One row per entity, text field and locale of locales(), with the fallback applied once: a name, a
-- label, or a listing's excerpt or description missing in a locale is the fallback_locale()'s (a
-- label missing there too is its key); a city's intro and an operator's tagline and description
-- have no fallback (null: the hubs write their own). A listing without a description shows its
-- excerpt (listing-rows.ts).
with texts as materialized (
  select * from stg_texts where nullif(entity_id, '') is not null and locale in locales()
),

fallbacks as (
  select entity_kind, entity_id, field, text from texts where locale = fallback_locale()
),

final as (
  select
    texts.entity_kind,
    texts.entity_id,
    texts.locale,
    texts.field,
    case
      when texts.field in ('name', 'label') or texts.entity_kind = 'space'
        then coalesce(texts.text, fallbacks.text, case when texts.field = 'label' then texts.entity_id end)
      else texts.text
    end as text,
  from texts
  left join fallbacks
    on fallbacks.entity_kind = texts.entity_kind
    and fallbacks.entity_id = texts.entity_id
    and fallbacks.field = texts.field
)

select * from final
