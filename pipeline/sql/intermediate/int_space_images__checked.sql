with images as (
  select * from stg_space_images
),

spaces as (
  select * from int_spaces__checked where reject_rule is null
),

final as (
  select
    images.*,
    case
      when spaces.space_id is null then 'unknown_space'
      when images.image_position is null or images.image_position < 0 then 'bad_position'
      when not starts_with(coalesce(images.image_path, ''), '/') or images.image_path like '% %' then 'bad_path'
      when not (images.width_px >= 1 and images.height_px >= 1) then 'bad_dimensions'
    end as reject_rule,
  from images
  left join spaces on spaces.space_id = images.space_id
)

select * from final
