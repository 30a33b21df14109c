/**
 * Worker side of build loading: reads a file, checks its sha256, validates it against its
 * contract schema and returns it in the form the engine keeps. Runs in worker threads so the
 * big files of a 100k build load in parallel and off the request thread.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import { BUILD_FILES, LOCALIZED_BUILD_FILES } from '../../contract/build.ts';
import { BuildListingCardSchema, BuildPropertyDetailSchema } from '../../contract/catalog.ts';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { ListingFactSchema, ListingPackSchema, type ListingFact, type ListingPack } from '../../contract/build.ts';
import { ColumnsBuilder } from '../catalog/columns.ts';
import { PackBuilder, resolvePacked } from '../catalog/pack.ts';
import { checkerFor } from '../../contract/validate.ts';
import { jsonFileChunks, resolveSitePaths, sha256OfChunks, streamArrayElements } from '../catalog/text.ts';

export type LoadTask =
  | { id: number; kind: 'json'; path: string; name: string; sha: string; schema: string; siteUrl: string }
  | { id: number; kind: 'validate'; path: string; name: string; sha: string; schema: string }
  | { id: number; kind: 'pack'; locale: string; dir: string; files: Record<string, string>; siteUrl: string }
  | { id: number; kind: 'verify-locale'; locale: string; dir: string; files: Record<string, string> }
  | { id: number; kind: 'verify-facts'; dir: string; files: Record<string, string> };

/** A listing pack as the engine keeps it: site paths resolved. */
export interface PackResult { cards: Uint8Array; cardStarts: Float64Array; cardCuts: Float64Array; markers: string; markerEnds: Int32Array; detailStarts: Float64Array; detailEnds: Float64Array }
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
  if (task.kind === 'pack') return loadPack(task.dir, task.locale, task.files, task.siteUrl);
  if (task.kind === 'validate' && SCHEMAS[task.schema] instanceof z.ZodArray) {
    // an array: element by element, read in chunks
    await eachElement(dirname(task.path), task.name, task.sha, (SCHEMAS[task.schema] as z.ZodArray<z.ZodType>).element, () => undefined);
    return true;
  }
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
  throw new Error(`unknown task ${(task as LoadTask).kind}`);
}

/**
 * A locale's listing pack, ready for the engine: the served part of every card gathered from
 * listings.<locale>.json into one buffer (site paths resolved), the markers, the detail offsets.
 * Both files are checksummed; the pack is checked for shape here and against the files in the
 * background (verifyLocale).
 */
async function loadPack(dir: string, locale: string, files: Record<string, string>, siteUrl: string): Promise<PackResult> {
  const name = `listing-pack.${locale}.json`, cardsName = `listings.${locale}.json`;
  // The listings file is kept as it is: the engine decodes a card's served bytes (and resolves
  // its site paths) when it serves it. Its checksum is compared by the background verification.
  const packBuf = await readVerified(join(dir, name), name, files[name]);
  const cardsBuf = await readFile(join(dir, cardsName));
  const cardsSize = cardsBuf.length;
  const pack = parse(name, packBuf.toString('utf8')) as ListingPack;
  const problem = checkerFor(ListingPackSchema)(pack);
  if (problem) throw new Error(`${name} does not match the contract: ${problem}`);
  const n = pack.cardStarts.length;
  if (pack.cardCuts.length !== n || pack.markerEnds.length !== n || pack.detailStarts.length !== n || pack.detailEnds.length !== n) throw new Error(`${name}: offset arrays differ in length`);
  for (let i = 0; i < n; i++) {
    if (pack.cardCuts[i] <= pack.cardStarts[i] || pack.cardCuts[i] > cardsSize || (i > 0 && pack.cardStarts[i] < pack.cardCuts[i - 1])) throw new Error(`${name}: card ${i} out of place`);
    if (pack.detailEnds[i] <= pack.detailStarts[i]) throw new Error(`${name}: detail ${i} is empty`);
    if (i > 0 && pack.markerEnds[i] < pack.markerEnds[i - 1]) throw new Error(`${name}: markerEnds not ascending at ${i}`);
  }
  if (n && pack.markerEnds[n - 1] !== pack.markers.length) throw new Error(`${name}: markerEnds do not end with the text`);
  for (let i = 0; i < n; i++) if (cardsBuf[pack.cardStarts[i]] !== 123) throw new Error(`${name}: card ${i} does not start an object`);
  const markers = resolvePacked(pack.markers, pack.markerEnds, siteUrl);
  return {
    cards: cardsBuf, cardStarts: Float64Array.from(pack.cardStarts), cardCuts: Float64Array.from(pack.cardCuts), markers: markers.text, markerEnds: markers.ends,
    detailStarts: Float64Array.from(pack.detailStarts), detailEnds: Float64Array.from(pack.detailEnds),
  };
}

/**
 * Every element of a big array file, read in chunks and checked against its element schema;
 * the file's checksum is compared once it is read through. Returns the slugs in file order.
 */
async function eachElement(dir: string, name: string, sha: string, schema: Parameters<typeof checkerFor>[0],
  visit: (value: { slug: string }, text: string, start: number, end: number, i: number) => void): Promise<string> {
  const check = checkerFor(schema);
  const hash = createHash('sha256');
  const slugs: string[] = [];
  let i = 0;
  try {
    for await (const { bytes, start, end } of streamArrayElements(join(dir, name), hash)) {
      const text = bytes.toString('utf8');
      const value = parse(name, text) as { slug: string };
      const problem = check(value);
      if (problem) throw new Error(`${name} does not match the contract: /${i}${problem}`);
      slugs.push(value.slug);
      visit(value, text, start, end, i++);
    }
  } catch (err) {
    const msg = (err as Error).message;
    throw new Error(msg.startsWith(name) ? msg : `${name}: ${msg}`);
  }
  if (hash.digest('hex') !== sha) throw new Error(`${name} checksum mismatch`);
  return slugs.join('\n');
}

/** The background check of the facts: validated against the contract, and the columns served derived from them. */
async function verifyFacts(dir: string, files: Record<string, string>): Promise<boolean> {
  const name = 'listing-facts.json';
  const columns = new ColumnsBuilder();
  await eachElement(dir, name, files[name], ListingFactSchema, (fact) => columns.add(fact as unknown as ListingFact));
  // hashed column by column: the 35 MB text is never one string
  if (sha256OfChunks(jsonFileChunks(columns.finish())) !== files['listing-columns.json']) throw new Error(`listing-columns.json does not match ${name}`);
  return true;
}

/**
 * The background check of one locale: every card and detail validated against the contract one
 * by one, files read in chunks (little memory), and the listing pack re-derived from both files
 * and compared with the one served, through its checksum.
 */
async function verifyLocale(dir: string, locale: string, files: Record<string, string>): Promise<VerifyResult> {
  const cardsName = `listings.${locale}.json`, detailsName = `properties.${locale}.json`, packName = `listing-pack.${locale}.json`;
  const pack = new PackBuilder();
  const cardSlugs = await eachElement(dir, cardsName, files[cardsName], BuildListingCardSchema, (_v, text, start) => pack.addCard(text, start));
  const detailSlugs = await eachElement(dir, detailsName, files[detailsName], BuildPropertyDetailSchema, (_v, _t, start, end) => pack.addDetail(start, end));
  if (sha256OfChunks(pack.fileChunks()) !== files[packName]) throw new Error(`${packName} does not match ${cardsName} and ${detailsName}`);
  return { cardSlugs, detailSlugs };
}

/** Results go back with their big buffers moved, not copied. */
const transferables = (value: unknown): ArrayBuffer[] => {
  const cards = (value as Partial<PackResult> | undefined)?.cards;
  return cards instanceof Uint8Array && cards.byteOffset === 0 && cards.buffer.byteLength >= 1 << 20 ? [cards.buffer as ArrayBuffer] : [];
};

parentPort?.on('message', (task: LoadTask) => {
  runTask(task).then(
    (value) => parentPort!.postMessage({ id: task.id, value }, transferables(value)),
    (err: Error) => parentPort!.postMessage({ id: task.id, error: err.message }),
  );
});
