/** SQL text made in TypeScript: literals, and the JSON texts the build files are written as (sql/macros.sql). */

/** A string as an SQL literal. */
export const sqlText = (s: string): string => `'${s.replaceAll("'", "''")}'`;

/** A JSON object's text from `json_member(…)` expressions; the absent (null) members are left out. */
export const jsonObject = (...members: string[]): string => `'{' || concat_ws(',', ${members.join(',\n    ')}) || '}'`;
