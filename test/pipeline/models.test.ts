/**
 * runModels runs the SQL models side by side, each once the models it reads exist: the results are
 * those of one model at a time, and a failed model fails the build by its file once nothing runs.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { DuckDBInstance } from '@duckdb/node-api';
import { BuildError } from '../../pipeline/lib/errors.ts';
import { connect, DUCKDB_MEMORY_FLOOR_MB, DUCKDB_MEMORY_PER_INPUT_BYTE, duckdbMemoryMb, LAYERS, loadModels, openDatabase, queryRows, runModels } from '../../pipeline/lib/models.ts';

const dirs: string[] = [];
after(() => { for (const dir of dirs) rmSync(dir, { recursive: true, force: true }); });

/** A models directory: file (`<layer>/<name>.sql`) → SQL. */
function sqlDir(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'models-'));
  dirs.push(dir);
  for (const layer of LAYERS) mkdirSync(path.join(dir, layer));
  writeFileSync(path.join(dir, 'macros.sql'), 'create or replace macro twice(x) as 2 * x;');
  for (const [file, sql] of Object.entries(files)) writeFileSync(path.join(dir, file), sql);
  return dir;
}

/** A chain of `length` models, each adding a row to the one it reads, and `wide` models beside it reading the first. */
function chain(length: number, wide: number): Record<string, string> {
  const files: Record<string, string> = { 'staging/stg_seed.sql': 'select 1 as n' };
  for (let k = 1; k <= length; k++) {
    const from = k === 1 ? 'stg_seed' : `int_step_${k - 1}`;
    files[`intermediate/int_step_${k}.sql`] = `select n from ${from} union all select max(n) + 1 from ${from}`;
  }
  for (let k = 1; k <= wide; k++) files[`marts/side_${k}.sql`] = `select twice(n) as n from stg_seed cross join range(${k})`;
  return files;
}

describe('runModels', () => {
  it('runs each model after the models it reads, whatever runs beside it', async () => {
    const dir = sqlDir(chain(8, 6));
    const instance = await DuckDBInstance.create(':memory:');
    const counts = await runModels(instance, loadModels(dir), undefined, dir);
    assert.deepEqual(Object.keys(counts), loadModels(dir).map((m) => m.name), 'counts in dependency order');
    for (let k = 1; k <= 8; k++) assert.equal(counts[`int_step_${k}`], k + 1, `int_step_${k} read its predecessor complete`);
    for (let k = 1; k <= 6; k++) assert.equal(counts[`side_${k}`], k);
    const conn = await connect(instance);
    assert.deepEqual(await queryRows(conn, 'select max(n)::integer as n from int_step_8'), [{ n: 9 }]);
    assert.deepEqual(await queryRows(conn, "select current_setting('TimeZone') as tz"), [{ tz: 'UTC' }]);
    conn.closeSync();
    instance.closeSync();
  });

  it('drops each table no later model reads as soon as its last reader is made, but those to keep and the views', async () => {
    const dir = sqlDir(chain(4, 2));
    const instance = await DuckDBInstance.create(':memory:');
    const counts = await runModels(instance, loadModels(dir), undefined, dir, new Set(['int_step_2', 'int_step_4']));
    assert.equal(counts.int_step_4, 5, 'the chain read each step before it was dropped');
    const conn = await connect(instance);
    const names = async (sql: string) => (await queryRows<{ name: string }>(conn, sql)).map((t) => t.name);
    assert.deepEqual(await names("select table_name as name from duckdb_tables() where table_name like 'int_step_%' order by 1"), ['int_step_2', 'int_step_4'],
      'steps 1 and 3 were read by the next step only');
    assert.deepEqual(await names("select table_name as name from duckdb_tables() where table_name like 'side_%' order by 1"), ['side_1', 'side_2'],
      'a table no model reads is left for what reads it after the models');
    assert.deepEqual(await names("select view_name as name from duckdb_views() where view_name = 'stg_seed'"), ['stg_seed']);
    conn.closeSync();
    instance.closeSync();
  });

  it('fails with the failed model\'s file once the models beside it are done, and builds nothing that reads it', async () => {
    const dir = sqlDir({
      ...chain(3, 4),
      'intermediate/int_broken.sql': 'select no_such_column from stg_seed',
      'marts/after_broken.sql': 'select * from int_broken',
    });
    const instance = await DuckDBInstance.create(':memory:');
    await assert.rejects(runModels(instance, loadModels(dir), undefined, dir), (err: Error) => {
      assert.ok(err instanceof BuildError);
      assert.equal(err.rule, 'model_failed');
      assert.match(err.message, /pipeline\/sql\/intermediate\/int_broken\.sql: .*no_such_column/);
      return true;
    });
    const conn = await connect(instance);
    const tables = (await queryRows<{ name: string }>(conn, 'select table_name as name from duckdb_tables() order by 1')).map((t) => t.name);
    assert.ok(!tables.includes('after_broken'), 'a model reading the failed one is not run');
    assert.ok(['int_step_1', 'int_step_2', 'int_step_3', 'side_1', 'side_4'].every((t) => tables.includes(t)), 'the others ran to their end');
    conn.closeSync();
    instance.closeSync();
  });
});

/** DuckDB's memory sizes as it prints them ("1.4 GiB") in bytes. */
const bytesOf = (size: string) => {
  const [, value, unit] = /^([\d.]+) (\w+)$/.exec(size)!;
  return Number(value) * 1024 ** ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'].indexOf(unit);
};

describe('openDatabase', () => {
  it('gives DuckDB memory in proportion to the snapshot, from a floor to half the machine, spilling into the directory it is given', async () => {
    const spillDir = mkdtempSync(path.join(tmpdir(), 'spill-'));
    dirs.push(spillDir);
    const input = 1e9; // 1 GB of snapshot
    const instance = await openDatabase(spillDir, input);
    const conn = await connect(instance);
    const [settings] = await queryRows<{ limit: string; temp: string }>(conn,
      "select current_setting('memory_limit') as limit, current_setting('temp_directory') as temp");
    conn.closeSync();
    instance.closeSync();
    const expected = Math.min(1e9 * DUCKDB_MEMORY_PER_INPUT_BYTE, totalmem() / 2);
    // DuckDB reports the limit rounded to a tenth of its unit
    assert.ok(Math.abs(bytesOf(settings.limit) - expected) / expected < 0.05, `memory_limit ${settings.limit}, not ${expected} bytes`);
    assert.equal(settings.temp, spillDir);
  });

  it('keeps a small snapshot to the floor and a huge one to half the machine', () => {
    const half = Math.floor(totalmem() / 2 / 1e6);
    assert.equal(duckdbMemoryMb(6e6), Math.min(DUCKDB_MEMORY_FLOOR_MB, half), 'the committed sample');
    assert.equal(duckdbMemoryMb(316e6), Math.min(DUCKDB_MEMORY_FLOOR_MB, half), '100,000 spaces: the floor');
    assert.equal(duckdbMemoryMb(1e15), half, 'never more than half the machine');
    assert.ok(duckdbMemoryMb(3.2e9) >= Math.min(12_000, half),
      '1,000,000 spaces (3.2 GB): more than 1.5 GB failed there');
  });
});
