import type { RouteDefinition } from '../http/route.ts';
import { DOCS_ROUTES } from './docs/index.ts';
import { facetsRoute } from './facets/index.ts';
import { geoBootstrapRoute } from './geo/index.ts';
import { configRoute, healthRoute } from './meta/index.ts';
import { propertyDetailRoute, propertyListRoute, propertyMapRoute } from './properties/index.ts';
import { marketRatesRoute } from './market/index.ts';
import { rankingsRoute } from './rankings/index.ts';
import { placeHubRoute } from './places/index.ts';
import { operatorHubRoute } from './operators/index.ts';
import { suggestRoute } from './suggest/index.ts';
import { SITE_ROUTES } from './site/index.ts';
import { mediaRoute } from './media/index.ts';
import { contactLeadRoute, inquiryLeadRoute } from './leads/index.ts';

/** Every route of the app, in registration order. */
export const ROUTES: RouteDefinition<any, any, any>[] = [
  healthRoute,
  configRoute,
  geoBootstrapRoute,
  facetsRoute,
  propertyListRoute,
  propertyMapRoute,
  propertyDetailRoute,
  marketRatesRoute,
  rankingsRoute,
  placeHubRoute,
  operatorHubRoute,
  suggestRoute,
  ...SITE_ROUTES,
  ...DOCS_ROUTES,
  mediaRoute,
  contactLeadRoute,
  inquiryLeadRoute,
];
