import type { Locale } from '../../contract/common.ts';
import { MIN_SAMPLE_SIZE } from '../../contract/rules.ts';

/** Localized prose computed from the statistics: hub intros, short descriptions and FAQs. */

const NUMBER_LOCALE: Record<Locale, string> = { en: 'en-GB', de: 'de-DE', es: 'es-ES' };

export function formatMoney(amount: number, currency: string, locale: Locale): string {
  const whole = Math.abs(amount - Math.round(amount)) < 0.005;
  return new Intl.NumberFormat(NUMBER_LOCALE[locale], {
    style: 'currency',
    currency,
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: whole ? 0 : 2,
  }).format(amount);
}

export function formatCount(n: number, locale: Locale): string {
  return new Intl.NumberFormat(NUMBER_LOCALE[locale]).format(n);
}

function list(items: string[], locale: Locale): string {
  if (items.length <= 1) return items.join('');
  const and = { en: 'and', de: 'und', es: 'y' }[locale];
  return `${items.slice(0, -1).join(', ')} ${and} ${items[items.length - 1]}`;
}

function spaces(n: number, locale: Locale): string {
  const c = formatCount(n, locale);
  if (locale === 'en') return n === 1 ? `${c} coworking space` : `${c} coworking spaces`;
  if (locale === 'de') return n === 1 ? `${c} Coworking-Space` : `${c} Coworking-Spaces`;
  return n === 1 ? `${c} espacio de coworking` : `${c} espacios de coworking`;
}

function operators(n: number, locale: Locale): string {
  const c = formatCount(n, locale);
  if (locale === 'en') return n === 1 ? `${c} operator` : `${c} operators`;
  if (locale === 'de') return n === 1 ? `${c} Anbieter` : `${c} Anbietern`;
  return n === 1 ? `${c} operador` : `${c} operadores`;
}

export interface PriceStats {
  currency: string;
  sampleSize: number;
  /** present only when the sample reaches the threshold */
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

export function placeShortDescription(p: PlaceText, locale: Locale): string {
  if (locale === 'en') return `${spaces(p.propertyCount, locale)} in ${p.name}`;
  if (locale === 'de') return `${spaces(p.propertyCount, locale)} in ${p.name}`;
  return `${spaces(p.propertyCount, locale)} en ${p.name}`;
}

export function placeIntro(p: PlaceText, locale: Locale): string {
  const m = p.prices.median;
  const money = m === undefined ? null : formatMoney(m, p.prices.currency, locale);
  if (locale === 'en') {
    const head = `Desk Atlas lists ${spaces(p.propertyCount, locale)} in ${p.name}.`;
    return money ? `${head} A desk costs ${money} a month at the median of ${formatCount(p.prices.sampleSize, locale)} spaces with a published price.` : head;
  }
  if (locale === 'de') {
    const head = `Desk Atlas listet ${spaces(p.propertyCount, locale)} in ${p.name}.`;
    return money ? `${head} Ein Schreibtisch kostet im Median ${money} im Monat, ermittelt aus ${formatCount(p.prices.sampleSize, locale)} Spaces mit veröffentlichtem Preis.` : head;
  }
  const head = `Desk Atlas recoge ${spaces(p.propertyCount, locale)} en ${p.name}.`;
  return money ? `${head} Un puesto cuesta ${money} al mes según la mediana de ${formatCount(p.prices.sampleSize, locale)} espacios con precio publicado.` : head;
}

export function placeFaqs(p: PlaceText, locale: Locale): { question: string; answer: string }[] {
  const faqs: { question: string; answer: string }[] = [];
  const { median, min, max, sampleSize, currency } = p.prices;
  const n = formatCount(sampleSize, locale);
  const fm = (x: number) => formatMoney(x, currency, locale);
  const published = median !== undefined && min !== undefined && max !== undefined;
  if (locale === 'en') {
    faqs.push({
      question: `How much does a desk cost in ${p.name}?`,
      answer: published
        ? `The median monthly price of a desk in ${p.name} is ${fm(median)}, based on ${n} coworking spaces with a published monthly price (as of ${p.asOfDate}). Prices range from ${fm(min)} to ${fm(max)} per desk and month.`
        : `Too few spaces in ${p.name} publish a monthly desk price to give a reliable figure: ${n} of the ${MIN_SAMPLE_SIZE} needed. Desk Atlas publishes a median from ${MIN_SAMPLE_SIZE} spaces upwards.`,
    });
    faqs.push({
      question: `How many coworking spaces are there in ${p.name}?`,
      answer: p.propertyCount === 0
        ? `Desk Atlas does not list any coworking space in ${p.name} yet.`
        : `Desk Atlas lists ${spaces(p.propertyCount, locale)} in ${p.name}${p.operatorCount > 0 ? `; ${formatCount(p.operatedCount, locale)} of them run by ${operators(p.operatorCount, locale)}` : ''}.`,
    });
  } else if (locale === 'de') {
    faqs.push({
      question: `Was kostet ein Schreibtisch in ${p.name}?`,
      answer: published
        ? `Der Median für einen Schreibtisch in ${p.name} liegt bei ${fm(median)} im Monat, ermittelt aus ${n} Coworking-Spaces mit veröffentlichtem Monatspreis (Stand ${p.asOfDate}). Die Preise reichen von ${fm(min)} bis ${fm(max)} pro Schreibtisch und Monat.`
        : `Zu wenige Spaces in ${p.name} veröffentlichen einen Monatspreis für einen Schreibtisch, um eine verlässliche Zahl zu nennen: ${n} von ${MIN_SAMPLE_SIZE} nötigen. Desk Atlas veröffentlicht einen Median ab ${MIN_SAMPLE_SIZE} Spaces.`,
    });
    faqs.push({
      question: `Wie viele Coworking-Spaces gibt es in ${p.name}?`,
      answer: p.propertyCount === 0
        ? `Desk Atlas listet in ${p.name} noch keinen Coworking-Space.`
        : `Desk Atlas listet ${spaces(p.propertyCount, locale)} in ${p.name}${p.operatorCount > 0 ? `; ${formatCount(p.operatedCount, locale)} davon betrieben von ${operators(p.operatorCount, locale)}` : ''}.`,
    });
  } else {
    faqs.push({
      question: `¿Cuánto cuesta un puesto de trabajo en ${p.name}?`,
      answer: published
        ? `La mediana del precio mensual de un puesto en ${p.name} es de ${fm(median)}, a partir de ${n} espacios de coworking con precio mensual publicado (a ${p.asOfDate}). Los precios van de ${fm(min)} a ${fm(max)} por puesto y mes.`
        : `Demasiado pocos espacios en ${p.name} publican un precio mensual por puesto para dar una cifra fiable: ${n} de los ${MIN_SAMPLE_SIZE} necesarios. Desk Atlas publica una mediana a partir de ${MIN_SAMPLE_SIZE} espacios.`,
    });
    faqs.push({
      question: `¿Cuántos espacios de coworking hay en ${p.name}?`,
      answer: p.propertyCount === 0
        ? `Desk Atlas aún no recoge ningún espacio de coworking en ${p.name}.`
        : `Desk Atlas recoge ${spaces(p.propertyCount, locale)} en ${p.name}${p.operatorCount > 0 ? `; ${formatCount(p.operatedCount, locale)} de ellos gestionados por ${operators(p.operatorCount, locale)}` : ''}.`,
    });
  }
  const top = p.children.filter((c) => c.propertyCount > 0).slice(0, 3);
  if (p.childKind && top.length > 0) {
    const items = list(top.map((c) => `${c.name} (${formatCount(c.propertyCount, locale)})`), locale);
    const q = {
      zone: {
        en: `Which neighbourhoods of ${p.name} have the most coworking spaces?`,
        de: `In welchen Stadtteilen von ${p.name} gibt es die meisten Coworking-Spaces?`,
        es: `¿Qué barrios de ${p.name} tienen más espacios de coworking?`,
      },
      city: {
        en: `Which cities in ${p.name} have the most coworking spaces?`,
        de: `Welche Städte in ${p.name} haben die meisten Coworking-Spaces?`,
        es: `¿Qué ciudades de ${p.name} tienen más espacios de coworking?`,
      },
    }[p.childKind][locale];
    const a = { en: `${items}.`, de: `${items}.`, es: `${items}.` }[locale];
    faqs.push({ question: q, answer: a });
  }
  return faqs;
}

export interface OperatorText {
  name: string;
  propertyCount: number;
  cityNames: string[];
  verdict: 'below' | 'around' | 'above' | null;
  sampleSize: number;
}

export function operatorDescription(o: OperatorText, locale: Locale): string {
  const cities = formatCount(o.cityNames.length, locale);
  if (locale === 'en') return `${o.name} runs ${spaces(o.propertyCount, locale)} in ${cities} ${o.cityNames.length === 1 ? 'city' : 'cities'} listed on Desk Atlas.`;
  if (locale === 'de') return `${o.name} betreibt ${spaces(o.propertyCount, locale)} in ${cities} ${o.cityNames.length === 1 ? 'Stadt' : 'Städten'} auf Desk Atlas.`;
  return `${o.name} gestiona ${spaces(o.propertyCount, locale)} en ${cities} ${o.cityNames.length === 1 ? 'ciudad' : 'ciudades'} en Desk Atlas.`;
}

export function operatorFaqs(o: OperatorText, locale: Locale): { question: string; answer: string }[] {
  const where = list(o.cityNames, locale);
  const n = formatCount(o.sampleSize, locale);
  const verdictText = o.verdict && {
    en: { below: 'below', around: 'around', above: 'above' },
    de: { below: 'unter', around: 'etwa auf Höhe', above: 'über' },
    es: { below: 'por debajo de', around: 'en torno a', above: 'por encima de' },
  }[locale][o.verdict];
  if (locale === 'en') {
    return [
      { question: `Where does ${o.name} have coworking spaces?`, answer: o.propertyCount === 0 ? `Desk Atlas lists no space of ${o.name} at the moment.` : `${o.name} runs ${spaces(o.propertyCount, locale)} listed on Desk Atlas, in ${where}.` },
      { question: `How do ${o.name}'s prices compare?`, answer: verdictText ? `Across ${n} spaces with a monthly desk price, ${o.name} is ${verdictText} the median of its cities.` : `Fewer than ${MIN_SAMPLE_SIZE} of ${o.name}'s spaces publish a monthly desk price in a city with a published median (${n}), so no comparison is made.` },
    ];
  }
  if (locale === 'de') {
    return [
      { question: `Wo hat ${o.name} Coworking-Spaces?`, answer: o.propertyCount === 0 ? `Desk Atlas listet derzeit keinen Space von ${o.name}.` : `${o.name} betreibt ${spaces(o.propertyCount, locale)} auf Desk Atlas, in ${where}.` },
      { question: `Wie liegen die Preise von ${o.name} im Vergleich?`, answer: verdictText ? `Über ${n} Spaces mit Monatspreis pro Schreibtisch liegt ${o.name} ${verdictText} dem Median seiner Städte.` : `Weniger als ${MIN_SAMPLE_SIZE} Spaces von ${o.name} veröffentlichen einen Monatspreis pro Schreibtisch in einer Stadt mit veröffentlichtem Median (${n}), daher gibt es keinen Vergleich.` },
    ];
  }
  return [
    { question: `¿Dónde tiene ${o.name} espacios de coworking?`, answer: o.propertyCount === 0 ? `Desk Atlas no recoge ahora ningún espacio de ${o.name}.` : `${o.name} gestiona ${spaces(o.propertyCount, locale)} en Desk Atlas, en ${where}.` },
    { question: `¿Cómo son los precios de ${o.name} en comparación?`, answer: verdictText ? `En ${n} espacios con precio mensual por puesto, ${o.name} está ${verdictText} la mediana de sus ciudades.` : `Menos de ${MIN_SAMPLE_SIZE} espacios de ${o.name} publican un precio mensual por puesto en una ciudad con mediana publicada (${n}), así que no se hace la comparación.` },
  ];
}

export const FACET_KEY_LABELS = {
  country: { en: 'Country', de: 'Land', es: 'País' },
  city: { en: 'City', de: 'Stadt', es: 'Ciudad' },
  zone: { en: 'Neighbourhood', de: 'Stadtteil', es: 'Barrio' },
  operator: { en: 'Operator', de: 'Anbieter', es: 'Operador' },
  pricingOptionType: { en: 'Workspace type', de: 'Arbeitsplatztyp', es: 'Tipo de espacio' },
  amenities: { en: 'Amenities', de: 'Ausstattung', es: 'Servicios' },
} as const;
