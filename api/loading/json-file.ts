/**
 * A JSON file a build holds in memory, as the loader takes it, on the loading thread or a load
 * worker: parsed (a file that is not a JSON object refuses the build), and as a response's data.
 */
import { resolveSitePathsInJson } from '../catalog/text.ts';

/**
 * The file parsed, and its text with its site paths resolved, less the final newline: that is
 * JSON.stringify of the value (the pipeline writes it so), served without serializing the value again.
 */
export interface JsonFile<T> { value: T; json: Buffer }

/** The file's bytes taken as a JsonFile, its site paths resolved against siteUrl when given; throws `is not JSON: …` or `is not a JSON object`. */
export function jsonFileOf<T>(bytes: Buffer, siteUrl?: string): JsonFile<T> {
  const text = bytes.toString('utf8');
  // site paths resolved in the text (cheaper than walking every value parsed)
  const resolved = siteUrl === undefined ? text : resolveSitePathsInJson(text, siteUrl);
  let value: unknown;
  try {
    value = JSON.parse(resolved);
  } catch (err) {
    throw new Error(`is not JSON: ${(err as Error).message}`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error('is not a JSON object');
  const json = resolved === text ? bytes : Buffer.from(resolved);
  return { value: value as T, json: json.subarray(0, json[json.length - 1] === 0x0a ? -1 : json.length) };
}
