/**
 * The words of the search page and of the paging of listings (hubs, operators, search), in
 * every locale, beside the pages' other strings (strings.ts); a page's layout has them as `searchWords`.
 */
import type { Locale } from '../../contract/common.ts';
import type { SortBy } from '../../contract/queries.ts';
import { countOf, formatNumber } from './strings.ts';

export interface SearchStrings {
  /** the search page's entry in the main navigation */
  nav: string;
  title: string;
  /** the page's meta description */
  description: string;
  /** a place or operator page's link to the search with that place or operator set */
  searchHere: string;
  form: string;
  any: string;
  submit: string;
  reset: string;
  sortBy: string;
  sort: Record<SortBy, string>;
  minCapacity: string;
  minPrice: string;
  maxPrice: string;
  currency: string;
  address: string;
  point: string;
  bbox: string;
  /** under the price bounds: what they compare, and the range of the listings found ("€100 – €900 per month") */
  priceNote: (range: string | undefined) => string;
  capacityNote: (min: string, max: string) => string;
  /** a value with the number of listings the search would find with it */
  withCount: (label: string, count: number) => string;
  activeFilters: string;
  /** a link that drops one filter: its text */
  remove: (filter: string) => string;
  clearAll: string;
  results: (total: number) => string;
  /** above the form on a narrow screen, where the results come after it */
  toResults: (total: number) => string;
  /** listings `from`..`to` of `total` on this page, in what order */
  showing: (from: number, to: number, total: number, order: string) => string;
  noResults: string;
  pastTheEnd: string;
  pages: string;
  previous: string;
  next: string;
  pageOf: (page: number, pages: number) => string;
  invalid: string;
  invalidHint: string;
}


export const SEARCH_STRINGS: Record<Locale, SearchStrings> = {
  en: {
    nav: 'Search',
    title: 'Search coworking spaces',
    description: 'Find coworking spaces and private offices by place, workspace type, amenities, capacity and price.',
    searchHere: 'Search and filter these spaces',
    form: 'Filters',
    any: 'Any',
    submit: 'Show spaces',
    reset: 'Clear all filters',
    sortBy: 'Order',
    sort: {
      'rating-desc': 'Best rated first', 'price-asc': 'Cheapest first', 'price-desc': 'Most expensive first',
      'date-desc': 'Recently updated first', 'date-asc': 'Least recently updated first', random: 'Random', distance: 'Nearest first',
    },
    minCapacity: 'Room for at least (people)',
    minPrice: 'Minimum price',
    maxPrice: 'Maximum price',
    currency: 'Currency',
    address: 'Street address',
    point: 'Near a point',
    bbox: 'Map area',
    priceNote: (r) => `In each space's own currency, week and year prices as their monthly equivalent${r ? `; here ${r}` : ''}.`,
    capacityNote: (min, max) => `Capacities here: ${min} to ${max} people.`,
    withCount: (label, n) => `${label} (${formatNumber('en', n)})`,
    activeFilters: 'Current filters',
    remove: (f) => `Remove ${f}`,
    clearAll: 'Remove all filters',
    results: (n) => countOf('en', n, { one: 'space found', other: 'spaces found' }),
    toResults: (n) => `Skip to the ${countOf('en', n, { one: 'space', other: 'spaces' })} found`,
    showing: (from, to, total, order) => `Showing ${formatNumber('en', from)}–${formatNumber('en', to)} of ${formatNumber('en', total)}, ${order.toLowerCase()}.`,
    noResults: 'No space matches all these filters. Remove one of them to widen the search.',
    pastTheEnd: 'This page is past the last one.',
    pages: 'Pages',
    previous: 'Previous page',
    next: 'Next page',
    pageOf: (p, n) => `Page ${formatNumber('en', p)} of ${formatNumber('en', n)}`,
    invalid: 'Some of the search settings are not valid',
    invalidHint: 'Correct or clear them and search again.',
  },
  de: {
    nav: 'Suche',
    title: 'Coworking-Spaces suchen',
    description: 'Coworking-Spaces und private Büros nach Ort, Arbeitsplatztyp, Ausstattung, Kapazität und Preis finden.',
    searchHere: 'Diese Spaces durchsuchen und filtern',
    form: 'Filter',
    any: 'Alle',
    submit: 'Spaces anzeigen',
    reset: 'Alle Filter zurücksetzen',
    sortBy: 'Reihenfolge',
    sort: {
      'rating-desc': 'Am besten bewertete zuerst', 'price-asc': 'Günstigste zuerst', 'price-desc': 'Teuerste zuerst',
      'date-desc': 'Zuletzt aktualisierte zuerst', 'date-asc': 'Am längsten nicht aktualisierte zuerst', random: 'Zufällig', distance: 'Nächste zuerst',
    },
    minCapacity: 'Platz für mindestens (Personen)',
    minPrice: 'Mindestpreis',
    maxPrice: 'Höchstpreis',
    currency: 'Währung',
    address: 'Adresse',
    point: 'In der Nähe eines Punkts',
    bbox: 'Kartenausschnitt',
    priceNote: (r) => `In der Währung des jeweiligen Space, Wochen- und Jahrespreise als Monatswert${r ? `; hier ${r}` : ''}.`,
    capacityNote: (min, max) => `Kapazitäten hier: ${min} bis ${max} Personen.`,
    withCount: (label, n) => `${label} (${formatNumber('de', n)})`,
    activeFilters: 'Aktive Filter',
    remove: (f) => `${f} entfernen`,
    clearAll: 'Alle Filter entfernen',
    results: (n) => countOf('de', n, { one: 'Space gefunden', other: 'Spaces gefunden' }),
    toResults: (n) => `Direkt zu ${countOf('de', n, { one: 'gefundenem Space', other: 'gefundenen Spaces' })}`,
    showing: (from, to, total, order) => `${formatNumber('de', from)}–${formatNumber('de', to)} von ${formatNumber('de', total)}, ${order.toLowerCase()}.`,
    noResults: 'Kein Space erfüllt alle diese Filter. Entfernen Sie einen, um die Suche zu erweitern.',
    pastTheEnd: 'Diese Seite liegt hinter der letzten.',
    pages: 'Seiten',
    previous: 'Vorherige Seite',
    next: 'Nächste Seite',
    pageOf: (p, n) => `Seite ${formatNumber('de', p)} von ${formatNumber('de', n)}`,
    invalid: 'Einige Sucheinstellungen sind ungültig',
    invalidHint: 'Korrigieren oder leeren Sie sie und suchen Sie erneut.',
  },
  es: {
    nav: 'Buscar',
    title: 'Buscar espacios de coworking',
    description: 'Encuentra espacios de coworking y oficinas privadas por lugar, tipo de puesto, servicios, capacidad y precio.',
    searchHere: 'Buscar y filtrar estos espacios',
    form: 'Filtros',
    any: 'Cualquiera',
    submit: 'Mostrar espacios',
    reset: 'Quitar todos los filtros',
    sortBy: 'Orden',
    sort: {
      'rating-desc': 'Mejor valorados primero', 'price-asc': 'Más baratos primero', 'price-desc': 'Más caros primero',
      'date-desc': 'Actualizados recientemente primero', 'date-asc': 'Menos actualizados primero', random: 'Aleatorio', distance: 'Más cercanos primero',
    },
    minCapacity: 'Capacidad mínima (personas)',
    minPrice: 'Precio mínimo',
    maxPrice: 'Precio máximo',
    currency: 'Moneda',
    address: 'Dirección',
    point: 'Cerca de un punto',
    bbox: 'Zona del mapa',
    priceNote: (r) => `En la moneda de cada espacio, los precios semanales y anuales en su equivalente mensual${r ? `; aquí ${r}` : ''}.`,
    capacityNote: (min, max) => `Capacidades aquí: de ${min} a ${max} personas.`,
    withCount: (label, n) => `${label} (${formatNumber('es', n)})`,
    activeFilters: 'Filtros activos',
    remove: (f) => `Quitar ${f}`,
    clearAll: 'Quitar todos los filtros',
    results: (n) => countOf('es', n, { one: 'espacio encontrado', other: 'espacios encontrados' }),
    toResults: (n) => `Ir a ${countOf('es', n, { one: 'espacio encontrado', other: 'espacios encontrados' })}`,
    showing: (from, to, total, order) => `Se muestran ${formatNumber('es', from)}–${formatNumber('es', to)} de ${formatNumber('es', total)}, ${order.toLowerCase()}.`,
    noResults: 'Ningún espacio cumple todos estos filtros. Quita alguno para ampliar la búsqueda.',
    pastTheEnd: 'Esta página está después de la última.',
    pages: 'Páginas',
    previous: 'Página anterior',
    next: 'Página siguiente',
    pageOf: (p, n) => `Página ${formatNumber('es', p)} de ${formatNumber('es', n)}`,
    invalid: 'Algunos ajustes de la búsqueda no son válidos',
    invalidHint: 'Corrígelos o bórralos y vuelve a buscar.',
  },
};
