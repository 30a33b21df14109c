/**
 * The words of the public pages in every locale. Titles of the pages themselves come from the
 * citation (api/http/citation.ts), so a page and the citation that links to it say the same.
 */
import { byLocale, CURRENCIES, type BillingPeriod, type Currency, type Locale } from '../../contract/common.ts';
import type { Duration } from '../../contract/leads.ts';
import {
  DOMINANT_OPERATOR_SHARE, INDEX_BASE, LOW_RELIABILITY_SAMPLE_SIZE, MEDIAN_INTERVAL_LEVEL, MIN_SAMPLE_SIZE, QUALITY_FLAG_LETTERS, STALE_PRICE_DAYS,
  NEUTRAL_TERM, RANKING_WEIGHTS, RATING_PRIOR_REVIEWS, VALUE_CAP,
} from '../../contract/rules.ts';

export interface PageStrings {
  languageName: string;
  skipToContent: string;
  nav: { home: string; priceIndex: string; prices: string; docs: string; label: string; languages: string; breadcrumb: string };
  intro: (service: string) => string;
  homeLead: string;
  countries: string;
  cities: string;
  zones: string;
  spaces: string;
  operators: string;
  faq: string;
  propertyCount: (n: number) => string;
  operatorCount: (n: number) => string;
  medianPerDesk: string;
  priceRange: string;
  sampleOf: (n: number) => string;
  address: string;
  operator: string;
  city: string;
  country: string;
  capacityHeading: string;
  capacity: (n: number) => string;
  rating: (score: number, count: number) => string;
  /** the empty corner above a price table's periods */
  periodHeading: string;
  /** the alt text of a space's photo: the input's own alt is written in FALLBACK_LOCALE only */
  photoOf: (title: string) => string;
  /** what the sample-data notice says, in the locale; source.json's description is in FALLBACK_LOCALE only */
  sampleDataText: string;
  /** the methodology in brief, in the locale, above its text; and which language that text is in */
  methodologySummary: string[];
  methodologyLanguage: string;
  /** the best-of page's "how the score works", stating RANKING_WEIGHTS, RATING_PRIOR_REVIEWS and VALUE_CAP */
  scoreHow: { heading: string; lead: string; formula: string; rating: string; value: string; amenities: string; ties: string };
  /** the meta description of a page of spaces in a place, of a space without a text, of an operator */
  describePlace: (place: string, spaces: number) => string;
  describeOperator: (operator: string, spaces: number) => string;
  amenities: string;
  pricing: string;
  option: string;
  price: string;
  period: Record<BillingPeriod, string>;
  onRequest: string;
  desks: (min: number | undefined, max: number | undefined) => string;
  marketPosition: Record<'below' | 'around' | 'above', string>;
  rank: string;
  score: string;
  ratingHeading: string;
  amenityCount: string;
  entryPrice: string;
  /** before a card's comparablePrice, on a list ordered by price */
  comparablePrice: string;
  noReviews: string;
  rankingNote: string;
  product: string;
  allDesks: string;
  median: string;
  average: string;
  min: string;
  max: string;
  sampleSize: string;
  p25: string;
  p75: string;
  medianAgeDays: string;
  staleShare: string;
  largestOperatorShare: string;
  flags: string;
  flagMeaning: Record<keyof typeof QUALITY_FLAG_LETTERS, string>;
  notPublished: string;
  thinSample: string;
  /** the sample panel's line at MIN_SAMPLE_SIZE */
  publicationThreshold: string;
  /** the history chart's panel of the chained matched-model index, and its line at INDEX_BASE */
  sameSpacesIndex: string;
  indexBase: string;
  /** a point of that panel: the index and the spaces its link matched */
  indexOf: (index: string, matched: string) => string;
  /** the median's confidence interval: its column, and its reading in a cell's title */
  medianInterval: string;
  historyIndexNote: string;
  perDeskMonth: (currency: string) => string;
  chartIndexCaption: (currency: string) => string;
  chartCityCaption: (city: string) => string;
  chartTableNote: string;
  byCity: string;
  cityIndexLink: string;
  pricesLead: string;
  priceIndexLead: string;
  methodology: string;
  methodologyMissing: string;
  history: string;
  month: string;
  historyIndexCaption: (currency: string) => string;
  historyCityCaption: (city: string) => string;
  /** under a history chart that greys out all but its largest series */
  historyOthers: (others: number) => string;
  downloads: string;
  json: string;
  csv: string;
  priceReport: string;
  dataPackage: string;
  apiDocs: string;
  cite: string;
  bibtex: string;
  release: (id: string) => string;
  bulkData: string;
  asOf: (date: string) => string;
  footer: (service: string) => string;
  license: string;
  buildId: string;
  sampleData: string;
  notFound: string;
  notFoundText: string;
  enquiry: EnquiryStrings;
  /** addresses: error pages, the index by country */
  serverError: string;
  serverErrorText: string;
  errorReference: string;
  indexByCountry: string;
  indexByCountryCaption: string;
  currency: string;
  publishedCities: string;
  allCountries: string;
  allCitiesOf: (n: number, country: string) => string;
}

/** The enquiry forms (api/site/enquiry.ts): labels, messages beside the fields, the confirmation. */
export interface EnquiryStrings {
  contactTitle: string;
  contactLead: string;
  spaceHeading: string;
  spaceLead: (space: string) => string;
  /** the title of the form alone, for a space (shown again with its errors) */
  spaceTitle: (space: string) => string;
  fields: Record<'name' | 'email' | 'phone' | 'company' | 'subject' | 'desks' | 'moveInDate' | 'duration' | 'message', string>;
  optional: string;
  durations: Record<Duration, string>;
  noDuration: string;
  honeypot: string;
  privacy: string;
  send: string;
  challengeNoScript: string;
  problem: string;
  errorTitle: (title: string) => string;
  required: string;
  tooLong: (max: number) => string;
  atLeast: (min: number) => string;
  atMost: (max: number) => string;
  wholeNumber: string;
  email: string;
  date: string;
  option: string;
  invalid: string;
  notSent: string;
  challengeFailed: string;
  conflict: string;
  unavailable: string;
  rateLimited: (minutes: number) => string;
  sentTitle: string;
  sentLead: string;
  reference: string;
  sentNext: string;
  sentSpace: (space: string) => string;
  backToSpace: (space: string) => string;
  backHome: string;
  /** the form's Markdown twin: where a person sends it, and how an app does */
  twinForm: string;
  twinApi: string;
}

const MONEY_FORMATS = byLocale((l) => Object.fromEntries(CURRENCIES.map((currency) => {
  const style = { style: 'currency', currency } as const;
  return [currency, { whole: new Intl.NumberFormat(l, { ...style, maximumFractionDigits: 0 }), cents: new Intl.NumberFormat(l, { ...style, minimumFractionDigits: 2 }) }];
})) as Record<Currency, { whole: Intl.NumberFormat; cents: Intl.NumberFormat }>);

/** Money as the locale writes it (the operator's currency, never converted); cents only when there are any. */
export function formatMoney(locale: Locale, m: { amount: number; currency: string }): string {
  const f = MONEY_FORMATS[locale][m.currency as Currency];
  return (Number.isInteger(m.amount) ? f.whole : f.cents).format(m.amount);
}

// made once: the price index page formats ~100,000 values at 100,000 spaces
const NUMBER_FORMATS = byLocale((l) => new Intl.NumberFormat(l, { maximumFractionDigits: 2 }));
const SHARE_FORMATS = byLocale((l) => new Intl.NumberFormat(l, { style: 'percent', maximumFractionDigits: 0 }));
const DATE_FORMATS = byLocale((l) => new Intl.DateTimeFormat(l, { dateStyle: 'long', timeZone: 'UTC' }));
const DATE_TIME_FORMATS = byLocale((l) => new Intl.DateTimeFormat(l, {
  year: 'numeric', month: 'long', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: 'UTC', timeZoneName: 'short',
}));

/** A plain number (a sample size, a chart's tick) as the locale writes it: 1,500 / 1.500 / 1500. */
export const formatNumber = (locale: Locale, n: number) => NUMBER_FORMATS[locale].format(n);

/** A share (0–1) as a whole percentage in the locale. */
export const formatShare = (locale: Locale, share: number) => SHARE_FORMATS[locale].format(share);

/** A date-time of the build as a calendar date in the locale (UTC). */
export const formatDate = (locale: Locale, iso: string) => DATE_FORMATS[locale].format(new Date(iso));

/** A date-time of the build as the locale writes it, in UTC and saying so. */
export const formatDateTime = (locale: Locale, iso: string) => DATE_TIME_FORMATS[locale].format(new Date(iso));

/** The first instant of a month of the history (`2026-03`), UTC. */
export const monthDate = (month: string) => new Date(`${month}-01T00:00:00Z`);

const MONTH_FORMATS = byLocale((l) => new Intl.DateTimeFormat(l, { month: 'short', year: 'numeric', timeZone: 'UTC' }));

/** Month labels as the locale writes them ("Mar 2026", "März 2026", "mar 2026"). */
export const formatMonth = (locale: Locale, month: string) => MONTH_FORMATS[locale].format(monthDate(month));

/** A noun's forms by plural category of Intl.PluralRules; `other` stands in for a category it lacks. */
type Forms = { other: string } & Partial<Record<Intl.LDMLPluralRule, string>>;

const PLURAL_RULES = byLocale((l) => new Intl.PluralRules(l));

/** A count and its noun in the form the locale's plural rules choose: "1 review", "2 Bewertungen", "1.500 reseñas". */
export const countOf = (locale: Locale, n: number, forms: Forms) =>
  `${formatNumber(locale, n)} ${forms[PLURAL_RULES[locale].select(n)] ?? forms.other}`;

/** A range of counts ("2–4 people"), or one count when both ends agree or one is missing. */
const rangeOf = (locale: Locale, min: number | undefined, max: number | undefined, forms: Forms) =>
  (min && max && min !== max ? `${formatNumber(locale, min)}–${countOf(locale, max, forms)}` : countOf(locale, max ?? min ?? 0, forms));

const SPACES = {
  en: { one: 'space', other: 'spaces' }, de: { one: 'Space', other: 'Spaces' }, es: { one: 'espacio', other: 'espacios' },
} satisfies Record<Locale, Forms>;
const PEOPLE = {
  en: { one: 'person', other: 'people' }, de: { one: 'Person', other: 'Personen' }, es: { one: 'persona', other: 'personas' },
} satisfies Record<Locale, Forms>;

const sample = (locale: Locale, n: number) => `n = ${countOf(locale, n, SPACES[locale])}`;

/** The score's formula with the locale's decimals; R, V and A are the terms' symbols in every locale. */
const scoreFormula = (locale: Locale, score: string) => {
  const w = (x: number) => formatNumber(locale, x);
  return `${score} = 100 × (${w(RANKING_WEIGHTS.rating)} × R + ${w(RANKING_WEIGHTS.value)} × V + ${w(RANKING_WEIGHTS.amenities)} × A)`;
};

export const STRINGS: Record<Locale, PageStrings> = {
  en: {
    languageName: 'English',
    skipToContent: 'Skip to content',
    nav: { home: 'Home', priceIndex: 'Price index', prices: 'Prices by city', docs: 'API', label: 'Main', languages: 'Language', breadcrumb: 'Where this is' },
    intro: (s) => `${s} is an open catalogue of coworking spaces and private offices, with a per-city price index under CC BY 4.0.`,
    homeLead: 'Browse by country and city, compare prices per desk, or download the data as JSON and CSV.',
    countries: 'Countries',
    cities: 'Cities',
    zones: 'Neighbourhoods',
    spaces: 'Spaces',
    operators: 'Operators',
    faq: 'Frequently asked questions',
    propertyCount: (n) => countOf('en', n, SPACES.en),
    operatorCount: (n) => countOf('en', n, { one: 'operator', other: 'operators' }),
    medianPerDesk: 'Median monthly price per desk',
    priceRange: 'Price range per desk and month',
    sampleOf: (n) => sample('en', n),
    address: 'Address',
    operator: 'Operator',
    city: 'City',
    country: 'Country',
    capacityHeading: 'Capacity',
    capacity: (n) => `Room for about ${countOf('en', n, PEOPLE.en)}`,
    rating: (s, c) => `Rated ${formatNumber('en', s)} of 5 (${countOf('en', c, { one: 'review', other: 'reviews' })})`,
    periodHeading: 'Period',
    photoOf: (title) => `Photo of ${title}`,
    sampleDataText: 'The places are real; the operators, spaces and prices are invented.',
    methodologySummary: [
      `Prices are compared per desk and month: week and year prices as their monthly equivalent, offices divided by their desks; day, hour and one-off prices count in no monthly figure.`,
      `Each space counts once per product, at its cheapest price. A median is published from ${MIN_SAMPLE_SIZE} spaces, with its ${MEDIAN_INTERVAL_LEVEL * 100} % confidence interval and quality flags.`,
      `The monthly history follows the same rules at each month's end; the same-spaces index compares only spaces priced in both months.`,
    ],
    methodologyLanguage: 'The full methodology:',
    scoreHow: {
      heading: 'How the score works',
      lead: `The score ranks the spaces of this city from 0 to 100: ${formatShare('en', RANKING_WEIGHTS.rating)} rating, ${formatShare('en', RANKING_WEIGHTS.value)} value and ${formatShare('en', RANKING_WEIGHTS.amenities)} amenities.`,
      formula: scoreFormula('en', 'score'),
      rating: `R, rating: the space's average rating out of 5, with the city's mean rating counted as ${RATING_PRIOR_REVIEWS} extra reviews, so that a few reviews weigh less; ${formatNumber('en', NEUTRAL_TERM)} for every space when the city has no reviews.`,
      value: `V, value: the city's median monthly price per desk divided by the space's own, at most ${VALUE_CAP}, divided by ${VALUE_CAP}; ${formatNumber('en', NEUTRAL_TERM)} when either is unknown. Day, hour and one-off prices are left out.`,
      amenities: 'A, amenities: the number of the space\'s amenities divided by the most any space in the city has.',
      ties: 'Equal scores are ordered by the space\'s address on this site.',
    },
    describePlace: (place, n) => `${countOf('en', n, SPACES.en)} for coworking in ${place}, with their prices per desk and month.`,
    describeOperator: (operator, n) => `${operator}: ${countOf('en', n, SPACES.en)} for coworking, with their prices.`,
    amenities: 'Amenities',
    pricing: 'Prices',
    option: 'Option',
    price: 'Price',
    period: { month: 'per month', day: 'per day', hour: 'per hour', week: 'per week', year: 'per year', once: 'once' },
    onRequest: 'on request',
    desks: (min, max) => rangeOf('en', min, max, PEOPLE.en),
    marketPosition: { below: 'below the city median', around: 'around the city median', above: 'above the city median' },
    rank: 'Rank',
    score: 'Score',
    ratingHeading: 'Rating',
    amenityCount: 'Amenities',
    entryPrice: 'From',
    comparablePrice: 'Comparable price',
    noReviews: 'This city has no review data: the score weighs value and amenities only.',
    rankingNote: 'The score ranks spaces within this city only; it is never comparable across cities.',
    product: 'Product',
    allDesks: 'All desk products',
    median: 'Median',
    average: 'Average',
    min: 'Minimum',
    max: 'Maximum',
    sampleSize: 'Sample (spaces)',
    p25: 'Lower quartile',
    p75: 'Upper quartile',
    medianAgeDays: 'Median age of the prices (days)',
    staleShare: `Prices older than ${STALE_PRICE_DAYS} days`,
    largestOperatorShare: 'Largest operator\'s share of the spaces',
    flags: 'Flags',
    flagMeaning: {
      stalePrices: `stale prices: their median age exceeds ${STALE_PRICE_DAYS} days`,
      breakInSeries: `break in the series: the month before was not published while an earlier one was, or the same-spaces index starts again at ${INDEX_BASE}`,
      dominantOperator: `dominant operator: one operator runs ${DOMINANT_OPERATOR_SHARE * 100} % or more of the spaces`,
      lowReliability: `low reliability: fewer than ${LOW_RELIABILITY_SAMPLE_SIZE} spaces`,
    },
    notPublished: `not published (fewer than ${MIN_SAMPLE_SIZE} spaces)`,
    thinSample: `thin sample (fewer than ${MIN_SAMPLE_SIZE} spaces)`,
    publicationThreshold: `published from ${MIN_SAMPLE_SIZE} spaces`,
    sameSpacesIndex: `Same spaces, index (${INDEX_BASE} = base month)`,
    indexBase: `base ${INDEX_BASE}`,
    indexOf: (index, matched) => `index ${index} (${matched} spaces priced in both months)`,
    medianInterval: `Median, ${MEDIAN_INTERVAL_LEVEL * 100} % interval`,
    historyIndexNote: `The median describes whichever spaces are priced that month; when spaces join or leave, it moves although no price changed. The index compares the same spaces month to month (${INDEX_BASE} at a base month; it starts again at ${INDEX_BASE}, flagged b, after a month it cannot link).`,
    perDeskMonth: (c) => `${c} per desk and month`,
    chartIndexCaption: (c) => `Median monthly price per desk in ${c}, by city and product; the bar is all desk products, n its sample of spaces.`,
    chartCityCaption: (c) => `Median monthly price per desk in ${c} by product; n is the sample of spaces.`,
    chartTableNote: 'The table below the chart holds the same figures.',
    byCity: 'By city',
    cityIndexLink: 'Prices in this city',
    pricesLead: 'Median, minimum and maximum monthly price per desk in each city, by product, with the sample of spaces behind each figure.',
    priceIndexLead: 'Median, average, minimum and maximum monthly price per desk per city and desk product, from the prices operators publish.',
    methodology: 'Methodology',
    methodologyMissing: 'This build ships no methodology file; the methodology is in the repository (pipeline/methodology.md).',
    history: 'Monthly history',
    month: 'Month',
    historyIndexCaption: (c) => `Median monthly price per desk in ${c} at each month's end, by city (all desk products).`,
    historyCityCaption: (c) => `Median monthly price per desk in ${c} at each month's end, by product; a gap is a month below the sample threshold.`,
    historyOthers: (n) => `In colour the cities with the largest samples; in grey ${countOf('en', n, { one: 'other', other: 'others' })}: each city's own chart is on its price page, linked from the table.`,
    downloads: 'Data',
    json: 'JSON',
    csv: 'CSV',
    priceReport: 'Price report',
    dataPackage: 'Data package (Frictionless)',
    apiDocs: 'API reference',
    cite: 'Cite this page',
    bibtex: 'BibTeX',
    release: (id) => `Release ${id}: the files of this build, never rewritten`,
    bulkData: 'Every listing and its current offers (Parquet, CSV)',
    asOf: (d) => `Data as of ${d}`,
    footer: (s) => `Data from ${s}, licensed under`,
    license: 'Licence',
    buildId: 'build',
    sampleData: 'Sample data, not real prices.',
    notFound: 'Page not found',
    notFoundText: 'There is nothing at this address. It may have been removed in a newer build of the data.',
    enquiry: {
      contactTitle: 'Contact',
      contactLead: 'A question about the catalogue, the price data or a listing? Write to us; we answer by email.',
      spaceHeading: 'Enquire about this space',
      spaceLead: (space) => `Your enquiry reaches our team and, where we have their address, the operator of ${space}. We answer by email; nothing is booked or signed.`,
      spaceTitle: (space) => `Enquiry: ${space}`,
      fields: { name: 'Your name', email: 'Email', phone: 'Phone', company: 'Company', subject: 'Subject', desks: 'Desks', moveInDate: 'Move-in date', duration: 'For how long', message: 'Message' },
      optional: 'optional',
      durations: { hours: 'Hours', days: 'Days', weeks: 'Weeks', months: 'Months', years: 'Years' },
      noDuration: 'Not sure yet',
      honeypot: 'Leave this field empty',
      privacy: 'We use your details only to answer this enquiry.',
      send: 'Send enquiry',
      challengeNoScript: 'The check that you are a person needs JavaScript; turn it on to send this form.',
      problem: 'Please check the form',
      errorTitle: (title) => `Error: ${title}`,
      required: 'Fill in this field.',
      tooLong: (max) => `Use at most ${formatNumber('en', max)} characters.`,
      atLeast: (min) => `Enter at least ${formatNumber('en', min)}.`,
      atMost: (max) => `Enter at most ${formatNumber('en', max)}.`,
      wholeNumber: 'Enter a whole number.',
      email: 'Enter an email address like name@example.com.',
      date: 'Enter a real date.',
      option: 'Choose one of the options.',
      invalid: 'Check this value.',
      notSent: 'The form could not be read. Please send it again.',
      challengeFailed: 'The check that you are a person did not pass. Complete it and send the form again.',
      conflict: 'This form was already sent with other details. Check them and send again to make a new enquiry.',
      unavailable: 'We could not take your enquiry just now. Please send it again in a minute.',
      rateLimited: (minutes) => `Too many enquiries came from your connection. Please send this again in ${formatNumber('en', minutes)} min.`,
      sentTitle: 'Enquiry sent',
      sentLead: 'Thank you: your enquiry has reached us.',
      reference: 'Reference',
      sentNext: 'We answer by email. Quote the reference if you write to us about it.',
      sentSpace: (space) => `The operator of ${space} receives it too.`,
      backToSpace: (space) => `Back to ${space}`,
      backHome: 'Back to the home page',
      twinForm: 'A person sends this enquiry with the form on this page:',
      twinApi: 'An app sends the same enquiry to the API, at a person\'s explicit request only (see the API reference):',
    },
    serverError: 'Something went wrong',
    serverErrorText: 'This page cannot be shown right now. Please try again later; the other pages still work.',
    errorReference: 'Reference:',
    indexByCountry: 'By country',
    indexByCountryCaption: 'Each country\'s cities in the index and how many of them have published figures; the country\'s page holds the figures.',
    currency: 'Currency',
    publishedCities: 'Cities with published figures',
    allCountries: 'All countries',
    allCitiesOf: (n, country) => `All ${formatNumber('en', n)} cities in ${country}`,
  },
  de: {
    languageName: 'Deutsch',
    skipToContent: 'Zum Inhalt springen',
    nav: { home: 'Start', priceIndex: 'Preisindex', prices: 'Preise nach Stadt', docs: 'API', label: 'Hauptnavigation', languages: 'Sprache', breadcrumb: 'Wo das liegt' },
    intro: (s) => `${s} ist ein offener Katalog von Coworking-Spaces und privaten Büros, mit einem Preisindex je Stadt unter CC BY 4.0.`,
    homeLead: 'Nach Land und Stadt stöbern, Preise pro Arbeitsplatz vergleichen oder die Daten als JSON und CSV herunterladen.',
    countries: 'Länder',
    cities: 'Städte',
    zones: 'Stadtteile',
    spaces: 'Spaces',
    operators: 'Betreiber',
    faq: 'Häufige Fragen',
    propertyCount: (n) => countOf('de', n, SPACES.de),
    operatorCount: (n) => countOf('de', n, { other: 'Betreiber' }),
    medianPerDesk: 'Median-Monatspreis pro Arbeitsplatz',
    priceRange: 'Preisspanne pro Arbeitsplatz und Monat',
    sampleOf: (n) => sample('de', n),
    address: 'Adresse',
    operator: 'Betreiber',
    city: 'Stadt',
    country: 'Land',
    capacityHeading: 'Kapazität',
    capacity: (n) => `Platz für etwa ${countOf('de', n, PEOPLE.de)}`,
    rating: (s, c) => `Bewertet mit ${formatNumber('de', s)} von 5 (${countOf('de', c, { one: 'Bewertung', other: 'Bewertungen' })})`,
    periodHeading: 'Zeitraum',
    photoOf: (title) => `Foto von ${title}`,
    sampleDataText: 'Die Orte sind echt; Betreiber, Spaces und Preise sind erfunden.',
    methodologySummary: [
      `Preise werden pro Arbeitsplatz und Monat verglichen: Wochen- und Jahrespreise als ihr monatlicher Gegenwert, Büros geteilt durch ihre Arbeitsplätze; Tages-, Stunden- und einmalige Preise zählen in keiner Monatszahl.`,
      `Jeder Space zählt je Produkt einmal, mit seinem günstigsten Preis. Ein Median wird ab ${MIN_SAMPLE_SIZE} Spaces veröffentlicht, mit seinem ${MEDIAN_INTERVAL_LEVEL * 100}-%-Konfidenzintervall und Qualitätskennzeichen.`,
      `Der monatliche Verlauf folgt denselben Regeln am Ende jedes Monats; der Index gleicher Spaces vergleicht nur Spaces, die in beiden Monaten einen Preis haben.`,
    ],
    methodologyLanguage: 'Die vollständige Methodik, auf Englisch (maßgeblich ist die englische Fassung):',
    scoreHow: {
      heading: 'So entsteht die Punktzahl',
      lead: `Die Punktzahl ordnet die Spaces dieser Stadt von 0 bis 100: ${formatShare('de', RANKING_WEIGHTS.rating)} Bewertung, ${formatShare('de', RANKING_WEIGHTS.value)} Preis-Leistung und ${formatShare('de', RANKING_WEIGHTS.amenities)} Ausstattung.`,
      formula: scoreFormula('de', 'Punktzahl'),
      rating: `R, Bewertung: die durchschnittliche Bewertung des Space von 5, wobei die mittlere Bewertung der Stadt als ${RATING_PRIOR_REVIEWS} zusätzliche Bewertungen zählt, damit wenige Bewertungen weniger wiegen; ${formatNumber('de', NEUTRAL_TERM)} für jeden Space, wenn die Stadt keine Bewertungen hat.`,
      value: `V, Preis-Leistung: der Median-Monatspreis pro Arbeitsplatz der Stadt geteilt durch den des Space, höchstens ${VALUE_CAP}, geteilt durch ${VALUE_CAP}; ${formatNumber('de', NEUTRAL_TERM)}, wenn einer davon unbekannt ist. Tages-, Stunden- und einmalige Preise bleiben außen vor.`,
      amenities: 'A, Ausstattung: die Zahl der Ausstattungsmerkmale des Space geteilt durch die höchste Zahl eines Space der Stadt.',
      ties: 'Bei gleicher Punktzahl entscheidet die Adresse des Space auf dieser Website.',
    },
    describePlace: (place, n) => `${countOf('de', n, SPACES.de)} für Coworking in ${place}, mit ihren Preisen pro Arbeitsplatz und Monat.`,
    describeOperator: (operator, n) => `${operator}: ${countOf('de', n, SPACES.de)} für Coworking, mit ihren Preisen.`,
    amenities: 'Ausstattung',
    pricing: 'Preise',
    option: 'Angebot',
    price: 'Preis',
    period: { month: 'pro Monat', day: 'pro Tag', hour: 'pro Stunde', week: 'pro Woche', year: 'pro Jahr', once: 'einmalig' },
    onRequest: 'auf Anfrage',
    desks: (min, max) => rangeOf('de', min, max, PEOPLE.de),
    marketPosition: { below: 'unter dem Median der Stadt', around: 'um den Median der Stadt', above: 'über dem Median der Stadt' },
    rank: 'Rang',
    score: 'Punktzahl',
    ratingHeading: 'Bewertung',
    amenityCount: 'Ausstattung',
    entryPrice: 'Ab',
    comparablePrice: 'Vergleichspreis',
    noReviews: 'Für diese Stadt gibt es keine Bewertungen: Die Punktzahl wägt nur Preis und Ausstattung.',
    rankingNote: 'Die Punktzahl ordnet Spaces nur innerhalb dieser Stadt; zwischen Städten ist sie nie vergleichbar.',
    product: 'Produkt',
    allDesks: 'Alle Arbeitsplatz-Produkte',
    median: 'Median',
    average: 'Durchschnitt',
    min: 'Minimum',
    max: 'Maximum',
    sampleSize: 'Stichprobe (Spaces)',
    p25: 'Unteres Quartil',
    p75: 'Oberes Quartil',
    medianAgeDays: 'Medianes Alter der Preise (Tage)',
    staleShare: `Preise älter als ${STALE_PRICE_DAYS} Tage`,
    largestOperatorShare: 'Anteil des größten Betreibers an den Spaces',
    flags: 'Kennzeichen',
    flagMeaning: {
      stalePrices: `veraltete Preise: ihr medianes Alter übersteigt ${STALE_PRICE_DAYS} Tage`,
      breakInSeries: `Bruch in der Reihe: der Vormonat war nicht veröffentlicht, ein früherer schon, oder der Index gleicher Spaces beginnt wieder bei ${INDEX_BASE}`,
      dominantOperator: `dominanter Betreiber: ein Betreiber führt ${DOMINANT_OPERATOR_SHARE * 100} % oder mehr der Spaces`,
      lowReliability: `geringe Verlässlichkeit: weniger als ${LOW_RELIABILITY_SAMPLE_SIZE} Spaces`,
    },
    notPublished: `nicht veröffentlicht (weniger als ${MIN_SAMPLE_SIZE} Spaces)`,
    thinSample: `kleine Stichprobe (weniger als ${MIN_SAMPLE_SIZE} Spaces)`,
    publicationThreshold: `veröffentlicht ab ${MIN_SAMPLE_SIZE} Spaces`,
    sameSpacesIndex: `Gleiche Spaces, Index (${INDEX_BASE} = Basismonat)`,
    indexBase: `Basis ${INDEX_BASE}`,
    indexOf: (index, matched) => `Index ${index} (${matched} Spaces in beiden Monaten mit Preis)`,
    medianInterval: `Median, ${MEDIAN_INTERVAL_LEVEL * 100}-%-Intervall`,
    historyIndexNote: `Der Median beschreibt die Spaces, die in dem Monat einen Preis haben; kommen Spaces hinzu oder fallen weg, bewegt er sich, ohne dass sich ein Preis geändert hat. Der Index vergleicht dieselben Spaces von Monat zu Monat (${INDEX_BASE} im Basismonat; nach einem Monat, den er nicht verketten kann, beginnt er wieder bei ${INDEX_BASE}, markiert mit b).`,
    perDeskMonth: (c) => `${c} pro Arbeitsplatz und Monat`,
    chartIndexCaption: (c) => `Median-Monatspreis pro Arbeitsplatz in ${c}, nach Stadt und Produkt; der Balken steht für alle Arbeitsplatz-Produkte, n für die Stichprobe.`,
    chartCityCaption: (c) => `Median-Monatspreis pro Arbeitsplatz in ${c} nach Produkt; n ist die Stichprobe der Spaces.`,
    chartTableNote: 'Die Tabelle unter dem Diagramm enthält dieselben Zahlen.',
    byCity: 'Nach Stadt',
    cityIndexLink: 'Preise in dieser Stadt',
    pricesLead: 'Median-, Minimal- und Maximal-Monatspreis pro Arbeitsplatz je Stadt und Produkt, mit der Stichprobe hinter jeder Zahl.',
    priceIndexLead: 'Median, Durchschnitt, Minimum und Maximum des Monatspreises pro Arbeitsplatz je Stadt und Produkt, aus den veröffentlichten Preisen der Betreiber.',
    methodology: 'Methodik',
    methodologyMissing: 'Dieser Build enthält keine Methodik-Datei; die Methodik steht im Repository (pipeline/methodology.md).',
    history: 'Monatlicher Verlauf',
    month: 'Monat',
    historyIndexCaption: (c) => `Median-Monatspreis pro Arbeitsplatz in ${c} am Ende jedes Monats, nach Stadt (alle Arbeitsplatz-Produkte).`,
    historyCityCaption: (c) => `Median-Monatspreis pro Arbeitsplatz in ${c} am Ende jedes Monats, nach Produkt; eine Lücke ist ein Monat unter der Stichprobenschwelle.`,
    historyOthers: (n) => `Farbig die Städte mit den größten Stichproben, grau ${countOf('de', n, { other: 'weitere' })}: das Diagramm jeder Stadt steht auf ihrer Preisseite, verlinkt in der Tabelle.`,
    downloads: 'Daten',
    json: 'JSON',
    csv: 'CSV',
    priceReport: 'Preisbericht',
    dataPackage: 'Datenpaket (Frictionless)',
    apiDocs: 'API-Referenz',
    cite: 'Diese Seite zitieren',
    bibtex: 'BibTeX',
    release: (id) => `Release ${id}: die Dateien dieses Builds, nie überschrieben`,
    bulkData: 'Alle Spaces und ihre aktuellen Angebote (Parquet, CSV)',
    asOf: (d) => `Datenstand ${d}`,
    footer: (s) => `Daten von ${s}, lizenziert unter`,
    license: 'Lizenz',
    buildId: 'Build',
    sampleData: 'Beispieldaten, keine echten Preise.',
    notFound: 'Seite nicht gefunden',
    notFoundText: 'Unter dieser Adresse gibt es nichts. Vielleicht wurde sie in einem neueren Datenstand entfernt.',
    enquiry: {
      contactTitle: 'Kontakt',
      contactLead: 'Eine Frage zum Katalog, zu den Preisdaten oder zu einem Eintrag? Schreiben Sie uns; wir antworten per E-Mail.',
      spaceHeading: 'Anfrage zu diesem Space',
      spaceLead: (space) => `Ihre Anfrage erreicht unser Team und, wo uns seine Adresse vorliegt, den Betreiber von ${space}. Wir antworten per E-Mail; es wird nichts gebucht oder unterschrieben.`,
      spaceTitle: (space) => `Anfrage: ${space}`,
      fields: { name: 'Ihr Name', email: 'E-Mail', phone: 'Telefon', company: 'Firma', subject: 'Betreff', desks: 'Arbeitsplätze', moveInDate: 'Einzugsdatum', duration: 'Für wie lange', message: 'Nachricht' },
      optional: 'freiwillig',
      durations: { hours: 'Stunden', days: 'Tage', weeks: 'Wochen', months: 'Monate', years: 'Jahre' },
      noDuration: 'Noch offen',
      honeypot: 'Dieses Feld bitte leer lassen',
      privacy: 'Wir verwenden Ihre Angaben nur, um diese Anfrage zu beantworten.',
      send: 'Anfrage senden',
      challengeNoScript: 'Die Prüfung, dass Sie ein Mensch sind, braucht JavaScript; schalten Sie es ein, um das Formular zu senden.',
      problem: 'Bitte prüfen Sie das Formular',
      errorTitle: (title) => `Fehler: ${title}`,
      required: 'Bitte füllen Sie dieses Feld aus.',
      tooLong: (max) => `Höchstens ${formatNumber('de', max)} Zeichen.`,
      atLeast: (min) => `Mindestens ${formatNumber('de', min)}.`,
      atMost: (max) => `Höchstens ${formatNumber('de', max)}.`,
      wholeNumber: 'Bitte eine ganze Zahl eingeben.',
      email: 'Bitte eine E-Mail-Adresse wie name@example.com eingeben.',
      date: 'Bitte ein gültiges Datum eingeben.',
      option: 'Bitte eine der Möglichkeiten wählen.',
      invalid: 'Bitte prüfen Sie diesen Wert.',
      notSent: 'Das Formular konnte nicht gelesen werden. Bitte senden Sie es noch einmal.',
      challengeFailed: 'Die Prüfung, dass Sie ein Mensch sind, ist nicht bestanden. Bitte schließen Sie sie ab und senden Sie erneut.',
      conflict: 'Dieses Formular wurde schon mit anderen Angaben gesendet. Prüfen Sie sie und senden Sie erneut, um eine neue Anfrage zu stellen.',
      unavailable: 'Wir konnten Ihre Anfrage gerade nicht annehmen. Bitte senden Sie sie in einer Minute noch einmal.',
      rateLimited: (minutes) => `Von Ihrer Verbindung kamen zu viele Anfragen. Bitte senden Sie diese in ${formatNumber('de', minutes)} Min. noch einmal.`,
      sentTitle: 'Anfrage gesendet',
      sentLead: 'Vielen Dank: Ihre Anfrage ist bei uns angekommen.',
      reference: 'Referenz',
      sentNext: 'Wir antworten per E-Mail. Nennen Sie die Referenz, wenn Sie uns dazu schreiben.',
      sentSpace: (space) => `Der Betreiber von ${space} erhält sie ebenfalls.`,
      backToSpace: (space) => `Zurück zu ${space}`,
      backHome: 'Zurück zur Startseite',
      twinForm: 'Eine Person sendet diese Anfrage mit dem Formular dieser Seite:',
      twinApi: 'Eine App sendet dieselbe Anfrage an die API, nur auf ausdrücklichen Wunsch einer Person (siehe API-Referenz):',
    },
    serverError: 'Etwas ist schiefgelaufen',
    serverErrorText: 'Diese Seite kann gerade nicht angezeigt werden. Bitte versuchen Sie es später noch einmal; die anderen Seiten funktionieren weiter.',
    errorReference: 'Referenz:',
    indexByCountry: 'Nach Land',
    indexByCountryCaption: 'Die Städte jedes Landes im Index und wie viele davon veröffentlichte Zahlen haben; die Seite des Landes enthält die Zahlen.',
    currency: 'Währung',
    publishedCities: 'Städte mit veröffentlichten Zahlen',
    allCountries: 'Alle Länder',
    allCitiesOf: (n, country) => `Alle ${formatNumber('de', n)} Städte in ${country}`,
  },
  es: {
    languageName: 'Español',
    skipToContent: 'Ir al contenido',
    nav: { home: 'Inicio', priceIndex: 'Índice de precios', prices: 'Precios por ciudad', docs: 'API', label: 'Principal', languages: 'Idioma', breadcrumb: 'Dónde está' },
    intro: (s) => `${s} es un catálogo abierto de espacios de coworking y oficinas privadas, con un índice de precios por ciudad bajo CC BY 4.0.`,
    homeLead: 'Explora por país y ciudad, compara precios por puesto o descarga los datos en JSON y CSV.',
    countries: 'Países',
    cities: 'Ciudades',
    zones: 'Barrios',
    spaces: 'Espacios',
    operators: 'Operadores',
    faq: 'Preguntas frecuentes',
    propertyCount: (n) => countOf('es', n, SPACES.es),
    operatorCount: (n) => countOf('es', n, { one: 'operador', other: 'operadores' }),
    medianPerDesk: 'Precio mensual mediano por puesto',
    priceRange: 'Rango de precios por puesto y mes',
    sampleOf: (n) => sample('es', n),
    address: 'Dirección',
    operator: 'Operador',
    city: 'Ciudad',
    country: 'País',
    capacityHeading: 'Capacidad',
    capacity: (n) => `Capacidad aproximada: ${countOf('es', n, PEOPLE.es)}`,
    rating: (s, c) => `Valoración ${formatNumber('es', s)} de 5 (${countOf('es', c, { one: 'reseña', other: 'reseñas' })})`,
    periodHeading: 'Periodo',
    photoOf: (title) => `Foto de ${title}`,
    sampleDataText: 'Los lugares son reales; los operadores, los espacios y los precios son inventados.',
    methodologySummary: [
      `Los precios se comparan por puesto y mes: los precios semanales y anuales por su equivalente mensual, las oficinas divididas entre sus puestos; los precios por día, por hora y de pago único no cuentan en ninguna cifra mensual.`,
      `Cada espacio cuenta una vez por producto, con su precio más barato. Una mediana se publica a partir de ${MIN_SAMPLE_SIZE} espacios, con su intervalo de confianza del ${MEDIAN_INTERVAL_LEVEL * 100} % y sus marcas de calidad.`,
      `La evolución mensual sigue las mismas reglas al final de cada mes; el índice de mismos espacios solo compara espacios con precio en ambos meses.`,
    ],
    methodologyLanguage: 'La metodología completa, en inglés (la versión de referencia es la inglesa):',
    scoreHow: {
      heading: 'Cómo se calcula la puntuación',
      lead: `La puntuación ordena los espacios de esta ciudad de 0 a 100: un ${formatShare('es', RANKING_WEIGHTS.rating)} valoración, un ${formatShare('es', RANKING_WEIGHTS.value)} relación calidad-precio y un ${formatShare('es', RANKING_WEIGHTS.amenities)} servicios.`,
      formula: scoreFormula('es', 'puntuación'),
      rating: `R, valoración: la valoración media del espacio sobre 5, contando la valoración media de la ciudad como ${RATING_PRIOR_REVIEWS} reseñas más, para que pocas reseñas pesen menos; ${formatNumber('es', NEUTRAL_TERM)} para todos los espacios cuando la ciudad no tiene reseñas.`,
      value: `V, relación calidad-precio: el precio mensual mediano por puesto de la ciudad dividido entre el del espacio, como máximo ${VALUE_CAP}, dividido entre ${VALUE_CAP}; ${formatNumber('es', NEUTRAL_TERM)} cuando falta alguno de los dos. Los precios por día, por hora y de pago único no cuentan.`,
      amenities: 'A, servicios: el número de servicios del espacio dividido entre el mayor número que tiene un espacio de la ciudad.',
      ties: 'A igual puntuación, decide la dirección del espacio en este sitio.',
    },
    describePlace: (place, n) => `${countOf('es', n, SPACES.es)} de coworking en ${place}, con sus precios por puesto y mes.`,
    describeOperator: (operator, n) => `${operator}: ${countOf('es', n, SPACES.es)} de coworking, con sus precios.`,
    amenities: 'Servicios',
    pricing: 'Precios',
    option: 'Opción',
    price: 'Precio',
    period: { month: 'al mes', day: 'al día', hour: 'por hora', week: 'por semana', year: 'al año', once: 'pago único' },
    onRequest: 'a consultar',
    desks: (min, max) => rangeOf('es', min, max, PEOPLE.es),
    marketPosition: { below: 'por debajo de la mediana de la ciudad', around: 'en torno a la mediana de la ciudad', above: 'por encima de la mediana de la ciudad' },
    rank: 'Puesto',
    score: 'Puntuación',
    ratingHeading: 'Valoración',
    amenityCount: 'Servicios',
    entryPrice: 'Desde',
    comparablePrice: 'Precio comparable',
    noReviews: 'Esta ciudad no tiene reseñas: la puntuación solo pondera precio y servicios.',
    rankingNote: 'La puntuación ordena los espacios solo dentro de esta ciudad; nunca es comparable entre ciudades.',
    product: 'Producto',
    allDesks: 'Todos los productos de puesto',
    median: 'Mediana',
    average: 'Media',
    min: 'Mínimo',
    max: 'Máximo',
    sampleSize: 'Muestra (espacios)',
    p25: 'Cuartil inferior',
    p75: 'Cuartil superior',
    medianAgeDays: 'Antigüedad mediana de los precios (días)',
    staleShare: `Precios de más de ${STALE_PRICE_DAYS} días`,
    largestOperatorShare: 'Cuota del mayor operador en los espacios',
    flags: 'Marcas',
    flagMeaning: {
      stalePrices: `precios antiguos: su antigüedad mediana supera ${STALE_PRICE_DAYS} días`,
      breakInSeries: `ruptura de la serie: el mes anterior no se publicó y uno anterior sí, o el índice de mismos espacios vuelve a empezar en ${INDEX_BASE}`,
      dominantOperator: `operador dominante: un operador gestiona el ${DOMINANT_OPERATOR_SHARE * 100} % o más de los espacios`,
      lowReliability: `fiabilidad baja: menos de ${LOW_RELIABILITY_SAMPLE_SIZE} espacios`,
    },
    notPublished: `no publicado (menos de ${MIN_SAMPLE_SIZE} espacios)`,
    thinSample: `muestra pequeña (menos de ${MIN_SAMPLE_SIZE} espacios)`,
    publicationThreshold: `publicado desde ${MIN_SAMPLE_SIZE} espacios`,
    sameSpacesIndex: `Mismos espacios, índice (${INDEX_BASE} = mes base)`,
    indexBase: `base ${INDEX_BASE}`,
    indexOf: (index, matched) => `índice ${index} (${matched} espacios con precio en ambos meses)`,
    medianInterval: `Mediana, intervalo del ${MEDIAN_INTERVAL_LEVEL * 100} %`,
    historyIndexNote: `La mediana describe los espacios con precio en ese mes; cuando entran o salen espacios, se mueve aunque ningún precio haya cambiado. El índice compara los mismos espacios de un mes a otro (${INDEX_BASE} en un mes base; vuelve a empezar en ${INDEX_BASE}, marcado con b, tras un mes que no puede enlazar).`,
    perDeskMonth: (c) => `${c} por puesto y mes`,
    chartIndexCaption: (c) => `Precio mensual mediano por puesto en ${c}, por ciudad y producto; la barra es el conjunto de productos de puesto, n su muestra de espacios.`,
    chartCityCaption: (c) => `Precio mensual mediano por puesto en ${c} por producto; n es la muestra de espacios.`,
    chartTableNote: 'La tabla bajo el gráfico contiene las mismas cifras.',
    byCity: 'Por ciudad',
    cityIndexLink: 'Precios en esta ciudad',
    pricesLead: 'Precio mensual mediano, mínimo y máximo por puesto en cada ciudad y producto, con la muestra de espacios de cada cifra.',
    priceIndexLead: 'Mediana, media, mínimo y máximo del precio mensual por puesto por ciudad y producto, a partir de los precios que publican los operadores.',
    methodology: 'Metodología',
    methodologyMissing: 'Esta compilación no incluye el archivo de metodología; la metodología está en el repositorio (pipeline/methodology.md).',
    history: 'Evolución mensual',
    month: 'Mes',
    historyIndexCaption: (c) => `Precio mensual mediano por puesto en ${c} al final de cada mes, por ciudad (todos los productos de puesto).`,
    historyCityCaption: (c) => `Precio mensual mediano por puesto en ${c} al final de cada mes, por producto; un hueco es un mes por debajo del umbral de muestra.`,
    historyOthers: (n) => `En color, las ciudades con las muestras más grandes; en gris, ${countOf('es', n, { one: 'otra', other: 'otras' })}: el gráfico de cada ciudad está en su página de precios, enlazada desde la tabla.`,
    downloads: 'Datos',
    json: 'JSON',
    csv: 'CSV',
    priceReport: 'Informe de precios',
    dataPackage: 'Paquete de datos (Frictionless)',
    apiDocs: 'Referencia de la API',
    cite: 'Citar esta página',
    bibtex: 'BibTeX',
    release: (id) => `Versión ${id}: los archivos de esta compilación, nunca reescritos`,
    bulkData: 'Todos los espacios y sus ofertas actuales (Parquet, CSV)',
    asOf: (d) => `Datos a ${d}`,
    footer: (s) => `Datos de ${s}, con licencia`,
    license: 'Licencia',
    buildId: 'compilación',
    sampleData: 'Datos de ejemplo, no son precios reales.',
    notFound: 'Página no encontrada',
    notFoundText: 'No hay nada en esta dirección. Puede que se haya retirado en una compilación más reciente de los datos.',
    enquiry: {
      contactTitle: 'Contacto',
      contactLead: '¿Una pregunta sobre el catálogo, los datos de precios o un anuncio? Escríbanos; respondemos por correo electrónico.',
      spaceHeading: 'Consultar por este espacio',
      spaceLead: (space) => `Su consulta llega a nuestro equipo y, si tenemos su dirección, al operador de ${space}. Respondemos por correo electrónico; no se reserva ni se firma nada.`,
      spaceTitle: (space) => `Consulta: ${space}`,
      fields: { name: 'Su nombre', email: 'Correo electrónico', phone: 'Teléfono', company: 'Empresa', subject: 'Asunto', desks: 'Puestos', moveInDate: 'Fecha de entrada', duration: 'Por cuánto tiempo', message: 'Mensaje' },
      optional: 'opcional',
      durations: { hours: 'Horas', days: 'Días', weeks: 'Semanas', months: 'Meses', years: 'Años' },
      noDuration: 'Aún no lo sé',
      honeypot: 'Deje este campo vacío',
      privacy: 'Usamos sus datos solo para responder a esta consulta.',
      send: 'Enviar consulta',
      challengeNoScript: 'La comprobación de que usted es una persona necesita JavaScript; actívelo para enviar este formulario.',
      problem: 'Revise el formulario',
      errorTitle: (title) => `Error: ${title}`,
      required: 'Rellene este campo.',
      tooLong: (max) => `Use como máximo ${formatNumber('es', max)} caracteres.`,
      atLeast: (min) => `Indique al menos ${formatNumber('es', min)}.`,
      atMost: (max) => `Indique como máximo ${formatNumber('es', max)}.`,
      wholeNumber: 'Indique un número entero.',
      email: 'Indique una dirección de correo como nombre@example.com.',
      date: 'Indique una fecha válida.',
      option: 'Elija una de las opciones.',
      invalid: 'Revise este valor.',
      notSent: 'No se pudo leer el formulario. Envíelo de nuevo.',
      challengeFailed: 'La comprobación de que usted es una persona no se superó. Complétela y envíe el formulario de nuevo.',
      conflict: 'Este formulario ya se envió con otros datos. Revíselos y envíe de nuevo para hacer una consulta nueva.',
      unavailable: 'No pudimos recibir su consulta en este momento. Envíela de nuevo dentro de un minuto.',
      rateLimited: (minutes) => `Llegaron demasiadas consultas desde su conexión. Envíe esta de nuevo dentro de ${formatNumber('es', minutes)} min.`,
      sentTitle: 'Consulta enviada',
      sentLead: 'Gracias: su consulta nos ha llegado.',
      reference: 'Referencia',
      sentNext: 'Respondemos por correo electrónico. Indique la referencia si nos escribe sobre ella.',
      sentSpace: (space) => `El operador de ${space} también la recibe.`,
      backToSpace: (space) => `Volver a ${space}`,
      backHome: 'Volver a la página de inicio',
      twinForm: 'Una persona envía esta consulta con el formulario de esta página:',
      twinApi: 'Una aplicación envía la misma consulta a la API, solo a petición expresa de una persona (véase la referencia de la API):',
    },
    serverError: 'Algo ha fallado',
    serverErrorText: 'Esta página no se puede mostrar ahora. Vuelva a intentarlo más tarde; las demás páginas siguen funcionando.',
    errorReference: 'Referencia:',
    indexByCountry: 'Por país',
    indexByCountryCaption: 'Las ciudades de cada país en el índice y cuántas tienen cifras publicadas; la página del país contiene las cifras.',
    currency: 'Moneda',
    publishedCities: 'Ciudades con cifras publicadas',
    allCountries: 'Todos los países',
    allCitiesOf: (n, country) => `Las ${formatNumber('es', n)} ciudades de ${country}`,
  },
};
