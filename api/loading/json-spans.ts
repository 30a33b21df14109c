/**
 * Where the values of a JSON text lie, found without parsing it whole: the price index is cut into
 * one text per city (api/loading/city-texts.ts), each parsed when it is shown. The text must be
 * JSON: what it is not is refused only where the scan meets it.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

function skipSpace(bytes: Uint8Array, i: number): number {
  while (i < bytes.length && isSpace(bytes[i])) i++;
  return i;
}

function expect(bytes: Uint8Array, i: number, byte: number): void {
  if (bytes[i] !== byte) throw new Error(`not JSON: ${String.fromCharCode(byte)} expected at byte ${i}`);
}

/** The index after the string whose opening quote is at i. */
function stringEnd(bytes: Uint8Array, i: number): number {
  for (let k = i + 1; k < bytes.length; k++) {
    const b = bytes[k];
    if (b === BACKSLASH) k++;
    else if (b === QUOTE) return k + 1;
  }
  throw new Error(`not JSON: the string at byte ${i} does not end`);
}

/** The index after the value that starts at i. */
function valueEnd(bytes: Uint8Array, i: number): number {
  const first = bytes[i];
  if (first === QUOTE) return stringEnd(bytes, i);
  if (first !== OPEN_OBJECT && first !== OPEN_ARRAY) {
    while (i < bytes.length && bytes[i] !== COMMA && bytes[i] !== CLOSE_OBJECT && bytes[i] !== CLOSE_ARRAY && !isSpace(bytes[i])) i++;
    return i;
  }
  let depth = 0;
  for (; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === QUOTE) i = stringEnd(bytes, i) - 1;
    else if (b === OPEN_OBJECT || b === OPEN_ARRAY) depth++;
    else if ((b === CLOSE_OBJECT || b === CLOSE_ARRAY) && --depth === 0) return i + 1;
  }
  throw new Error(`not JSON: the value at byte ${i} does not end`);
}

/** A member of an object: its key, and where its value starts. */
export interface Member { key: string; start: number }

/**
 * The members of the object that starts at `from` (spaces before it skipped), in their order; a
 * member's value is passed over only when the next is asked for.
 */
export function* objectMembers(bytes: Uint8Array, from = 0): Generator<Member> {
  let i = skipSpace(bytes, from);
  expect(bytes, i, OPEN_OBJECT);
  i = skipSpace(bytes, i + 1);
  if (bytes[i] === CLOSE_OBJECT) return;
  for (;;) {
    expect(bytes, i, QUOTE);
    const keyEnd = stringEnd(bytes, i);
    const key = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset + i, keyEnd - i).toString('utf8')) as string;
    i = skipSpace(bytes, keyEnd);
    expect(bytes, i, COLON);
    const start = skipSpace(bytes, i + 1);
    yield { key, start };
    i = skipSpace(bytes, valueEnd(bytes, start));
    if (bytes[i] === CLOSE_OBJECT) return;
    expect(bytes, i, COMMA);
    i = skipSpace(bytes, i + 1);
  }
}

/** The elements of the array that starts at `from`: element k is bytes [spans[2k], spans[2k + 1]). */
export function arrayElementSpans(bytes: Uint8Array, from: number): Uint32Array {
  const spans: number[] = [];
  let i = skipSpace(bytes, from);
  expect(bytes, i, OPEN_ARRAY);
  i = skipSpace(bytes, i + 1);
  if (bytes[i] !== CLOSE_ARRAY) {
    for (;;) {
      const end = valueEnd(bytes, i);
      spans.push(i, end);
      i = skipSpace(bytes, end);
      if (bytes[i] === CLOSE_ARRAY) break;
      expect(bytes, i, COMMA);
      i = skipSpace(bytes, i + 1);
    }
  }
  return Uint32Array.from(spans);
}
