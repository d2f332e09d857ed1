// The foundation every database call stands on: a project's schema and roles are made once, its
// sessions can't reach the platform's tables or another project's, and can't leave their role
// (set_config is revoked; a query that tries is refused, whatever function it goes through).
import { buildTestApp, type TestApp } from '../helpers/app';
import { createProject, registerDeveloper, type Developer } from '../helpers/factories';
import { testDriver as t_driver } from '../helpers/test-db';
import type { DatabaseContext } from '../../server/src/modules/database/database.context';

let t: TestApp;
let ctx: DatabaseContext;
let dev: Developer;
beforeAll(async () => {
  t = await buildTestApp();
  ctx = t.app.projectDatabase;
  dev = await registerDeveloper(t);
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

// PGlite runs in this thread and has no timer signal: it can't cancel a statement (the SQL box
// refuses to run there; test/database/sql.test.ts).
const onPostgres = t_driver() === 'postgres' ? test : test.skip;
onPostgres('pg_sleep past the timeout is cancelled', async () => {
  const { project } = await developerWithProject();
  await expect(ctx.session(project, { ...owner, timeoutMs: 200 }, (tx) => tx.query('SELECT pg_sleep(3)'))).rejects.toMatchObject({ code: '57014' });
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
