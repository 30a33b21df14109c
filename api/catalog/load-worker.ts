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
import { arrayElementOffsets, resolveSitePaths, stripCardFields } from './text.ts';

export type LoadTask =
  | { id: number; kind: 'json'; path: string; name: string; sha: string; schema: string; siteUrl: string }
  | { id: number; kind: 'cards'; path: string; name: string; sha: string; siteUrl: string }
  | { id: number; kind: 'details'; path: string; name: string; sha: string };

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
  if (task.kind === 'cards') {
    const cards = parse(task.name, buf.toString('utf8')) as Record<string, unknown>[];
    if (!Array.isArray(cards)) throw new Error(`${task.name} is not an array`);
    const check = checkerFor(BuildListingCardSchema);
    const n = cards.length;
    const cardParts: string[] = new Array(n);
    const markerParts: string[] = new Array(n);
    const cardEnds = new Int32Array(n);
    const markerEnds = new Int32Array(n);
    const slugs: string[] = new Array(n);
    let cardLen = 0, markerLen = 0;
    for (let i = 0; i < n; i++) {
      const card = cards[i] as Record<string, any>;
      const problem = check(card);
      if (problem) throw new Error(`${task.name} does not match the contract: /${i}${problem}`);
      resolveSitePaths(card, task.siteUrl);
      slugs[i] = card.slug;
      const text = stripCardFields(card);
      cardParts[i] = text;
      cardLen += text.length;
      cardEnds[i] = cardLen;
      let marker = '';
      if (card.coordinates) {
        const m: Record<string, unknown> = { slug: card.slug, title: card.title, coordinates: card.coordinates, featured: card.featured };
        if (card.images[0]) m.image = card.images[0];
        marker = JSON.stringify(m).slice(0, -1);
      }
      markerParts[i] = marker;
      markerLen += marker.length;
      markerEnds[i] = markerLen;
    }
    const result: CardsResult = { slugs: slugs.join('\n'), cards: cardParts.join(''), cardEnds, markers: markerParts.join(''), markerEnds };
    return result;
  }
  // details: offsets now; every element parsed and validated one by one (little memory)
  const { starts, ends } = arrayElementOffsets(buf);
  const check = checkerFor(BuildPropertyDetailSchema);
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

parentPort?.on('message', (task: LoadTask) => {
  runTask(task).then(
    (value) => parentPort!.postMessage({ id: task.id, value }),
    (err: Error) => parentPort!.postMessage({ id: task.id, error: err.message }),
  );
});
