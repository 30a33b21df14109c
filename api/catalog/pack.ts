/**
 * The listing pack (`listing-pack.<locale>.json`, ListingPackSchema): what the engine splices
 * into responses, made by the pipeline so the API does not derive it from 100k card objects at
 * start-up. A card in listings.<locale>.json ends with its request-dependent fields, so its text
 * before them is served as it is: the pack gives that byte range of every card, the map markers
 * (assembled from the card's own field texts) with their end offsets, and the byte range of each
 * detail in properties.<locale>.json. Site paths stay site-relative in the files (resolved when
 * loaded). The API re-derives the pack from the listings and details files in the background and
 * rejects a build whose pack differs.
 */
import type { ListingPack } from '../../contract/build.ts';
import { arrayElementOffsets, arrayElementOffsetsText, topLevelFields, VARYING_CARD_FIELDS } from './text.ts';

const VARYING = new Set<string>(VARYING_CARD_FIELDS.map((k) => `"${k}"`));

/**
 * The packed card (no varying fields, no closing brace), its marker ('' without coordinates) and
 * slug, of the card JSON text[start..end); `prefix` tells whether the packed card is the start of
 * the card's text (every varying field after the others), as the pack requires.
 */
export function packCard(text: string, start = 0, end = text.length): { card: string; marker: string; slug: string; prefix: boolean } {
  const f = topLevelFields(text, start, end);
  const kept: string[] = [];
  const raw: Record<string, string> = {};
  let varyingSeen = false, prefix = true;
  for (let k = 0; k < f.length; k += 3) {
    const keyEnd = f[k + 1] - 1;
    const key = text.slice(f[k], keyEnd).trimEnd();
    if (key === '"slug"' || key === '"title"' || key === '"coordinates"' || key === '"featured"' || key === '"images"') raw[key] = text.slice(f[k + 1], f[k + 2]);
    if (VARYING.has(key)) varyingSeen = true;
    else {
      if (varyingSeen) prefix = false;
      kept.push(text.slice(f[k], f[k + 2]));
    }
  }
  if (!raw['"slug"']) throw new Error('card has no slug');
  let marker = '';
  if (raw['"coordinates"']) {
    marker = `{"slug":${raw['"slug"']},"title":${raw['"title"']},"coordinates":${raw['"coordinates"']},"featured":${raw['"featured"']}`;
    const images = raw['"images"'];
    if (images && images.length > 2) {
      const { starts, ends } = arrayElementOffsetsText(images);
      if (starts.length) marker += `,"image":${images.slice(starts[0], ends[0])}`;
    }
  }
  const card = `{${kept.join(',')}`;
  return { card, marker, slug: raw['"slug"'].slice(1, -1), prefix: prefix && text.startsWith(card, start) };
}

/** Collects the pack one listing at a time, from each card's text and byte range and each detail's byte range. */
export class PackBuilder {
  private readonly markers: string[] = [];
  private batch: string[] = [];
  readonly cardStarts: number[] = [];
  readonly cardCuts: number[] = [];
  readonly markerEnds: number[] = [];
  readonly detailStarts: number[] = [];
  readonly detailEnds: number[] = [];
  private markerLen = 0;

  /** A card's JSON text and where it starts in listings.<locale>.json (bytes). */
  addCard(json: string, byteStart: number): void {
    const i = this.cardStarts.length;
    const p = packCard(json);
    if (!p.prefix) throw new Error(`card ${i} (${p.slug}): the request-dependent fields (${VARYING_CARD_FIELDS.join(', ')}) must come last`);
    this.cardStarts.push(byteStart);
    this.cardCuts.push(byteStart + Buffer.byteLength(p.card));
    // markers are made of slices of the card's text, which they would keep alive: copied into
    // one flat string every few thousand cards
    this.batch.push(p.marker);
    if (this.batch.length >= 4096) this.flush();
    this.markerLen += p.marker.length;
    this.markerEnds.push(this.markerLen);
  }

  private flush(): void {
    this.markers.push(this.batch.join(''));
    this.batch = [];
  }

  addDetail(start: number, end: number): void {
    this.detailStarts.push(start);
    this.detailEnds.push(end);
  }

  /**
   * The pack file's text (packFileText of finish()) in pieces, without joining the markers into
   * one string: the background verification hashes it with little memory.
   */
  *fileChunks(): Generator<string> {
    this.flush();
    const numbers = (key: string, a: number[]) => `"${key}":[${a.join(',')}]`;
    yield `{${numbers('cardStarts', this.cardStarts)},${numbers('cardCuts', this.cardCuts)},"markers":"`;
    // each part is whole markers, so no surrogate pair is split and the escapes join up
    for (const part of this.markers) yield JSON.stringify(part).slice(1, -1);
    yield `",${numbers('markerEnds', this.markerEnds)},${numbers('detailStarts', this.detailStarts)},${numbers('detailEnds', this.detailEnds)}}\n`;
  }

  finish(): ListingPack {
    this.flush();
    return {
      cardStarts: this.cardStarts, cardCuts: this.cardCuts, markers: this.markers.join(''), markerEnds: this.markerEnds,
      detailStarts: this.detailStarts, detailEnds: this.detailEnds,
    };
  }
}

/** The pack of a listings file text and a details file text (the test fixture writes builds with it). */
export function packOf(cardsText: string, detailsText: string): ListingPack {
  const b = new PackBuilder();
  const cards = Buffer.from(cardsText);
  const c = arrayElementOffsets(cards);
  for (let i = 0; i < c.starts.length; i++) b.addCard(cards.toString('utf8', c.starts[i], c.ends[i]), c.starts[i]);
  const d = arrayElementOffsets(Buffer.from(detailsText));
  for (let i = 0; i < d.starts.length; i++) b.addDetail(d.starts[i], d.ends[i]);
  return b.finish();
}

/** The file text, as the pipeline's BuildWriter.writeJson writes it. */
export const packFileText = (p: ListingPack): string => `${JSON.stringify(p)}\n`;

/** Packed texts with site paths resolved against SITE_URL; the end offsets move with the insertions. */
export function resolvePacked(text: string, ends: ArrayLike<number>, siteUrl: string): { text: string; ends: Int32Array } {
  const out = Int32Array.from(ends);
  if (!siteUrl) return { text, ends: out };
  const re = /"(url|webUrl|methodologyUrl)":"\/(?!\/)/g;
  const parts: string[] = [];
  let last = 0, shift = 0, k = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    while (k < out.length && out[k] <= m.index) out[k++] += shift;
    const at = m.index + m[1].length + 4; // after `"key":"`
    parts.push(text.slice(last, at), siteUrl);
    last = at;
    shift += siteUrl.length;
  }
  while (k < out.length) out[k++] += shift;
  parts.push(text.slice(last));
  return { text: parts.join(''), ends: out };
}
