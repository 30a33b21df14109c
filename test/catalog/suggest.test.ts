import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { suggestLines } from '../../api/loading/suggest.ts';
import { SuggestIndex } from '../../api/catalog/suggest.ts';
import { MIN_TYPO_LENGTH, prefixDistance, tokens } from '../../contract/suggest-search.ts';
import { JsonBytes } from '../../api/catalog/json-bytes.ts';
import { LOCALES, type Locale } from '../../contract/common.ts';
import { fold, foldedNames } from '../../contract/fold.ts';
import { MAX_SUGGEST_LIMIT, type Suggestion } from '../../contract/market.ts';
import { decodeSuggestIndex, encodeSuggestIndex, SUGGEST_HEAVY_POSTINGS } from '../../contract/suggest-index.ts';
import { buildSuggestIndex, suggestFileLines, type SuggestSource } from '../../pipeline/lib/suggest-index.ts';

const L = (en: string, de = en, es = en): Record<Locale, string> => ({ en, de, es });
function entry(kind: SuggestSource['kind'], slug: string, label: ReturnType<typeof L>, weight: number, extra: Partial<SuggestSource> = {}): SuggestSource {
  return {
    kind, slug, label, sublabel: null, center: null, propertyCount: kind === 'property' ? null : weight,
    foldedNames: foldedNames(label.en, label.de, label.es), weight, ...extra,
  };
}

/** The index the API loads, made as the pipeline makes it and read back through the files' format. */
function indexOf(sources: SuggestSource[]) {
  const { ranked, data } = buildSuggestIndex(sources);
  const fileLines = ranked.map((e) => suggestFileLines(e));
  const lines = Object.fromEntries(LOCALES.map((l, k) => [l, suggestLines(Buffer.from(fileLines.map((ls) => `${ls[k]}\n`).join('')), l, k > 0)]));
  const idx = new SuggestIndex(lines as Record<Locale, ReturnType<typeof suggestLines>>, decodeSuggestIndex(encodeSuggestIndex(data), ranked.length));
  return {
    search(q: string, locale: Locale, limit: number): { total: number; items: Suggestion[] } {
      const { total, ranks } = idx.search(q, limit);
      const w = new JsonBytes();
      idx.writeItems(w, ranks, locale);
      return { total, items: JSON.parse(w.finish().toString()) };
    },
  };
}

const ENTRIES: SuggestSource[] = [
  entry('country', 'germany', L('Germany', 'Deutschland', 'Alemania'), 400),
  entry('city', 'munich', L('Munich', 'München', 'Múnich'), 68, { sublabel: L('Germany', 'Deutschland', 'Alemania'), center: { lat: 48.14, lng: 11.58 } }),
  entry('city', 'manchester', L('Manchester', 'Manchester', 'Mánchester'), 29),
  entry('city', 'barcelona', L('Barcelona'), 87),
  entry('city', 'berlin', L('Berlin', 'Berlin', 'Berlín'), 120),
  entry('city', 'new-york', L('New York', 'New York', 'Nueva York'), 50),
  entry('city', 'dusseldorf', L('Düsseldorf'), 20),
  entry('zone', 'munich-altstadt-lehel', L('Altstadt-Lehel'), 13),
  entry('zone', 'berlin-prenzlauer-berg', L('Prenzlauer Berg'), 30),
  entry('operator', 'mueller-works', L('Müller Works'), 5),
  entry('property', 'barcelona-loft', L('Barcelona Loft'), 1),
  entry('property', 'strasse-haus', L('Haus an der Straße'), 1),
];
const index = indexOf(ENTRIES);

/**
 * The slugs of the entries matching `q`, best first, by the definition checked name by name: every
 * query word is a prefix of some word of the name (tier 0) or, from MIN_TYPO_LENGTH characters, one
 * edit away from a prefix (tier 1); one typo per query.
 */
function byDefinition(entries: SuggestSource[], q: string): string[] {
  const tierOf = (name: string): number => {
    const ws = tokens(name);
    let typos = 0;
    for (const t of tokens(q)) {
      typos += Math.min(...ws.map((w) => {
        const d = prefixDistance(t, w);
        return d === 1 && t.length < MIN_TYPO_LENGTH ? 2 : d;
      }));
    }
    return typos;
  };
  return entries
    .map((e) => ({ e, tier: tierOf(e.label.en) }))
    .filter((x) => x.tier <= 1)
    .sort((a, b) => a.tier - b.tier || b.e.weight - a.e.weight || (a.e.slug < b.e.slug ? -1 : 1))
    .map((x) => x.e.slug);
}
const slugs = (q: string, locale: Locale = 'en', limit = 8) => index.search(q, locale, limit).items.map((i) => i.slug);

describe('fold', () => {
  it('folds case, accents, ß and the German transliterations alike', () => {
    assert.equal(fold('München'), 'munchen');
    assert.equal(fold('MUENCHEN'), 'munchen');
    assert.equal(fold('Düsseldorf'), fold('Duesseldorf'));
    assert.equal(fold('Straße'), 'strasse');
    assert.equal(fold('Altstadt-Lehel'), 'altstadt lehel');
    assert.equal(fold('  Nueva   York! '), fold('nueva york'));
  });
});

describe('prefixDistance', () => {
  it('is 0 for a prefix, 1 for one edit against some prefix, 2 beyond', () => {
    assert.equal(prefixDistance('barc', 'barcelona'), 0);
    assert.equal(prefixDistance('barcelna', 'barcelona'), 1); // a missing letter
    assert.equal(prefixDistance('barxelona', 'barcelona'), 1); // substitution
    assert.equal(prefixDistance('bracelona', 'barcelona'), 1); // transposition
    assert.equal(prefixDistance('barccelona', 'barcelona'), 1); // an extra letter
    assert.equal(prefixDistance('barcelonas', 'barcelona'), 1); // an extra letter at the end
    assert.equal(prefixDistance('brxcelona', 'barcelona'), 2);
    assert.equal(prefixDistance('madrid', 'barcelona'), 2);
  });
});

describe('SuggestIndex', () => {
  it('finds München from munich, münchen, munc and muenchen', () => {
    for (const q of ['munich', 'münchen', 'munc', 'muenchen', 'MÜNCHEN', 'Múnich']) {
      assert.equal(slugs(q)[0], 'munich', q);
    }
    const [m] = index.search('muenchen', 'de', 8).items;
    assert.deepEqual(m, { kind: 'city', slug: 'munich', label: 'München', sublabel: 'Deutschland', center: { lat: 48.14, lng: 11.58 }, propertyCount: 68 });
  });

  it('tolerates one typo from 4 characters: barcelna finds Barcelona', () => {
    assert.deepEqual(slugs('barcelna'), ['barcelona', 'barcelona-loft']);
    assert.deepEqual(slugs('bxr'), [], 'no typo under 4 characters');
    assert.deepEqual(slugs('brxcelna'), [], 'not two typos');
  });

  it('finds each kind of typo, at the first letter, inside the word and at its end', () => {
    const cases: [string, string[]][] = [
      ['barcelnoa', ['barcelona', 'barcelona-loft']], // two letters swapped at the end
      ['abrcelona', ['barcelona', 'barcelona-loft']], // swapped at the start
      ['barclona', ['barcelona', 'barcelona-loft']], // a missing letter
      ['arcelona', ['barcelona', 'barcelona-loft']], // the first letter missing
      ['barcelonaa', ['barcelona', 'barcelona-loft']], // an extra letter at the end
      ['xbarcelona', ['barcelona', 'barcelona-loft']], // an extra first letter
      ['varcelona', ['barcelona', 'barcelona-loft']], // the first letter replaced
      ['barcelonx', ['barcelona', 'barcelona-loft']], // the last letter replaced
      ['strase', ['strasse-haus']], // Straße folds to strasse: one s missing
      ['straße', ['strasse-haus']],
      ['müncen', ['munich']], // ü folds to u, a letter missing after it
      ['düseldorf', ['dusseldorf']],
      ['haus strase', ['strasse-haus']], // several words, one typo
      ['hause strase', []], // one typo per query, not per word
      ['nueva yrok', ['new-york']],
    ];
    for (const [q, expected] of cases) assert.deepEqual(slugs(q), expected, q);
  });

  it('ranks exact prefixes above typo matches, then larger places first', () => {
    // "munc": exact on München; a typo on Manchester (larger places do not jump the tier)
    assert.deepEqual(slugs('munc'), ['munich', 'manchester']);
    assert.deepEqual(slugs('b'), ['berlin', 'barcelona', 'berlin-prenzlauer-berg', 'barcelona-loft']);
    assert.deepEqual(slugs('ber'), ['berlin', 'berlin-prenzlauer-berg']);
  });

  it('ranks a typo late in the word above one on its first letter, at the same weight', () => {
    // munc: Munich is a typo on its 4th letter (muni…); Fuencarral folds to funcarral, a typo on its 1st
    const spaces = indexOf([
      entry('property', 'almendra-calle-de-fuencarral', L('Almendra Calle de Fuencarral'), 1),
      entry('property', 'quillhaven-munich', L('Quillhaven Munich'), 1),
      entry('property', 'anker-munchen', L('Anker München'), 1),
      entry('city', 'manchester', L('Manchester'), 29),
    ]);
    assert.deepEqual(spaces.search('munc', 'en', 8).items.map((i) => i.slug),
      ['anker-munchen', 'manchester', 'quillhaven-munich', 'almendra-calle-de-fuencarral'],
      'the exact prefix first; then typos by weight, then by the exact prefix before the edit');
  });

  it('matches the start of any word, in every locale, and every query word', () => {
    assert.deepEqual(slugs('york'), ['new-york', 'mueller-works'], 'york is one typo from work');
    assert.deepEqual(slugs('nueva y'), ['new-york']);
    assert.deepEqual(slugs('lehel'), ['munich-altstadt-lehel']);
    assert.deepEqual(slugs('altstadt-le'), ['munich-altstadt-lehel']);
    assert.deepEqual(slugs('deutsch'), ['germany']);
    assert.deepEqual(slugs('erl'), [], 'not inside a word');
    assert.deepEqual(slugs('mueller'), ['mueller-works']);
    assert.deepEqual(slugs('strasse'), ['strasse-haus']);
    assert.deepEqual(slugs('haus strasse'), ['strasse-haus']);
    assert.deepEqual(slugs('york berlin'), [], 'every word must match the same name');
  });

  it('labels in the request locale, caps at limit and counts every match', () => {
    assert.equal(index.search('berl', 'es', 8).items[0].label, 'Berlín');
    const r = index.search('b', 'en', 2);
    assert.equal(r.items.length, 2);
    assert.equal(r.total, 4);
    assert.deepEqual(index.search('', 'en', 8), { total: 0, items: [] });
    assert.deepEqual(index.search(' -- ', 'en', 8), { total: 0, items: [] });
  });

  it('agrees with the definition, checked name by name, on random names and queries (typos at the first letter too)', () => {
    const letters = fc.constantFrom(...'abcdeklmnorsu');
    const word = fc.array(letters, { minLength: 1, maxLength: 7 }).map((a) => a.join(''));
    const names = fc.array(fc.array(word, { minLength: 1, maxLength: 3 }).map((w) => w.join(' ')), { minLength: 1, maxLength: 40 });
    const query = fc.array(word, { minLength: 1, maxLength: 3 }).map((w) => w.join(' '));
    fc.assert(fc.property(names, fc.array(query, { minLength: 1, maxLength: 10 }), (nameList, queries) => {
      const entries = nameList.map((n, i) => entry('property', `s-${i}`, L(n), 1 + (i % 5)));
      const idx = indexOf(entries);
      for (const q of queries) {
        const expected = byDefinition(entries, q);
        const got = idx.search(q, 'en', 20);
        assert.equal(got.total, expected.length, `total for "${q}"`);
        assert.deepEqual(got.items.map((i) => i.slug), expected.slice(0, 20), `order for "${q}"`);
      }
    }), { seed: 20261122, numRuns: 300 });
  });

  it('answers a prefix common enough to be heavy from the file, typo matches and totals as a walk finds them', () => {
    const offices = Array.from({ length: SUGGEST_HEAVY_POSTINGS }, (_, i) => entry('property', `office-${i}`, L(`Office ${i}`), 1 + (i % 5)));
    const entries = [
      ...offices,
      entry('property', 'ofice-loft', L('Ofice Loft'), 1000), // a typo of offi… in the name
      entry('city', 'offenbach', L('Offenbach'), 50), // offi one letter off offe…
    ];
    const { data } = buildSuggestIndex(entries);
    // offe and ofic match few words exactly but office by a typo: their walks are as heavy
    for (const p of ['offi', 'offic', 'office', 'offe', 'ofic']) assert.ok(data.answeredPrefixes.includes(p), `${p} answered`);
    for (const p of ['offen', 'loft']) assert.ok(!data.answeredPrefixes.includes(p), `${p} walked`);

    const idx = indexOf(entries);
    for (const q of ['offi', 'Offic', 'OFFICE', 'office 1', 'ofice', 'offe', 'ofic', 'offen']) {
      const expected = byDefinition(entries, q);
      for (const limit of [1, 8, MAX_SUGGEST_LIMIT]) {
        const got = idx.search(q, 'en', limit);
        assert.equal(got.total, expected.length, `total for "${q}"`);
        assert.deepEqual(got.items.map((i) => i.slug), expected.slice(0, limit), `order for "${q}", limit ${limit}`);
      }
    }
    assert.equal(idx.search('offi', 'en', 8).total, SUGGEST_HEAVY_POSTINGS + 2);

    // the request reads the file's answer, it does not walk the postings again
    const k = data.answeredPrefixes.indexOf('offic');
    const altered = { ...data, answerTotal: data.answerTotal.map((t, j) => (j === k ? 7 : t)) };
    const lines = Object.fromEntries(LOCALES.map((l) => [l, { bytes: Buffer.alloc(0), starts: new Float64Array(0) }]));
    assert.equal(new SuggestIndex(lines as Record<Locale, ReturnType<typeof suggestLines>>, altered).search('offic', 8).total, 7);
  });
});
