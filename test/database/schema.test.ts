// The console's table API over the real database: create, list and drop tables with typed columns
// as the project's owner role, the platform's record of each table written in the same
// transaction (a refused create leaves neither), hostile names refused or stored exactly, foreign
// keys only within the project, and another account's token answered 404.
import { buildTestApp, type TestApp } from '../helpers/app';
import { createProject, registerDeveloper, type Developer, type Project, onPlan } from '../helpers/factories';

let t: TestApp;
let dev: Developer;
/** On Hobby: the tests of the database against the plan. */
let hobby: Developer;
beforeAll(async () => {
  t = await buildTestApp();
  dev = await registerDeveloper(t);
  await onPlan(t, dev, 'enterprise'); // more projects than Hobby's 3: this file is not about plan limits
  hobby = await registerDeveloper(t, { ip: '10.9.8.5' });
});
afterAll(() => t.close());

const db = (project: Project, op: string, body: unknown, token = project.dev.token) => t.post(`/project/${project.id}/database/${op}`, body, token);
const create = (project: Project, body: unknown) => db(project, 'create_table', body);
const list = async (project: Project) => {
  const res = await db(project, 'tables', {});
  expect(res.statusCode).toBe(200);
  return res.json();
};
const schemaOf = async (project: Project) => (await t.app.projectDatabase.names(project)).schemaName;
const records = (project: Project) => t.database.query<{ table_name: string; access: string }>('SELECT table_name, access FROM project_db_tables WHERE project_id = $1 ORDER BY table_name', [project.id]);
const tablesIn = async (project: Project) =>
  (await t.database.query<{ relname: string }>("SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'r' ORDER BY 1", [await schemaOf(project)])).map((r) => r.relname);

const ALL_TYPES = [
  { name: 'title', type: 'text', not_null: true, default: "it's" },
  { name: 'n', type: 'integer', unique: true, default: '-5' },
  { name: 'big', type: 'bigint', default: '9007199254740993' },
  { name: 'price', type: 'numeric', default: '1.50' },
  { name: 'done', type: 'boolean', not_null: true, default: 'false' },
  { name: 'at', type: 'timestamptz', default: 'now()' },
  { name: 'meta', type: 'jsonb', default: '{"a": [1, "x"]}' },
  { name: 'token', type: 'uuid', unique: true, default: 'gen_random_uuid()' },
];

describe('create_table', () => {
  test('typed columns round-trip through the catalog; a table without a key gets id first', async () => {
    const project = await createProject(t, dev);
    const res = await create(project, { name: 'things', columns: ALL_TYPES });
    expect(res.statusCode).toBe(200);
    const table = res.json();
    expect(table).toMatchObject({ name: 'things', primary_key: ['id'], row_count: 0, access: 'none' });
    expect(table.size_bytes).toBeGreaterThan(0);
    expect(typeof table.last_modified).toBe('string');
    const col = (name: string) => table.columns.find((c: { name: string }) => c.name === name);
    expect(table.columns.map((c: { name: string }) => c.name)).toEqual(['id', ...ALL_TYPES.map((c) => c.name)]);
    expect(col('id')).toEqual({ name: 'id', type: 'bigint', nullable: false, primary_key: true, unique: false, default: 'auto_increment', references: null });
    expect(col('title')).toMatchObject({ type: 'text', nullable: false, default: "it's" });
    expect(col('n')).toMatchObject({ type: 'integer', nullable: true, unique: true, default: '-5' });
    expect(col('big')).toMatchObject({ type: 'bigint', default: '9007199254740993' });
    expect(col('price')).toMatchObject({ type: 'numeric', default: '1.50' });
    expect(col('done')).toMatchObject({ type: 'boolean', nullable: false, default: 'false' });
    expect(col('at')).toMatchObject({ type: 'timestamptz', default: 'now()' });
    expect(JSON.parse(col('meta').default)).toEqual({ a: [1, 'x'] });
    expect(col('token')).toMatchObject({ type: 'uuid', unique: true, default: 'gen_random_uuid()' });
    expect(await records(project)).toEqual([{ table_name: 'things', access: 'none' }]);

    // The defaults are values PostgreSQL fills in.
    const schema = await schemaOf(project);
    const [row] = await t.database.query<Record<string, unknown>>(`INSERT INTO "${schema}".things DEFAULT VALUES RETURNING *`);
    expect(row).toMatchObject({ id: expect.anything(), title: "it's", n: -5, done: false, meta: { a: [1, 'x'] } });
    expect(String(row.big)).toBe('9007199254740993');
    expect(row.token).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('a composite primary key, auto_increment and access at creation', async () => {
    const project = await createProject(t, dev);
    const res = await create(project, {
      name: 'pairs',
      access: 'read',
      columns: [
        { name: 'a', type: 'integer', primary_key: true, default: 'auto_increment' },
        { name: 'b', type: 'text', primary_key: true },
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ primary_key: ['a', 'b'], access: 'read' });
    expect(res.json().columns[0]).toMatchObject({ name: 'a', default: 'auto_increment', nullable: false });
    expect(await records(project)).toEqual([{ table_name: 'pairs', access: 'read' }]);
  });

  test('the owner rule at creation adds owner_id', async () => {
    const project = await createProject(t, dev);
    const res = await create(project, { name: 'notes', access: 'owner', columns: [{ name: 'body', type: 'text' }] });
    expect(res.statusCode).toBe(200);
    expect(res.json().columns.map((c: { name: string }) => c.name)).toEqual(['id', 'body', 'owner_id']);
    expect(res.json().access).toBe('owner');
  });

  test('unicode and mixed-case names are stored exactly', async () => {
    const project = await createProject(t, dev);
    const res = await create(project, { name: 'café', columns: [{ name: 'Prénom', type: 'text' }, { name: 'prénom', type: 'text' }, { name: '名前', type: 'text' }] });
    expect(res.statusCode).toBe(200);
    expect(res.json().columns.map((c: { name: string }) => c.name)).toEqual(['id', 'Prénom', 'prénom', '名前']);
    expect(await tablesIn(project)).toEqual(['café']);
    // 63 bytes is the most a name may hold.
    const longest = 'é'.repeat(31) + 'x';
    expect((await create(project, { name: longest, columns: [{ name: 'v', type: 'text' }] })).statusCode).toBe(200);
  });

  const hostile: [string, string][] = [
    ['a statement', 'x; drop table'],
    ['a quote', 'x"y'],
    ['a single quote', "x'y"],
    ['a schema-qualified name', 'public.accounts'],
    ['a 64-byte name', 'é'.repeat(32)],
    ['a reserved prefix', 'pg_x'],
    ['the platform prefix', 'hb_x'],
    ['an empty name', ''],
    ['a leading digit', '1x'],
  ];
  test.each(hostile)('refuses %s as a table name, a column name and a reference (400, nothing made)', async (_what, name) => {
    const project = await createProject(t, dev);
    await create(project, { name: 'base', columns: [{ name: 'v', type: 'text' }] });
    const tries = [
      { name, columns: [{ name: 'v', type: 'text' }] },
      { name: 'ok', columns: [{ name, type: 'text' }] },
      { name: 'ok', columns: [{ name: 'v', type: 'bigint', references: { table: name, column: 'id' } }] },
      { name: 'ok', columns: [{ name: 'v', type: 'bigint', references: { table: 'base', column: name } }] },
    ];
    for (const body of tries) {
      const res = await create(project, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/body\//);
    }
    expect(await tablesIn(project)).toEqual(['base']);
    expect((await records(project)).map((r) => r.table_name)).toEqual(['base']);
  });

  const badSpecs: [string, unknown[], RegExp][] = [
    ['no columns', [], /columns/],
    ['an unknown type', [{ name: 'v', type: 'varchar' }], /Unknown column type/],
    ['two columns of one name', [{ name: 'v', type: 'text' }, { name: 'v', type: 'integer' }], /another column/],
    ['now() on a text column', [{ name: 'v', type: 'text', default: 'now()' }], /now\(\) is for timestamptz/],
    ['gen_random_uuid() on a text column', [{ name: 'v', type: 'text', default: 'gen_random_uuid()' }], /uuid/],
    ['auto_increment on text', [{ name: 'v', type: 'text', default: 'auto_increment' }], /integer and bigint/],
    ['a default the type cannot hold', [{ name: 'v', type: 'integer', default: 'twelve' }], /integer/],
    ['SQL as a default', [{ name: 'v', type: 'integer', default: "1); DROP TABLE base; --" }], /integer/],
    ['bad json as a default', [{ name: 'v', type: 'jsonb', default: '{nope' }], /json/],
    ['an id column that is not a key', [{ name: 'id', type: 'text' }], /primary key/],
    ['101 columns', Array.from({ length: 101 }, (_, i) => ({ name: `c${i}`, type: 'text' })), /columns/],
  ];
  test.each(badSpecs)('refuses %s (400, nothing made)', async (_what, columns, message) => {
    const project = await createProject(t, dev);
    await create(project, { name: 'base', columns: [{ name: 'v', type: 'text' }] });
    const res = await create(project, { name: 'bad', columns });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(message);
    expect(await tablesIn(project)).toEqual(['base']);
  });

  test('SQL in a default is stored as a text literal, never run', async () => {
    const project = await createProject(t, dev);
    const res = await create(project, { name: 'lit', columns: [{ name: 'v', type: 'text', default: "x'); DROP TABLE lit; --" }] });
    expect(res.statusCode).toBe(200);
    expect(res.json().columns[1].default).toBe("x'); DROP TABLE lit; --");
    expect(await tablesIn(project)).toEqual(['lit']);
  });

  test('a name that is taken is a 409', async () => {
    const project = await createProject(t, dev);
    expect((await create(project, { name: 'dup', columns: [{ name: 'v', type: 'text' }] })).statusCode).toBe(200);
    const res = await create(project, { name: 'dup', columns: [{ name: 'w', type: 'text' }] });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Table dup already exists');
  });

  test('concurrent creates of one name: one table, the others 409', async () => {
    const project = await createProject(t, dev);
    await t.app.projectDatabase.names(project);
    const answers = await Promise.all([1, 2, 3].map((i) => create(project, { name: 'race', columns: [{ name: `v${i}`, type: 'text' }] })));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    for (const r of answers.filter((a) => a.statusCode === 409)) expect(r.json().message).toBe('Table race already exists');
    expect(await tablesIn(project)).toEqual(['race']);
    expect((await records(project)).map((r) => r.table_name)).toEqual(['race']);
  });

  test('a create PostgreSQL refuses late leaves no table and no record', async () => {
    const project = await createProject(t, dev);
    await create(project, { name: 'parent', columns: [{ name: 'code', type: 'text' }] });
    // References a column that is not a key: PostgreSQL refuses the CREATE itself.
    const res = await create(project, { name: 'child', columns: [{ name: 'p', type: 'text', references: { table: 'parent', column: 'code' } }] });
    expect(res.statusCode).toBe(422);
    // The owner rule refuses an owner_id that is not a uuid after the table was made.
    const owner = await create(project, { name: 'owned', access: 'owner', columns: [{ name: 'owner_id', type: 'text' }] });
    expect(owner.statusCode).toBe(409);
    expect(owner.json().message).toMatch(/owner_id to be a uuid/);
    expect(await tablesIn(project)).toEqual(['parent']);
    expect((await records(project)).map((r) => r.table_name)).toEqual(['parent']);
  });

  test('foreign keys reach tables of the same project only', async () => {
    const project = await createProject(t, dev);
    const other = await createProject(t, dev);
    await create(other, { name: 'elsewhere', columns: [{ name: 'v', type: 'text' }] });
    await create(project, { name: 'authors', columns: [{ name: 'email', type: 'text', unique: true }] });
    const ok = await create(project, {
      name: 'books',
      columns: [
        { name: 'author', type: 'bigint', not_null: true, references: { table: 'authors', column: 'id' } },
        { name: 'author_email', type: 'text', references: { table: 'authors', column: 'email' } },
        { name: 'parent', type: 'bigint', references: { table: 'books', column: 'id' } },
      ],
    });
    expect(ok.statusCode).toBe(200);
    const refs = Object.fromEntries(ok.json().columns.map((c: { name: string; references: unknown }) => [c.name, c.references]));
    expect(refs).toEqual({ id: null, author: { table: 'authors', column: 'id' }, author_email: { table: 'authors', column: 'email' }, parent: { table: 'books', column: 'id' } });

    const elsewhere = await create(project, { name: 'x', columns: [{ name: 'e', type: 'bigint', references: { table: 'elsewhere', column: 'id' } }] });
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json().message).toMatch(/elsewhere is not a table of this project/);
    const otherSchema = await schemaOf(other);
    const qualified = await create(project, { name: 'x', columns: [{ name: 'e', type: 'bigint', references: { table: `${otherSchema}.elsewhere`, column: 'id' } }] });
    expect(qualified.statusCode).toBe(400);
    const noColumn = await create(project, { name: 'x', columns: [{ name: 'e', type: 'bigint', references: { table: 'authors', column: 'nope' } }] });
    expect(noColumn.statusCode).toBe(400);
    expect(await tablesIn(project)).toEqual(['authors', 'books']);
  });
});

describe('list', () => {
  test('every table with its rows, size, last change and rule; the database against the plan', async () => {
    const project = await createProject(t, hobby);
    expect(await list(project)).toMatchObject({ tables: [], size_bytes: 0, limit_bytes: 1024 ** 3 });
    await create(project, { name: 'b', columns: [{ name: 'v', type: 'text' }] });
    await create(project, { name: 'a', access: 'signed_in', columns: [{ name: 'v', type: 'text' }] });
    const schema = await schemaOf(project);
    await t.database.query(`INSERT INTO "${schema}".b (v) SELECT 'x' FROM generate_series(1, 25)`);
    const body = await list(project);
    expect(body.tables.map((x: { name: string }) => x.name)).toEqual(['a', 'b']);
    expect(body.tables[0]).toMatchObject({ access: 'signed_in', row_count: 0, row_count_estimated: false });
    expect(body.tables[1]).toMatchObject({ access: 'none', row_count: 25 });
    expect(body.size_bytes).toBeGreaterThanOrEqual(body.tables[0].size_bytes + body.tables[1].size_bytes);
    expect(body.usage_bytes).toBeGreaterThanOrEqual(body.size_bytes);
  });

  test('above 100,000 rows the count is PostgreSQL\'s estimate', async () => {
    const project = await createProject(t, dev);
    await create(project, { name: 'many', columns: [{ name: 'v', type: 'integer' }] });
    const schema = await schemaOf(project);
    await t.database.query(`INSERT INTO "${schema}".many (v) SELECT g FROM generate_series(1, 100500) g`);
    await t.database.query(`ANALYZE "${schema}".many`);
    const [table] = (await list(project)).tables;
    expect(table.row_count_estimated).toBe(true);
    expect(table.row_count).toBeGreaterThan(100_000);
  }, 60_000);

  test('a plan without a database limit lists none', async () => {
    const rich = await registerDeveloper(t, { ip: '10.9.8.6' });
    await t.database.query("UPDATE accounts SET plan = 'enterprise' WHERE id = $1", [rich.id]);
    await t.app.deps.lookups.barrier(); // a write from outside the platform: wait until it is heard
    const project = await createProject(t, rich);
    const res = await t.post(`/project/${project.id}/database/tables`, {}, rich.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ tables: [], size_bytes: 0, usage_bytes: 0 });
  });

  test("tables named like the platform's are the project's own", async () => {
    const project = await createProject(t, hobby);
    for (const name of ['accounts', 'projects', 'project_db_tables', 'project_databases'])
      expect((await create(project, { name, columns: [{ name: 'v', type: 'text' }] })).statusCode).toBe(200);
    await db(project, 'set_access', { table: 'project_db_tables', access: 'read' });
    const body = await list(project);
    expect(body.tables.map((x: { name: string; access: string }) => [x.name, x.access])).toEqual([
      ['accounts', 'none'],
      ['project_databases', 'none'],
      ['project_db_tables', 'read'],
      ['projects', 'none'],
    ]);
    expect(body.limit_bytes).toBe(1024 ** 3);
    expect((await records(project)).map((r) => r.table_name)).toEqual(['accounts', 'project_databases', 'project_db_tables', 'projects']);
  });

  test("the account's usage counts all of its projects", async () => {
    const a = await createProject(t, dev);
    const b = await createProject(t, dev);
    await create(a, { name: 't', columns: [{ name: 'v', type: 'text' }] });
    await create(b, { name: 't', columns: [{ name: 'v', type: 'text' }] });
    const [la, lb] = [await list(a), await list(b)];
    expect(la.usage_bytes).toBe(lb.usage_bytes);
    expect(la.usage_bytes).toBeGreaterThanOrEqual(la.size_bytes + lb.size_bytes);
  });

  test('a table without a platform record still lists, with no app access', async () => {
    const project = await createProject(t, dev);
    await create(project, { name: 'orphan', columns: [{ name: 'v', type: 'text' }] });
    await t.database.query('DELETE FROM project_db_tables WHERE project_id = $1', [project.id]);
    expect((await list(project)).tables[0]).toMatchObject({ name: 'orphan', access: 'none', last_modified: null });
  });
});

describe('drop_table', () => {
  test('after typing its name; its record goes with it', async () => {
    const project = await createProject(t, dev);
    await create(project, { name: 'gone', columns: [{ name: 'v', type: 'text' }] });
    const wrong = await db(project, 'drop_table', { name: 'gone', confirm: 'Gone' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe("body/confirm must equal the table's name");
    const res = await db(project, 'drop_table', { name: 'gone', confirm: 'gone' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'dropped' });
    expect(await tablesIn(project)).toEqual([]);
    expect(await records(project)).toEqual([]);
    expect((await db(project, 'drop_table', { name: 'gone', confirm: 'gone' })).statusCode).toBe(404);
    expect((await db(project, 'drop_table', { name: 'x; drop table', confirm: 'x; drop table' })).statusCode).toBe(400);
  });

  test('a table another references is a 409 and stays', async () => {
    const project = await createProject(t, dev);
    await create(project, { name: 'parent', columns: [{ name: 'v', type: 'text' }] });
    await create(project, { name: 'child', columns: [{ name: 'p', type: 'bigint', references: { table: 'parent', column: 'id' } }] });
    const res = await db(project, 'drop_table', { name: 'parent', confirm: 'parent' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/child/);
    expect(await tablesIn(project)).toEqual(['child', 'parent']);
    expect((await records(project)).map((r) => r.table_name)).toEqual(['child', 'parent']);
  });
});

describe("another account's token", () => {
  test('is a 404 for every operation, and changes nothing', async () => {
    const project = await createProject(t, dev);
    await create(project, { name: 'mine', columns: [{ name: 'v', type: 'text' }] });
    const stranger = await registerDeveloper(t, { ip: '10.9.8.7' });
    const calls: [string, unknown][] = [
      ['tables', {}],
      ['create_table', { name: 'theirs', columns: [{ name: 'v', type: 'text' }] }],
      ['drop_table', { name: 'mine', confirm: 'mine' }],
      ['add_column', { table: 'mine', column: { name: 'w', type: 'text' } }],
      ['rename_column', { table: 'mine', column: 'v', new_name: 'w' }],
      ['drop_column', { table: 'mine', column: 'v' }],
      ['set_access', { table: 'mine', access: 'read' }],
      ['sql', { query: 'SELECT * FROM mine' }],
    ];
    for (const [op, body] of calls) {
      const res = await db(project, op, body, stranger.token);
      expect([op, res.statusCode, res.json().message]).toEqual([op, 404, 'Project not found']);
    }
    expect(await tablesIn(project)).toEqual(['mine']);
    expect((await list(project)).tables[0].columns.map((c: { name: string }) => c.name)).toEqual(['id', 'v']);
    expect((await db(project, 'tables', {}, '')).statusCode).toBe(401);
  });
});
