import type { LoadedBuild } from '../loading/load.ts';

const made = new WeakMap<LoadedBuild, Map<string, unknown>>();

/**
 * A value derived from a build alone (a chart, the methodology as HTML), made the first time a
 * page asks for it and kept as long as the build is: it is part of the build, not a cache of requests.
 */
export function perBuild<T>(build: LoadedBuild, key: string, make: () => T): T {
  let values = made.get(build);
  if (!values) made.set(build, (values = new Map()));
  if (!values.has(key)) {
    const value = make();
    values.set(key, value);
    // a value made from a file found damaged is not kept: once repaired, the file is read again
    if (value instanceof Promise) value.catch(() => values.delete(key));
  }
  return values.get(key) as T;
}
