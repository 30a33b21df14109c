import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { houseNumberMatches, parseAddress, parseHouseNumber, streetKey } from '../../api/catalog/address.ts';

describe('streetKey', () => {
  it('folds case, accents and street types in de, es and en', () => {
    const same = (...forms: string[]) => {
      const keys = new Set(forms.map(streetKey));
      assert.equal(keys.size, 1, `${forms.join(' | ')} → ${[...keys].join(' | ')}`);
    };
    same('Torstraße', 'Torstr.', 'TORSTRASSE', 'Tor Straße', 'torstr');
    same('Calle de Alcalá', 'C/ Alcalá', 'Calle Alcala', 'c/alcala', 'CL Alcalá');
    same('Avenida del Puerto', 'Av. del Puerto', 'Avda. Puerto', 'avda del puerto');
    same('Old Street', 'Old St', 'old st.');
    same('Abbey Road', 'Abbey Rd');
    same('5th Avenue', '5th Ave');
    assert.notEqual(streetKey('Torstraße'), streetKey('Oranienstraße'));
    assert.notEqual(streetKey('Calle Mayor'), streetKey('Plaza Mayor'));
  });
});

describe('house numbers', () => {
  it('parses single numbers, suffixes and ranges', () => {
    assert.deepEqual(parseHouseNumber('12'), { from: 12, to: 12, suffix: '' });
    assert.deepEqual(parseHouseNumber('12a'), { from: 12, to: 12, suffix: 'a' });
    assert.deepEqual(parseHouseNumber(' 12 B '), { from: 12, to: 12, suffix: 'b' });
    assert.deepEqual(parseHouseNumber('10-14'), { from: 10, to: 14, suffix: '' });
    assert.equal(parseHouseNumber('s/n'), undefined);
  });

  it('matches a number inside a listing number or range', () => {
    const m = (listing: string, asked: string) => houseNumberMatches(parseHouseNumber(listing)!, parseHouseNumber(asked)!);
    assert.ok(m('12', '12'));
    assert.ok(m('12a', '12'));
    assert.ok(m('12a', '12a'));
    assert.ok(!m('12a', '12b'));
    assert.ok(m('10-14', '10') && m('10-14', '14') && m('10-14', '12a'));
    assert.ok(!m('10-14', '9') && !m('10-14', '15'));
    assert.ok(!m('13', '12'));
  });
});

describe('parseAddress', () => {
  it('finds the street and the number in common layouts', () => {
    const p = (s: string) => { const a = parseAddress(s)!; return [a.street, a.number && `${a.number.from}-${a.number.to}${a.number.suffix}`]; };
    assert.deepEqual(p('Torstraße 12'), [streetKey('Torstraße'), '12-12']);
    assert.deepEqual(p('Torstr. 12a, 10119 Berlin'), [streetKey('Torstraße'), '12-12a']);
    assert.deepEqual(p('C/ Alcalá, 21'), [streetKey('Calle Alcalá'), '21-21']);
    assert.deepEqual(p('12 Old Street'), [streetKey('Old Street'), '12-12']);
    assert.deepEqual(p('Av. Diagonal 640 - 642'), [streetKey('Avenida Diagonal'), '640-642']);
    assert.deepEqual(p('Torstraße'), [streetKey('Torstraße'), undefined]);
  });
});
