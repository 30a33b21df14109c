/**
 * The rules whose break fails a whole build (nothing is published). The rules that quarantine
 * one row into rejects.csv are the `reject_rule`s of sql/intermediate/int_*__checked.sql.
 */
export const BUILD_FAILURE_RULES = {
  missing_file: 'a file of the snapshot is missing',
  bad_source: 'source.json (what the snapshot is) is not JSON or does not match its schema',
  malformed_csv: 'a CSV file is not RFC 4180 CSV with one header row: empty, not comma-separated, a row with more or fewer fields than the header, a quoted field not closed',
  bad_encoding: 'a file is not UTF-8 text (a Latin-1 file, a stray byte, a NUL byte)',
  missing_column: 'a column of the table is not in the header',
  duplicate_column: 'the header names a column twice',
  duplicate_key: 'two rows share a key',
  bad_number: 'a value many figures depend on (an exchange rate of fx_reference.csv) is not a positive finite number',
  bad_config: 'config.json is not JSON or does not match its schema',
  reject_threshold: 'more than 5% of the rows of a table are quarantined',
  future_date_threshold: 'too many rows of price_observations.csv (FUTURE_DATE_LIMIT) are dated after the extraction time in source.json',
  listings_shrink: 'the listings fell by more than half against the previous build',
  volume_shrink: 'an input table fell by more than its threshold against the previous build (rows, distinct offers …)',
  model_cycle: 'the SQL models depend on each other in a cycle',
  model_failed: 'an SQL model failed',
  invalid_output: 'an output does not validate against its schema',
  duplicate_slug: 'two items of one kind share a slug',
  reserved_slug: 'an item took the reserved slug map',
  misaligned_listings: 'the listing files are not aligned with listing-columns.bin',
  count_mismatch: 'a propertyCount differs from the listings it counts',
  unnamed_city: 'a city of market-rates.json is not in a geo file, which names it',
  bad_dist: 'the dist directory is not in the expected shape',
  release_conflict: 'the release the build\'s research files name by their content exists with other files (releases are never rewritten)',
} as const;

export type BuildFailureRule = keyof typeof BUILD_FAILURE_RULES;

/** A failure that stops the build; the message names the rule, the file and the row where there is one. */
export class BuildError extends Error {
  constructor(
    readonly rule: BuildFailureRule,
    message: string,
  ) {
    super(`${rule}: ${message}`);
    this.name = 'BuildError';
  }
}
