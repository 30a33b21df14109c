import { byLocale, CURRENCIES, type Currency, type Locale } from '../../contract/common.ts';
import { MIN_SAMPLE_SIZE } from '../../contract/rules.ts';

/**
 * Localized prose computed from the statistics: hub intros, short descriptions and FAQs. Every
 * template is a Record<Locale, …>: a new locale does not compile until each has its text.
 */

const NUMBER_LOCALE: Record<Locale, string> = { en: 'en-GB', de: 'de-DE', es: 'es-ES' };

/** The number formats, made once: making an Intl.NumberFormat costs far more than formatting with one (thousands of hubs, several figures each). */
const forLocales = <T>(make: (numberLocale: string) => T) => byLocale((l) => make(NUMBER_LOCALE[l]));
const COUNT_FORMATS = forLocales((numberLocale) => new Intl.NumberFormat(numberLocale));
/** per locale and currency: whole amounts without cents, others with two decimals */
const MONEY_FORMATS = forLocales((numberLocale) => Object.fromEntries(CURRENCIES.map((currency) => {
  const format = (digits: number) => new Intl.NumberFormat(numberLocale, {
    style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits,
  });
  return [currency, { whole: format(0), cents: format(2) }];
})) as Record<Currency, { whole: Intl.NumberFormat; cents: Intl.NumberFormat }>);

export function formatMoney(amount: number, currency: string, locale: Locale): string {
  const formats = MONEY_FORMATS[locale][currency as Currency];
  if (!formats) throw new Error(`formatMoney: ${currency} is not one of ${CURRENCIES.join(', ')}`);
  const whole = Math.abs(amount - Math.round(amount)) < 0.005;
  return (whole ? formats.whole : formats.cents).format(amount);
}

export function formatCount(n: number, locale: Locale): string {
  return COUNT_FORMATS[locale].format(n);
}

const AND: Record<Locale, string> = { en: 'and', de: 'und', es: 'y' };

function list(items: string[], locale: Locale): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${AND[locale]} ${items[items.length - 1]}`;
}

/** A noun in singular and plural, per locale. */
type Noun = Record<Locale, [one: string, many: string]>;
const SPACE: Noun = {
  en: ['coworking space', 'coworking spaces'],
  de: ['Coworking-Space', 'Coworking-Spaces'],
  es: ['espacio de coworking', 'espacios de coworking'],
};
const OPERATOR: Noun = { en: ['operator', 'operators'], de: ['Anbieter', 'Anbietern'], es: ['operador', 'operadores'] };
const CITY: Noun = { en: ['city', 'cities'], de: ['Stadt', 'Städten'], es: ['ciudad', 'ciudades'] };

const noun = (words: Noun, n: number, locale: Locale) => words[locale][n === 1 ? 0 : 1];
const counted = (words: Noun, n: number, locale: Locale) => `${formatCount(n, locale)} ${noun(words, n, locale)}`;
const spaces = (n: number, locale: Locale) => counted(SPACE, n, locale);

export interface PriceStats {
  currency: string;
  sampleSize: number;
  /** present only when the sample is published */
  median?: number;
  min?: number;
  max?: number;
}

export interface PlaceText {
  name: string;
  propertyCount: number;
  operatorCount: number;
  /** listings run by an operator (the others are independent) */
  operatedCount: number;
  prices: PriceStats;
  /** children with listings, largest first: zones of a city, cities of a country */
  children: { name: string; propertyCount: number }[];
  childKind: 'zone' | 'city' | null;
  asOfDate: string;
}

const IN: Record<Locale, string> = { en: 'in', de: 'in', es: 'en' };

export function placeShortDescription(p: PlaceText, locale: Locale): string {
  return `${spaces(p.propertyCount, locale)} ${IN[locale]} ${p.name}`;
}

const INTRO: Record<Locale, { head: (spaces: string, name: string) => string; median: (money: string, sample: string) => string }> = {
  en: {
    head: (s, name) => `Desk Atlas lists ${s} in ${name}.`,
    median: (money, n) => `A desk costs ${money} a month at the median of ${n} spaces with a published price.`,
  },
  de: {
    head: (s, name) => `Desk Atlas listet ${s} in ${name}.`,
    median: (money, n) => `Ein Schreibtisch kostet im Median ${money} im Monat, ermittelt aus ${n} Spaces mit veröffentlichtem Preis.`,
  },
  es: {
    head: (s, name) => `Desk Atlas recoge ${s} en ${name}.`,
    median: (money, n) => `Un puesto cuesta ${money} al mes según la mediana de ${n} espacios con precio publicado.`,
  },
};

export function placeIntro(p: PlaceText, locale: Locale): string {
  const t = INTRO[locale];
  const head = t.head(spaces(p.propertyCount, locale), p.name);
  const m = p.prices.median;
  if (m === undefined) return head;
  return `${head} ${t.median(formatMoney(m, p.prices.currency, locale), formatCount(p.prices.sampleSize, locale))}`;
}

interface PlaceFaqTexts {
  priceQuestion: (name: string) => string;
  priceAnswer: (name: string, median: string, sample: string, asOf: string, min: string, max: string) => string;
  thinAnswer: (name: string, sample: string) => string;
  countQuestion: (name: string) => string;
  noSpaces: (name: string) => string;
  countAnswer: (spaces: string, name: string) => string;
  /** appended to countAnswer when the place has operators */
  runBy: (operated: string, operators: string) => string;
  childrenQuestion: Record<'zone' | 'city', (name: string) => string>;
}

const PLACE_FAQ: Record<Locale, PlaceFaqTexts> = {
  en: {
    priceQuestion: (name) => `How much does a desk cost in ${name}?`,
    priceAnswer: (name, median, n, asOf, min, max) =>
      `The median monthly price of a desk in ${name} is ${median}, based on ${n} coworking spaces with a published monthly price (as of ${asOf}). Prices range from ${min} to ${max} per desk and month.`,
    thinAnswer: (name, n) =>
      `Too few spaces in ${name} publish a monthly desk price to give a reliable figure: ${n} of the ${MIN_SAMPLE_SIZE} needed. Desk Atlas publishes a median from ${MIN_SAMPLE_SIZE} spaces upwards.`,
    countQuestion: (name) => `How many coworking spaces are there in ${name}?`,
    noSpaces: (name) => `Desk Atlas does not list any coworking space in ${name} yet.`,
    countAnswer: (s, name) => `Desk Atlas lists ${s} in ${name}`,
    runBy: (operated, ops) => `; ${operated} of them run by ${ops}`,
    childrenQuestion: {
      zone: (name) => `Which neighbourhoods of ${name} have the most coworking spaces?`,
      city: (name) => `Which cities in ${name} have the most coworking spaces?`,
    },
  },
  de: {
    priceQuestion: (name) => `Was kostet ein Schreibtisch in ${name}?`,
    priceAnswer: (name, median, n, asOf, min, max) =>
      `Der Median für einen Schreibtisch in ${name} liegt bei ${median} im Monat, ermittelt aus ${n} Coworking-Spaces mit veröffentlichtem Monatspreis (Stand ${asOf}). Die Preise reichen von ${min} bis ${max} pro Schreibtisch und Monat.`,
    thinAnswer: (name, n) =>
      `Zu wenige Spaces in ${name} veröffentlichen einen Monatspreis für einen Schreibtisch, um eine verlässliche Zahl zu nennen: ${n} von ${MIN_SAMPLE_SIZE} nötigen. Desk Atlas veröffentlicht einen Median ab ${MIN_SAMPLE_SIZE} Spaces.`,
    countQuestion: (name) => `Wie viele Coworking-Spaces gibt es in ${name}?`,
    noSpaces: (name) => `Desk Atlas listet in ${name} noch keinen Coworking-Space.`,
    countAnswer: (s, name) => `Desk Atlas listet ${s} in ${name}`,
    runBy: (operated, ops) => `; ${operated} davon betrieben von ${ops}`,
    childrenQuestion: {
      zone: (name) => `In welchen Stadtteilen von ${name} gibt es die meisten Coworking-Spaces?`,
      city: (name) => `Welche Städte in ${name} haben die meisten Coworking-Spaces?`,
    },
  },
  es: {
    priceQuestion: (name) => `¿Cuánto cuesta un puesto de trabajo en ${name}?`,
    priceAnswer: (name, median, n, asOf, min, max) =>
      `La mediana del precio mensual de un puesto en ${name} es de ${median}, a partir de ${n} espacios de coworking con precio mensual publicado (a ${asOf}). Los precios van de ${min} a ${max} por puesto y mes.`,
    thinAnswer: (name, n) =>
      `Demasiado pocos espacios en ${name} publican un precio mensual por puesto para dar una cifra fiable: ${n} de los ${MIN_SAMPLE_SIZE} necesarios. Desk Atlas publica una mediana a partir de ${MIN_SAMPLE_SIZE} espacios.`,
    countQuestion: (name) => `¿Cuántos espacios de coworking hay en ${name}?`,
    noSpaces: (name) => `Desk Atlas aún no recoge ningún espacio de coworking en ${name}.`,
    countAnswer: (s, name) => `Desk Atlas recoge ${s} en ${name}`,
    runBy: (operated, ops) => `; ${operated} de ellos gestionados por ${ops}`,
    childrenQuestion: {
      zone: (name) => `¿Qué barrios de ${name} tienen más espacios de coworking?`,
      city: (name) => `¿Qué ciudades de ${name} tienen más espacios de coworking?`,
    },
  },
};

export function placeFaqs(p: PlaceText, locale: Locale): { question: string; answer: string }[] {
  const t = PLACE_FAQ[locale];
  const { median, min, max, sampleSize, currency } = p.prices;
  const n = formatCount(sampleSize, locale);
  const fm = (x: number) => formatMoney(x, currency, locale);
  const published = median !== undefined && min !== undefined && max !== undefined;
  const runBy = p.operatorCount > 0 ? t.runBy(formatCount(p.operatedCount, locale), counted(OPERATOR, p.operatorCount, locale)) : '';
  const faqs = [
    {
      question: t.priceQuestion(p.name),
      answer: published ? t.priceAnswer(p.name, fm(median), n, p.asOfDate, fm(min), fm(max)) : t.thinAnswer(p.name, n),
    },
    {
      question: t.countQuestion(p.name),
      answer: p.propertyCount === 0 ? t.noSpaces(p.name) : `${t.countAnswer(spaces(p.propertyCount, locale), p.name)}${runBy}.`,
    },
  ];
  const top = p.children.filter((c) => c.propertyCount > 0).slice(0, 3);
  if (p.childKind && top.length > 0) {
    const items = list(top.map((c) => `${c.name} (${formatCount(c.propertyCount, locale)})`), locale);
    faqs.push({ question: t.childrenQuestion[p.childKind](p.name), answer: `${items}.` });
  }
  return faqs;
}

export type Verdict = 'below' | 'around' | 'above';

export interface OperatorText {
  name: string;
  propertyCount: number;
  cityNames: string[];
  verdict: Verdict | null;
  sampleSize: number;
}

const OPERATOR_DESCRIPTION: Record<Locale, (name: string, spaces: string, cities: string) => string> = {
  en: (name, s, cities) => `${name} runs ${s} in ${cities} listed on Desk Atlas.`,
  de: (name, s, cities) => `${name} betreibt ${s} in ${cities} auf Desk Atlas.`,
  es: (name, s, cities) => `${name} gestiona ${s} en ${cities} en Desk Atlas.`,
};

export function operatorDescription(o: OperatorText, locale: Locale): string {
  return OPERATOR_DESCRIPTION[locale](o.name, spaces(o.propertyCount, locale), counted(CITY, o.cityNames.length, locale));
}

interface OperatorFaqTexts {
  whereQuestion: (name: string) => string;
  noSpaces: (name: string) => string;
  whereAnswer: (name: string, spaces: string, where: string) => string;
  priceQuestion: (name: string) => string;
  verdict: Record<Verdict, string>;
  priceAnswer: (name: string, sample: string, verdict: string) => string;
  noComparison: (name: string, sample: string) => string;
}

const OPERATOR_FAQ: Record<Locale, OperatorFaqTexts> = {
  en: {
    whereQuestion: (name) => `Where does ${name} have coworking spaces?`,
    noSpaces: (name) => `Desk Atlas lists no space of ${name} at the moment.`,
    whereAnswer: (name, s, where) => `${name} runs ${s} listed on Desk Atlas, in ${where}.`,
    priceQuestion: (name) => `How do ${name}'s prices compare?`,
    verdict: { below: 'below', around: 'around', above: 'above' },
    priceAnswer: (name, n, verdict) => `Across ${n} spaces with a monthly desk price, ${name} is ${verdict} the median of its cities.`,
    noComparison: (name, n) =>
      `Fewer than ${MIN_SAMPLE_SIZE} of ${name}'s spaces publish a monthly desk price in a city with a published median (${n}), so no comparison is made.`,
  },
  de: {
    whereQuestion: (name) => `Wo hat ${name} Coworking-Spaces?`,
    noSpaces: (name) => `Desk Atlas listet derzeit keinen Space von ${name}.`,
    whereAnswer: (name, s, where) => `${name} betreibt ${s} auf Desk Atlas, in ${where}.`,
    priceQuestion: (name) => `Wie liegen die Preise von ${name} im Vergleich?`,
    verdict: { below: 'unter', around: 'etwa auf Höhe', above: 'über' },
    priceAnswer: (name, n, verdict) => `Über ${n} Spaces mit Monatspreis pro Schreibtisch liegt ${name} ${verdict} dem Median seiner Städte.`,
    noComparison: (name, n) =>
      `Weniger als ${MIN_SAMPLE_SIZE} Spaces von ${name} veröffentlichen einen Monatspreis pro Schreibtisch in einer Stadt mit veröffentlichtem Median (${n}), daher gibt es keinen Vergleich.`,
  },
  es: {
    whereQuestion: (name) => `¿Dónde tiene ${name} espacios de coworking?`,
    noSpaces: (name) => `Desk Atlas no recoge ahora ningún espacio de ${name}.`,
    whereAnswer: (name, s, where) => `${name} gestiona ${s} en Desk Atlas, en ${where}.`,
    priceQuestion: (name) => `¿Cómo son los precios de ${name} en comparación?`,
    verdict: { below: 'por debajo de', around: 'en torno a', above: 'por encima de' },
    priceAnswer: (name, n, verdict) => `En ${n} espacios con precio mensual por puesto, ${name} está ${verdict} la mediana de sus ciudades.`,
    noComparison: (name, n) =>
      `Menos de ${MIN_SAMPLE_SIZE} espacios de ${name} publican un precio mensual por puesto en una ciudad con mediana publicada (${n}), así que no se hace la comparación.`,
  },
};

export function operatorFaqs(o: OperatorText, locale: Locale): { question: string; answer: string }[] {
  const t = OPERATOR_FAQ[locale];
  const n = formatCount(o.sampleSize, locale);
  return [
    {
      question: t.whereQuestion(o.name),
      answer: o.propertyCount === 0 ? t.noSpaces(o.name) : t.whereAnswer(o.name, spaces(o.propertyCount, locale), list(o.cityNames, locale)),
    },
    { question: t.priceQuestion(o.name), answer: o.verdict ? t.priceAnswer(o.name, n, t.verdict[o.verdict]) : t.noComparison(o.name, n) },
  ];
}

export const FACET_KEY_LABELS = {
  country: { en: 'Country', de: 'Land', es: 'País' },
  city: { en: 'City', de: 'Stadt', es: 'Ciudad' },
  zone: { en: 'Neighbourhood', de: 'Stadtteil', es: 'Barrio' },
  operator: { en: 'Operator', de: 'Anbieter', es: 'Operador' },
  pricingOptionType: { en: 'Workspace type', de: 'Arbeitsplatztyp', es: 'Tipo de espacio' },
  amenities: { en: 'Amenities', de: 'Ausstattung', es: 'Servicios' },
} as const satisfies Record<string, Record<Locale, string>>;
