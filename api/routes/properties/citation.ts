import type { Locale } from '../../../contract/common.ts';
import type { Engine, Filters } from '../../catalog/engine.ts';
import type { CitationPage } from '../../http/citation.ts';

/** The public page of a filtered list: its place, else its operator, else the home page. */
export function listPage(engine: Engine, locale: Locale, f: Filters): CitationPage {
  const place = engine.placeOf(locale, f);
  if (place) return { kind: 'coworking', ...place };
  if (f.operator && engine.labels.operator[f.operator]) {
    return { kind: 'operator', slug: f.operator, name: engine.label('operator', f.operator, locale) };
  }
  return { kind: 'home' };
}
