import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { MIN_SAMPLE_SIZE, PUBLISH_RULES, type PublishRules } from '../../contract/rules.ts';
import { loadInputs } from '../../pipeline/lib/inputs.ts';
import { LAYERS, loadModels, queryRows, runModels, SQL_DIR } from '../../pipeline/lib/models.ts';
import { baseTables, observation, space, writeSnapshot } from '../support/pipeline-fixtures.ts';

/** Berlin with one flex desk per price, Operator op-001 running every space. */
function snapshot(prices: number[]): string {
  const t = baseTables();
  prices.forEach((price, i) => {
    const id = `sp-${i}`;
    t.spaces.push(space(id, { operator_id: 'op-001' }));
    t.price_observations.push(observation(id, 'flex_desk', String(price)), observation(id, 'day_pass', '20', 'day'));
  });
  return writeSnapshot(t);
}

/** The marts of a snapshot, run with the given rules. */
async function marts(dataDir: string, rules: PublishRules) {
  const instance = await DuckDBInstance.create(':memory:');
  const conn: DuckDBConnection = await instance.connect();
  try {
    await conn.run("set TimeZone = 'UTC'");
    await loadInputs(conn, dataDir);
    await runModels(instance, loadModels(), rules);
    const one = async (sql: string) => (await queryRows(conn, sql))[0];
    return {
      index: await one("select is_published, median_price from price_index where city_slug = 'berlin' and product_type = 'all'"),
      indexFlags: (await one("select quality_flags from price_index where city_slug = 'berlin' and product_type = 'all'")).quality_flags,
      history: await one("select is_published, median_price from price_history where city_slug = 'berlin' and product_type = 'all'"),
      rates: await one("select is_published from market_rates where city_slug = 'berlin' and product_type = 'flex_desk'"),
      dayPass: await one("select is_published from market_rates where city_slug = 'berlin' and product_type = 'day_pass'"),
      city: await one("select is_published, median_price, min_price from cities where city_slug = 'berlin'"),
      country: await one("select is_published from countries where country_code = 'DE'"),
      operator: await one("select position_verdict from operators where operator_slug = 'desk-nest'"),
      verdicts: (await queryRows<{ verdict: string }>(conn,
        "select verdict from int_space_prices__positioned where product_type = 'all' order by monthly_price_per_desk")).map((r) => r.verdict),
    };
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

describe('the publish rules come from contract/rules.ts', () => {
  const defaults = PUBLISH_RULES;
  let thin: string;
  let priced: string;
  before(() => {
    thin = snapshot([100, 200, 300, 400].slice(0, MIN_SAMPLE_SIZE - 1));
    priced = snapshot([800, 900, 1000, 1100, 1200]);
  });

  it('withholds every figure of a sample one short of MIN_SAMPLE_SIZE', async () => {
    const m = await marts(thin, defaults);
    assert.deepEqual(m.index, { is_published: false, median_price: null });
    assert.deepEqual(m.history, { is_published: false, median_price: null }, 'history: the same decision');
    assert.equal(m.indexFlags, null, 'no flags on an unpublished figure');
    assert.equal(m.rates.is_published, false, 'market rates: thin sample');
    assert.equal(m.dayPass.is_published, false, 'market rates: no day-pass median');
    assert.deepEqual(m.city, { is_published: false, median_price: null, min_price: null }, 'hub: no median, no range');
    assert.equal(m.country.is_published, false);
    assert.equal(m.operator.position_verdict, null);
    assert.deepEqual(m.verdicts, []);
  });

  it('publishes the same sample when the threshold is lowered, in every aggregate', async () => {
    const m = await marts(thin, { ...defaults, minSampleSize: MIN_SAMPLE_SIZE - 1 });
    assert.equal(m.index.is_published, true);
    assert.ok(m.index.median_price !== null);
    assert.equal(m.history.is_published, true);
    assert.equal(m.indexFlags, 'ou', 'one operator runs every space; fewer than 10 spaces');
    assert.equal(m.rates.is_published, true);
    assert.equal(m.dayPass.is_published, true);
    assert.equal(m.city.is_published, true);
    assert.ok(m.city.median_price !== null && m.city.min_price !== null);
    assert.equal(m.country.is_published, true);
    assert.ok(m.operator.position_verdict !== null);
    assert.equal(m.verdicts.length, MIN_SAMPLE_SIZE - 1);
  });

  it('places prices with the market bands it is given', async () => {
    // median 1000: 800 and 1200 are outside the default bands, 900 and 1100 on their bounds
    assert.deepEqual((await marts(priced, defaults)).verdicts, ['below', 'around', 'around', 'around', 'above']);
    const wide = await marts(priced, { ...defaults, marketBands: { below: 0.5, above: 1.5 } });
    assert.deepEqual(wide.verdicts, ['around', 'around', 'around', 'around', 'around']);
    const narrow = await marts(priced, { ...defaults, marketBands: { below: 1, above: 1 } });
    assert.deepEqual(narrow.verdicts, ['below', 'below', 'around', 'above', 'above']);
  });

  it('flags figures with the quality thresholds it is given', async () => {
    assert.equal((await marts(priced, defaults)).indexFlags, 'ou');
    assert.equal((await marts(priced, { ...defaults, lowReliabilitySampleSize: 5 })).indexFlags, 'o', '5 spaces are enough');
    assert.equal((await marts(priced, { ...defaults, dominantOperatorShare: 1.01 })).indexFlags, 'u', 'no share reaches 101%');
  });

  it('leaves no threshold or band as a literal in the SQL', () => {
    for (const layer of LAYERS) {
      for (const file of readdirSync(path.join(SQL_DIR, layer)).filter((f) => f.endsWith('.sql'))) {
        const sql = readFileSync(path.join(SQL_DIR, layer, file), 'utf8').replace(/--[^\n]*/g, '');
        assert.doesNotMatch(sql, /\b(sample_size|peer_count|count\(\*\))\s*(>=|<=|<|>)\s*\d/, `${layer}/${file}: use is_published / min_sample_size()`);
        assert.doesNotMatch(sql, /\b(0\.9|1\.1)\b/, `${layer}/${file}: use market_verdict()`);
        assert.doesNotMatch(sql, /\b(180|0\.6)\b/, `${layer}/${file}: use quality_flags() / stale_price_days()`);
      }
    }
  });
});
