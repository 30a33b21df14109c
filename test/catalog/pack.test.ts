import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { ColumnsBuilder, columnsFileText } from '../../api/catalog/columns.ts';
import { jsonFileChunks, sha256OfChunks } from '../../api/catalog/text.ts';
import { PackBuilder, packFileText } from '../../api/catalog/pack.ts';
import type { ListingFact } from '../../contract/build.ts';
import { sharedBuild } from '../support/app.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

// The background verification hashes the derived files piece by piece (little memory); the
// pieces must make exactly the text the pipeline writes, or every good build would be refused.
describe('derived files hashed in pieces', () => {
  it('PackBuilder.fileChunks joins to packFileText, escapes and non-Latin-1 text included', () => {
    const b = new PackBuilder();
    const titles = ['Plain Desk', 'Quote " and \\ backslash', 'Zürich Ünïcödé', 'Emoji 🏢 tower', 'Tab\tand\nnewline', 'مكتب دبي'];
    let offset = 0;
    titles.forEach((title, i) => {
      const card = `{"slug":"s-${i}","title":${JSON.stringify(title)},"coordinates":{"lat":1.5,"lng":2},"featured":false,"images":[{"url":"/m/${i}.svg","width":1,"height":1,"alt":${JSON.stringify(title)}}],"amenities":[]}`;
      b.addCard(card, offset);
      offset += Buffer.byteLength(card) + 1;
      b.addDetail(i * 10, i * 10 + 5);
    });
    const pieces = [...b.fileChunks()];
    assert.ok(pieces.length > 2);
    assert.equal(pieces.join(''), packFileText(b.finish()));
  });

  it('jsonFileChunks hashes to the sha256 of columnsFileText, on the fixture build', async () => {
    const { fixture } = await sharedBuild();
    const facts = JSON.parse(readFileSync(join(fixture.dir, 'listing-facts.json'), 'utf8')) as ListingFact[];
    const builder = new ColumnsBuilder();
    for (const f of facts) builder.add(f);
    const columns = builder.finish();
    assert.equal(sha256OfChunks(jsonFileChunks(columns)), sha256(columnsFileText(columns)));
    assert.equal(sha256OfChunks(jsonFileChunks(columns)), createHash('sha256').update(readFileSync(join(fixture.dir, 'listing-columns.json'))).digest('hex'));
  });
});
