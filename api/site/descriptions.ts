/**
 * Each page's meta description, in its locale: the page's own localized text where it has one
 * (a space's description, an operator's tagline), else a sentence of the strings table.
 */
import type { PropertyDetail } from '../../contract/catalog.ts';
import type { Locale } from '../../contract/common.ts';
import type { OperatorHub, PlaceHub } from '../../contract/market.ts';
import { STRINGS } from './strings.ts';
import type { PageView } from './views.ts';

/** Longer descriptions are cut by search engines anyway; cut at a word instead. */
const MAX_DESCRIPTION = 160;

function shortened(text: string): string {
  if (text.length <= MAX_DESCRIPTION) return text;
  const cut = text.slice(0, MAX_DESCRIPTION - 1);
  return `${cut.slice(0, cut.lastIndexOf(' ') > 0 ? cut.lastIndexOf(' ') : cut.length)}…`;
}

export function describePage(view: PageView, locale: Locale): string | undefined {
  const t = STRINGS[locale];
  const { page, data } = view;
  switch (page.kind) {
    case 'home': return t.homeLead;
    case 'coworking': {
      const place = page.city && page.zone ? page.zone : page.city ?? page.country;
      return t.describePlace(place.name, (data.hub as PlaceHub).propertyCount);
    }
    case 'space': {
      const { description } = data.detail as PropertyDetail;
      return description ? shortened(description) : undefined;
    }
    case 'operator': {
      const hub = data.hub as OperatorHub;
      return shortened(hub.tagline ?? t.describeOperator(hub.name, hub.propertyCount));
    }
    case 'best': return t.rankingNote;
    case 'prices': return page.city ? t.priceIndexLead : t.pricesLead;
    case 'price-index': return t.priceIndexLead;
  }
}
