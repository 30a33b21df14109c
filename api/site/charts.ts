/**
 * Charts of the price pages, drawn by Observable Plot into a linkedom document on the server:
 * SVG in the HTML, nothing to run in the browser. Each chart is made once per build and locale
 * (perBuild) and always sits beside a table of the same figures, its text alternative.
 */
import * as Plot from '@observablehq/plot';
import { parseHTML } from 'linkedom';
import { byLocale, OPTION_TYPES, type Locale, type Money, type OptionType } from '../../contract/common.ts';
import type { PriceIndexCity } from '../../contract/market.ts';
import { formatMoney, STRINGS } from './strings.ts';

/** One figure of the price index: a city's overall median ('all') or one product's. */
export interface IndexFigure {
  citySlug: string;
  cityName: string;
  product: OptionType | 'all';
  productName: string;
  median: Money;
  sampleSize: number;
}

/** Dark enough against white for marks (WCAG 1.4.11, 3:1); the symbols tell products apart without colour. */
const PRODUCT_COLOURS = ['#1b5e9e', '#a34f00', '#2e7d32', '#7b1fa2', '#c62828', '#00695c'];
const PRODUCT_SYMBOLS = ['circle', 'square', 'diamond', 'triangle', 'star', 'cross'] as const;
const BAR = { fill: '#cfd8dc', stroke: '#37474f' };

/** The text of a figure's mark: its tooltip and, for assistive technology, its name. */
export const figureTitle = (locale: Locale, f: IndexFigure) =>
  `${f.cityName} · ${f.productName}: ${formatMoney(locale, f.median)} (${STRINGS[locale].sampleOf(f.sampleSize)})`;

const newDocument = () => parseHTML('<!doctype html><html><body></body></html>').document;

/** The published figures of the index's cities, overall first, then by product. */
export function indexFigures(
  cities: PriceIndexCity[], locale: Locale,
  names: { city(slug: string): string; product(type: OptionType): string },
): IndexFigure[] {
  const out: IndexFigure[] = [];
  for (const c of cities) {
    if (!c.published || !c.median) continue;
    const cityName = names.city(c.city.slug);
    out.push({ citySlug: c.city.slug, cityName, product: 'all', productName: STRINGS[locale].allDesks, median: c.median, sampleSize: c.sampleSize });
    for (const t of c.byType ?? []) {
      if (!t.published || !t.median) continue;
      out.push({ citySlug: c.city.slug, cityName, product: t.optionType, productName: names.product(t.optionType), median: t.median, sampleSize: t.sampleSize });
    }
  }
  return out;
}

interface ChartText { ariaLabel: string; locale: Locale; currency: string }

/** Colour and symbol of each product, the same in every chart of a page: in the order of OPTION_TYPES. */
function productScales(figures: IndexFigure[]) {
  const byType = new Map(figures.filter((f) => f.product !== 'all').map((f) => [f.product as OptionType, f.productName]));
  const names = OPTION_TYPES.filter((t) => byType.has(t)).map((t) => byType.get(t)!);
  return {
    color: { domain: names, range: PRODUCT_COLOURS },
    symbol: { legend: true, domain: names, range: [...PRODUCT_SYMBOLS] },
  };
}

/**
 * Cities of one currency: a bar per city for all desk products (its sample at the right), a dot
 * per product; each bar links to the city's price page.
 */
export function indexChart(figures: IndexFigure[], text: ChartText, cityHref: (slug: string) => string, legendFrom: IndexFigure[] = figures): string {
  const overall = figures.filter((f) => f.product === 'all').sort((a, b) => b.median.amount - a.median.amount || a.citySlug.localeCompare(b.citySlug));
  const products = figures.filter((f) => f.product !== 'all');
  const t = STRINGS[text.locale];
  const figure = Plot.plot({
    document: newDocument(),
    width: 760,
    marginLeft: 130,
    marginRight: 90,
    ariaLabel: text.ariaLabel,
    style: { fontSize: '12px' },
    x: { label: t.perDeskMonth(text.currency), grid: true, nice: true },
    y: { label: null, domain: overall.map((f) => f.cityName) },
    ...productScales(legendFrom),
    marks: [
      Plot.barX(overall, { y: 'cityName', x: (f: IndexFigure) => f.median.amount, ...BAR, href: (f: IndexFigure) => cityHref(f.citySlug), title: (f: IndexFigure) => figureTitle(text.locale, f) }),
      Plot.dot(products, { y: 'cityName', x: (f: IndexFigure) => f.median.amount, fill: 'productName', symbol: 'productName', r: 4, stroke: 'white', strokeWidth: 0.5, title: (f: IndexFigure) => figureTitle(text.locale, f) }),
      Plot.text(overall, { y: 'cityName', text: (f: IndexFigure) => `n = ${f.sampleSize}`, frameAnchor: 'right', dx: 84, textAnchor: 'end' }),
      Plot.ruleX([0]),
    ],
  });
  return figure.outerHTML;
}

/** One city: a bar per product (all desk products first) with its sample at the right. */
export function cityChart(figures: IndexFigure[], text: ChartText): string {
  const t = STRINGS[text.locale];
  const figure = Plot.plot({
    document: newDocument(),
    width: 760,
    marginLeft: 190,
    marginRight: 90,
    ariaLabel: text.ariaLabel,
    style: { fontSize: '12px' },
    x: { label: t.perDeskMonth(text.currency), grid: true, nice: true },
    y: { label: null, domain: figures.map((f) => f.productName) },
    marks: [
      Plot.barX(figures, { y: 'productName', x: (f: IndexFigure) => f.median.amount, ...BAR, title: (f: IndexFigure) => figureTitle(text.locale, f) }),
      Plot.text(figures, { y: 'productName', text: (f: IndexFigure) => `n = ${f.sampleSize}`, frameAnchor: 'right', dx: 84, textAnchor: 'end' }),
      Plot.ruleX([0]),
    ],
  });
  return figure.outerHTML;
}

/** A series of the monthly history: its name and one point per month (no median where it is not published). */
export interface HistorySeries {
  name: string;
  points: { month: string; median?: Money; sampleSize: number }[];
}

const monthDate = (month: string) => new Date(`${month}-01T00:00:00Z`);

const MONTH_FORMATS = byLocale((l) => new Intl.DateTimeFormat(l, { month: 'short', year: 'numeric', timeZone: 'UTC' }));

/** Month labels as the locale writes them ("Mar 2026", "März 2026", "mar 2026"). */
export const formatMonth = (locale: Locale, month: string) => MONTH_FORMATS[locale].format(monthDate(month));

/**
 * The monthly history: a line per series through its published months (a gap where a month is not
 * published), a dot per published month with its median and sample as its title, the series'
 * name at its last point.
 */
export function historyChart(series: HistorySeries[], text: ChartText): string {
  const t = STRINGS[text.locale];
  const points = series.flatMap((s) => s.points.map((p) => ({ series: s.name, date: monthDate(p.month), month: p.month, median: p.median?.amount, money: p.median, sampleSize: p.sampleSize })));
  const published = points.filter((p) => p.money !== undefined);
  const last = series.map((s) => published.filter((p) => p.series === s.name).at(-1)).filter((p) => p !== undefined);
  const names = series.map((s) => s.name);
  const figure = Plot.plot({
    document: newDocument(),
    width: 760,
    marginRight: 180,
    ariaLabel: text.ariaLabel,
    style: { fontSize: '12px' },
    x: { type: 'utc', label: null, ticks: 6, tickFormat: (d: Date) => formatMonth(text.locale, d.toISOString().slice(0, 7)) },
    y: { label: t.perDeskMonth(text.currency), grid: true, nice: true },
    // a city's few series in the dark palette; the many cities of a currency in a scheme (each is named at its end)
    color: names.length <= PRODUCT_COLOURS.length ? { domain: names, range: PRODUCT_COLOURS } : { domain: names, scheme: 'tableau10' },
    marks: [
      Plot.lineY(points, { x: 'date', y: 'median', z: 'series', stroke: 'series', strokeWidth: 1.5 }),
      Plot.dot(published, {
        x: 'date', y: 'median', fill: 'series', r: 2.5,
        title: (p: (typeof points)[number]) => `${p.series} · ${formatMonth(text.locale, p.month)}: ${formatMoney(text.locale, p.money!)} (${t.sampleOf(p.sampleSize)})`,
      }),
      Plot.text(last, { x: 'date', y: 'median', text: 'series', fill: 'series', dx: 6, textAnchor: 'start' }),
    ],
  });
  return figure.outerHTML;
}
