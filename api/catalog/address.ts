/**
 * The address filter (docs/design.md §7, rule 1; §3): streets compared after folding case, accents
 * and street-type abbreviations in en/de/es; house numbers as single numbers, ranges and suffixes.
 */

const STREET_TYPES: Record<string, string> = {
  // de
  str: 'strasse', strasse: 'strasse', strase: 'strasse',
  pl: 'platz', platz: 'platz',
  // es
  c: 'calle', cl: 'calle', cll: 'calle', calle: 'calle',
  av: 'avenida', avd: 'avenida', avda: 'avenida', avenida: 'avenida',
  ps: 'paseo', pso: 'paseo', po: 'paseo', paseo: 'paseo',
  pza: 'plaza', plza: 'plaza', pz: 'plaza', plaza: 'plaza',
  ctra: 'carretera', carretera: 'carretera',
  rda: 'ronda', ronda: 'ronda',
  // en
  st: 'street', street: 'street',
  rd: 'road', road: 'road',
  ave: 'avenue', avenue: 'avenue',
  ln: 'lane', lane: 'lane',
  dr: 'drive', drive: 'drive',
  blvd: 'boulevard', boulevard: 'boulevard',
  sq: 'square', square: 'square',
  ct: 'court', court: 'court',
  hwy: 'highway', highway: 'highway',
};
const STOP_WORDS = new Set(['de', 'del', 'la', 'las', 'el', 'los', 'd', 'l', 'the', 'of']);

export function fold(text: string): string {
  return text
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/º|ª/g, '')
    .normalize('NFD')
    .replace(/\p{M}/gu, '');
}

/** Street name to a comparison key: `Torstr. ` and `Tor Straße` and `torstrasse` give one key. */
export function streetKey(street: string): string {
  const tokens = fold(street).replace(/c\//g, 'calle ').split(/[^a-z0-9]+/).filter(Boolean);
  const out: string[] = [];
  for (const t of tokens) {
    if (STOP_WORDS.has(t)) continue;
    let word = STREET_TYPES[t] ?? t;
    // German compounds: Torstr / Torstrasse / Torstraße
    if (!STREET_TYPES[t]) {
      if (/..str$/.test(word)) word = `${word.slice(0, -3)}strasse`;
    }
    out.push(word);
  }
  return out.join('');
}

export interface HouseNumber { from: number; to: number; suffix: string }

export function parseHouseNumber(raw: string): HouseNumber | undefined {
  const m = /^\s*(\d+)\s*([a-z]?)\s*(?:[-–\/]\s*(\d+)\s*[a-z]?)?\s*$/.exec(fold(raw));
  if (!m) return undefined;
  const from = Number(m[1]);
  const to = m[3] ? Number(m[3]) : from;
  return { from: Math.min(from, to), to: Math.max(from, to), suffix: m[3] ? '' : m[2] };
}

/** Whether a house number asked for lies inside a listing's number or range. */
export function houseNumberMatches(listing: HouseNumber, asked: HouseNumber): boolean {
  if (listing.from !== listing.to || asked.from !== asked.to) {
    return asked.from <= listing.to && asked.to >= listing.from;
  }
  if (listing.from !== asked.from) return false;
  return !listing.suffix || !asked.suffix || listing.suffix === asked.suffix;
}

export interface AddressQuery { street: string; number?: HouseNumber }

const NUMBER_TOKEN = /^\d+[a-z]?(?:-\d+[a-z]?)?$/;

/**
 * "Torstraße 12", "12 Main St", "C/ Mayor, 10", "Av. Diagonal 640-642, 08019 Barcelona":
 * the street is the first comma part without its number; the number is the first number-like
 * token of that part, else a short second part.
 */
export function parseAddress(input: string): AddressQuery | undefined {
  const parts = fold(input).replace(/c\//g, 'calle ').split(',').map((p) => p.trim()).filter(Boolean);
  if (!parts.length) return undefined;
  const tokens = parts[0].replace(/\s*-\s*/g, '-').split(/[\s.]+/).filter(Boolean);
  let numberToken: string | undefined;
  const streetTokens: string[] = [];
  for (const t of tokens) {
    const clean = t.replace(/^[^a-z0-9]+|[^a-z0-9]+$/g, '');
    if (!numberToken && NUMBER_TOKEN.test(clean)) numberToken = clean;
    else streetTokens.push(t);
  }
  if (!numberToken && parts[1]) {
    const second = parts[1].replace(/\s*-\s*/g, '-').replace(/\s+/g, '');
    if (NUMBER_TOKEN.test(second)) numberToken = second;
  }
  const street = streetKey(streetTokens.join(' '));
  if (!street) return undefined;
  return { street, number: numberToken ? parseHouseNumber(numberToken) : undefined };
}
