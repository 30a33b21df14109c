import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import * as rules from '../../contract/rules.ts';
import { MAX_RANKING_LIMIT } from '../../contract/market.ts';
import { METHODOLOGY_FILE } from '../../pipeline/lib/research.ts';
import { FUTURE_DATE_LIMIT } from '../../pipeline/run.ts';
import { baseTables, buildFixture, observation, space } from '../support/pipeline-fixtures.ts';

const text = readFileSync(METHODOLOGY_FILE, 'utf8');

/** Every constant the methodology states, by the name it is written under. */
const CONSTANTS: Record<string, number> = {
  MIN_SAMPLE_SIZE: rules.MIN_SAMPLE_SIZE,
  'MARKET_BANDS.below': rules.MARKET_BANDS.below,
  'MARKET_BANDS.above': rules.MARKET_BANDS.above,
  LOW_RELIABILITY_SAMPLE_SIZE: rules.LOW_RELIABILITY_SAMPLE_SIZE,
  STALE_PRICE_DAYS: rules.STALE_PRICE_DAYS,
  DOMINANT_OPERATOR_SHARE: rules.DOMINANT_OPERATOR_SHARE,
  MEDIAN_INTERVAL_LEVEL: rules.MEDIAN_INTERVAL_LEVEL,
  INDEX_BASE: rules.INDEX_BASE,
  'RANKING_WEIGHTS.rating': rules.RANKING_WEIGHTS.rating,
  'RANKING_WEIGHTS.value': rules.RANKING_WEIGHTS.value,
  'RANKING_WEIGHTS.amenities': rules.RANKING_WEIGHTS.amenities,
  RATING_PRIOR_REVIEWS: rules.RATING_PRIOR_REVIEWS,
  VALUE_CAP: rules.VALUE_CAP,
  NEUTRAL_TERM: rules.NEUTRAL_TERM,
  FUTURE_DATE_LIMIT,
};

describe('pipeline/methodology.md', () => {
  it('states every constant of contract/rules.ts with its value', () => {
    const stated = [...text.matchAll(/`([A-Z_]+(?:\.[a-z]+)?)` = ([0-9.]+)/g)].map((m) => [m[1], Number(m[2])] as const);
    for (const [name, value] of stated) {
      assert.ok(name in CONSTANTS, `the text states ${name}, which is no constant of contract/rules.ts`);
      assert.equal(value, CONSTANTS[name], `${name} is ${CONSTANTS[name]}, the text says ${value}`);
    }
    for (const name of Object.keys(CONSTANTS)) assert.ok(stated.some(([n]) => n === name), `${name} is stated`);
    assert.match(text, new RegExp(`top ${MAX_RANKING_LIMIT} \\(\`MAX_RANKING_LIMIT\``));
  });

  it('explains every flag letter, in the order they are written', () => {
    const letters = Object.values(rules.QUALITY_FLAG_LETTERS);
    assert.deepEqual([...letters].sort(), letters, 'QUALITY_FLAG_LETTERS in alphabetical order, as quality_flags() writes them');
    const explained = [...text.matchAll(/^ {2}- `([a-z])` /gm)].map((m) => m[1]);
    assert.deepEqual(explained, letters);
  });

  it('is copied into every build and its release, as it is', async () => {
    const t = baseTables();
    for (let i = 0; i < 5; i++) {
      t.spaces.push(space(`sp-${i}`));
      t.price_observations.push(observation(`sp-${i}`, 'flex_desk', String(300 + i)));
    }
    const b = await buildFixture(t);
    assert.equal(b.text('methodology.md'), text);
    assert.ok('methodology.md' in b.json('manifest.json').files);
    const [release] = readdirSync(path.join(b.distDir, 'releases'));
    assert.equal(readFileSync(path.join(b.distDir, 'releases', release, 'methodology.md'), 'utf8'), text);
  });
});
