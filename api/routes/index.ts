import type { RouteDefinition } from '../http/route.ts';
import { facetsRoute } from './facets/index.ts';
import { geoBootstrapRoute } from './geo/index.ts';
import { configRoute, healthRoute } from './meta/index.ts';
import { propertyDetailRoute, propertyListRoute, propertyMapRoute } from './properties/index.ts';

/** Every catalogue route of the core, in registration order. */
export const CORE_ROUTES: RouteDefinition<any, any, any>[] = [
  healthRoute,
  configRoute,
  geoBootstrapRoute,
  facetsRoute,
  propertyListRoute,
  propertyMapRoute,
  propertyDetailRoute,
];
