// The drizzle tables and the SQL migrations must describe the same columns: a column only in
// one of them is a bug that would surface at run time.
import { getTableConfig, type PgTable } from 'drizzle-orm/pg-core';
import { is } from 'drizzle-orm';
import { PgTable as PgTableClass } from 'drizzle-orm/pg-core';
import { schema } from '../server/src/db/schema';
import { createTestDatabase, type TestDatabase } from './helpers/test-db';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(() => tdb.drop());

const tables = (Object.values(schema) as unknown[]).filter((t): t is PgTable => is(t, PgTableClass));

test.each(tables.map((t) => [getTableConfig(t).name, t] as const))('table %s matches the migrations', async (name, table) => {
  const rows = await tdb.database.query<{ column_name: string; is_nullable: string }>(
    `SELECT column_name, is_nullable FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1`,
    [name],
  );
  const inDb = new Map(rows.map((r) => [r.column_name, r.is_nullable === 'NO']));
  const inDrizzle = new Map(getTableConfig(table).columns.map((c) => [c.name, c.notNull]));
  expect([...inDrizzle.keys()].sort()).toEqual([...inDb.keys()].sort());
  for (const [col, notNull] of inDrizzle) expect({ col, notNull }).toEqual({ col, notNull: inDb.get(col) });
});
