import { catalogQuerySchemas, type CatalogQuerySchemas } from '../../contract/queries.ts';
import { declarationsOf, type FilterRegistry } from '../catalog/filter-index.ts';
import type { RouteDefinition } from '../http/route.ts';
import { DOCS_ROUTES } from './docs/index.ts';
import { facetsRoute } from './facets/index.ts';
import { geoBootstrapRoute } from './geo/index.ts';
import { configRoute, healthRoute, readinessRoute } from './meta/index.ts';
import { propertyDetailRoute, propertyListRoutes } from './properties/index.ts';
import { marketRatesRoute } from './market/index.ts';
import { rankingsRoute } from './rankings/index.ts';
import { placeHubRoute } from './places/index.ts';
import { operatorHubRoute } from './operators/index.ts';
import { suggestRoute } from './suggest/index.ts';
import { SITE_ROUTES } from './site/index.ts';
import { cityIndexRoute } from './site/city-index.ts';
import { RELEASE_ROUTES } from './releases/index.ts';
import { mediaRoute } from './media/index.ts';
import { contactLeadRoute, inquiryLeadRoute } from './leads/index.ts';
import { llmsRoute } from './llms/index.ts';

/** Every route of the app, in registration order; the list, map and facets take the filters of a registry. */
export const routes = (filters: FilterRegistry): RouteDefinition<any, any, any>[] => {
  // a registry extends the production filters: its schemas parse (at least) their parameters
  const queries = catalogQuerySchemas(declarationsOf(filters)) as unknown as CatalogQuerySchemas;
  return [
    healthRoute,
    readinessRoute,
    configRoute,
    geoBootstrapRoute,
    facetsRoute(queries),
    ...propertyListRoutes(queries),
    propertyDetailRoute,
    marketRatesRoute,
    rankingsRoute,
    placeHubRoute,
    operatorHubRoute,
    suggestRoute,
    ...SITE_ROUTES,
    cityIndexRoute,
    ...RELEASE_ROUTES,
    ...DOCS_ROUTES,
    llmsRoute,
    mediaRoute,
    contactLeadRoute,
    inquiryLeadRoute,
  ];
};
