/**
 * What this service adds to the published reference contract, the OpenAPI 3.1 document official
 * apps are generated from (a copy: test/contract/reference-openapi.json), by the reference's
 * operationId. The contract only grows, so a client generated from the reference ignores each of
 * these; the document lists them (info.description, "Additions to the reference") and
 * test/contract/reference.test.ts allows exactly these and nothing else.
 */
export interface ReferenceAddition {
  /** response members the reference does not declare: dotted paths into the 200 body, `[]` for the items of an array */
  members?: string[];
  /** parameters the reference does not declare */
  parameters?: string[];
  /** statuses the reference does not declare, beyond 304 (every GET answers If-None-Match) */
  statuses?: number[];
}

const CITED = ['meta.citation'];
const FACET_CONTEXT = ['amenities', 'minCapacity', 'minPrice', 'maxPrice', 'lat', 'lng', 'radiusMeters', 'bbox', 'address'];

export const REFERENCE_ADDITIONS: Record<string, ReferenceAddition> = {
  listProperties: { members: [...CITED, 'data[].capacity_status', 'data[].comparablePrice'], parameters: ['address'] },
  mapProperties: { members: CITED, parameters: ['address'] },
  propertyDetail: { members: [...CITED, 'data.pricingOptions[].typeLabel'] },
  facets: { members: [...CITED, 'data.priceRange.basis'], parameters: FACET_CONTEXT },
  geoBootstrap: { members: CITED },
  marketRates: { members: [...CITED, 'data.cities[].byType[].thinSample'] },
  rankings: { members: [...CITED, 'data.ranked[].entryBillingPeriod'], statuses: [404] },
  placeProfile: { members: [...CITED, 'data.medianMonthlyPerDesk', 'data.operatorCount', 'data.children'] },
  operatorProfile: { members: CITED },
  searchSuggest: { members: CITED },
  contact: { parameters: ['Idempotency-Key'] },
  inquiry: { parameters: ['Idempotency-Key'] },
  config: {},
  health: { members: ['data.buildId'] },
};

/** The additions in a few lines of Markdown, for the document's description. */
export function additionsText(): string {
  return Object.entries(REFERENCE_ADDITIONS)
    .filter(([, a]) => a.members?.length || a.parameters?.length || a.statuses?.length)
    .map(([operationId, a]) => {
      const parts = [
        a.members?.length ? `members ${a.members.map((m) => `\`${m}\``).join(', ')}` : '',
        a.parameters?.length ? `parameters ${a.parameters.map((p) => `\`${p}\``).join(', ')}` : '',
        a.statuses?.length ? `status ${a.statuses.join(', ')}` : '',
      ].filter(Boolean);
      return `- \`${operationId}\`: ${parts.join('; ')}`;
    })
    .join('\n');
}
