/**
 * Worker side of build loading: reads a file, checks its sha256, validates it against its
 * contract schema and returns it in the form the engine keeps. Runs in worker threads so the
 * big files of a 100k build load in parallel and off the request thread.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import { BUILD_FILES, LOCALIZED_BUILD_FILES } from '../contract/build.ts';
import { BuildListingCardSchema, BuildPropertyDetailSchema } from '../contract/catalog.ts';
import { checkerFor } from './validate.ts';
import {
  arrayElementOffsets, arrayElementOffsetsText, resolveSitePaths, resolveSitePathsInJson, topLevelFields, VARYING_CARD_FIELDS,
} from './text.ts';

export type LoadTask =
  | { id: number; kind: 'json'; path: string; name: string; sha: string; schema: string; siteUrl: string }
  | { id: number; kind: 'validate'; path: string; name: string; sha: string; schema: string }
  | { id: number; kind: 'cards'; path: string; name: string; sha: string; siteUrl: string }
  | { id: number; kind: 'elements'; path: string; name: string; sha: string; schema: 'card' | 'detail' };

export interface CardsResult { slugs: string; cards: string; cardEnds: Int32Array; markers: string; markerEnds: Int32Array }
export interface DetailsResult { slugs: string; starts: Float64Array; ends: Float64Array }

const SCHEMAS: Record<string, Parameters<typeof checkerFor>[0]> = {
  ...BUILD_FILES,
  ...Object.fromEntries(Object.entries(LOCALIZED_BUILD_FILES).map(([k, v]) => [`localized:${k}`, v])),
};

async function readVerified(path: string, name: string, sha: string): Promise<Buffer> {
  const buf = await readFile(path);
  if (createHash('sha256').update(buf).digest('hex') !== sha) throw new Error(`${name} checksum mismatch`);
  return buf;
}

function parse(name: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new Error(`${name} is not JSON: ${(err as Error).message}`);
  }
}

export async function runTask(task: LoadTask): Promise<unknown> {
  const buf = await readVerified(task.path, task.name, task.sha);
  if (task.kind === 'json') {
    const value = parse(task.name, buf.toString('utf8'));
    const problem = checkerFor(SCHEMAS[task.schema])(value);
    if (problem) throw new Error(`${task.name} does not match the contract: ${problem}`);
    return resolveSitePaths(value, task.siteUrl);
  }
  if (task.kind === 'validate') {
    const problem = checkerFor(SCHEMAS[task.schema])(parse(task.name, buf.toString('utf8')));
    if (problem) throw new Error(`${task.name} does not match the contract: ${problem}`);
    return true;
  }
  if (task.kind === 'cards') return packCards(task.name, buf.toString('utf8'), task.siteUrl);
  // every element parsed and validated one by one (little memory); offsets for reading details
  const { starts, ends } = arrayElementOffsets(buf);
  const check = checkerFor(task.schema === 'card' ? BuildListingCardSchema : BuildPropertyDetailSchema);
  const slugs: string[] = new Array(starts.length);
  for (let i = 0; i < starts.length; i++) {
    const value = parse(task.name, buf.toString('utf8', starts[i], ends[i])) as { slug: string };
    const problem = check(value);
    if (problem) throw new Error(`${task.name} does not match the contract: /${i}${problem}`);
    slugs[i] = value.slug;
  }
  const result: DetailsResult = { slugs: slugs.join('\n'), starts, ends };
  return result;
}

const VARYING = new Set<string>(VARYING_CARD_FIELDS.map((k) => `"${k}"`));

/**
 * Cards without parsing them: each card's top-level fields are located in the text, the
 * request-dependent ones left out, the map marker assembled from the card's own field texts.
 * The file is validated separately (an `elements` task).
 */
function packCards(name: string, text: string, siteUrl: string): CardsResult {
  const { starts, ends } = arrayElementOffsetsText(text);
  const n = starts.length;
  const cardParts: string[] = new Array(n);
  const markerParts: string[] = new Array(n);
  const cardEnds = new Int32Array(n);
  const markerEnds = new Int32Array(n);
  const slugs: string[] = new Array(n);
  let cardLen = 0, markerLen = 0;
  for (let i = 0; i < n; i++) {
    const f = topLevelFields(text, starts[i], ends[i]);
    const kept: string[] = [];
    const raw: Record<string, string> = {};
    for (let k = 0; k < f.length; k += 3) {
      const keyEnd = f[k + 1] - 1;
      const key = text.slice(f[k], keyEnd).trimEnd();
      if (key === '"slug"' || key === '"title"' || key === '"coordinates"' || key === '"featured"' || key === '"images"') raw[key] = text.slice(f[k + 1], f[k + 2]);
      if (!VARYING.has(key)) kept.push(text.slice(f[k], f[k + 2]));
    }
    if (!raw['"slug"']) throw new Error(`${name}: card ${i} has no slug`);
    slugs[i] = raw['"slug"'].slice(1, -1);
    const card = resolveSitePathsInJson(`{${kept.join(',')}`, siteUrl);
    cardParts[i] = card;
    cardLen += card.length;
    cardEnds[i] = cardLen;
    let marker = '';
    if (raw['"coordinates"']) {
      marker = `{"slug":${raw['"slug"']},"title":${raw['"title"']},"coordinates":${raw['"coordinates"']},"featured":${raw['"featured"']}`;
      const images = raw['"images"'];
      if (images && images.length > 2) {
        const first = topLevelFirstElement(images);
        if (first) marker += `,"image":${resolveSitePathsInJson(first, siteUrl)}`;
      }
    }
    markerParts[i] = marker;
    markerLen += marker.length;
    markerEnds[i] = markerLen;
  }
  return { slugs: slugs.join('\n'), cards: cardParts.join(''), cardEnds, markers: markerParts.join(''), markerEnds };
}

function topLevelFirstElement(arrayText: string): string | undefined {
  const { starts, ends } = arrayElementOffsetsText(arrayText);
  return starts.length ? arrayText.slice(starts[0], ends[0]) : undefined;
}

parentPort?.on('message', (task: LoadTask) => {
  runTask(task).then(
    (value) => parentPort!.postMessage({ id: task.id, value }),
    (err: Error) => parentPort!.postMessage({ id: task.id, error: err.message }),
  );
});
