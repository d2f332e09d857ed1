// Live changes across instances: two apps on one database (on PostgreSQL each with its own
// connections, as two servers behind a load balancer; on PGlite both in this process on the one
// embedded database). A stream on one instance sees the rows written through the other, under the
// same rules, because every instance LISTENs to the database's notices and keeps nothing else.
import type { FastifyInstance } from 'fastify';
import { buildTestApp, secondInstance, type TestApp } from '../helpers/app';
import { testDriver } from '../helpers/test-db';
import { createProject, registerDeveloper, signUpEndUser, type Developer } from '../helpers/factories';
import { asApp, asOwner, baseUrl, makeTable, settle, subscribe, type SseStream } from './changes-helpers';

jest.setTimeout(30_000);

let t: TestApp;
let a: FastifyInstance;
let b: FastifyInstance;
let second: Awaited<ReturnType<typeof secondInstance>>;
let dev: Developer;
const open: SseStream[] = [];
beforeAll(async () => {
  t = await buildTestApp();
  a = t.app;
  second = await secondInstance(t);
  b = second.app;
  dev = await registerDeveloper(t);
});
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});
afterAll(async () => {
  await second.close();
  await t.close();
});

async function listen(app: FastifyInstance, authKey: string, table: string, token?: string): Promise<SseStream> {
  const stream = await subscribe(await baseUrl(app), table, { 'x-api-key': authKey, ...(token ? { authorization: `Bearer ${token}` } : {}) });
  expect(stream.status).toBe(200);
  open.push(stream);
  return stream;
}

test('the instances share the database but not a connection or a hub', () => {
  expect(a.projectDatabaseChanges).not.toBe(b.projectDatabaseChanges);
  if (testDriver() === 'postgres') expect(b.deps.database).not.toBe(a.deps.database);
});

test('read rule: a stream on A sees rows written through B, and a stream on B those written through A', async () => {
  const project = await createProject(t, dev);
  await makeTable(a.projectDatabase, project, 'notes', 'id integer PRIMARY KEY, body text', 'read');
  const onA = await listen(a, project.authKey, 'notes');
  const onB = await listen(b, project.authKey, 'notes');
  await asOwner(b.projectDatabase, project, (tx) => tx.query("INSERT INTO notes VALUES (1, 'via b')"));
  await onA.waitFor(1);
  await onB.waitFor(1);
  await asOwner(a.projectDatabase, project, (tx) => tx.query("UPDATE notes SET body = 'via a' WHERE id = 1"));
  await onA.waitFor(2);
  await onB.waitFor(2);
  await asOwner(b.projectDatabase, project, (tx) => tx.query('DELETE FROM notes WHERE id = 1'));
  await onA.waitFor(3);
  await onB.waitFor(3);
  await settle();
  const expected = [
    { event: 'INSERT', data: { type: 'INSERT', table: 'notes', record: { id: 1, body: 'via b' } } },
    { event: 'UPDATE', data: { type: 'UPDATE', table: 'notes', record: { id: 1, body: 'via a' } } },
    { event: 'DELETE', data: { type: 'DELETE', table: 'notes', old_record: { id: 1 } } },
  ];
  expect(onA.changes()).toEqual(expected);
  expect(onB.changes()).toEqual(expected);
});

test('owner rule across instances: each end user sees exactly their own rows, whichever instance wrote them', async () => {
  const project = await createProject(t, dev);
  await makeTable(a.projectDatabase, project, 'todos', 'id integer PRIMARY KEY, title text', 'owner');
  const [u1, u2] = [await signUpEndUser(t, project), await signUpEndUser(t, project)];
  const u1OnA = await listen(a, project.authKey, 'todos', u1.accessToken);
  const u2OnA = await listen(a, project.authKey, 'todos', u2.accessToken);
  const u2OnB = await listen(b, project.authKey, 'todos', u2.accessToken);
  const keyOnB = await listen(b, project.authKey, 'todos');

  await asApp(b.projectDatabase, project, u1.id, (tx) => tx.query("INSERT INTO todos (id, title) VALUES (1, 'u1 via b')"));
  await u1OnA.waitFor(1);
  await asApp(a.projectDatabase, project, u2.id, (tx) => tx.query("INSERT INTO todos (id, title) VALUES (2, 'u2 via a')"));
  await u2OnA.waitFor(1);
  await u2OnB.waitFor(1);
  await asApp(b.projectDatabase, project, u1.id, (tx) => tx.query('DELETE FROM todos WHERE true'));
  await u1OnA.waitFor(2);
  await settle();

  expect(u1OnA.changes()).toEqual([
    { event: 'INSERT', data: { type: 'INSERT', table: 'todos', record: { id: 1, title: 'u1 via b', owner_id: u1.id } } },
    { event: 'DELETE', data: { type: 'DELETE', table: 'todos', old_record: { id: 1, owner_id: u1.id } } },
  ]);
  const u2Sees = [{ event: 'INSERT', data: { type: 'INSERT', table: 'todos', record: { id: 2, title: 'u2 via a', owner_id: u2.id } } }];
  expect(u2OnA.changes()).toEqual(u2Sees);
  expect(u2OnB.changes()).toEqual(u2Sees);
  expect(keyOnB.changes()).toEqual([]);
});

// PostgreSQL: the LISTEN connection is a real one that can be lost. PGlite's is lost when its
// worker is restarted to end a statement past its deadline (the test after this one).
const onPostgres = testDriver() === 'postgres' ? test : test.skip;
const onPglite = testDriver() === 'pglite' ? test : test.skip;
onPostgres('a lost LISTEN connection ends the streams with an error event; the next stream listens afresh', async () => {
  const project = await createProject(t, dev);
  await makeTable(a.projectDatabase, project, 'notes', 'id integer PRIMARY KEY, body text', 'read');
  const streams = [await listen(a, project.authKey, 'notes'), await listen(b, project.authKey, 'notes')];
  const listeners = () => t.database.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN "hostbase_db_changes"%'`);
  expect(await listeners()).toHaveLength(2);
  for (const { pid } of await listeners()) await t.database.query('SELECT pg_terminate_backend($1)', [pid]);
  for (const s of streams) {
    await s.ended;
    expect(s.changes()).toEqual([{ event: 'error', data: { message: 'Live changes lost their connection to the database; reconnect and re-read' } }]);
  }

  // The next stream on each instance listens afresh, and sees rows written through either instance.
  const again = [await listen(a, project.authKey, 'notes'), await listen(b, project.authKey, 'notes')];
  await asOwner(b.projectDatabase, project, (tx) => tx.query("INSERT INTO notes VALUES (1, 'after')"));
  for (const s of again) expect((await s.waitFor(1))[0].data).toEqual({ type: 'INSERT', table: 'notes', record: { id: 1, body: 'after' } });
  // One listening connection per instance: the lost ones' own retries were called off.
  await settle(1500);
  expect(await listeners()).toHaveLength(2);
});

onPglite("a restart of PGlite's worker (a statement ended at its deadline) ends the streams with an error event; the next stream listens afresh", async () => {
  const project = await createProject(t, dev);
  await makeTable(a.projectDatabase, project, 'notes', 'id integer PRIMARY KEY, body text', 'read');
  const streams = [await listen(a, project.authKey, 'notes'), await listen(b, project.authKey, 'notes')];
  await expect(t.database.pipeline([{ text: 'SELECT pg_sleep(30)' }], { tenant: { timeoutMs: 200 } })).rejects.toMatchObject({ code: '57014' });
  for (const s of streams) {
    await s.ended;
    expect(s.changes()).toEqual([{ event: 'error', data: { message: 'Live changes lost their connection to the database; reconnect and re-read' } }]);
  }
  const again = [await listen(a, project.authKey, 'notes'), await listen(b, project.authKey, 'notes')];
  await asOwner(b.projectDatabase, project, (tx) => tx.query("INSERT INTO notes VALUES (1, 'after')"));
  for (const s of again) expect((await s.waitFor(1))[0].data).toEqual({ type: 'INSERT', table: 'notes', record: { id: 1, body: 'after' } });
});
