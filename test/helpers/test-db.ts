// A fresh database per test file, cloned from a migrated template: on PostgreSQL (DATABASE_URL)
// a CREATE DATABASE ... TEMPLATE, on PGlite a load of a dumped data dir (into a temp dir). Both take well under a
// second, where migrating from scratch takes several.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type Database } from '../../server/src/db/client';
import { listMigrations } from '../../server/src/db/migrate';

export function migrationsHash(): string {
  const h = crypto.createHash('sha256');
  for (const m of listMigrations()) h.update(m.name).update(m.sql);
  return h.digest('hex').slice(0, 12);
}

/** Tests run on PostgreSQL when DATABASE_URL is set (unless TEST_DB=pglite), else on PGlite. */
export function testDriver(): 'postgres' | 'pglite' {
  return process.env.DATABASE_URL && process.env.TEST_DB !== 'pglite' ? 'postgres' : 'pglite';
}

export const templateName = () => `hostbase_tmpl_${migrationsHash()}`;
export const pgliteTemplateFile = () => path.join(os.tmpdir(), `hostbase-pglite-${migrationsHash()}.tar.gz`);

export function urlWithDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = '/' + name;
  return u.toString();
}

export interface TestDatabase {
  database: Database;
  name: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  if (testDriver() === 'postgres') {
    const admin = await openDatabase({ databaseUrl: process.env.DATABASE_URL, migrate: false, poolSize: 1 });
    const name = `hostbase_t_${crypto.randomBytes(6).toString('hex')}`;
    try {
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${templateName()}`);
    } finally {
      await admin.close();
    }
    const database = await openDatabase({ databaseUrl: urlWithDatabase(process.env.DATABASE_URL!, name), migrate: false, poolSize: 5 });
    return {
      database,
      name,
      drop: async () => {
        // Roles are the cluster's, not the database's: the projects' roles go with the test database.
        const roles = await database
          .query<{ role: string }>('SELECT owner_role AS role FROM project_databases UNION ALL SELECT app_role FROM project_databases')
          .catch(() => []);
        await database.close();
        const a = await openDatabase({ databaseUrl: process.env.DATABASE_URL, migrate: false, poolSize: 1 });
        try {
          await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          for (const { role } of roles) await a.query(`DROP ROLE IF EXISTS "${role.replace(/"/g, '""')}"`);
        } finally {
          await a.close();
        }
      },
    };
  }
  // On disk, as `npm start` runs it: a statement ended at its deadline restarts PGlite's worker,
  // which an in-memory database would not survive (db/pglite-host.ts).
  const blob = new Blob([fs.readFileSync(pgliteTemplateFile())]);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-test-pglite-'));
  const database = await openDatabase({ pgliteDir: path.join(dir, 'pglite'), pgliteLoadDataDir: blob, migrate: false });
  return {
    database,
    name: 'pglite',
    drop: async () => {
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
