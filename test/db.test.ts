// The embedded default: PGlite on disk keeps data across restarts and applies each migration
// once; the same runner on PostgreSQL is idempotent and safe when instances start together.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../server/src/db/client';
import { listMigrations } from '../server/src/db/migrate';
import { createTestDatabase } from './helpers/test-db';

test('PGlite under a data dir persists across a restart and migrates once', async () => {
  const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-pglite-')), 'nested', 'pglite');
  // A data dir left half-made by a start killed while creating it is not taken for a database.
  fs.mkdirSync(`${dir}.creating-999999`, { recursive: true });
  const first = await openDatabase({ pgliteDir: dir });
  // Created (and migrated) whole by a child process, then renamed into place: no temporary left.
  expect(fs.existsSync(path.join(dir, 'PG_VERSION'))).toBe(true);
  expect(fs.readdirSync(path.dirname(dir)).filter((f) => f.startsWith(`pglite.creating-${process.pid}`))).toEqual([]);
  expect(await first.migrate()).toEqual([]);
  await first.query(`INSERT INTO accounts (name, email, email_normalized, password_hash) VALUES ('A', 'a@x.io', 'a@x.io', 'h')`);
  await first.close();

  const second = await openDatabase({ pgliteDir: dir });
  expect(await second.migrate()).toEqual([]);
  const rows = await second.query<{ email: string }>('SELECT email FROM accounts');
  expect(rows.map((r) => r.email)).toEqual(['a@x.io']);
  const applied = await second.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
  expect(applied.map((r) => r.name)).toEqual(listMigrations().map((m) => m.name));
  await second.close();
  fs.rmSync(path.dirname(path.dirname(dir)), { recursive: true, force: true });
}, 60_000);

test('running migrations again, concurrently, applies nothing twice', async () => {
  const tdb = await createTestDatabase();
  try {
    const results = await Promise.all([tdb.database.migrate(), tdb.database.migrate()]);
    expect(results).toEqual([[], []]);
  } finally {
    await tdb.drop();
  }
});

test('housekeeping removes stale rate-limit windows and expired tokens, and keeps live ones', async () => {
  const { runHousekeeping } = await import('../server/src/housekeeping');
  const tdb = await createTestDatabase();
  try {
    const db = tdb.database;
    await db.query(`INSERT INTO rate_limits (key, window_start, count) VALUES ('old', now() - interval '2 days', 3), ('new', now(), 1)`);
    const [acc] = await db.query<{ id: string }>(
      `INSERT INTO accounts (name, email, email_normalized, password_hash) VALUES ('A', 'h@x.io', 'h@x.io', 'h') RETURNING id`,
    );
    await db.query(
      `INSERT INTO account_tokens (account_id, kind, token_hash, expires_at) VALUES ($1, 'password_reset', 'a', now() - interval '2 days'), ($1, 'password_reset', 'b', now() + interval '1 hour')`,
      [acc.id],
    );
    await runHousekeeping({ database: db });
    expect((await db.query<{ key: string }>('SELECT key FROM rate_limits')).map((r) => r.key)).toEqual(['new']);
    expect((await db.query<{ token_hash: string }>('SELECT token_hash FROM account_tokens')).map((r) => r.token_hash)).toEqual(['b']);
  } finally {
    await tdb.drop();
  }
});
