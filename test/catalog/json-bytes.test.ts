import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JsonBytes } from '../../api/catalog/json-bytes.ts';
import { sitePathOffsets } from '../../contract/line-index.ts';
import { writeWithSitePaths } from '../../api/catalog/text.ts';

describe('JsonBytes', () => {
  it('writes slices, single bytes and texts (ASCII or not, short or long) as UTF-8, growing past its capacity', () => {
    const line = Buffer.from('{"city":"München","note":"Straße – 5 €"}\n');
    const long = `"${'Zürich '.repeat(40)}"`;
    const w = new JsonBytes(8);
    w.text('{"a":').bytes(line, 0, line.length - 1).byte(0x2c).text('"b":"é"').byte(0x2c).text('"c":').text(long).text(',"d":[1,2]}');
    const expected = `{"a":{"city":"München","note":"Straße – 5 €"},"b":"é","c":${long},"d":[1,2]}`;
    const body = w.finish();
    assert.equal(body.toString(), expected);
    assert.deepEqual(JSON.parse(body.toString()).a, { city: 'München', note: 'Straße – 5 €' });
    assert.equal(body.length, Buffer.byteLength(expected));
  });

  it('writes numbers as JSON.stringify does', () => {
    const numbers = [0, -0, 7, 450, 1234567890, Number.MAX_SAFE_INTEGER, 2 ** 60, 37.5, 0.1, -12, -3.25, 1e-7, 1e21, 123.4];
    const w = new JsonBytes(4).byte(0x5b);
    numbers.forEach((n, k) => { if (k > 0) w.byte(0x2c); w.number(n); });
    assert.equal(w.byte(0x5d).finish().toString(), JSON.stringify(numbers));
  });

  it('finishes each body in bytes of its own: the writers after it, and a writer opened inside another, change nothing of it', () => {
    const outer = new JsonBytes(64).text('{"outer":');
    const inner = new JsonBytes(64).text('"inner"');
    const innerBody = inner.finish();
    const first = outer.text('[1,2,3]}').finish();
    for (let k = 0; k < 6; k++) new JsonBytes(64).text(`"overwritten ${k} ${'x'.repeat(40)}"`).finish();
    assert.equal(innerBody.toString(), '"inner"');
    assert.equal(first.toString(), '{"outer":[1,2,3]}');
    assert.equal(first.buffer === innerBody.buffer && first.byteOffset === innerBody.byteOffset, false);
  });

  it('keeps the bodies finished after a body left unfinished (an error mid-response) whole while it is written on', () => {
    const left = new JsonBytes(64).text('"left');
    const later = Array.from({ length: 3 }, (_, k) => new JsonBytes(64).text(`"later ${k}"`).finish());
    left.text('x'.repeat(5000));
    later.forEach((body, k) => assert.equal(body.toString(), `"later ${k}"`));
    assert.equal(left.text('"').finish().toString(), `"left${'x'.repeat(5000)}"`);
  });

  it('keeps every body whole across many bodies (more than one shared allocation holds) and a body too large to share', () => {
    const texts = Array.from({ length: 60 }, (_, k) => `"${String.fromCharCode(97 + (k % 26)).repeat(40_000 + k)}"`);
    texts.push(`"${'z'.repeat(300_000)}"`);
    const bodies = texts.map((t) => new JsonBytes(1024).text(t).finish());
    bodies.forEach((body, k) => assert.equal(body.toString(), texts[k], `body ${k}`));
  });

  it('puts the site URL before every site path of a slice, and only there', () => {
    const line = Buffer.from('{"url":"/media/a.svg","name":"Köln","webUrl":"/de/space/x","logo":{"url":"//cdn.example/x.svg"},"methodologyUrl":"/methodology","href":"/no"}');
    const w = new JsonBytes(16);
    writeWithSitePaths(w, line, 0, line.length, sitePathOffsets(line), 0, Buffer.from('https://atlas.example'));
    assert.deepEqual(JSON.parse(w.finish().toString()), {
      url: 'https://atlas.example/media/a.svg', name: 'Köln', webUrl: 'https://atlas.example/de/space/x',
      logo: { url: '//cdn.example/x.svg' }, methodologyUrl: 'https://atlas.example/methodology', href: '/no',
    });
  });
});
