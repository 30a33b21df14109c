import { CONTRACT_VERSION, type Citation, type Pagination } from '../../contract/common.ts';
import { JsonBytes } from '../catalog/json-bytes.ts';

export interface MetaInput {
  pagination?: Pagination;
  truncated?: boolean;
  seed?: number;
  citation?: Citation;
}

/** meta in the contract's field order; absent fields are left out, never null. */
function meta(input: MetaInput = {}) {
  const m: Record<string, unknown> = { contractVersion: CONTRACT_VERSION };
  if (input.pagination) m.pagination = input.pagination;
  if (input.truncated !== undefined) m.truncated = input.truncated;
  if (input.seed !== undefined) m.seed = input.seed;
  if (input.citation) m.citation = input.citation;
  return m;
}

export function pagination(page: number, pageSize: number, total: number): Pagination {
  return { page, pageSize, total, pageCount: Math.ceil(total / pageSize) };
}

const DATA_OPEN = '{"data":';
const DATA_OPEN_BYTES = Buffer.from(DATA_OPEN);

/** What follows an envelope's data: its meta, and the closing brace. */
const metaClose = (metaInput: MetaInput) => `,"meta":${JSON.stringify(meta(metaInput))}}`;

/** The envelope around a `data` value that is already JSON. */
export const envelopeJson = (dataJson: string, metaInput: MetaInput = {}) => DATA_OPEN + dataJson + metaClose(metaInput);

/** The envelope around a `data` value that is already JSON bytes (a build file's, JsonFile in api/loading/load.ts). */
export const envelopeBytes = (dataJson: Uint8Array, metaInput: MetaInput = {}) =>
  Buffer.concat([DATA_OPEN_BYTES, dataJson, Buffer.from(metaClose(metaInput))]);

/** The bytes before and after an envelope's data, for data streamed between them. */
export const envelopeEnds = (metaInput: MetaInput = {}): [Buffer, Buffer] => [DATA_OPEN_BYTES, Buffer.from(metaClose(metaInput))];

/** An envelope written as bytes (cards and details are spliced in from the build's bytes): the data goes next. */
export const openEnvelope = (capacity?: number) => new JsonBytes(capacity).text(DATA_OPEN);

/** Ends an envelope opened by openEnvelope, its data written; returns the body. */
export const closeEnvelope = (w: JsonBytes, metaInput: MetaInput = {}) => w.text(metaClose(metaInput)).finish();

export const envelope = (data: unknown, metaInput: MetaInput = {}) => envelopeJson(JSON.stringify(data), metaInput);
