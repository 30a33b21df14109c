/**
 * The MCP server's tools: each a read of the REST API under the reference's name, with a
 * description an agent can choose by. Their arguments are the operation's parameters (from the
 * OpenAPI document, itself made from the routes' zod schemas); their result is the REST body.
 */
import { DEFAULT_PAGE_SIZE, MAX_PAGE } from '../../contract/queries.ts';

export interface ToolDefinition {
  name: string;
  /** the REST operation the tool calls (operationId) */
  operationId: string;
  /** when an agent should call it; what it returns is the operation's own description */
  use: string;
  /** operation parameters the tool does not take (the search's paging, replaced by its cursor) */
  omit?: string[];
}

export const SEARCH_TOOL = 'search_coworking_spaces';
/** cards a search call returns: the list's default page */
export const SEARCH_PAGE_SIZE = DEFAULT_PAGE_SIZE;
export const COMPARE_TOOL = 'compare_coworking_spaces';
/** how many spaces a comparison takes */
export const COMPARE_MIN = 2;
export const COMPARE_MAX = 10;

export const TOOLS: ToolDefinition[] = [
  {
    name: 'list_coworking_locations',
    operationId: 'geoBootstrap',
    use: 'Use it first to learn the slugs of countries, cities and zones that the other tools take.',
  },
  {
    name: 'resolve_coworking_query',
    operationId: 'searchSuggest',
    use: 'Use it to turn words a person typed ("Berlin Mitte", the name of an operator or a space) into the slugs the other tools take.',
  },
  {
    name: 'get_coworking_filter_options',
    operationId: 'facets',
    use: 'Use it before a search, to learn which filter values exist in a context and how many spaces each would leave.',
  },
  {
    name: SEARCH_TOOL,
    operationId: 'listProperties',
    omit: ['page', 'pageSize', 'seed'],
    use: `Use it to find spaces by place, operator, option type, amenities, capacity or price, ${SEARCH_PAGE_SIZE} a call. `
      + 'meta.pagination.total is the number of matches; to read on, call again with only `cursor` set to meta.nextCursor (absent on the last page). '
      + `The cursor keeps the filters and the order (a random order's seed too), so pages neither repeat nor skip; the list stops after ${MAX_PAGE} pages.`,
  },
  {
    name: 'get_coworking_space',
    operationId: 'propertyDetail',
    use: 'Use it for everything about one space, by its slug (from a search or a resolved query).',
  },
  {
    name: COMPARE_TOOL,
    operationId: 'propertyDetail',
    use: `Use it to compare ${COMPARE_MIN} to ${COMPARE_MAX} spaces side by side: each as get_coworking_space returns it, in the order of \`slugs\`.`,
  },
  {
    name: 'get_coworking_market_rates',
    operationId: 'marketRates',
    use: 'Use it for what desks cost in a city. Quote a figure with meta.citation.',
  },
  {
    name: 'get_best_coworking',
    operationId: 'rankings',
    use: 'Use it for "the best coworking in a city".',
  },
  {
    name: 'get_coworking_operator',
    operationId: 'operatorProfile',
    use: 'Use it for an operator (a brand of spaces), by its slug.',
  },
  {
    name: 'get_coworking_place_guide',
    operationId: 'placeProfile',
    use: 'Use it for an overview of a country, city or zone, by its kind and slug.',
  },
  // beyond the reference's tools: what its pages offer browser agents as get_current_market_prices
  {
    name: 'get_coworking_price_index',
    operationId: 'getPriceIndexCity',
    use: 'Use it for how desk prices stand and move in one city: the open price index with its quality flags and the monthly history, by city slug. Quote a figure with meta.citation and its sample size.',
  },
];
