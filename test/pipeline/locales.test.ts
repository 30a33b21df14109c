/**
 * Locales are rows: the SQL takes its locales from locales() (contract/common.ts LOCALES), and the
 * texts come in as (entity, locale, field, text) rows, so adding a locale is the constant and the
 * texts' columns, with no SQL to edit.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { FALLBACK_LOCALE, LOCALES, type Locale } from '../../contract/common.ts';
import { INPUT_TABLES, loadInputs, type InputTableName } from '../../pipeline/lib/inputs.ts';
import { listingLinesSql, listingPartsSql } from '../../pipeline/lib/listing-rows.ts';
import { LAYERS, loadModels, materialization, queryRows, runModels, SQL_DIR } from '../../pipeline/lib/models.ts';
import { describeTextFallbacks, readTextFallbacks } from '../../pipeline/lib/text-fallbacks.ts';
import { baseTables, MITTE, observation, space, writeSnapshot } from '../support/pipeline-fixtures.ts';

const PIPELINE_LIB = path.join(SQL_DIR, '..', 'lib');

/** Berlin with one listing in Mitte; some texts only in English, some in none. */
function snapshot(): string {
  const t = baseTables();
  t.cities[0] = { ...t.cities[0], name_de: '', intro_en: 'Berlin in brief', intro_de: '', intro_es: '' };
  t.operators[0] = { ...t.operators[0], tagline_de: '' };
  t.amenities.push({ slug: 'standing_desks', label_en: 'Standing desks', label_de: '', label_es: '' },
    { slug: 'lockers', label_en: '', label_de: '', label_es: '' });
  t.option_types = t.option_types.map((o) => (o.option_type === 'flex_desk' ? { ...o, label_es: '' } : o));
  t.spaces.push(space('sp-1', {
    operator_id: 'op-001', zone_id: MITTE, amenities: 'wifi;lockers', excerpt_en: 'A place to work', excerpt_de: 'Ein Arbeitsplatz',
  }));
  t.price_observations.push(observation('sp-1', 'flex_desk', '250'));
  return writeSnapshot(t);
}

type TextRow = { entity_kind: string; entity_id: string; locale: string; field: string; text: string | null };

describe('locales as rows', () => {
  let instance: DuckDBInstance;
  let conn: DuckDBConnection;
  const text = async (kind: string, id: string, field: string, locale: string) => (await queryRows<TextRow>(conn,
    `select text from int_texts__localized where entity_kind = '${kind}' and entity_id = '${id}' and field = '${field}' and locale = '${locale}'`))[0]?.text;

  before(async () => {
    instance = await DuckDBInstance.create(':memory:');
    conn = await instance.connect();
    await conn.run("set TimeZone = 'UTC'");
    await loadInputs(conn, snapshot());
    await runModels(instance, loadModels());
  });
  after(() => conn.closeSync());

  it('names no locale in any SQL model, nor in the modules that write SQL', () => {
    const named = new RegExp(`_(${LOCALES.join('|')})\\b|_\\$\\{[^}]*locale[^}]*\\}`, 'i');
    const files = [
      path.join(SQL_DIR, 'macros.sql'),
      ...LAYERS.flatMap((layer) => readdirSync(path.join(SQL_DIR, layer)).filter((f) => f.endsWith('.sql')).map((f) => path.join(SQL_DIR, layer, f))),
      ...['listing-rows.ts', 'assemble.ts', 'models.ts', 'research.ts'].map((f) => path.join(PIPELINE_LIB, f)),
    ];
    for (const file of files) {
      const line = readFileSync(file, 'utf8').split('\n').find((l) => named.test(l));
      assert.equal(line, undefined, `${path.relative(SQL_DIR, file)} names a locale: ${line}`);
    }
  });

  it('has one text per locale for every entity and field, the fallback applied once', async () => {
    const groups = await queryRows<{ entity_kind: string; entity_id: string; field: string; locales: string[] }>(conn,
      'select entity_kind, entity_id, field, list(locale order by locale) as locales from int_texts__localized group by all');
    assert.deepEqual(new Set(groups.map((g) => g.entity_kind)),
      new Set(['country', 'city', 'zone', 'operator', 'space', 'amenity', 'option_type']));
    for (const g of groups) assert.deepEqual(g.locales, [...LOCALES].sort(), `${g.entity_kind} ${g.entity_id} ${g.field}`);
    assert.equal(groups.filter((g) => g.entity_kind === 'space').length, 2, 'the listing has an excerpt and a description');

    // names, labels and a listing's texts fall back to FALLBACK_LOCALE; a label without any text is its key
    assert.equal(FALLBACK_LOCALE, 'en');
    assert.equal(await text('city', '2950159', 'name', 'de'), 'Berlin');
    assert.equal(await text('amenity', 'standing_desks', 'label', 'es'), 'Standing desks');
    assert.equal(await text('amenity', 'lockers', 'label', 'de'), 'lockers');
    assert.equal(await text('option_type', 'flex_desk', 'label', 'es'), 'Flex desk');
    assert.equal(await text('space', 'sp-1', 'excerpt', 'de'), 'Ein Arbeitsplatz');
    assert.equal(await text('space', 'sp-1', 'excerpt', 'es'), 'A place to work');
    assert.equal(await text('space', 'sp-1', 'description', 'es'), null, 'the listing files show the excerpt instead');
    // a city intro and an operator tagline have none: the hubs write their own text
    assert.equal(await text('city', '2950159', 'intro', 'en'), 'Berlin in brief');
    assert.equal(await text('city', '2950159', 'intro', 'de'), null);
    assert.equal(await text('operator', 'op-001', 'tagline', 'de'), null);
  });

  it('counts the texts shown in the fallback locale for want of their own, per locale and field, for the run summary', async () => {
    // Berlin's German name, two labels and an excerpt fall back to English; a label without any text
    // (lockers: its key), an intro or a tagline (no fallback) and a description missing everywhere are not counted
    assert.deepEqual(describeTextFallbacks(await readTextFallbacks(conn)), [
      'locale fallbacks de → en: amenity label 1, city name 1',
      'locale fallbacks es → en: amenity label 1, option_type label 1, space excerpt 1',
    ]);
  });

  it('carries a fourth locale from the input columns to the listing lines with no SQL changed', async () => {
    // what LOCALES with 'fr' added would load: every <field>_<fallback locale> column gets a <field>_fr
    // beside it (blank for the zones, which then fall back); the same SQL models run again
    const fourth = 'fr';
    for (const name of Object.keys(INPUT_TABLES) as InputTableName[]) {
      for (const column of INPUT_TABLES[name].columns.filter((c) => c.endsWith(`_${FALLBACK_LOCALE}`))) {
        const added = `${column.slice(0, -FALLBACK_LOCALE.length)}${fourth}`;
        await conn.run(`alter table raw_${name}_load add column ${added} varchar`);
        if (name !== 'zones') await conn.run(`update raw_${name}_load set ${added} = '${fourth}:' || nullif(trim(${column}), '')`);
      }
    }
    await conn.run(`create or replace macro locales() as [${[...LOCALES, fourth].map((l) => `'${l}'`).join(', ')}]`);
    for (const model of loadModels()) await conn.run(`create or replace ${materialization(model)} ${model.name} as\n${model.sql}`);

    const perEntity = await queryRows<{ n: number }>(conn,
      'select count(*)::integer as n from (select entity_kind, entity_id, field from int_texts__localized group by all having count(*) <> ' +
      `${LOCALES.length + 1} or count(*) filter (where locale = '${fourth}') <> 1)`);
    assert.equal(perEntity[0].n, 0, 'one row per locale, the fourth included, for every entity and field');

    await conn.run(listingPartsSql());
    const line = async (file: 'cards' | 'details') => JSON.parse((await queryRows<{ line: string }>(conn, listingLinesSql(file, fourth as Locale)))[0].line);
    const card = await line('cards') as { city: { name: string }; zone: { name: string }; excerpt: string };
    const detail = await line('details') as { description: string; webUrl: string; pricingOptions: { typeLabel: string }[] };
    assert.equal(card.city.name, 'fr:Berlin');
    assert.equal(card.zone.name, 'Mitte', 'a zone without a French name falls back to its English one');
    assert.equal(card.excerpt, 'fr:A place to work');
    assert.equal(detail.description, 'fr:A place to work', 'no description in any locale: the excerpt');
    assert.equal(detail.webUrl, '/fr/space/space-sp-1');
    assert.deepEqual(detail.pricingOptions.map((o) => o.typeLabel), ['fr:Flex desk']);
  });
});
