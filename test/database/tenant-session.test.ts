// The foundation every database call stands on: a project's schema and roles are made once, its
// sessions can't reach the platform's tables or another project's, and can't leave their role
// (set_config is revoked; a query that tries is refused, whatever function it goes through).
import { buildTestApp, type TestApp } from '../helpers/app';
import { createProject, onPlan, registerDeveloper, type Developer } from '../helpers/factories';
import { testDriver as t_driver } from '../helpers/test-db';
import type { DatabaseContext } from '../../server/src/modules/database/database.context';

let t: TestApp;
let ctx: DatabaseContext;
let dev: Developer;
beforeAll(async () => {
  t = await buildTestApp();
  ctx = t.app.projectDatabase;
  dev = await registerDeveloper(t);
  await onPlan(t, dev, 'enterprise'); // more projects than Hobby's 3: this file is not about plan limits
});
// One developer, a project per test (sign-ups are throttled per client address).
const developerWithProject = async () => ({ dev, project: await createProject(t, dev) });
afterAll(() => t.close());

const owner = { role: 'owner' as const };
const app = { role: 'app' as const };

test('the schema and both roles are made once, even by concurrent first calls', async () => {
  const { project } = await developerWithProject();
  const made = await Promise.all([1, 2, 3, 4].map(() => ctx.names(project)));
  expect(new Set(made.map((m) => m.schemaName)).size).toBe(1);
  const roles = await t.database.query<{ rolname: string; rolsuper: boolean }>('SELECT rolname, rolsuper FROM pg_roles WHERE rolname = ANY($1)', [[made[0].ownerRole, made[0].appRole]]);
  expect(roles.map((r) => r.rolsuper)).toEqual([false, false]);
});

test('a session runs as the project role, in its schema, with the statement timeout', async () => {
  const { project } = await developerWithProject();
  const names = await ctx.names(project);
  const [r] = await ctx.session(project, owner, (tx) => tx.query<{ u: string; p: string; s: string }>("SELECT current_user AS u, current_setting('search_path') AS p, current_setting('statement_timeout') AS s"));
  expect(r).toEqual({ u: names.ownerRole, p: `"${names.schemaName}"`, s: '5s' });
});

// On PGlite, which can't cancel a statement, its host ends the worker at the same deadline and
// fails the statement with PostgreSQL's error (test/db-worker.test.ts).
const onPostgres = t_driver() === 'postgres' ? test : test.skip;
test('pg_sleep past the timeout is cancelled, and the next session works', async () => {
  const { project } = await developerWithProject();
  await expect(ctx.session(project, { ...owner, timeoutMs: 200 }, (tx) => tx.query('SELECT pg_sleep(3)'))).rejects.toMatchObject({
    code: '57014',
    message: 'canceling statement due to statement timeout',
  });
  expect(await ctx.session(project, owner, (tx) => tx.query('SELECT 1 AS one'))).toEqual([{ one: 1 }]);
});

describe.each([
  ['the owner role', owner],
  ['the app role', app],
])('%s', (_name, options) => {
  const escapes = [
    ['a platform table', 'SELECT * FROM public.accounts'],
    ['a platform table by search_path', 'SELECT * FROM accounts'],
    ['set_config(role)', "SELECT set_config('role', current_setting('is_superuser'), false)"],
    ['set_config then query_to_xml', "SELECT set_config('role', 'postgres', true), query_to_xml('select * from public.accounts', true, false, '')"],
    ['pg_notify on the changes channel', "SELECT pg_notify('hostbase_db_changes', '{}')"],
    ['a session advisory lock', 'SELECT pg_advisory_lock(72612026)'],
    ['two statements', 'SELECT 1; RESET ROLE'],
    ['updating pg_settings', "UPDATE pg_settings SET setting = 'postgres' WHERE name = 'role'"],
  ];
  test.each(escapes)('can not reach %s', async (_what, sql) => {
    const { project } = await developerWithProject();
    await expect(ctx.session(project, options, (tx) => tx.query(sql))).rejects.toThrow();
  });

  test("can not read another project's table", async () => {
    const a = await developerWithProject();
    const b = await developerWithProject();
    const namesA = await ctx.names(a.project);
    await ctx.session(a.project, owner, (tx) => tx.query('CREATE TABLE secrets (v text)'));
    await ctx.session(a.project, owner, (tx) => tx.query("INSERT INTO secrets VALUES ('a-only')"));
    await expect(ctx.session(b.project, options, (tx) => tx.query(`SELECT * FROM "${namesA.schemaName}".secrets`))).rejects.toMatchObject({ code: '42501' });
  });
});

// The row API's one-round-trip form (tenantStatement): the same role, settings and walls.
describe('one statement (tenantStatement)', () => {
  test('runs as the project role, in its schema, with the timeout and the end user', async () => {
    const { project } = await developerWithProject();
    const names = await ctx.names(project);
    const uid = '5b0f6c1e-0000-4000-8000-000000000001';
    const [r] = await ctx.statement<Record<string, string>>(project, { ...app, endUserId: uid }, {
      sql: "SELECT current_user AS u, current_setting('search_path') AS p, current_setting('statement_timeout') AS s, current_setting('hostbase.uid') AS uid, $1::text AS echo",
      params: ["'; RESET ROLE; --"],
    });
    expect(r).toEqual({ u: names.appRole, p: `"${names.schemaName}"`, s: '5s', uid, echo: "'; RESET ROLE; --" });
  });

  test('its settings end with it: the next call on the pool is the platform again', async () => {
    const { project } = await developerWithProject();
    await ctx.statement(project, owner, { sql: 'SELECT 1', params: [] });
    const rows = await Promise.all([1, 2, 3].map(() => t.database.query<{ u: string; s: string }>("SELECT current_user AS u, current_setting('statement_timeout') AS s")));
    for (const [r] of rows) {
      expect(r.s).not.toBe('5s');
      expect(r.u).not.toMatch(/^hb_/);
    }
  });

  test('pg_sleep past the timeout is cancelled', async () => {
    const { project } = await developerWithProject();
    await expect(ctx.statement(project, { ...owner, timeoutMs: 200 }, { sql: 'SELECT pg_sleep(3)', params: [] })).rejects.toMatchObject({ code: '57014' });
  });

  test.each([
    ['a platform table', 'SELECT * FROM public.accounts'],
    ['set_config(role)', "SELECT set_config('role', 'postgres', false)"],
    ['two statements', 'SELECT 1; RESET ROLE'],
  ])('can not reach %s', async (_what, sql) => {
    const { project } = await developerWithProject();
    await expect(ctx.statement(project, app, { sql, params: [] })).rejects.toThrow();
  });

  test('all or nothing: a statement after a failed one does not run, and the one before is rolled back', async () => {
    const { project } = await developerWithProject();
    await ctx.session(project, owner, (tx) => tx.query('CREATE TABLE notes (v text NOT NULL)'));
    const names = await ctx.names(project);
    const table = `"${names.schemaName}".notes`;
    await expect(
      t.database.pipeline([
        { text: `INSERT INTO ${table} VALUES ($1)`, values: ['first'] },
        { text: `INSERT INTO ${table} VALUES ($1)`, values: [null] },
        { text: `INSERT INTO ${table} VALUES ($1)`, values: ['third'] },
      ]),
    ).rejects.toMatchObject({ code: '23502' });
    expect(await t.database.query(`SELECT v FROM ${table}`)).toEqual([]);
    const [, rows] = await t.database.pipeline([{ text: `INSERT INTO ${table} VALUES ($1)`, values: ['kept'] }, { text: `SELECT v FROM ${table}` }]);
    expect(rows).toEqual([{ v: 'kept' }]);
  });

  // pg's mapping of values to the wire (PGlite, in process, has no wire).
  onPostgres('a value that can not be sent fails the call before anything runs', async () => {
    const { project } = await developerWithProject();
    await ctx.session(project, owner, (tx) => tx.query('CREATE TABLE notes (v text)'));
    const names = await ctx.names(project);
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    await expect(
      t.database.pipeline([
        { text: `INSERT INTO "${names.schemaName}".notes VALUES ('first')` },
        { text: `INSERT INTO "${names.schemaName}".notes VALUES ($1)`, values: [circular] },
      ]),
    ).rejects.toThrow();
    expect(await t.database.query(`SELECT v FROM "${names.schemaName}".notes`)).toEqual([]);
    // The connection is still good.
    expect(await t.database.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });
});

test('dropping the project drops its schema and roles', async () => {
  const { dev, project } = await developerWithProject();
  const names = await ctx.names(project);
  const res = await t.post(`/project/${project.id}/delete`, { confirm: project.subdomain }, dev.token);
  expect(res.statusCode).toBe(200);
  const left = await t.database.query('SELECT 1 FROM pg_roles WHERE rolname = ANY($1) UNION ALL SELECT 1 FROM pg_namespace WHERE nspname = $2', [[names.ownerRole, names.appRole], names.schemaName]);
  expect(left).toEqual([]);
});

test("asPlatform runs as the platform in the platform's schema, then returns to the project's role and schema", async () => {
  const { project } = await developerWithProject();
  const names = await ctx.names(project);
  const seen = await ctx.session(project, owner, async (tx) => {
    const inside = await tx.asPlatform(() => tx.query<{ u: string; p: string }>("SELECT current_user AS u, current_setting('search_path') AS p"));
    const after = await tx.query<{ u: string; p: string }>("SELECT current_user AS u, current_setting('search_path') AS p");
    return { inside: inside[0], after: after[0] };
  });
  expect(seen.inside.u).not.toBe(names.ownerRole);
  expect(seen.inside.p).toBe('public');
  expect(seen.after.u).toBe(names.ownerRole);
  expect(seen.after.p.replace(/"/g, '')).toBe(names.schemaName);
});
