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
import { join } from 'node:path';
import { ListingPackSchema, type ListingFact, type ListingPack } from '../contract/build.ts';
import { columnsFileText, listingColumns } from './columns.ts';
import { packCard, resolvePacked } from './pack.ts';
import { checkerFor } from './validate.ts';
import { arrayElementOffsets, resolveSitePaths } from './text.ts';

export type LoadTask =
  | { id: number; kind: 'json'; path: string; name: string; sha: string; schema: string; siteUrl: string }
  | { id: number; kind: 'validate'; path: string; name: string; sha: string; schema: string }
  | { id: number; kind: 'pack'; path: string; name: string; sha: string; siteUrl: string }
  | { id: number; kind: 'verify-locale'; locale: string; dir: string; files: Record<string, string> }
  | { id: number; kind: 'verify-facts'; dir: string; files: Record<string, string> };

/** A listing pack as the engine keeps it: site paths resolved. */
export interface PackResult { cards: string; cardEnds: Int32Array; markers: string; markerEnds: Int32Array; detailStarts: Float64Array; detailEnds: Float64Array }
/** The slugs of a locale's listings and details files, in file order, one per line. */
export interface VerifyResult { cardSlugs: string; detailSlugs: string }

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
  if (task.kind === 'verify-locale') return verifyLocale(task.dir, task.locale, task.files);
  if (task.kind === 'verify-facts') return verifyFacts(task.dir, task.files);
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
  const pack = parse(task.name, buf.toString('utf8')) as ListingPack;
  const problem = checkerFor(ListingPackSchema)(pack);
  if (problem) throw new Error(`${task.name} does not match the contract: ${problem}`);
  const n = pack.cardEnds.length;
  if (pack.markerEnds.length !== n || pack.detailStarts.length !== n || pack.detailEnds.length !== n) throw new Error(`${task.name}: offset arrays differ in length`);
  const ascending = (a: number[], what: string) => {
    for (let i = 1; i < a.length; i++) if (a[i] < a[i - 1]) throw new Error(`${task.name}: ${what} not ascending at ${i}`);
  };
  ascending(pack.cardEnds, 'cardEnds');
  ascending(pack.markerEnds, 'markerEnds');
  if (n && pack.cardEnds[n - 1] !== pack.cards.length) throw new Error(`${task.name}: cardEnds do not end with the text`);
  if (n && pack.markerEnds[n - 1] !== pack.markers.length) throw new Error(`${task.name}: markerEnds do not end with the text`);
  for (let i = 0; i < n; i++) if (pack.detailEnds[i] <= pack.detailStarts[i]) throw new Error(`${task.name}: detail ${i} is empty`);
  const cards = resolvePacked(pack.cards, pack.cardEnds, task.siteUrl);
  const markers = resolvePacked(pack.markers, pack.markerEnds, task.siteUrl);
  const result: PackResult = {
    cards: cards.text, cardEnds: cards.ends, markers: markers.text, markerEnds: markers.ends,
    detailStarts: Float64Array.from(pack.detailStarts), detailEnds: Float64Array.from(pack.detailEnds),
  };
  return result;
}

/** The background check of the facts: validated against the contract, and the columns served derived from them. */
async function verifyFacts(dir: string, files: Record<string, string>): Promise<boolean> {
  const name = 'listing-facts.json';
  const buf = await readVerified(join(dir, name), name, files[name]);
  const facts = parse(name, buf.toString('utf8')) as ListingFact[];
  const problem = checkerFor(SCHEMAS[name])(facts);
  if (problem) throw new Error(`${name} does not match the contract: ${problem}`);
  const text = columnsFileText(listingColumns(facts));
  if (createHash('sha256').update(text).digest('hex') !== files['listing-columns.json']) throw new Error(`listing-columns.json does not match ${name}`);
  return true;
}

/**
 * The background check of one locale: every card and detail validated against the contract one
 * by one (little memory), and the listing pack re-derived from both files and compared with the
 * one served, through its checksum (the pack's JSON text is hashed as it is derived, never held).
 */
async function verifyLocale(dir: string, locale: string, files: Record<string, string>): Promise<VerifyResult> {
  const cardsName = `listings.${locale}.json`, detailsName = `properties.${locale}.json`, packName = `listing-pack.${locale}.json`;
  const json = (v: unknown) => JSON.stringify(v);
  const hash = createHash('sha256');
  const cardEnds: number[] = [], markerEnds: number[] = [];
  const markerParts: string[] = [];
  let cardSlugs: string;
  {
    const buf = await readVerified(join(dir, cardsName), cardsName, files[cardsName]);
    const { starts, ends } = arrayElementOffsets(buf);
    const check = checkerFor(BuildListingCardSchema);
    const slugs: string[] = new Array(starts.length);
    let cardLen = 0, markerLen = 0;
    hash.update('{"cards":"');
    for (let i = 0; i < starts.length; i++) {
      const text = buf.toString('utf8', starts[i], ends[i]);
      const value = parse(cardsName, text) as { slug: string };
      const problem = check(value);
      if (problem) throw new Error(`${cardsName} does not match the contract: /${i}${problem}`);
      slugs[i] = value.slug;
      const p = packCard(text);
      hash.update(json(p.card).slice(1, -1));
      cardLen += p.card.length;
      cardEnds.push(cardLen);
      markerParts.push(p.marker);
      markerLen += p.marker.length;
      markerEnds.push(markerLen);
    }
    cardSlugs = slugs.join('\n');
  }
  hash.update(`","cardEnds":${json(cardEnds)},"markers":${json(markerParts.join(''))},"markerEnds":${json(markerEnds)}`);
  markerParts.length = 0;
  let detailSlugs: string;
  {
    const buf = await readVerified(join(dir, detailsName), detailsName, files[detailsName]);
    const { starts, ends } = arrayElementOffsets(buf);
    const check = checkerFor(BuildPropertyDetailSchema);
    const slugs: string[] = new Array(starts.length);
    for (let i = 0; i < starts.length; i++) {
      const value = parse(detailsName, buf.toString('utf8', starts[i], ends[i])) as { slug: string };
      const problem = check(value);
      if (problem) throw new Error(`${detailsName} does not match the contract: /${i}${problem}`);
      slugs[i] = value.slug;
    }
    detailSlugs = slugs.join('\n');
    hash.update(`,"detailStarts":${json(Array.from(starts))},"detailEnds":${json(Array.from(ends))}}\n`);
  }
  if (hash.digest('hex') !== files[packName]) throw new Error(`${packName} does not match ${cardsName} and ${detailsName}`);
  return { cardSlugs, detailSlugs };
}

parentPort?.on('message', (task: LoadTask) => {
  runTask(task).then(
    (value) => parentPort!.postMessage({ id: task.id, value }),
    (err: Error) => parentPort!.postMessage({ id: task.id, error: err.message }),
  );
});
