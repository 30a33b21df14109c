/**
 * The listing pack (`listing-pack.<locale>.json`, ListingPackSchema): the text the engine splices
 * into responses, made by the pipeline so the API reads it instead of re-deriving it from 100k
 * card objects at start-up. Cards without their request-dependent fields and closing brace, map
 * markers assembled from the card's own field texts, both concatenated with end offsets, and the
 * byte range of each detail in `properties.<locale>.json`. Site paths stay site-relative in the
 * file (resolved when loaded). The API re-derives the pack from the listings and details files in
 * the background and rejects a build whose pack differs.
 */
import type { ListingPack } from '../contract/build.ts';
import { arrayElementOffsets, arrayElementOffsetsText, topLevelFields, VARYING_CARD_FIELDS } from './text.ts';

const VARYING = new Set<string>(VARYING_CARD_FIELDS.map((k) => `"${k}"`));

/** The packed card (no varying fields, no closing brace), its marker ('' without coordinates) and slug, of the card JSON text[start..end). */
export function packCard(text: string, start = 0, end = text.length): { card: string; marker: string; slug: string } {
  const f = topLevelFields(text, start, end);
  const kept: string[] = [];
  const raw: Record<string, string> = {};
  for (let k = 0; k < f.length; k += 3) {
    const keyEnd = f[k + 1] - 1;
    const key = text.slice(f[k], keyEnd).trimEnd();
    if (key === '"slug"' || key === '"title"' || key === '"coordinates"' || key === '"featured"' || key === '"images"') raw[key] = text.slice(f[k + 1], f[k + 2]);
    if (!VARYING.has(key)) kept.push(text.slice(f[k], f[k + 2]));
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
  return { card: `{${kept.join(',')}`, marker, slug: raw['"slug"'].slice(1, -1) };
}

/** Collects packed cards one listing at a time (the pipeline) or from a whole listings file (the API's check). */
export class PackBuilder {
  private readonly cards: string[] = [];
  private readonly markers: string[] = [];
  readonly cardEnds: number[] = [];
  readonly markerEnds: number[] = [];
  readonly detailStarts: number[] = [];
  readonly detailEnds: number[] = [];
  readonly slugs: string[] = [];
  private cardLen = 0;
  private markerLen = 0;

  addCard(text: string, start = 0, end = text.length): void {
    const p = packCard(text, start, end);
    this.cards.push(p.card);
    this.markers.push(p.marker);
    this.cardLen += p.card.length;
    this.markerLen += p.marker.length;
    this.cardEnds.push(this.cardLen);
    this.markerEnds.push(this.markerLen);
    this.slugs.push(p.slug);
  }

  addDetail(start: number, end: number): void {
    this.detailStarts.push(start);
    this.detailEnds.push(end);
  }

  finish(): ListingPack {
    return {
      cards: this.cards.join(''), cardEnds: this.cardEnds, markers: this.markers.join(''), markerEnds: this.markerEnds,
      detailStarts: this.detailStarts, detailEnds: this.detailEnds,
    };
  }
}

/** The pack of a listings file text and a details file (the fixture; the API's background check). */
export function packOf(cardsText: string, details: Buffer | undefined): ListingPack & { slugs: string[] } {
  const b = new PackBuilder();
  const { starts, ends } = arrayElementOffsetsText(cardsText);
  for (let i = 0; i < starts.length; i++) {
    try {
      b.addCard(cardsText, starts[i], ends[i]);
    } catch (err) {
      throw new Error(`card ${i}: ${(err as Error).message}`);
    }
  }
  if (details) {
    const d = arrayElementOffsets(details);
    for (let i = 0; i < d.starts.length; i++) b.addDetail(d.starts[i], d.ends[i]);
  }
  return { ...b.finish(), slugs: b.slugs };
}

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
