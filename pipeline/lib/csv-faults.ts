/**
 * Names what is wrong with a CSV file of the snapshot, in the words of rejects.csv: the rule, the
 * file, the row (1 = the first row after the header, blank lines not counted, as DuckDB counts
 * them) and the column. The header and NUL bytes are checked before DuckDB reads a file; the
 * rest of the file is scanned only when DuckDB has refused it.
 */
import { isUtf8 } from 'node:buffer';
import { BuildError } from './errors.ts';

/** What the checks need of an input table: its file and the columns its header must name. */
export interface CsvTable {
  file: string;
  columns: readonly string[];
}

const COMMA = 0x2c;
const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;
const UTF8_BOM = [0xef, 0xbb, 0xbf];

interface CsvRecord {
  /** 0 = the header */
  row: number;
  start: number;
  end: number;
  /** byte offset where each field starts */
  fieldStarts: number[];
  /** a quoted field holds a line break */
  spansLines: boolean;
  /** a quoted field that is never closed, or closed and followed by text */
  quoteFault?: { field: number; kind: 'unclosed' | 'text_after_quote' };
  /** the last record, without a line break after it */
  atEndOfFile: boolean;
}

/** RFC 4180 records of `bytes` as DuckDB reads them: LF, CRLF or a lone CR ends a row, blank lines are skipped, a quote inside an unquoted field is text. */
function* records(bytes: Buffer): Generator<CsvRecord> {
  let i = bytes.length >= 3 && UTF8_BOM.every((b, k) => bytes[k] === b) ? 3 : 0;
  let row = 0;
  while (i < bytes.length) {
    if (bytes[i] === LF || bytes[i] === CR) {
      i += bytes[i] === CR && bytes[i + 1] === LF ? 2 : 1;
      continue;
    }
    const record: CsvRecord = { row, start: i, end: i, fieldStarts: [], spansLines: false, atEndOfFile: false };
    for (;;) {
      record.fieldStarts.push(i);
      if (bytes[i] === QUOTE) {
        let j = i + 1;
        for (;;) {
          const q = bytes.indexOf(QUOTE, j);
          if (q === -1) {
            record.quoteFault ??= { field: record.fieldStarts.length - 1, kind: 'unclosed' };
            j = bytes.length;
            break;
          }
          if (bytes[q + 1] === QUOTE) { j = q + 2; continue; }
          j = q + 1;
          break;
        }
        if (bytes.subarray(i, j).includes(LF)) record.spansLines = true;
        i = j;
        if (i < bytes.length && bytes[i] !== COMMA && bytes[i] !== LF && bytes[i] !== CR) {
          record.quoteFault ??= { field: record.fieldStarts.length - 1, kind: 'text_after_quote' };
        }
      }
      while (i < bytes.length && bytes[i] !== COMMA && bytes[i] !== LF && bytes[i] !== CR) i += 1;
      if (bytes[i] === COMMA) { i += 1; continue; }
      break;
    }
    record.end = i;
    record.atEndOfFile = i >= bytes.length;
    i += bytes[i] === CR && bytes[i + 1] === LF ? 2 : 1;
    yield record;
    row += 1;
  }
}

function fieldText(bytes: Buffer, record: CsvRecord, field: number): string {
  const end = field + 1 < record.fieldStarts.length ? record.fieldStarts[field + 1] - 1 : record.end;
  return bytes.subarray(record.fieldStarts[field], end).toString('utf8');
}

function fieldAt(record: CsvRecord, offset: number): number {
  let field = 0;
  while (field + 1 < record.fieldStarts.length && record.fieldStarts[field + 1] <= offset) field += 1;
  return field;
}

function shorten(text: string, max = 60): string {
  const oneLine = text.replace(/\r?\n/g, '⏎');
  return oneLine.length > max ? `${oneLine.slice(0, max)}…` : oneLine;
}

function where(record: CsvRecord): string {
  return record.row === 0 ? 'row 0 (the header)' : `row ${record.row}`;
}

/** The header's column names; fails on an empty file, a header that is not UTF-8 or not comma-separated, a repeated or missing column. */
export function checkHeader(table: CsvTable, bytes: Buffer): string[] {
  const first = records(bytes).next();
  if (first.done) throw new BuildError('malformed_csv', `${table.file}: the file is empty (row 0, the header, is missing)`);
  const header = first.value;
  const encoding = encodingError(table, bytes, header, []);
  if (encoding) throw encoding;
  if (header.quoteFault) throw quoteError(table, bytes, header, []);
  const names = header.fieldStarts.map((_, f) => fieldText(bytes, header, f).replace(/^"(.*)"$/s, '$1').replaceAll('""', '"'));
  if (names.length === 1) {
    const separator = [';', '\t', '|'].find((s) => names[0].includes(s));
    if (separator) {
      throw new BuildError('malformed_csv',
        `${table.file}: row 0 (the header) is separated by ${JSON.stringify(separator)}; the snapshot's files are separated by ","`);
    }
  }
  for (let f = 0; f < names.length; f++) {
    const again = names.indexOf(names[f], f + 1);
    if (again !== -1 && names[f] !== '') {
      throw new BuildError('duplicate_column', `${table.file}: row 0 (the header) names column "${names[f]}" twice (columns ${f + 1} and ${again + 1})`);
    }
  }
  const missing = table.columns.filter((c) => !names.includes(c));
  if (missing.length > 0) {
    throw new BuildError('missing_column', `${table.file}: column ${missing.map((c) => `"${c}"`).join(', ')} missing (row 0, the header)`);
  }
  return names;
}

/** A NUL byte makes no sense in a text file, and DuckDB would keep it in the value. */
export function checkNoNul(table: CsvTable, bytes: Buffer, names: string[]): void {
  const at = bytes.indexOf(0);
  if (at === -1) return;
  for (const record of records(bytes)) {
    if (record.end >= at) {
      const column = fieldAt(record, at);
      throw new BuildError('bad_encoding', `${table.file}: ${where(record)}, ${columnName(names, column)}: a NUL byte (0x00); the file is not text`);
    }
  }
}

function columnName(names: string[], field: number): string {
  return names[field] ? `column ${names[field]}` : `field ${field + 1}`;
}

/** The first structural fault of a file DuckDB refused: encoding, then quotes, then the number of fields; undefined when the file has none (DuckDB failed for another reason). */
export function diagnoseCsv(table: CsvTable, bytes: Buffer, names: string[]): BuildError | undefined {
  const width = names.length;
  for (const record of records(bytes)) {
    if (record.row === 0) continue;
    const encoding = encodingError(table, bytes, record, names);
    if (encoding) return encoding;
    if (record.quoteFault) return quoteError(table, bytes, record, names);
    const fields = record.fieldStarts.length;
    if (fields !== width) {
      const hint = record.atEndOfFile && fields < width
        ? 'the file ends in the middle of this row: was it cut short?'
        : record.spansLines
          ? 'a quoted field runs over the end of the line: a quote cut in half?'
          : fields > width
            ? 'a comma outside quotes?'
            : record.row === 1 && width > table.columns.length
              ? `the header names columns the rows do not have: ${names.filter((n) => !(table.columns as readonly string[]).includes(n)).map((n) => `"${n}"`).join(', ')}`
              : 'fields missing';
      return new BuildError('malformed_csv',
        `${table.file}: row ${record.row} has ${fields} fields, the header ${width} (${hint}): ${shorten(bytes.subarray(record.start, record.end).toString('utf8'))}`);
    }
  }
  return undefined;
}

function quoteError(table: CsvTable, bytes: Buffer, record: CsvRecord, names: string[]): BuildError {
  const fault = record.quoteFault!;
  const what = fault.kind === 'unclosed'
    ? 'a quoted field is never closed (a quote cut in half?)'
    : 'text follows the closing quote of a field (a quote cut in half, or a quote inside a field not doubled?)';
  return new BuildError('malformed_csv',
    `${table.file}: ${where(record)}, ${columnName(names, fault.field)}: ${what}: ${shorten(fieldText(bytes, record, fault.field))}`);
}

function encodingError(table: CsvTable, bytes: Buffer, record: CsvRecord, names: string[]): BuildError | undefined {
  const slice = bytes.subarray(record.start, record.end);
  if (isUtf8(slice)) return undefined;
  const at = record.start + firstInvalidUtf8(slice);
  const field = fieldAt(record, at);
  const value = fieldText(bytes, record, field);
  const asLatin1 = bytes.subarray(record.fieldStarts[field], field + 1 < record.fieldStarts.length ? record.fieldStarts[field + 1] - 1 : record.end).toString('latin1');
  let affected = 0;
  for (const r of records(bytes)) if (!isUtf8(bytes.subarray(r.start, r.end))) affected += 1;
  const whole = affected > 1
    ? `; ${affected} rows are not UTF-8: the file looks Latin-1 (ISO 8859-1) or Windows-1252 encoded, save it as UTF-8`
    : '; save the file as UTF-8';
  return new BuildError('bad_encoding',
    `${table.file}: ${where(record)}, ${columnName(names, field)}: byte 0x${bytes[at].toString(16).toUpperCase().padStart(2, '0')} is not UTF-8 ` +
      `(${JSON.stringify(shorten(value))}; as Latin-1 it reads ${JSON.stringify(shorten(asLatin1))})${whole}`);
}

/** Offset of the first byte that does not belong to a valid UTF-8 sequence. */
function firstInvalidUtf8(bytes: Buffer): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    const length = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (length === 0 || i + length > bytes.length || !isUtf8(bytes.subarray(i, i + length))) return i;
    i += length;
  }
  return bytes.length;
}
