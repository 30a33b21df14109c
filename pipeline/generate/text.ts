/** Names, addresses and templated copy of the invented spaces, in the locales it is written in. */
import { FALLBACK_LOCALE, LOCALES, type Locale } from '../../contract/common.ts';
import type { Rng } from './rng.ts';
import type { Country, Names, Written } from './geography.ts';

/** A text's CSV columns `<field>_<locale>`, in LOCALES order: empty where it is not written in the locale. */
export const localeCells = (text: (locale: Locale) => string | undefined): string[] => LOCALES.map((l) => text(l) ?? '');

/** A name inside a locale's copy: FALLBACK_LOCALE's where the locale has none, as a writer quotes an untranslated name. */
export const nameIn = (locale: Locale, names: Names): string => names[locale] ?? names[FALLBACK_LOCALE];

export function slugify(s: string): string {
  return s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/ß/g, 'ss').toLowerCase()
    .replace(/&/g, ' and ').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
}

/**
 * The ways real feeds write a street name: `Friedrichstraße`/`Friedrichstr.`/`Friedrichstrasse`,
 * `Calle de Alcalá`/`C/ Alcalá`/`Calle Alcalá`, `Avenida`/`Avda.`/`Av.`, `Street`/`St`,
 * `Road`/`Rd`, `Avenue`/`Ave`. The first form is the canonical one.
 */
export function streetForms(street: string, lang: Country['lang'] = 'es'): string[] {
  const forms = new Set<string>([street]);
  const m = /^(.*?)(straße|strasse)$/i.exec(street);
  if (m) {
    const ss = m[2][0] === 'S' ? ['Straße', 'Str.', 'Strasse'] : ['straße', 'str.', 'strasse'];
    for (const s of ss) forms.add(m[1] + s);
  }
  const es = /^(Calle|Carrer) (de la |del |de |d')?(.*)$/.exec(street);
  if (es) {
    forms.add(`C/ ${es[3]}`);
    forms.add(`${es[1]} ${es[3]}`);
  }
  const av = /^(Avenida|Avinguda) (.*)$/.exec(street);
  if (av) {
    if (lang === 'es') forms.add(`Avda. ${av[2]}`);
    forms.add(`Av. ${av[2]}`);
    if (av[1] === 'Avinguda') forms.add(`Avenida ${av[2]}`);
  }
  const paseo = /^Paseo (.*)$/.exec(street);
  if (paseo) forms.add(`P.º ${paseo[1]}`);
  const rua = /^Rua (.*)$/.exec(street);
  if (rua) forms.add(`R. ${rua[1]}`);
  const en = /^(.*) (Street|Road|Avenue|Boulevard)$/.exec(street);
  if (en) {
    const abbr = { Street: ['St', 'St.'], Road: ['Rd', 'Rd.'], Avenue: ['Ave', 'Ave.'], Boulevard: ['Blvd', 'Blvd.'] }[en[2]]!;
    for (const a of abbr) forms.add(`${en[1]} ${a}`);
  }
  if (street === 'Fifth Avenue') forms.add('5th Ave');
  if (street === 'Tenth Avenue') forms.add('10th Ave');
  const fr = /^(Boulevard|Avenue) (.*)$/.exec(street);
  if (fr) forms.add(`${fr[1] === 'Boulevard' ? 'Bd' : 'Av.'} ${fr[2]}`);
  return [...forms];
}

/** Canonical form most of the time, another written form otherwise. */
export function writeStreet(rng: Rng, street: string, lang: Country['lang']): string {
  const forms = streetForms(street, lang);
  if (forms.length === 1 || rng.chance(0.6)) return forms[0];
  return forms[1 + Math.floor(rng.next() * (forms.length - 1))];
}

export function houseNumber(rng: Rng, style: Country['addressStyle']): string {
  const max = style === 'us' ? 999 : style === 'en' ? 220 : style === 'ae' ? 60 : 160;
  const n = rng.int(1, max);
  const r = rng.next();
  if (style !== 'ae' && r < 0.07) {
    const start = n % 2 === 0 ? n : n + 1;
    return `${start}-${start + 2 * rng.int(1, 3)}`;
  }
  if (style !== 'us' && style !== 'ae' && r < 0.14) return `${n}${rng.pick(['a', 'a', 'b', 'c'])}`;
  return String(n);
}

export function postalCode(rng: Rng, templates: string[]): string {
  if (templates.length === 0) return '';
  const letters = 'ABDEFGHJLNPQRSTUWXYZ';
  return rng.pick(templates).replace(/[#@]/g, (c) =>
    c === '#' ? String(rng.int(0, 9)) : letters[rng.int(0, letters.length - 1)]);
}

const INTL_FIRST = ['Foundry', 'Loom', 'Lantern', 'Harbour', 'Orchard', 'Attic', 'Greenhouse', 'Kiln', 'Mill',
  'Anchor', 'Compass', 'Signal', 'Fern', 'Tandem', 'Parallel', 'Courtyard', 'Canopy', 'Beacon', 'Copper',
  'Paper', 'Cedar', 'Meridian', 'Quarry', 'Atelier', 'Hangar', 'Pilot', 'Nest', 'Bridge', 'Common', 'Juniper'];
const INTL_SECOND = ['Desks', 'Studio', 'Works', 'House', 'Rooms', 'Lab', 'Loft', 'Hall', 'Space', 'Collective',
  'Club', 'Base', 'Yard', 'Coworking'];
const LOCAL_NAMES: Partial<Record<Country['lang'], [string[], string[]]>> = {
  de: [['Kontor', 'Werkraum', 'Hinterhof', 'Dachgeschoss', 'Remise', 'Schreibstube', 'Werkbank', 'Kiezbüro'],
    ['Nord', 'Süd', 'Ost', 'West', 'am Kanal', 'im Hof', 'Eins', 'Zwei']],
  es: [['Espacio', 'Taller', 'Patio', 'Azotea', 'Claustro', 'Colmena', 'Buhardilla', 'Mesa'],
    ['Norte', 'Sur', 'Central', 'del Puerto', 'Azul', 'Verde', 'Uno', 'Común']],
  fr: [['Atelier', 'Comptoir', 'Verrière', 'Bureau', 'Cour'], ['Nord', 'Sud', 'Central', 'des Arts', 'du Canal']],
  nl: [['Werkplaats', 'Pakhuis', 'Zolder', 'Kantoortuin'], ['Noord', 'Zuid', 'Oost', 'aan het Water']],
  pt: [['Oficina', 'Armazém', 'Pátio', 'Claustro'], ['Norte', 'Sul', 'do Rio', 'Azul']],
  it: [['Officina', 'Bottega', 'Cortile', 'Loggia', 'Magazzino'], ['Nord', 'Sud', 'Centrale', 'del Porto', 'Verde']],
};

export function independentName(rng: Rng, lang: Country['lang']): string {
  const local = LOCAL_NAMES[lang];
  if (local && rng.chance(0.35)) return `${rng.pick(local[0])} ${rng.pick(local[1])}`;
  if (rng.chance(0.15)) return `The ${rng.pick(INTL_FIRST)} ${rng.pick(INTL_SECOND)}`;
  return `${rng.pick(INTL_FIRST)} ${rng.pick(INTL_SECOND)}`;
}

type OfferKind = 'private_office' | 'exclusive_bereich' | 'fix_desk' | 'flex_desk' | 'day_pass' |
  'meeting_room' | 'virtual_office' | 'event_space' | 'membership';

/** Copy in the language an operator publishes in: English where there is none in its language. */
type InLanguage<T> = Partial<Record<Country['lang'], T>> & { en: T };
const inLanguage = <T>(table: InLanguage<T>, lang: Country['lang']): T => table[lang] ?? table.en;

const TITLES: Record<OfferKind, InLanguage<string[]>> = {
  flex_desk: { en: ['Flex desk', 'Hot desk', 'Flexible desk membership'], de: ['Flex Desk', 'Flexibler Arbeitsplatz'], es: ['Puesto flexible', 'Mesa flexible'] },
  fix_desk: { en: ['Dedicated desk', 'Fixed desk'], de: ['Fester Arbeitsplatz', 'Fix Desk'], es: ['Puesto fijo', 'Mesa fija'] },
  private_office: { en: ['Private office'], de: ['Privatbüro'], es: ['Despacho privado'] },
  exclusive_bereich: { en: ['Exclusive team area'], de: ['Exklusiver Bereich'], es: ['Área exclusiva'] },
  membership: { en: ['Part-time membership (10 days)', 'Community membership'], de: ['Teilzeit-Mitgliedschaft (10 Tage)', 'Community-Mitgliedschaft'], es: ['Membresía a tiempo parcial (10 días)', 'Membresía de comunidad'] },
  virtual_office: { en: ['Virtual office', 'Business address'], de: ['Virtuelles Büro', 'Geschäftsadresse'], es: ['Oficina virtual', 'Domiciliación'] },
  day_pass: { en: ['Day pass'], de: ['Tagespass', 'Tageskarte'], es: ['Pase de día', 'Bono de un día'] },
  meeting_room: { en: ['Meeting room', 'Boardroom'], de: ['Besprechungsraum', 'Konferenzraum'], es: ['Sala de reuniones', 'Sala de juntas'] },
  event_space: { en: ['Event space', 'Event hall'], de: ['Eventfläche', 'Veranstaltungsraum'], es: ['Espacio para eventos', 'Sala de eventos'] },
};

/** Offer titles are written in the language the operator publishes in. */
export function offerTitle(rng: Rng, kind: OfferKind, lang: Country['lang'], minCap: number | null, maxCap: number | null, people: number | null): string {
  const base = rng.pick(inLanguage(TITLES[kind], lang));
  if ((kind === 'private_office' || kind === 'exclusive_bereich') && maxCap !== null) {
    const range = minCap !== null && minCap !== maxCap ? `${minCap}–${maxCap}` : String(maxCap);
    const unit = inLanguage({ en: 'desks', de: 'Arbeitsplätze', es: 'puestos' }, lang);
    return `${base} (${range} ${unit})`;
  }
  if (kind === 'meeting_room' && people !== null) {
    const unit = inLanguage({ en: 'people', de: 'Personen', es: 'personas' }, lang);
    return `${base} (${people} ${unit})`;
  }
  return base;
}

export type Profile = 'coworking' | 'business_centre' | 'studio';

const EXCERPT: Record<Profile, Written<(place: string, a: string, b: string) => string>> = {
  coworking: {
    en: (p, a, b) => `Coworking in ${p} with flexible desks, ${a} and ${b}.`,
    de: (p, a, b) => `Coworking in ${p}: flexible Arbeitsplätze, ${a}, ${b}.`,
    es: (p, a, b) => `Coworking en ${p} con puestos flexibles, ${a} y ${b}.`,
  },
  business_centre: {
    en: (p, a, b) => `Serviced offices in ${p}: private offices, ${a} and ${b}.`,
    de: (p, a, b) => `Serviced Offices in ${p}: Privatbüros, ${a}, ${b}.`,
    es: (p, a, b) => `Oficinas con servicios en ${p}: despachos privados, ${a} y ${b}.`,
  },
  studio: {
    en: (p, a, b) => `A small shared studio in ${p} with ${a} and ${b}.`,
    de: (p, a, b) => `Kleines Gemeinschaftsstudio in ${p}: ${a}, ${b}.`,
    es: (p, a, b) => `Un pequeño estudio compartido en ${p} con ${a} y ${b}.`,
  },
};

export function label(loc: Locale, names: Names): string {
  const s = nameIn(loc, names);
  if (loc === 'de' || s === 'Wi-Fi') return s;
  return s.charAt(0).toLowerCase() + s.slice(1);
}

export function excerpt(loc: Locale, profile: Profile, place: string, a: string, b: string): string | undefined {
  return EXCERPT[profile][loc]?.(place, a, b);
}

interface SpaceFacts {
  name: string; profile: Profile; place: string; street: string; capacity: number | null;
  operator: string | null; amenities: string[]; features: string;
}

const DESCRIPTION: Written<(o: SpaceFacts, list: string | null) => string[]> = {
  en: (o, list) => [
    `${o.name} is ${o.profile === 'business_centre' ? 'a business centre' : o.profile === 'studio' ? 'a shared studio' : 'a coworking space'} in ${o.place} (${o.street}).`,
    ...(o.capacity !== null ? [`It has room for about ${o.capacity} people.`] : []),
    ...(list ? [`Members can use: ${list}.`] : []),
    o.features,
    ...(o.operator ? [`Run by ${o.operator}.`] : []),
  ],
  de: (o, list) => [
    `${o.name} ist ${o.profile === 'business_centre' ? 'ein Business Center' : o.profile === 'studio' ? 'ein Gemeinschaftsstudio' : 'ein Coworking-Space'} in ${o.place} (${o.street}).`,
    ...(o.capacity !== null ? [`Platz gibt es für etwa ${o.capacity} Personen.`] : []),
    ...(list ? [`Ausstattung: ${list}.`] : []),
    o.features,
    ...(o.operator ? [`Betrieben von ${o.operator}.`] : []),
  ],
  es: (o, list) => [
    `${o.name} es ${o.profile === 'business_centre' ? 'un centro de negocios' : o.profile === 'studio' ? 'un estudio compartido' : 'un espacio de coworking'} en ${o.place} (${o.street}).`,
    ...(o.capacity !== null ? [`Tiene capacidad para unas ${o.capacity} personas.`] : []),
    ...(list ? [`Servicios: ${list}.`] : []),
    o.features,
    ...(o.operator ? [`Gestionado por ${o.operator}.`] : []),
  ],
};

export function description(loc: Locale, o: SpaceFacts): string | undefined {
  return DESCRIPTION[loc]?.(o, o.amenities.length > 0 ? o.amenities.join(', ') : null).join(' ');
}

export const FEATURES: Names[] = [
  { en: 'Quiet zones and bright open-plan rooms.', de: 'Ruhezonen und helle Großraumflächen.', es: 'Zonas de silencio y salas diáfanas muy luminosas.' },
  { en: 'Close to public transport.', de: 'Gut an den Nahverkehr angebunden.', es: 'Bien comunicado en transporte público.' },
  { en: 'Short-term contracts from one month.', de: 'Kurze Laufzeiten ab einem Monat.', es: 'Contratos cortos desde un mes.' },
  { en: 'A regular programme of talks and breakfasts.', de: 'Regelmäßige Vorträge und Frühstücke.', es: 'Charlas y desayunos periódicos.' },
  { en: 'Set in a converted industrial building.', de: 'In einem umgebauten Industriegebäude.', es: 'En un antiguo edificio industrial rehabilitado.' },
  { en: 'Staffed reception on weekdays.', de: 'Besetzter Empfang an Werktagen.', es: 'Recepción atendida los días laborables.' },
];

export const TAGLINES: Names[] = [
  { en: 'Desks and offices by the month', de: 'Arbeitsplätze und Büros auf Monatsbasis', es: 'Puestos y oficinas por meses' },
  { en: 'Workspace for small teams', de: 'Arbeitsraum für kleine Teams', es: 'Espacio de trabajo para equipos pequeños' },
  { en: 'Serviced offices, ready on day one', de: 'Serviced Offices, bezugsfertig ab dem ersten Tag', es: 'Oficinas con servicios, listas desde el primer día' },
  { en: 'A community of independent workers', de: 'Eine Gemeinschaft von Selbstständigen', es: 'Una comunidad de profesionales independientes' },
  { en: 'Flexible space in the city centre', de: 'Flexible Flächen im Stadtzentrum', es: 'Espacios flexibles en el centro de la ciudad' },
];

export const IMAGE_ALTS = ['open-plan desks', 'meeting room', 'lounge', 'entrance', 'kitchen'];
