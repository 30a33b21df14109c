/**
 * Charts of the price pages, drawn by Observable Plot into a linkedom document on the server:
 * SVG in the HTML, nothing to run in the browser. Each chart is made once per build and locale
 * (perBuild) and always sits beside a table of the same figures, its text alternative: a chart is
 * an image (role="img", named by its label) and links nowhere, the table links each city. Every
 * number and month on a chart is written as the page's locale writes it.
 */
import * as Plot from '@observablehq/plot';
import { parseHTML } from 'linkedom';
import { OPTION_TYPES, type Locale, type Money, type OptionType } from '../../contract/common.ts';
import type { PriceIndexCity } from '../../contract/market.ts';
import type { PriceHistoryPoint } from '../../contract/research.ts';
import { INDEX_BASE, MIN_SAMPLE_SIZE } from '../../contract/rules.ts';
import { CHART_FONT_PX, CHART_WIDTH } from './chart-style.ts';
import { formatMoney, formatMonth, formatNumber, monthDate, STRINGS } from './strings.ts';

/** One figure of the price index: a city's overall median ('all') or one product's. */
export interface IndexFigure {
  citySlug: string;
  cityName: string;
  product: OptionType | 'all';
  productName: string;
  median: Money;
  sampleSize: number;
}

/**
 * Dark enough against white for marks (WCAG 1.4.11, 3:1), each with its symbol so that colour is
 * not the only difference: a chart gives at most this many series a colour of their own.
 */
export const PALETTE = ['#1b5e9e', '#a34f00', '#2e7d32', '#7b1fa2', '#c62828', '#00695c'];
const SYMBOLS = ['circle', 'square', 'diamond', 'triangle', 'star', 'cross'] as const;
/** the series beyond the palette: context, told apart by their own pages, not by colour */
export const CONTEXT_GREY = '#a7b0b5';
const BAR = { fill: '#cfd8dc', stroke: '#37474f' };

/** At least the width of a character at CHART_FONT_PX in the sans-serif fonts pages fall back to (DejaVu Sans' digits are 0.64 em). */
const CHAR_PX = 0.66 * CHART_FONT_PX;
/** a tick and the gap between it and its label */
const TICK_PX = 10;
const textPx = (s: string) => Math.ceil(s.length * CHAR_PX);
const widest = (labels: string[]) => Math.max(0, ...labels.map(textPx));

const newDocument = () => parseHTML('<!doctype html><html><body></body></html>').document;

/**
 * Plot's output as the page serves it: the chart an image named by its label, at CHART_FONT_PX; no
 * <style> elements (a legend's sits inside a <div>, where HTML does not allow one) or style
 * attributes, the page's stylesheet styles charts (CHART_CSS); each mark's group keeps the name
 * Plot gives it as data-mark, as aria-label belongs on no group inside an image; the legend's
 * swatches are decoration beside their names.
 */
function served(plot: Element): string {
  for (const style of [...plot.querySelectorAll('style')]) style.remove();
  for (const el of [plot, ...plot.querySelectorAll('[style]')]) el.removeAttribute('style');
  const charts = plot.tagName.toLowerCase() === 'svg' ? [plot] : [...plot.querySelectorAll(':scope > svg')];
  for (const svg of charts) {
    svg.setAttribute('role', 'img');
    svg.setAttribute('font-size', String(CHART_FONT_PX));
    for (const g of svg.querySelectorAll('[aria-label]')) {
      g.setAttribute('data-mark', g.getAttribute('aria-label')!);
      g.removeAttribute('aria-label');
    }
  }
  for (const legend of plot.querySelectorAll('[class$="-swatches-wrap"]')) legend.setAttribute('class', 'chart-legend');
  for (const swatch of plot.querySelectorAll('[class$="-swatch"]')) {
    swatch.setAttribute('class', 'chart-swatch');
    swatch.querySelector('svg')?.setAttribute('aria-hidden', 'true');
  }
  // a chart with a legend comes in a <figure> of Plot's: its legend and chart go in the page's own
  return plot.tagName.toLowerCase() === 'svg' ? plot.outerHTML : plot.innerHTML;
}

/** Numbers on an axis as the locale writes them (1,500 / 1.500 / 1500). */
const numberTicks = (locale: Locale) => (n: number) => formatNumber(locale, n);
const sampleLabel = (locale: Locale, n: number) => `n = ${formatNumber(locale, n)}`;

/** The text of a figure's mark: its tooltip and, for assistive technology, its name. */
export const figureTitle = (locale: Locale, f: IndexFigure) =>
  `${f.cityName} · ${f.productName}: ${formatMoney(locale, f.median)} (${STRINGS[locale].sampleOf(f.sampleSize)})`;

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
    color: { domain: names, range: PALETTE },
    symbol: { legend: true, domain: names, range: [...SYMBOLS] },
  };
}

/**
 * Horizontal bars, a row per label (`y`), with each row's sample at the right: the margins are as
 * wide as the longest label and the longest sample.
 */
function barChart(rows: IndexFigure[], y: (f: IndexFigure) => string, text: ChartText, options: { marks: Plot.Markish[]; scales?: object }) {
  const samples = rows.map((f) => sampleLabel(text.locale, f.sampleSize));
  const marginRight = widest(samples) + 2 * TICK_PX;
  return served(Plot.plot({
    document: newDocument(),
    width: CHART_WIDTH,
    marginLeft: widest(rows.map(y)) + TICK_PX,
    marginRight,
    ariaLabel: text.ariaLabel,
    x: { label: STRINGS[text.locale].perDeskMonth(text.currency), grid: true, nice: true, tickFormat: numberTicks(text.locale) },
    y: { label: null, domain: rows.map(y) },
    ...options.scales,
    marks: [
      Plot.barX(rows, { y, x: (f: IndexFigure) => f.median.amount, ...BAR, title: (f: IndexFigure) => figureTitle(text.locale, f) }),
      ...options.marks,
      Plot.text(rows, { y, text: (f: IndexFigure) => sampleLabel(text.locale, f.sampleSize), frameAnchor: 'right', dx: marginRight - TICK_PX / 2, textAnchor: 'end' }),
      Plot.ruleX([0]),
    ],
  }));
}

/** Cities of one currency: a bar per city for all desk products (its sample at the right), a dot per product. */
export function indexChart(figures: IndexFigure[], text: ChartText, legendFrom: IndexFigure[] = figures): string {
  const overall = figures.filter((f) => f.product === 'all').sort((a, b) => b.median.amount - a.median.amount || a.citySlug.localeCompare(b.citySlug));
  const products = figures.filter((f) => f.product !== 'all');
  return barChart(overall, (f) => f.cityName, text, {
    scales: productScales(legendFrom),
    marks: [
      Plot.dot(products, {
        y: 'cityName', x: (f: IndexFigure) => f.median.amount, fill: 'productName', symbol: 'productName', r: 4, stroke: 'white', strokeWidth: 0.5,
        title: (f: IndexFigure) => figureTitle(text.locale, f),
      }),
    ],
  });
}

/** One city: a bar per product (all desk products first) with its sample at the right. */
export function cityChart(figures: IndexFigure[], text: ChartText): string {
  return barChart(figures, (f) => f.productName, text, { marks: [] });
}

/** What the history's charts and tables show of a month's point. */
export type HistoryPoint = Pick<PriceHistoryPoint, 'month' | 'sampleSize' | 'published' | 'median' | 'index' | 'matchedSpaces'>;

/** A series of the monthly history: its name, one point per month. */
export interface HistorySeries {
  name: string;
  points: HistoryPoint[];
}


/**
 * A panel of the history chart: one value per point (undefined: no mark that month) on its own y
 * axis, over the same months as the other panels. A new measure of the history is a new panel.
 */
interface HistoryPanel {
  /** the svg's class: history-<name> */
  name: string;
  height: number;
  yLabel(text: ChartText): string;
  value(p: HistoryPoint): number | undefined;
  /** the measure of a point as its mark's title says it */
  describe(locale: Locale, p: HistoryPoint): string;
  /** a point drawn hollow: its value is shown, but the month's figures are not published */
  hollow?(p: HistoryPoint): boolean;
  /** a value marked by a dashed line across the panel, and its label */
  threshold?: { value: number; label(locale: Locale): string };
  /** a y axis from zero, to at least this value (otherwise the axis spans the values) */
  fromZeroTo?: number;
  /** a point where the measure starts again on another footing: its line does not join the point before */
  startsAgain?(p: HistoryPoint): boolean;
}

/** a threshold's dashed line, and the dashes that stand for it in its label */
const THRESHOLD_DASH = '4 3';
const THRESHOLD_KEY = '- - -';
/** how far above the frame Plot writes a y axis' label */
const TOP_LABEL_PX = 17;

const HISTORY_PANELS: HistoryPanel[] = [
  {
    name: 'median',
    height: 300,
    yLabel: (text) => STRINGS[text.locale].perDeskMonth(text.currency),
    value: (p) => (p.published ? p.median?.amount : undefined),
    describe: (locale, p) => (p.published && p.median ? formatMoney(locale, p.median) : STRINGS[locale].notPublished),
  },
  {
    name: 'index',
    height: 220,
    yLabel: (text) => STRINGS[text.locale].sameSpacesIndex,
    value: (p) => p.index,
    describe: (locale, p) => (p.index === undefined ? STRINGS[locale].notPublished
      : STRINGS[locale].indexOf(formatNumber(locale, p.index), formatNumber(locale, p.matchedSpaces))),
    threshold: { value: INDEX_BASE, label: (locale) => STRINGS[locale].indexBase },
    // a segment's base month: indexed, with no published link to the month before
    startsAgain: (p) => p.index !== undefined && p.matchedSpaces < MIN_SAMPLE_SIZE,
  },
  {
    name: 'sample',
    height: 150,
    yLabel: (text) => STRINGS[text.locale].sampleSize,
    value: (p) => p.sampleSize,
    describe: (locale, p) => `${STRINGS[locale].sampleOf(p.sampleSize)}${p.published ? '' : `, ${STRINGS[locale].notPublished}`}`,
    hollow: (p) => !p.published,
    threshold: { value: MIN_SAMPLE_SIZE, label: (locale) => STRINGS[locale].publicationThreshold },
    // from zero and past the threshold, so that the threshold always shows and the ticks are whole numbers
    fromZeroTo: 2 * MIN_SAMPLE_SIZE,
  },
];

/** The series a history chart colours: all when the palette suffices, else the largest latest samples. */
function colouredSeries(series: HistorySeries[]): Set<HistorySeries> {
  if (series.length <= PALETTE.length) return new Set(series);
  const latest = (s: HistorySeries) => s.points.at(-1)?.sampleSize ?? 0;
  return new Set([...series].sort((a, b) => latest(b) - latest(a)).slice(0, PALETTE.length));
}

/**
 * The monthly history as panels one above the other over the same months: the median (a gap where
 * a month is not published) and the sample behind each month (hollow below the publishing
 * threshold). Up to PALETTE.length series have a colour and a symbol, named in the legend; any
 * others are grey lines, each named by its title. Returns the panels' HTML, legend first, and how many series are grey.
 */
export function historyChart(series: HistorySeries[], text: ChartText): { html: string; greyed: number } {
  const { locale } = text;
  const coloured = colouredSeries(series);
  const names = series.filter((s) => coloured.has(s)).map((s) => s.name);
  const rows = series.flatMap((s) => s.points.map((point) => ({ series: s.name, coloured: coloured.has(s), date: monthDate(point.month), point })));
  type Row = (typeof rows)[number];
  const months = series[0]?.points.map((p) => p.month) ?? [];
  const monthLabels = months.map((m) => formatMonth(locale, m));
  const x = { type: 'utc', label: null, domain: [monthDate(months[0]), monthDate(months.at(-1)!)], ticks: 6, tickFormat: (d: Date) => formatMonth(locale, d.toISOString().slice(0, 7)) } as const;

  const draw = (panel: HistoryPanel, marginLeft: number, legend: boolean) => {
    const { threshold } = panel;
    const y = (r: Row) => panel.value(r.point);
    // a line per series and stretch: a point that starts again begins a new one
    const stretch = new Map<Row, string>();
    let stretches = 0;
    rows.forEach((r, k) => {
      if (k === 0 || rows[k - 1].series !== r.series || panel.startsAgain?.(r.point)) stretches += 1;
      stretch.set(r, `${stretches}`);
    });
    const z = (r: Row) => stretch.get(r);
    const shown = rows.filter((r) => y(r) !== undefined);
    const domain = panel.fromZeroTo === undefined ? undefined : [0, Math.max(panel.fromZeroTo, ...shown.map((r) => y(r)!))];
    const title = (r: Row) => `${r.series} · ${formatMonth(locale, r.point.month)}: ${panel.describe(locale, r.point)}`;
    const hollow = (r: Row) => panel.hollow?.(r.point) === true;
    const dots = (filter: (r: Row) => boolean, options: object) => Plot.dot(shown.filter(filter), { x: 'date', y, r: 3, title, ...options });
    return Plot.plot({
      document: newDocument(),
      className: `history-${panel.name}`,
      width: CHART_WIDTH,
      height: panel.height,
      marginLeft,
      marginRight: Math.ceil(widest(monthLabels) / 2) + 4,
      ariaLabel: `${text.ariaLabel} ${panel.yLabel(text)}.`,
      x,
      y: { label: panel.yLabel(text), grid: true, nice: true, domain, tickFormat: numberTicks(locale) },
      // one legend of both: each series' swatch in its colour and symbol
      color: { domain: names, range: PALETTE },
      symbol: { domain: names, range: [...SYMBOLS], legend },
      marks: [
        ...(threshold ? [Plot.ruleY([threshold.value], { stroke: '#555', strokeDasharray: THRESHOLD_DASH })] : []),
        Plot.lineY(rows.filter((r) => !r.coloured), { x: 'date', y, z, stroke: CONTEXT_GREY, strokeWidth: 1, title: 'series' }),
        dots((r) => !r.coloured, { r: 1.5, fill: CONTEXT_GREY }),
        Plot.lineY(rows.filter((r) => r.coloured), { x: 'date', y, z, stroke: 'series', strokeWidth: 1.75 }),
        dots((r) => r.coloured && !hollow(r), { fill: 'series', symbol: 'series', stroke: 'white', strokeWidth: 0.5 }),
        // only where the panel has any: the legend's swatches take their fill from the panel's symbol marks
        ...(panel.hollow ? [dots((r) => r.coloured && hollow(r), { stroke: 'series', symbol: 'series', fill: 'white', strokeWidth: 1.25 })] : []),
        // named above the panel, level with the axis' label, where no series runs through it
        ...(threshold ? [Plot.text([threshold], { text: (th: typeof threshold) => `${THRESHOLD_KEY} ${th.label(locale)}`, frameAnchor: 'top-right', textAnchor: 'end', dy: -TOP_LABEL_PX })] : []),
      ],
    });
  };

  // the panels share their left margin, so that their months line up: as wide as the widest tick label of any
  const yTickLabels = HISTORY_PANELS.flatMap((panel) => [...draw(panel, 0, false).querySelectorAll('[aria-label="y-axis tick label"] text')].map((t) => t.textContent ?? ''));
  const marginLeft = Math.max(widest(yTickLabels) + TICK_PX, Math.ceil(widest(monthLabels) / 2));
  return { html: HISTORY_PANELS.map((panel, k) => served(draw(panel, marginLeft, k === 0))).join('\n'), greyed: series.length - coloured.size };
}
