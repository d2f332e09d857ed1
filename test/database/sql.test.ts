// The console's SQL box: one read-only query as the project's owner role, in a read-only
// transaction with the statement timeout. It reads its own tables and nothing of the platform's
// or another project's; writes, role changes and several statements are refused; results are
// arrays in column order, JSON-safe, at most 1,000 rows. The same on both engines: on PGlite a
// query past the timeout is ended by restarting the database's worker, with PostgreSQL's error.
import { buildTestApp, type TestApp } from '../helpers/app';
import { createProject, registerDeveloper, type Developer, type Project, onPlan } from '../helpers/factories';
import { isQuery, jsonSafe, withoutTrailingSemicolons } from '../../server/src/modules/database/sql-box';

let t: TestApp;
let dev: Developer;
beforeAll(async () => {
  t = await buildTestApp();
  dev = await registerDeveloper(t);
  await onPlan(t, dev, 'enterprise'); // more projects than Hobby's 3: this file is not about plan limits
});
afterAll(() => t.close());

const db = (project: Project, op: string, body: unknown) => t.post(`/project/${project.id}/database/${op}`, body, dev.token);
const sql = (project: Project, query: string) => db(project, 'sql', { query });

async function projectWithRows() {
  const project = await createProject(t, dev);
  const res = await db(project, 'create_table', {
    name: 'items',
    columns: [
      { name: 'title', type: 'text' },
      { name: 'big', type: 'bigint' },
      { name: 'at', type: 'timestamptz' },
      { name: 'meta', type: 'jsonb' },
      { name: 'ok', type: 'boolean' },
      { name: 'price', type: 'numeric' },
    ],
  });
  expect(res.statusCode).toBe(200);
  const schema = (await t.app.projectDatabase.names(project)).schemaName;
  await t.database.query(
    `INSERT INTO "${schema}".items (title, big, at, meta, ok, price) VALUES ('a', 9007199254740993, '2026-01-02T03:04:05Z', '{"k": [1]}', true, 1.10), ('b', NULL, NULL, NULL, NULL, NULL)`,
  );
  return project;
}

test('reads its own tables: columns with types, rows as JSON-safe arrays in order', async () => {
  const project = await projectWithRows();
  const res = await sql(project, 'SELECT title, big, at, meta, ok, price, title AS title, id::int FROM items ORDER BY id;;  \n');
  expect(res.statusCode).toBe(200);
  const body = res.json();
  expect(body.columns).toEqual([
    { name: 'title', type: 'text' },
    { name: 'big', type: 'bigint' },
    { name: 'at', type: 'timestamptz' },
    { name: 'meta', type: 'jsonb' },
    { name: 'ok', type: 'boolean' },
    { name: 'price', type: 'numeric' },
    { name: 'title', type: 'text' },
    { name: 'id', type: 'integer' },
  ]);
  expect(body.rows).toEqual([
    ['a', '9007199254740993', '2026-01-02T03:04:05.000Z', { k: [1] }, true, '1.10', 'a', 1],
    ['b', null, null, null, null, null, 'b', 2],
  ]);
  expect(body).toMatchObject({ row_count: 2, truncated: false });
  expect(body.duration_ms).toBeGreaterThanOrEqual(0);
});

test('takes WITH, VALUES, TABLE, parentheses and leading comments', async () => {
  const project = await projectWithRows();
  for (const query of [
    'WITH x AS (SELECT 1 AS n) SELECT n FROM x',
    'VALUES (1, 2)',
    'TABLE items',
    '((SELECT 1))',
    '-- why\n/* a /* nested */ note */ select 1',
  ]) {
    const res = await sql(project, query);
    expect([query, res.statusCode]).toEqual([query, 200]);
  }
  const bytes = await sql(project, "SELECT '\\x00ff'::bytea AS b, interval '1 hour' AS i, 'NaN'::float8 AS f, ARRAY[1,2] AS a");
  // Intervals as PostgreSQL writes them, 64-bit integers as text, on both engines.
  expect(bytes.json().rows).toEqual([['\\x00ff', '01:00:00', 'NaN', [1, 2]]]);
  const counted = await sql(project, 'SELECT count(*) AS n, ARRAY[1, 9007199254740993]::bigint[] AS a');
  expect(counted.json().rows).toEqual([['1', ['1', '9007199254740993']]]);
});

test('stops at 1,000 rows and says so', async () => {
  const project = await createProject(t, dev);
  const res = await sql(project, 'SELECT g FROM generate_series(1, 5000) g');
  expect(res.statusCode).toBe(200);
  expect(res.json()).toMatchObject({ row_count: 1000, truncated: true });
  expect(res.json().rows).toHaveLength(1000);
  expect(res.json().rows[999]).toEqual([1000]);
  const exact = await sql(project, 'SELECT g FROM generate_series(1, 1000) g');
  expect(exact.json()).toMatchObject({ row_count: 1000, truncated: false });
});

test('stops at 10 MB of rows and says so', async () => {
  const project = await createProject(t, dev);
  const res = await sql(project, "SELECT g, repeat('x', 100000) AS filler FROM generate_series(1, 1000) g");
  expect(res.statusCode).toBe(200);
  const body = res.json();
  expect(body.truncated).toBe(true);
  expect(body.row_count).toBeGreaterThan(90);
  expect(body.row_count).toBeLessThan(110);
  expect(body.rows.map((r: unknown[]) => r[0])).toEqual(Array.from({ length: body.row_count }, (_, i) => i + 1));
});

test("a query's fetches share its 5 s", async () => {
  const project = await createProject(t, dev);
  const started = Date.now();
  // 10 ms a row: the first 100 in a second, the rest would take nine more.
  const res = await sql(project, 'SELECT g, pg_sleep(0.01) FROM generate_series(1, 1001) g');
  expect(res.statusCode).toBe(422);
  expect(res.json().message).toMatch(/statement timeout/);
  // Ten seconds if each fetch had its own 5 s; on PGlite the answer also waits for the database's reopening.
  expect(Date.now() - started).toBeLessThan(9500);
}, 20_000);

test("can't read the platform's tables or another project's (422 permission denied)", async () => {
  const project = await projectWithRows();
  const other = await projectWithRows();
  const otherSchema = (await t.app.projectDatabase.names(other)).schemaName;
  for (const query of [
    'SELECT * FROM public.accounts',
    'SELECT * FROM public.project_db_tables',
    `SELECT * FROM "${otherSchema}".items`,
    "SELECT query_to_xml('select * from public.accounts', true, false, '')",
    "SELECT set_config('role', 'postgres', true)",
  ]) {
    const res = await sql(project, query);
    expect([query, res.statusCode]).toEqual([query, 422]);
    expect(res.json().message).toMatch(/permission denied/);
  }
  const unknown = await sql(project, 'SELECT * FROM accounts');
  expect(unknown.statusCode).toBe(422);
  expect(unknown.json().message).toMatch(/does not exist/);
});

test('a query past the statement timeout is cancelled (422)', async () => {
  const project = await createProject(t, dev);
  const started = Date.now();
  const res = await sql(project, 'SELECT pg_sleep(10)');
  expect(res.statusCode).toBe(422);
  expect(res.json().message).toMatch(/statement timeout/);
  expect(Date.now() - started).toBeLessThan(9000);
}, 20_000);

test('syntax errors are 422s with PostgreSQL message', async () => {
  const project = await createProject(t, dev);
  const res = await sql(project, 'SELECT FROM WHERE');
  expect(res.statusCode).toBe(422);
  expect(res.json().message).toMatch(/syntax error/);
});

describe('refuses what is not one read-only query (400)', () => {
  const refused = [
    'INSERT INTO items (title) VALUES (1)',
    "UPDATE items SET title = 'x'",
    'DELETE FROM items',
    'CREATE TABLE x (a int)',
    'DROP TABLE items',
    'SET ROLE postgres',
    'RESET ROLE',
    'EXPLAIN ANALYZE SELECT 1',
    'COPY items TO STDOUT',
    'select 1; set role postgres',
    'SELECT 1; SELECT 2',
    'SELECT 1;\nDELETE FROM items',
    "WITH d AS (DELETE FROM items RETURNING *) SELECT * FROM d",
    'SELECT * FROM items FOR UPDATE',
    "SELECT nextval('items_id_seq')",
    '/* SELECT */ DELETE FROM items',
    '-- SELECT\nDELETE FROM items',
    '/* unterminated SELECT',
    ';',
    'SELECTED',
  ];
  test.each(refused)('%s', async (query) => {
    const project = await projectWithRows();
    const res = await sql(project, query);
    expect([query, res.statusCode]).toEqual([query, 400]);
    expect(res.json().message).toMatch(/Only one read-only query/);
    const count = await sql(project, 'SELECT count(*)::int FROM items');
    expect(count.json().rows).toEqual([[2]]);
  });
});

test('the first keyword, after comments and parentheses', () => {
  expect(isQuery('select 1')).toBe(true);
  expect(isQuery(' (\n(/*x*/ VALUES (1)))')).toBe(true);
  expect(isQuery('--a\n--b\nWITH x AS (SELECT 1) SELECT 1')).toBe(true);
  expect(isQuery('TABLEx')).toBe(false);
  expect(isQuery('/* /* */ SELECT */ 1')).toBe(false);
  expect(isQuery('')).toBe(false);
});

test('trailing semicolons and space go, in linear time', () => {
  expect(withoutTrailingSemicolons('SELECT 1 ;; \n;')).toBe('SELECT 1');
  expect(withoutTrailingSemicolons("SELECT ';'")).toBe("SELECT ';'");
  const started = Date.now();
  withoutTrailingSemicolons('a' + ' '.repeat(100_000) + 'b');
  isQuery('( /**/ --\n'.repeat(10_000));
  expect(Date.now() - started).toBeLessThan(500);
});

test('values are JSON-safe', () => {
  expect(jsonSafe(10n)).toBe('10');
  expect(jsonSafe(new Date('2026-01-02T03:04:05Z'))).toBe('2026-01-02T03:04:05.000Z');
  expect(jsonSafe(Buffer.from([0, 255]))).toBe('\\x00ff');
  expect(jsonSafe([Infinity, { a: 1n }])).toEqual(['Infinity', { a: '1' }]);
  expect(jsonSafe(undefined)).toBeNull();
});

test('a NUL in the query is a 400', async () => {
  const project = await createProject(t, dev);
  const res = await sql(project, 'SELECT 1\u0000; DROP TABLE x');
  expect(res.statusCode).toBe(400);
});
