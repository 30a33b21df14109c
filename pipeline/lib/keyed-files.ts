import { closeSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { compareKeys, DETAILS_INDEX, KEYED_FILE, keyedEntries } from '../../contract/build.ts';
import type { BuildWriter } from './publish.ts';

/** A keyed file's lines written in key order, each given as JSON text: the lines file, its record index, its keys. */
function writeKeyedLines(writer: BuildWriter, name: string, locale: string | undefined, keys: string[], lineOf: (i: number) => string): void {
  const lines = writer.openText(KEYED_FILE.lines(name, locale));
  const index = Buffer.alloc(keys.length * DETAILS_INDEX.bytesPerRecord);
  keys.forEach((_, i) => {
    const line = `${lineOf(i)}\n`;
    lines.write(line);
    index.writeUInt32LE(Buffer.byteLength(line), i * DETAILS_INDEX.bytesPerRecord);
    index.writeUInt32LE(crc32(line), i * DETAILS_INDEX.bytesPerRecord + 4);
  });
  lines.close();
  writer.writeBytes(KEYED_FILE.index(name, locale), index);
  writer.writeJson(KEYED_FILE.keys(name, locale), keys);
}

/** A validated map as a keyed file (KEYED_FILE, of a locale or not): its values a line each, their record index, their keys. */
export function writeKeyedFile(writer: BuildWriter, name: string, locale: string | undefined, values: Record<string, unknown>): void {
  const entries = keyedEntries(values);
  writeKeyedLines(writer, name, locale, entries.map(([key]) => key), (i) => JSON.stringify(entries[i][1]));
}

/**
 * A keyed file (not localized) of values given one at a time as JSON text, in any order and too
 * many to hold: each is spooled to a file beside the build's, then copied into the keyed file in
 * the order of its keys when `close` is called.
 */
export function keyedFileStream(writer: BuildWriter, name: string): { add(key: string, json: string): void; close(): void } {
  const spool = writer.pathOf(`${name}.spool`);
  const fd = openSync(spool, 'w+');
  const spooled: { key: string; start: number; length: number }[] = [];
  let at = 0;
  return {
    add(key, json) {
      const bytes = Buffer.from(json);
      for (let offset = 0; offset < bytes.length;) offset += writeSync(fd, bytes, offset);
      spooled.push({ key, start: at, length: bytes.length });
      at += bytes.length;
    },
    close() {
      try {
        spooled.sort((a, b) => compareKeys(a.key, b.key));
        for (let i = 1; i < spooled.length; i++) if (spooled[i - 1].key === spooled[i].key) throw new Error(`${KEYED_FILE.lines(name)}: the key ${spooled[i].key} repeats`);
        writeKeyedLines(writer, name, undefined, spooled.map((s) => s.key), (i) => {
          const { start, length } = spooled[i];
          const bytes = Buffer.allocUnsafe(length);
          for (let read = 0; read < length;) {
            const n = readSync(fd, bytes, read, length - read, start + read);
            if (n === 0) throw new Error(`${spool} ends before its line ${i + 1}`);
            read += n;
          }
          return bytes.toString('utf8');
        });
      } finally {
        closeSync(fd);
        rmSync(spool);
      }
    },
  };
}
