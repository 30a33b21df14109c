import { crc32 } from 'node:zlib';
import { DETAILS_INDEX, KEYED_FILE, keyedEntries } from '../../contract/build.ts';
import type { BuildWriter } from './publish.ts';

/** A validated map as a keyed file (KEYED_FILE, of a locale or not): its values a line each, their record index, their keys. */
export function writeKeyedFile(writer: BuildWriter, name: string, locale: string | undefined, values: Record<string, unknown>): void {
  const entries = keyedEntries(values);
  const keys = entries.map(([key]) => key);
  const lines = writer.openText(KEYED_FILE.lines(name, locale));
  const index = Buffer.alloc(keys.length * DETAILS_INDEX.bytesPerRecord);
  entries.forEach(([, value], i) => {
    const line = `${JSON.stringify(value)}\n`;
    lines.write(line);
    index.writeUInt32LE(Buffer.byteLength(line), i * DETAILS_INDEX.bytesPerRecord);
    index.writeUInt32LE(crc32(line), i * DETAILS_INDEX.bytesPerRecord + 4);
  });
  lines.close();
  writer.writeBytes(KEYED_FILE.index(name, locale), index);
  writer.writeJson(KEYED_FILE.keys(name, locale), keys);
}
