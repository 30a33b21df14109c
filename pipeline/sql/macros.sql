-- Shared macros, created before any model runs.

-- lower case, accents folded, every run of other characters a single hyphen
create or replace macro slugify(s) as
  left(trim(regexp_replace(strip_accents(lower(
    replace(replace(replace(replace(replace(coalesce(s, ''), 'ß', 'ss'), 'ẞ', 'ss'), 'æ', 'ae'), 'ø', 'o'), 'ł', 'l')
  )), '[^a-z0-9]+', '-', 'g'), '-'), 180);

create or replace macro is_desk_product(option_type) as
  option_type in ('private_office', 'exclusive_bereich', 'fix_desk', 'flex_desk', 'membership');

-- products priced per office: the price is divided by the office's desks (max_capacity)
create or replace macro is_priced_per_office(option_type) as
  option_type in ('private_office', 'exclusive_bereich');

-- Money as an exact decimal (9 places in 64 bits: as cheap to carry as a double). DuckDB divides decimals as
-- doubles, so a quotient is taken in integers of 10^-9 and truncated there: for amounts ≥ 0 that keeps the exact
-- value's rounding to cents (a true half cent stays a half cent, a value below one never reaches it).
create or replace macro exact_money(x) as x::decimal(18, 9);
create or replace macro exact_quotient(dividend, divisor) as
  (((dividend::decimal(38, 9) * 1000000000)::hugeint // divisor)::decimal(18, 0) * 0.000000001)::decimal(18, 9);

-- a published money figure: the exact value rounded to cents, halves away from zero (a decimal's round)
create or replace macro published_money(x) as round(exact_money(x), 2)::double;

-- an observed amount as a monthly price per desk, exactly: monthly products only, the amount times the
-- period's factor as written (× 52 ÷ 12 for a week), offices divided by their desks (an office without a desk
-- count has no per-desk price); null for what is not a desk
create or replace macro monthly_price_per_desk(option_type, amount, billing_period, max_capacity) as
  case
    when amount is null or monthly_times(billing_period) is null then null
    when is_priced_per_office(option_type) then
      case when max_capacity >= 1 then
        exact_quotient(exact_money(amount) * monthly_times(billing_period), monthly_per(billing_period) * max_capacity) end
    when is_desk_product(option_type) then
      exact_quotient(exact_money(amount) * monthly_times(billing_period), monthly_per(billing_period))
  end;

-- an amount's monthly equivalent as a double (multiplied before it is divided: 210 a week is 910), for ordering
create or replace macro monthly_equivalent(amount, billing_period) as
  amount * monthly_times(billing_period) / monthly_per(billing_period);

-- the products of the price index and its history: the city overall, then each desk product
create or replace macro price_index_products() as
  ['all', 'private_office', 'exclusive_bereich', 'fix_desk', 'flex_desk', 'membership'];

create or replace macro option_types_in_order() as
  ['private_office', 'exclusive_bereich', 'fix_desk', 'flex_desk', 'day_pass',
    'meeting_room', 'virtual_office', 'event_space', 'membership'];

create or replace macro option_type_rank(option_type) as list_position(option_types_in_order(), option_type);

-- the inverse of option_type_rank
create or replace macro option_type_of_rank(rank) as option_types_in_order()[rank];

create or replace macro billing_period_rank(period) as
  list_position(['month', 'day', 'hour', 'week', 'year', 'once'], period);

create or replace macro iso_utc(ts) as strftime(ts, '%Y-%m-%dT%H:%M:%SZ');

create or replace macro is_valid_lat(x) as x is not null and x between -90 and 90;
create or replace macro is_valid_lng(x) as x is not null and x between -180 and 180;

-- JSON text for the build files: `"key":value`, or null when the value is null, so that
-- '{' || concat_ws(',', json_member(…), …) || '}' leaves out the absent members (concat_ws skips nulls)
create or replace macro json_member(key, value) as
  case when value is not null then to_json(key)::varchar || ':' || to_json(value)::varchar end;

-- the same with a value that is JSON text already
create or replace macro json_member_text(key, json) as
  case when json is not null then to_json(key)::varchar || ':' || json end;

-- a number as JSON text the way JavaScript writes it (integral values without a fraction: 350, not 350.0)
create or replace macro json_number(x) as
  case when x = trunc(x) and abs(x) < 1e15 then (x::bigint)::varchar else to_json(x)::varchar end;

-- a JSON array of JSON texts from a list of {'rank': …, 'json': …}, in rank order: an aggregate's list() sorted
-- per group costs a fraction of string_agg(… order by …), which sorts in every group's state
create or replace macro json_array_by_rank(entries) as
  '[' || array_to_string(list_transform(list_sort(entries), e -> e.json), ',') || ']';

create or replace macro json_money(amount, currency) as
  '{"amount":' || json_number(amount) || ',"currency":' || to_json(currency)::varchar || '}';

-- Unique slugs from claims (id, candidate_slug, claim, keeps). A candidate's first claim (lowest
-- `claim`) keeps it unless `keeps` is false (a reserved word); the later claims get
-- `<candidate>-2`, `-3` … in claim order, skipping every counter that spells a slug another row
-- keeps (`the-hub-berlin-2` named so, beside two spaces called The Hub in Berlin).
create or replace macro unique_slugs(claims) as table
with ranked as (
  select id, candidate_slug, keeps,
    row_number() over (partition by candidate_slug order by claim) as claim_rank,
  from query_table(claims)
),
kept as (
  select id, candidate_slug as slug from ranked where claim_rank = 1 and keeps
),
waiting as (
  select id, candidate_slug,
    row_number() over (partition by candidate_slug order by claim_rank) as counter_rank,
  from ranked
  where not (claim_rank = 1 and keeps)
),
spelled as (
  -- kept slugs that read like `<stem>-<counter>`
  select
    regexp_extract(slug, '^(.*)-([0-9]+)$', 1) as stem,
    try_cast(regexp_extract(slug, '^(.*)-([0-9]+)$', 2) as bigint) as counter,
  from kept
  where regexp_matches(slug, '-[0-9]+$')
),
room as (
  -- as many counters as claims wait, plus one for each the kept slugs may spell
  select waiting.candidate_slug, count(distinct waiting.id) + count(distinct spelled.counter) as span,
  from waiting
  left join spelled on spelled.stem = waiting.candidate_slug
  group by waiting.candidate_slug
),
free as (
  select counters.candidate_slug, counters.counter,
    row_number() over (partition by counters.candidate_slug order by counters.counter) as counter_rank,
  from (select candidate_slug, unnest(range(2, span + 2)) as counter from room) as counters
  anti join spelled on spelled.stem = counters.candidate_slug and spelled.counter = counters.counter
)
select id, slug from kept
union all
select waiting.id, waiting.candidate_slug || '-' || free.counter as slug
from waiting
join free using (candidate_slug, counter_rank);
