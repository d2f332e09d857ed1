// Console management of a project's end users (developer bearer): list with pagination, add,
// delete, reset mail, settings; every error path answers 4xx with a message, never 500.
import { buildTestApp, registerDeveloper, type Developer, type TestApp } from '../helpers/app';
import { app, consoleCall, createProject, tokenFromOutbox, type TestProject } from './setup';

let t: TestApp;
let p: TestProject;
let stranger: Developer;
beforeAll(async () => {
  t = await buildTestApp();
  p = await createProject(t);
  stranger = await registerDeveloper(t);
});
afterAll(() => t.close());

const password = 'console password 1';
const call = (op: string, body: unknown, token = p.dev.token, project: Pick<TestProject, 'id'> = p) => consoleCall(t, project, op, body, token);

async function userId(email: string): Promise<string> {
  const list = await call('users_list', { page: 1 });
  return list.json().users.find((u: { email: string }) => u.email === email).user_id;
}

test('add a user, see it listed, sign it in through the app API, see last_login', async () => {
  const add = await call('add_user', { email: 'listed@example.com', password });
  expect(add.statusCode).toBe(200);
  expect(add.json()).toEqual({ message: 'True' });

  const before = await call('users_list', undefined);
  expect(before.statusCode).toBe(200);
  const body = before.json();
  expect(body).toMatchObject({ total: 1, page: 1, page_size: 100, next_page: null });
  expect(body.users[0]).toEqual({
    user_id: expect.any(String),
    email: 'listed@example.com',
    email_verified: false,
    last_login: null,
    created_at: expect.any(String),
  });

  const signIn = await app(t, p.authKey, 'POST', '/signin', { email: 'listed@example.com', password });
  expect(signIn.statusCode).toBe(200);
  const after = (await call('users_list', {})).json();
  expect(after.users[0].last_login).not.toBeNull();
  expect(new Date(after.users[0].last_login).getTime()).toBeGreaterThan(Date.now() - 60_000);
});

test('add_user: duplicate is 409 in the same project, fine in another; bad input is 400', async () => {
  await call('add_user', { email: 'twice@example.com', password });
  const dup = await call('add_user', { email: 'Twice@Example.com', password });
  expect(dup.statusCode).toBe(409);
  expect(dup.json().message).toBe('A user with this email already exists in this project');

  const other = await createProject(t, p.dev);
  expect((await call('add_user', { email: 'twice@example.com', password }, p.dev.token, other)).statusCode).toBe(200);

  const bad: [unknown, RegExp][] = [
    [{ email: 'nope', password }, /email/],
    [{ email: 'a@example.com' }, /password/],
    [{ password }, /email/],
    [{ email: 'a@example.com', password: 'short' }, /at least 8/],
  ];
  for (const [body, message] of bad) {
    const res = await call('add_user', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(message);
  }
  const noBody = await t.app.inject({ method: 'POST', url: `/api/project/${p.id}/auth/add_user`, headers: { authorization: `Bearer ${p.dev.token}`, 'content-type': 'application/json' }, payload: '{oops' });
  expect(noBody.statusCode).toBe(400);
});

test('delete_user: by id, the email must match when given; unknown ids are 404', async () => {
  await call('add_user', { email: 'del@example.com', password });
  const id = await userId('del@example.com');
  const mismatch = await call('delete_user', { user_id: id, email: 'someone-else@example.com' });
  expect(mismatch.statusCode).toBe(400);
  expect(mismatch.json().message).toMatch(/does not match/);

  const s = (await app(t, p.authKey, 'POST', '/signin', { email: 'del@example.com', password })).json();
  const ok = await call('delete_user', { user_id: id, email: 'DEL@example.com' });
  expect(ok.statusCode).toBe(200);
  expect(ok.json()).toEqual({ message: 'True' });
  // Gone: its tokens no longer work and deleting again is 404.
  expect((await app(t, p.authKey, 'GET', '/user', undefined, s.access_token)).statusCode).toBe(401);
  expect((await app(t, p.authKey, 'POST', '/refresh', { refresh_token: s.refresh_token })).statusCode).toBe(401);
  const again = await call('delete_user', { user_id: id });
  expect(again.statusCode).toBe(404);
  expect(again.json().message).toBe('User not found');
  expect((await call('delete_user', { user_id: 'not-a-uuid' })).statusCode).toBe(404);
  expect((await call('delete_user', {})).statusCode).toBe(400);
});

test('reset_password mails a single-use, one-hour link to the user; site_url decides the link base', async () => {
  await call('add_user', { email: 'forgetful@example.com', password });
  const id = await userId('forgetful@example.com');
  const res = await call('reset_password', { user_id: id, email: 'forgetful@example.com' });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({ message: 'True' });
  const { link, token } = tokenFromOutbox(t, 'forgetful@example.com');
  expect(link).toMatch(new RegExp(`^${t.config.publicUrl}/auth/end-user/reset-password\\?token=`));
  const mail = t.outbox().find((m) => m.links.includes(link))!;
  expect(mail.subject).toMatch(/Reset your password/);
  expect(mail.text).toMatch(/within 1 hour/);

  expect((await app(t, undefined, 'POST', '/reset', { token, password: 'brand new pass' })).statusCode).toBe(200);
  expect((await app(t, undefined, 'POST', '/reset', { token, password: 'brand new pass 2' })).statusCode).toBe(400);
  expect((await app(t, p.authKey, 'POST', '/signin', { email: 'forgetful@example.com', password: 'brand new pass' })).statusCode).toBe(200);

  await call('settings', { site_url: 'https://app.example.com/account/' });
  await call('reset_password', { user_id: id });
  expect(tokenFromOutbox(t, 'forgetful@example.com').link).toMatch(/^https:\/\/app\.example\.com\/account\/reset-password\?token=/);
  await call('settings', { site_url: null });

  expect((await call('reset_password', { user_id: id, email: 'x@example.com' })).statusCode).toBe(400);
  expect((await call('reset_password', { user_id: '00000000-0000-4000-8000-000000000000' })).statusCode).toBe(404);
  expect((await call('reset_password', { email: 'forgetful@example.com' })).statusCode).toBe(400);
});

test('settings: read, update, validate origins and site_url', async () => {
  const read = await call('settings', undefined);
  expect(read.statusCode).toBe(200);
  expect(read.json()).toEqual({ allowed_origins: [], site_url: null, block_common_passwords: true });

  const upd = await call('settings', { allowed_origins: ['https://App.Example.com', 'http://localhost:5173/', 'https://app.example.com'], site_url: 'https://app.example.com' });
  expect(upd.statusCode).toBe(200);
  expect(upd.json()).toEqual({ allowed_origins: ['https://app.example.com', 'http://localhost:5173'], site_url: 'https://app.example.com', block_common_passwords: true });
  // Fields not given stay as they are.
  expect((await call('settings', { site_url: '' })).json()).toEqual({ allowed_origins: ['https://app.example.com', 'http://localhost:5173'], site_url: null, block_common_passwords: true });

  for (const origin of ['*', 'https://*.example.com', 'app.example.com', 'ftp://example.com', 'https://example.com/path', 'https://u:p@example.com', 'https://example.com?x=1', '']) {
    const res = await call('settings', { allowed_origins: [origin] });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/allowed_origins\/0/);
  }
  for (const site_url of ['javascript:alert(1)', 'not a url', 'https://app.example.com/?next=evil']) {
    const res = await call('settings', { site_url });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/site_url/);
  }
  const tooMany = await call('settings', { allowed_origins: Array.from({ length: 51 }, (_, i) => `https://a${i}.example.com`) });
  expect(tooMany.statusCode).toBe(400);
  expect(tooMany.json().message).toMatch(/allowed_origins/);
  expect((await call('settings', {})).json().allowed_origins).toEqual(['https://app.example.com', 'http://localhost:5173']);
});

test("another developer's token gets 404 on every console operation and learns nothing", async () => {
  await call('add_user', { email: 'private@example.com', password });
  const id = await userId('private@example.com');
  const ops: [string, unknown][] = [
    ['users_list', {}],
    ['add_user', { email: 'intruder@example.com', password }],
    ['delete_user', { user_id: id }],
    ['reset_password', { user_id: id }],
    ['settings', { allowed_origins: ['https://evil.example.com'] }],
  ];
  for (const [op, body] of ops) {
    const res = await call(op, body, stranger.token);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Project not found');
    expect(res.body).not.toContain('private@example.com');
    // A nonexistent project answers the same.
    const none = await call(op, body, stranger.token, { id: '00000000-0000-4000-8000-000000000000' });
    expect(none.statusCode).toBe(404);
    expect(none.json().message).toBe('Project not found');
  }
  // Nothing changed.
  expect((await call('users_list', {})).json().users.map((u: { email: string }) => u.email)).not.toContain('intruder@example.com');
  expect((await call('settings', {})).json().allowed_origins).not.toContain('https://evil.example.com');
  // Without a token, or with an end user's token: 401.
  expect((await call('users_list', {}, '')).statusCode).toBe(401);
  const s = (await app(t, p.authKey, 'POST', '/signin', { email: 'private@example.com', password })).json();
  expect((await call('users_list', {}, s.access_token)).statusCode).toBe(401);
});

test('users_list pages by 100 with total and next_page', async () => {
  const q = await createProject(t, p.dev);
  // 250 users by SQL: hashing 250 passwords through the API would only test scrypt.
  await t.database.query(
    `INSERT INTO end_users (project_id, email, email_normalized, password_hash, created_at)
     SELECT $1, 'bulk' || i || '@example.com', 'bulk' || i || '@example.com', 'x', now() - make_interval(secs => i)
     FROM generate_series(1, 250) AS i`,
    [q.id],
  );
  const first = (await call('users_list', {}, p.dev.token, q)).json();
  expect(first).toMatchObject({ total: 250, page: 1, page_size: 100, next_page: 2 });
  expect(first.users).toHaveLength(100);
  expect(first.users[0].email).toBe('bulk1@example.com'); // newest first
  const second = (await call('users_list', { page: 2 }, p.dev.token, q)).json();
  expect(second).toMatchObject({ total: 250, page: 2, next_page: 3 });
  const third = (await call('users_list', { page: 3 }, p.dev.token, q)).json();
  expect(third).toMatchObject({ page: 3, next_page: null });
  expect(third.users).toHaveLength(50);
  const all = [...first.users, ...second.users, ...third.users].map((u: { email: string }) => u.email);
  expect(new Set(all).size).toBe(250);
  expect((await call('users_list', { page: 4 }, p.dev.token, q)).json()).toMatchObject({ users: [], total: 250, next_page: null });
  for (const page of [0, -1, 'two', 1.5]) {
    const res = await call('users_list', { page }, p.dev.token, q);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/page/);
  }
});
