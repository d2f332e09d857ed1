// Applies migrations/*.sql in name order, once each, on PGlite and PostgreSQL alike.
// An advisory lock makes concurrent starts of several API instances safe.
import fs from 'node:fs';
import path from 'node:path';

export type SqlExecutor = (sql: string) => Promise<void>;
type Query = <T>(sql: string, params?: unknown[]) => Promise<T[]>;

export const MIGRATIONS_DIR = path.resolve(__dirname, '..', '..', '..', ...(__dirname.includes(`${path.sep}dist${path.sep}`) ? ['..'] : []), 'migrations');
const LOCK_ID = 7261_2026;

export function listMigrations(dir = MIGRATIONS_DIR): { name: string; sql: string }[] {
  return fs
    .readdirSync(dir)
    .filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f))
    .sort()
    .map((name) => ({ name, sql: fs.readFileSync(path.join(dir, name), 'utf8') }));
}

export const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`;

/** One migration file as one transaction that also records it as applied. */
export function migrationScript(m: { name: string; sql: string }): string {
  return `BEGIN;\n${m.sql}\n;INSERT INTO schema_migrations (name) VALUES ('${m.name}');\nCOMMIT;`;
}

export async function runMigrations(exec: SqlExecutor, query: Query, dir = MIGRATIONS_DIR): Promise<string[]> {
  await exec(MIGRATIONS_TABLE);
  const applied: string[] = [];
  await exec(`SELECT pg_advisory_lock(${LOCK_ID})`);
  try {
    const done = new Set((await query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name));
    for (const m of listMigrations(dir)) {
      if (done.has(m.name)) continue;
      // One transaction per file: a failing migration leaves nothing half-applied.
      await exec(migrationScript(m)).catch(async (err) => {
        await exec('ROLLBACK').catch(() => undefined);
        throw new Error(`migration ${m.name} failed: ${(err as Error).message}`);
      });
      applied.push(m.name);
    }
  } finally {
    await exec(`SELECT pg_advisory_unlock(${LOCK_ID})`);
  }
  return applied;
}
