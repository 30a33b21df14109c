/**
 * How the price pages' charts are sized and styled. Apart from charts.ts (which imports Observable
 * Plot, loaded only when a price page is first asked for) so that every page's stylesheet can
 * carry the charts' rules.
 */

/** the width a chart is drawn for (its viewBox), and the size of its text there */
export const CHART_WIDTH = 760;
export const CHART_FONT_PX = 12;
/** the smallest chart text a reader gets: a narrower window scrolls the chart rather than shrink it further */
export const MIN_CHART_TEXT_PX = 11;

const MIN_CHART_WIDTH = Math.ceil((CHART_WIDTH * MIN_CHART_TEXT_PX) / CHART_FONT_PX);

/** The charts' rules, in place of the <style> elements and style attributes Plot writes (invalid where they are). */
export const CHART_CSS = `.chart { overflow-x: auto; }
.chart svg[role="img"] { display: block; height: auto; max-width: 100%; min-width: ${MIN_CHART_WIDTH}px; }
.chart svg text { white-space: pre; }
.chart-legend { display: flex; flex-wrap: wrap; align-items: center; gap: .25rem 1rem; margin-bottom: .5rem; font-size: .9rem; }
.chart-swatch { display: inline-flex; align-items: center; gap: .4rem; }
.chart-swatch svg { overflow: visible; }`;
