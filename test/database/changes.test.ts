// Live changes (GET /api/db/v1/{table}/changes): a stream sees exactly the changes its caller may
// read under the table's rule, read back as that caller; subscribing needs the same credentials
// as a select, and the streams end cleanly when the app closes.
import { buildApp } from '../../server/src/app';
import { CHANGES_LIMITS } from '../../server/src/modules/database/changes';
import type { DatabaseContext } from '../../server/src/modules/database/database.context';
import { buildTestApp, type TestApp } from '../helpers/app';
import { createProject, registerDeveloper, signUpEndUser, type Developer, type Project, onPlan } from '../helpers/factories';
import { asApp, asOwner, baseUrl, makeTable, setAccess, settle, subscribe, type SseStream } from './changes-helpers';

jest.setTimeout(30_000);

let t: TestApp;
let ctx: DatabaseContext;
let dev: Developer;
let base: string;
const open: SseStream[] = [];
beforeAll(async () => {
  t = await buildTestApp();
  ctx = t.app.projectDatabase;
  dev = await registerDeveloper(t);
  await onPlan(t, dev, 'enterprise'); // more projects than Hobby's 3: this file is not about plan limits
  base = await baseUrl(t.app);
});
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});
afterAll(() => t.close());

async function listen(project: Pick<Project, 'authKey'>, table: string, token?: string, extra: Record<string, string> = {}): Promise<SseStream> {
  const stream = await subscribe(base, table, { 'x-api-key': project.authKey, ...(token ? { authorization: `Bearer ${token}` } : {}), ...extra });
  open.push(stream);
  return stream;
}

const NOTES = 'id integer PRIMARY KEY, body text';

test('the stream opens with its headers and a ready event', async () => {
  const project = await createProject(t, dev);
  await makeTable(ctx, project, 'notes', NOTES, 'read');
  const s = await listen(project, 'notes');
  expect(s.status).toBe(200);
  expect(s.headers['content-type']).toBe('text/event-stream; charset=utf-8');
  expect(s.headers['cache-control']).toBe('no-cache');
  expect(s.headers['x-accel-buffering']).toBe('no');
  expect(s.events[0]).toEqual({ event: 'ready', data: { table: 'notes' } });
  expect(t.app.projectDatabaseChanges.size).toBe(1);
  s.close();
  await s.ended;
  // The server lets go of a stream whose client went away.
  for (let i = 0; i < 50 && t.app.projectDatabaseChanges.size; i++) await settle(20);
  expect(t.app.projectDatabaseChanges.size).toBe(0);
});

test('read rule: the key alone sees every insert, update and delete, in order, with the row as stored', async () => {
  const project = await createProject(t, dev);
  await makeTable(ctx, project, 'notes', NOTES, 'read');
  const key = await listen(project, 'notes');
  const user = await signUpEndUser(t, project);
  const signedIn = await listen(project, 'notes', user.accessToken);
  const step = async (sql: string, n: number) => {
    await asOwner(ctx, project, (tx) => tx.query(sql));
    await key.waitFor(n);
    await signedIn.waitFor(n);
  };
  await step("INSERT INTO notes VALUES (1, 'one'), (2, 'two')", 2);
  await step("UPDATE notes SET body = 'uno' WHERE id = 1", 3);
  await step('DELETE FROM notes WHERE id = 2', 4);
  await settle();
  const expected = [
    { event: 'INSERT', data: { type: 'INSERT', table: 'notes', record: { id: 1, body: 'one' } } },
    { event: 'INSERT', data: { type: 'INSERT', table: 'notes', record: { id: 2, body: 'two' } } },
    { event: 'UPDATE', data: { type: 'UPDATE', table: 'notes', record: { id: 1, body: 'uno' } } },
    { event: 'DELETE', data: { type: 'DELETE', table: 'notes', old_record: { id: 2 } } },
  ];
  expect(key.changes()).toEqual(expected);
  expect(signedIn.changes()).toEqual(expected);
});

test('owner rule: each end user sees only their own rows; the key alone sees nothing', async () => {
  const project = await createProject(t, dev);
  await makeTable(ctx, project, 'todos', 'id integer PRIMARY KEY, title text', 'owner');
  const [u1, u2] = [await signUpEndUser(t, project), await signUpEndUser(t, project)];
  const s1 = await listen(project, 'todos', u1.accessToken);
  const s2 = await listen(project, 'todos', u2.accessToken);
  const anonymous = await listen(project, 'todos');
  const as = (user: { id: string }, sql: string) => asApp(ctx, project, user.id, (tx) => tx.query(sql));

  await as(u1, "INSERT INTO todos (id, title) VALUES (1, 'u1 first')");
  await s1.waitFor(1);
  await as(u2, "INSERT INTO todos (id, title) VALUES (2, 'u2 first')");
  await s2.waitFor(1);
  // u2 aims at every row by filter: row-level security lets it change only its own.
  await as(u2, "UPDATE todos SET title = 'u2 edit' WHERE id = 1 OR true");
  await s2.waitFor(2);
  await as(u1, "UPDATE todos SET title = 'u1 second' WHERE id = 1");
  await s1.waitFor(2);
  await as(u2, 'DELETE FROM todos WHERE id = 1 OR id = 2');
  await s2.waitFor(3);
  await as(u1, 'DELETE FROM todos WHERE id = 1');
  await s1.waitFor(3);
  await settle();

  expect(s1.changes()).toEqual([
    { event: 'INSERT', data: { type: 'INSERT', table: 'todos', record: { id: 1, title: 'u1 first', owner_id: u1.id } } },
    { event: 'UPDATE', data: { type: 'UPDATE', table: 'todos', record: { id: 1, title: 'u1 second', owner_id: u1.id } } },
    { event: 'DELETE', data: { type: 'DELETE', table: 'todos', old_record: { id: 1, owner_id: u1.id } } },
  ]);
  expect(s2.changes()).toEqual([
    { event: 'INSERT', data: { type: 'INSERT', table: 'todos', record: { id: 2, title: 'u2 first', owner_id: u2.id } } },
    { event: 'UPDATE', data: { type: 'UPDATE', table: 'todos', record: { id: 2, title: 'u2 edit', owner_id: u2.id } } },
    { event: 'DELETE', data: { type: 'DELETE', table: 'todos', old_record: { id: 2, owner_id: u2.id } } },
  ]);
  expect(anonymous.changes()).toEqual([]);
});

test('signed_in rule: signed-in callers see every change; the key alone sees none', async () => {
  const project = await createProject(t, dev);
  await makeTable(ctx, project, 'posts', NOTES, 'signed_in');
  const user = await signUpEndUser(t, project);
  const signedIn = await listen(project, 'posts', user.accessToken);
  const key = await listen(project, 'posts');
  await asApp(ctx, project, user.id, (tx) => tx.query("INSERT INTO posts VALUES (7, 'hello')"));
  // (A row is read back when its notice is handled: one deleted before that shows only its delete.)
  await signedIn.waitFor(1);
  await asApp(ctx, project, user.id, (tx) => tx.query('DELETE FROM posts WHERE id = 7'));
  const got = await signedIn.waitFor(2);
  expect(got.map((e) => e.event)).toEqual(['INSERT', 'DELETE']);
  expect(got[1].data).toEqual({ type: 'DELETE', table: 'posts', old_record: { id: 7 } });
  await settle();
  expect(key.changes()).toEqual([]);
});

test('a composite primary key and hostile names: the row is read back by its whole key', async () => {
  const project = await createProject(t, dev);
  const table = 'Ünïcødé_"x; drop table'.replace(/[^\p{L}\p{N}_]/gu, '_');
  await makeTable(ctx, project, table, '"Ab" text, n bigint, v jsonb, PRIMARY KEY ("Ab", n)', 'read');
  const s = await listen(project, table);
  await asOwner(ctx, project, (tx) => tx.query(`INSERT INTO "${table}" VALUES ($1, 1, $2), ($1, 2, '{"x":1}')`, ["it's \"quoted\"", JSON.stringify({ a: ['b'] })]));
  const got = await s.waitFor(2);
  expect(got.map((e) => (e.data as { record: unknown }).record)).toEqual([
    { Ab: "it's \"quoted\"", n: 1, v: { a: ['b'] } },
    { Ab: "it's \"quoted\"", n: 2, v: { x: 1 } },
  ]);
});

test('a bigint key past 2^53 is read back by its exact value', async () => {
  const project = await createProject(t, dev);
  await makeTable(ctx, project, 'big', 'id bigint PRIMARY KEY, n numeric', 'read');
  const s = await listen(project, 'big');
  await asOwner(ctx, project, (tx) => tx.query("INSERT INTO big VALUES (9007199254740993, 1), (9007199254740992, 2)"));
  const got = await s.waitFor(2);
  // Two rows whose keys JSON numbers can't tell apart: each notice finds its own row.
  expect(got.map((e) => (e.data as { record: { n: number } }).record.n)).toEqual([1, 2]);
});

test('a stream whose caller loses read access ends with an error event', async () => {
  const project = await createProject(t, dev);
  await makeTable(ctx, project, 'notes', NOTES, 'read');
  const s = await listen(project, 'notes');
  await setAccess(ctx, project, 'notes', 'none');
  await asOwner(ctx, project, (tx) => tx.query("INSERT INTO notes VALUES (1, 'secret')"));
  await s.ended;
  expect(s.changes()).toEqual([{ event: 'error', data: { message: "The table's access rule no longer lets this caller read it" } }]);
});

test('a batch of 150 rows in one statement arrives as 150 events, in order', async () => {
  const project = await createProject(t, dev);
  await makeTable(ctx, project, 'notes', NOTES, 'read');
  const s = await listen(project, 'notes');
  await asOwner(ctx, project, (tx) => tx.query("INSERT INTO notes SELECT g, 'n' || g FROM generate_series(1, 150) g"));
  const got = await s.waitFor(150);
  expect(got.map((e) => (e.data as { record: { id: number } }).record.id)).toEqual(Array.from({ length: 150 }, (_, i) => i + 1));
});

test('more changes at once than a table may have waiting: its streams end with an error event (reconnect and re-read)', async () => {
  const project = await createProject(t, dev);
  await makeTable(ctx, project, 'notes', NOTES, 'read');
  const s = await listen(project, 'notes');
  const before = CHANGES_LIMITS.pendingNotices;
  CHANGES_LIMITS.pendingNotices = 2;
  try {
    await asOwner(ctx, project, (tx) => tx.query("INSERT INTO notes SELECT g, 'n' FROM generate_series(1, 300) g"));
    await s.ended;
  } finally {
    CHANGES_LIMITS.pendingNotices = before;
  }
  expect(s.changes().at(-1)).toEqual({ event: 'error', data: { message: 'Too many changes at once for live changes to follow; reconnect and re-read' } });
});

test('HEAD answers the stream\'s headers without keeping a stream open', async () => {
  const project = await createProject(t, dev);
  await makeTable(ctx, project, 'notes', NOTES, 'read');
  const before = t.app.projectDatabaseChanges.size;
  const res = await t.app.inject({ method: 'HEAD', url: '/api/db/v1/notes/changes', headers: { 'x-api-key': project.authKey } });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
  expect(t.app.projectDatabaseChanges.size).toBeLessThanOrEqual(before);
});

describe('subscribing', () => {
  test('none rule: 403', async () => {
    const project = await createProject(t, dev);
    await makeTable(ctx, project, 'hidden', NOTES, 'none');
    const s = await listen(project, 'hidden');
    expect(s.status).toBe(403);
    expect(s.error?.message).toMatch(/permission denied/);
  });

  test('a table that does not exist, or exists only in another project: 404', async () => {
    const project = await createProject(t, dev);
    const other = await createProject(t, dev);
    await makeTable(ctx, other, 'theirs', NOTES, 'read');
    for (const [p, table] of [[project, 'missing'], [project, 'theirs']] as const) {
      const s = await listen(p, table);
      expect({ status: s.status, message: s.error?.message }).toEqual({ status: 404, message: 'Table not found' });
    }
  });

  test('an access token that does not verify (or is another project\'s): 401, never anonymous', async () => {
    const project = await createProject(t, dev);
    const other = await createProject(t, dev);
    await makeTable(ctx, project, 'notes', NOTES, 'read');
    const stranger = await signUpEndUser(t, other);
    for (const token of ['not-a-token', stranger.accessToken]) {
      const s = await listen(project, 'notes', token);
      expect({ status: s.status, message: s.error?.message }).toEqual({ status: 401, message: 'Invalid or expired access token' });
    }
  });

  test('no key or a wrong key: 401; a name outside the rule: 400', async () => {
    const project = await createProject(t, dev);
    expect((await subscribe(base, 'notes', {})).status).toBe(401);
    expect((await subscribe(base, 'notes', { 'x-api-key': 'nope' })).status).toBe(401);
    const bad = await listen(project, 'x; drop table');
    expect(bad.status).toBe(400);
    expect(bad.error?.message).toMatch(/^params\/table must start with a letter/);
    // 32 characters, 64 bytes: over PostgreSQL's 63 (it would silently cut the name).
    const long = await listen(project, 'é'.repeat(32));
    expect({ status: long.status, message: long.error?.message }).toEqual({ status: 400, message: 'params/table must be at most 63 bytes (UTF-8)' });
  });

  test("one client can't take every stream of a project: past its own share, 429; others still get in", async () => {
    const project = await createProject(t, dev);
    await makeTable(ctx, project, 'notes', NOTES, 'signed_in');
    const [a, b] = [await signUpEndUser(t, project), await signUpEndUser(t, project)];
    const before = CHANGES_LIMITS.perClient;
    CHANGES_LIMITS.perClient = 2;
    try {
      expect((await listen(project, 'notes', a.accessToken)).status).toBe(200);
      expect((await listen(project, 'notes', a.accessToken)).status).toBe(200);
      const third = await listen(project, 'notes', a.accessToken);
      expect(third.status).toBe(429);
      expect(third.error?.message).toBe('This client has 2 live-change streams of this project open on this server; close one or try again later');
      expect((await listen(project, 'notes', b.accessToken)).status).toBe(200);
    } finally {
      CHANGES_LIMITS.perClient = before;
    }
  });

  test('past the streams a project may hold on one server: 429 with Retry-After', async () => {
    const project = await createProject(t, dev);
    await makeTable(ctx, project, 'notes', NOTES, 'read');
    const before = CHANGES_LIMITS.perProject;
    CHANGES_LIMITS.perProject = 2;
    try {
      await listen(project, 'notes');
      await listen(project, 'notes');
      const third = await listen(project, 'notes');
      expect(third.status).toBe(429);
      expect(third.headers['retry-after']).toBe('30');
      expect(third.error?.message).toBe('This project has 2 live-change streams open on this server; close one or try again later');
      // Another project is not held back by this one.
      const other = await createProject(t, dev);
      await makeTable(ctx, other, 'notes', NOTES, 'read');
      expect((await listen(other, 'notes')).status).toBe(200);
    } finally {
      CHANGES_LIMITS.perProject = before;
    }
  });
});

test('a stream ends once its credentials would be refused: a revoked access token, a deleted project', async () => {
  const project = await createProject(t, dev);
  await makeTable(ctx, project, 'notes', NOTES, 'read');
  const user = await signUpEndUser(t, project);
  // A fresh instance reads its recheck period when it starts listening.
  const recheckMs = CHANGES_LIMITS.recheckMs;
  CHANGES_LIMITS.recheckMs = 100;
  const second = await buildApp({ ...t.config, webDir: undefined }, { database: t.database, logger: false });
  try {
    await second.ready();
    const url = await baseUrl(second);
    const withToken = await subscribe(url, 'notes', { 'x-api-key': project.authKey, authorization: `Bearer ${user.accessToken}` });
    const keyOnly = await subscribe(url, 'notes', { 'x-api-key': project.authKey });
    CHANGES_LIMITS.recheckMs = recheckMs;
    await settle(250);
    expect(second.projectDatabaseChanges.size).toBe(2);
    // A new password revokes every token of the user (its token version moves on).
    await t.database.query('UPDATE end_users SET token_version = token_version + 1 WHERE id = $1', [user.id]);
    await t.app.deps.lookups.barrier(); // a write from outside the platform: wait until it is heard
    await withToken.ended;
    const refused = { event: 'error', data: { message: 'The credentials of this stream are no longer valid (key, project or access token); reconnect' } };
    expect(withToken.changes()).toEqual([refused]);
    expect(second.projectDatabaseChanges.size).toBe(1);
    expect((await t.post(`/project/${project.id}/delete`, { confirm: project.subdomain }, dev.token)).statusCode).toBe(200);
    await keyOnly.ended;
    expect(keyOnly.changes()).toEqual([refused]);
  } finally {
    CHANGES_LIMITS.recheckMs = recheckMs;
    await second.close();
  }
});

test('closing the app ends its streams cleanly (and close does not wait for them)', async () => {
  const project = await createProject(t, dev);
  await makeTable(ctx, project, 'notes', NOTES, 'read');
  const second = await buildApp({ ...t.config, webDir: undefined }, { database: t.database, logger: false });
  await second.ready();
  // A fresh hub reads its keep-alive period when it starts listening.
  const keepAliveMs = CHANGES_LIMITS.keepAliveMs;
  CHANGES_LIMITS.keepAliveMs = 50;
  const s = await subscribe(await baseUrl(second), 'notes', { 'x-api-key': project.authKey }).finally(() => (CHANGES_LIMITS.keepAliveMs = keepAliveMs));
  expect(s.status).toBe(200);
  await settle(150);
  expect(s.comments).toContain('keep-alive');
  const started = Date.now();
  await second.close();
  await s.ended;
  expect(Date.now() - started).toBeLessThan(3000);
  expect(s.changes()).toEqual([]);
  // The first app still serves its own streams.
  const still = await listen(project, 'notes');
  await asOwner(ctx, project, (tx) => tx.query("INSERT INTO notes VALUES (1, 'after')"));
  expect((await still.waitFor(1))[0].event).toBe('INSERT');
});
