// Changing a table's columns and access rule from the console: each change one transaction with
// the platform's record; primary key columns and the owner rule's owner_id protected; the row
// trigger follows a renamed primary key; hostile names refused.
import { buildTestApp, type TestApp } from '../helpers/app';
import { createProject, registerDeveloper, type Developer, type Project, onPlan } from '../helpers/factories';
import { testDriver } from '../helpers/test-db';

let t: TestApp;
let dev: Developer;
beforeAll(async () => {
  t = await buildTestApp();
  dev = await registerDeveloper(t);
  await onPlan(t, dev, 'enterprise'); // more projects than Hobby's 3: this file is not about plan limits
});
afterAll(() => t.close());

const db = (project: Project, op: string, body: unknown) => t.post(`/project/${project.id}/database/${op}`, body, dev.token);
const names = (res: { json(): { columns: { name: string }[] } }) => res.json().columns.map((c) => c.name);
const schemaOf = async (project: Project) => (await t.app.projectDatabase.names(project)).schemaName;

async function projectWithTable(columns: unknown[] = [{ name: 'title', type: 'text' }], access?: string) {
  const project = await createProject(t, dev);
  const res = await db(project, 'create_table', { name: 'items', columns, ...(access ? { access } : {}) });
  expect(res.statusCode).toBe(200);
  return project;
}

describe('add_column', () => {
  test('adds a typed column with its constraints', async () => {
    const project = await projectWithTable();
    const res = await db(project, 'add_column', { table: 'items', column: { name: 'qty', type: 'integer', not_null: true, default: '1', unique: false } });
    expect(res.statusCode).toBe(200);
    expect(names(res)).toEqual(['id', 'title', 'qty']);
    expect(res.json().columns[2]).toMatchObject({ type: 'integer', nullable: false, default: '1' });
    const fk = await db(project, 'add_column', { table: 'items', column: { name: 'parent', type: 'bigint', references: { table: 'items', column: 'id' } } });
    expect(fk.json().columns[3].references).toEqual({ table: 'items', column: 'id' });
  });

  test('a not-null column without a default on a table with rows is a 400', async () => {
    const project = await projectWithTable();
    await t.database.query(`INSERT INTO "${await schemaOf(project)}".items (title) VALUES ('a')`);
    const res = await db(project, 'add_column', { table: 'items', column: { name: 'must', type: 'text', not_null: true } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/must/);
    const ok = await db(project, 'add_column', { table: 'items', column: { name: 'must', type: 'text', not_null: true, default: 'x' } });
    expect(ok.statusCode).toBe(200);
  });

  test.each([
    ['a taken name', { name: 'title', type: 'text' }, 409],
    ['a second primary key', { name: 'k', type: 'text', primary_key: true }, 409],
    ['a hostile name', { name: 'x; drop table', type: 'text' }, 400],
    ['a quoted name', { name: 'a"b', type: 'text' }, 400],
    ['a 64-byte name', { name: 'é'.repeat(32), type: 'text' }, 400],
    ['a reserved name', { name: 'pg_x', type: 'text' }, 400],
    ['now() on an integer', { name: 'v', type: 'integer', default: 'now()' }, 400],
    ['a literal the type cannot hold', { name: 'v', type: 'boolean', default: 'maybe' }, 400],
    ['a reference to no table', { name: 'v', type: 'bigint', references: { table: 'nope', column: 'id' } }, 400],
  ])('refuses %s', async (_what, column, status) => {
    const project = await projectWithTable();
    const res = await db(project, 'add_column', { table: 'items', column });
    expect(res.statusCode).toBe(status);
    expect(names(await db(project, 'set_access', { table: 'items', access: 'none' }))).toEqual(['id', 'title']);
  });

  test('an unknown table is a 404; a hostile table name a 400', async () => {
    const project = await projectWithTable();
    expect((await db(project, 'add_column', { table: 'nope', column: { name: 'v', type: 'text' } })).statusCode).toBe(404);
    expect((await db(project, 'add_column', { table: 'items"; drop table items; --', column: { name: 'v', type: 'text' } })).statusCode).toBe(400);
  });
});

describe('rename_column', () => {
  test('renames, to a unicode name too', async () => {
    const project = await projectWithTable();
    const res = await db(project, 'rename_column', { table: 'items', column: 'title', new_name: 'títol' });
    expect(res.statusCode).toBe(200);
    expect(names(res)).toEqual(['id', 'títol']);
    expect((await db(project, 'rename_column', { table: 'items', column: 'títol', new_name: 'títol' })).statusCode).toBe(200);
  });

  test('renaming a primary key column moves the row trigger to the new name', async () => {
    const project = await projectWithTable();
    const res = await db(project, 'rename_column', { table: 'items', column: 'id', new_name: 'item_id' });
    expect(res.statusCode).toBe(200);
    expect(res.json().primary_key).toEqual(['item_id']);
    const notices: string[] = [];
    const stop = await t.database.listen('hostbase_db_changes', (p) => notices.push(p));
    try {
      await t.database.query(`INSERT INTO "${await schemaOf(project)}".items (title) VALUES ('a')`);
      for (let i = 0; i < 50 && !notices.length; i++) await new Promise((r) => setTimeout(r, 20));
    } finally {
      await stop();
    }
    expect(JSON.parse(notices[0])).toMatchObject({ project: project.id, table: 'items', op: 'INSERT', pk: { item_id: 1 } });
  });

  test.each([
    ['to a taken name', { column: 'title', new_name: 'id' }, 409],
    ['an unknown column', { column: 'nope', new_name: 'x' }, 404],
    ['to a hostile name', { column: 'title', new_name: 'x; drop table' }, 400],
    ['to a 64-byte name', { column: 'title', new_name: 'ü'.repeat(32) }, 400],
    ['to a reserved name', { column: 'title', new_name: 'hb_title' }, 400],
  ])('refuses %s', async (_what, body, status) => {
    const project = await projectWithTable();
    expect((await db(project, 'rename_column', { table: 'items', ...body })).statusCode).toBe(status);
  });

  test("owner_id under the owner rule can't be renamed; under another rule it can", async () => {
    const project = await projectWithTable(undefined, 'owner');
    const res = await db(project, 'rename_column', { table: 'items', column: 'owner_id', new_name: 'who' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/owner rule/);
    await db(project, 'set_access', { table: 'items', access: 'read' });
    expect((await db(project, 'rename_column', { table: 'items', column: 'owner_id', new_name: 'who' })).statusCode).toBe(200);
  });
});

describe('drop_column', () => {
  test('drops a column and touches the table', async () => {
    const project = await projectWithTable([{ name: 'a', type: 'text' }, { name: 'b', type: 'text' }]);
    const before = (await db(project, 'tables', {})).json().tables[0].last_modified;
    await new Promise((r) => setTimeout(r, 5));
    const res = await db(project, 'drop_column', { table: 'items', column: 'b' });
    expect(res.statusCode).toBe(200);
    expect(names(res)).toEqual(['id', 'a']);
    expect(Date.parse(res.json().last_modified)).toBeGreaterThan(Date.parse(before));
  });

  test('a primary key column, the last column, owner_id under the owner rule and a referenced column are 409s', async () => {
    const project = await projectWithTable([{ name: 'a', type: 'text', unique: true }], 'owner');
    await db(project, 'create_table', { name: 'refs', columns: [{ name: 'to_a', type: 'text', references: { table: 'items', column: 'a' } }] });
    for (const column of ['id', 'owner_id', 'a']) {
      const res = await db(project, 'drop_column', { table: 'items', column });
      expect([column, res.statusCode]).toEqual([column, 409]);
    }
    const solo = await createProject(t, dev);
    await db(solo, 'create_table', { name: 'solo', columns: [{ name: 'k', type: 'text', primary_key: true }] });
    expect((await db(solo, 'drop_column', { table: 'solo', column: 'k' })).statusCode).toBe(409);
    expect((await db(project, 'drop_column', { table: 'items', column: 'nope' })).statusCode).toBe(404);
    expect((await db(project, 'drop_column', { table: 'items', column: "a'; --" })).statusCode).toBe(400);
    expect(names(await db(project, 'set_access', { table: 'items', access: 'owner' }))).toEqual(['id', 'a', 'owner_id']);
  });
});

// PGlite is one connection and can't time a statement out: a held lock would wait forever.
const onPostgres = testDriver() === 'postgres' ? test : test.skip;
onPostgres('a change that waits past the timeout for a lock is a 409, and changes nothing', async () => {
  const project = await projectWithTable([{ name: 'a', type: 'text' }, { name: 'b', type: 'text' }]);
  const schema = await schemaOf(project);
  let release!: () => void;
  let locked!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const lockTaken = new Promise<void>((r) => (locked = r));
  const holder = t.database.transaction(async (tx) => {
    await tx.query(`LOCK TABLE "${schema}".items IN ACCESS SHARE MODE`);
    locked();
    await released;
  });
  await lockTaken;
  const res = await db(project, 'drop_column', { table: 'items', column: 'b' });
  release();
  await holder;
  expect(res.statusCode).toBe(409);
  expect(res.json().message).toMatch(/in use by other work/);
  expect(names(await db(project, 'set_access', { table: 'items', access: 'none' }))).toEqual(['id', 'a', 'b']);
}, 20_000);

describe('set_access', () => {
  test('each rule is stored and listed; owner adds owner_id once', async () => {
    const project = await projectWithTable();
    for (const access of ['read', 'signed_in', 'owner', 'owner', 'none']) {
      const res = await db(project, 'set_access', { table: 'items', access });
      expect([access, res.statusCode, res.json().access]).toEqual([access, 200, access]);
    }
    expect(names(await db(project, 'set_access', { table: 'items', access: 'none' }))).toEqual(['id', 'title', 'owner_id']);
    const [row] = await t.database.query<{ access: string }>('SELECT access FROM project_db_tables WHERE project_id = $1', [project.id]);
    expect(row.access).toBe('none');
  });

  test('the rule is in the database: the app role reads only what it allows', async () => {
    const project = await projectWithTable();
    await t.database.query(`INSERT INTO "${await schemaOf(project)}".items (title) VALUES ('a')`);
    const asApp = () => t.app.projectDatabase.session(project, { role: 'app' }, (tx) => tx.query('SELECT title FROM items'));
    await expect(asApp()).rejects.toMatchObject({ code: '42501' });
    await db(project, 'set_access', { table: 'items', access: 'read' });
    await expect(asApp()).resolves.toEqual([{ title: 'a' }]);
  });

  test('an owner_id that is not a uuid is a 409 and nothing changes', async () => {
    const project = await projectWithTable([{ name: 'owner_id', type: 'text' }], 'read');
    const res = await db(project, 'set_access', { table: 'items', access: 'owner' });
    expect(res.statusCode).toBe(409);
    expect((await db(project, 'tables', {})).json().tables[0].access).toBe('read');
  });

  test('an unknown rule is a 400; an unknown table a 404', async () => {
    const project = await projectWithTable();
    expect((await db(project, 'set_access', { table: 'items', access: 'everyone' })).statusCode).toBe(400);
    expect((await db(project, 'set_access', { table: 'nope', access: 'read' })).statusCode).toBe(404);
  });
});
