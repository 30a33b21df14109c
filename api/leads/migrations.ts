/**
 * Schema migrations: numbered SQL files per dialect in migrations/<dialect>/ (`001_leads.sql`, …),
 * applied in order at start-up and recorded in schema_migrations. Append-only: a released file is
 * never edited, a new one is added.
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

const FILE = /^(\d+)_[a-z0-9_]+\.sql$/;

export function readMigrations(dialect: 'sqlite' | 'postgres'): Migration[] {
  const dir = new URL(`./migrations/${dialect}/`, import.meta.url);
  const migrations = readdirSync(dir).filter((f) => FILE.test(f)).sort().map((name, i) => {
    const version = Number(FILE.exec(name)![1]);
    if (version !== i + 1) throw new Error(`migrations/${dialect}: expected version ${i + 1}, found ${name}`);
    return { version, name, sql: readFileSync(new URL(name, dir), 'utf8') };
  });
  if (migrations.length === 0) throw new Error(`migrations/${dialect}: no migration files`);
  return migrations;
}
