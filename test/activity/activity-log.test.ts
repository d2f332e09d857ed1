// The activity log through the real app: a developer's changes in order, with the actor, the
// project and the address they came from; reads and failed calls leave nothing; another account
// sees none of it; paging.
import type { LightMyRequestResponse } from 'fastify';
import { buildTestApp, type TestApp } from '../helpers/app';
import { registerDeveloper, upload, type Developer } from '../helpers/factories';

let t: TestApp;
let alice: Developer;
let bob: Developer;
let projectId: string;
const ALICE_IP = '203.0.113.7';
const BOB_IP = '198.51.100.9';

interface Entry {
  operation_id: string;
  summary: string;
  project_id: string | null;
  project_name: string | null;
  ip: string;
}

/** POST /api{path} as a client at `ip`. */
function call(path: string, body: unknown, token: string | undefined, ip: string): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url: '/api' + path,
    remoteAddress: ip,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(body === undefined ? {} : { payload: body as object }),
  });
}

async function activity(dev: Developer, path = '/activity', body: unknown = {}): Promise<{ entries: Entry[]; total: number; next_page: number | null }> {
  const res = await t.post(path, body, dev.token);
  expect(res.statusCode).toBe(200);
  return res.json();
}

beforeAll(async () => {
  t = await buildTestApp();
  alice = await registerDeveloper(t, { ip: ALICE_IP });
  bob = await registerDeveloper(t, { ip: BOB_IP });
});
afterAll(() => t.close());

test("a developer's changes are listed newest first, with the operation, a readable summary, the project and the address", async () => {
  const created = await call('/create-project', { projectName: 'Shop', subdomain: 'shop-activity' }, alice.token, ALICE_IP);
  expect(created.statusCode).toBe(200);
  projectId = created.json().project.id;
  expect((await call(`/project/${projectId}/rotate-key`, { key: 'authentication' }, alice.token, ALICE_IP)).statusCode).toBe(200);
  const up = await upload(t, alice.token, projectId, [{ name: 'notes.txt', type: 'text/plain', content: Buffer.from('hello') }]);
  expect(up.statusCode).toBe(200);
  const fileId = up.json().file.object_id;
  expect((await call(`/project/${projectId}/object-storage/delete`, { file_ids: [fileId] }, alice.token, ALICE_IP)).statusCode).toBe(200);

  const { entries, total } = await activity(alice);
  expect(entries.map((e) => [e.operation_id, e.summary])).toEqual([
    ['deleteObjects', 'Deleted 1 file'],
    ['uploadObject', 'Uploaded file "notes.txt"'],
    ['rotateProjectKey', 'Rotated the publishable key'],
    ['createProject', 'Created project "Shop" (shop-activity)'],
    ['registerAccount', 'Created the account'],
  ]);
  expect(total).toBe(5);
  expect(entries.slice(0, 4).every((e) => e.project_id === projectId && e.project_name === 'Shop')).toBe(true);
  expect(entries[4]).toMatchObject({ project_id: null, project_name: null, ip: ALICE_IP });
  // upload() comes from inject's default address; the calls made here from Alice's.
  expect(entries.filter((e) => e.operation_id !== 'uploadObject').every((e) => e.ip === ALICE_IP)).toBe(true);
});

test("createProject and rotateProjectKey write their entry in the change's own transaction (same now()); addAuthUser after it", async () => {
  const sameTx = async (operationId: string, changeSql: string) => {
    const [row] = await t.database.query<{ same: boolean }>(
      `SELECT (${changeSql}) = (SELECT created_at FROM activity_log WHERE account_id = $1 AND operation_id = $2 ORDER BY seq DESC LIMIT 1) AS same`,
      [alice.id, operationId],
    );
    return row.same;
  };
  expect(await sameTx('createProject', `SELECT created_at FROM projects WHERE id = '${projectId}'`)).toBe(true);
  expect(await sameTx('rotateProjectKey', `SELECT max(created_at) FROM project_keys WHERE project_id = '${projectId}'`)).toBe(true);
  expect((await call(`/project/${projectId}/auth/add_user`, { email: 'tx@example.com', password: 'Str0ng!pass' }, alice.token, ALICE_IP)).statusCode).toBe(200);
  expect(await sameTx('addAuthUser', `SELECT created_at FROM end_users WHERE email = 'tx@example.com'`)).toBe(false);
});

test('reads leave nothing: listing projects, reading keys, listing files and the log itself', async () => {
  const before = (await activity(alice)).total;
  for (const [path, body] of [
    ['/projects', {}],
    [`/project/${projectId}/bucket-details`, {}],
    [`/project/${projectId}/object-storage/files`, {}],
    ['/check_subdomain', { subdomain: 'anything-free' }],
    ['/account-details', {}],
  ] as const) {
    expect((await call(path, body, alice.token, ALICE_IP)).statusCode).toBe(200);
  }
  expect((await activity(alice)).total).toBe(before);
});

test('failed calls write no entry: a taken subdomain, a bad body, a wrong password, another account\'s project', async () => {
  const before = (await activity(alice)).total;
  expect((await call('/create-project', { projectName: 'Again', subdomain: 'shop-activity' }, alice.token, ALICE_IP)).statusCode).toBe(409);
  expect((await call(`/project/${projectId}/rotate-key`, { key: 'nope' }, alice.token, ALICE_IP)).statusCode).toBe(400);
  expect((await call(`/project/${projectId}/delete`, { confirm: 'not-the-subdomain' }, alice.token, ALICE_IP)).statusCode).toBe(400);
  expect((await call('/verify_user', { email: alice.email, password: 'wrong password here' }, undefined, ALICE_IP)).statusCode).toBe(401);
  expect((await call(`/project/${projectId}/rotate-key`, { key: 'bucket' }, bob.token, BOB_IP)).statusCode).toBe(404);
  expect((await activity(alice)).total).toBe(before);
  expect((await activity(bob)).entries.map((e) => e.operation_id)).toEqual(['registerAccount']);
});

test('the account\'s own sign-in actions are logged: a sign-in and a password change', async () => {
  const login = await call('/verify_user', { email: alice.email, password: alice.password, device_token: alice.deviceToken }, undefined, ALICE_IP);
  expect(login.statusCode).toBe(200);
  const changed = await call('/change_pass', { current_password: alice.password, new_password: 'another horse battery' }, login.json().token, ALICE_IP);
  expect(changed.statusCode).toBe(200);
  alice.password = 'another horse battery';
  alice.token = changed.json().token;
  const { entries } = await activity(alice);
  expect(entries.slice(0, 2).map((e) => [e.summary, e.ip, e.project_id])).toEqual([
    ['Changed the password', ALICE_IP, null],
    ['Signed in', ALICE_IP, null],
  ]);
});

test("a project's end users: added, deleted; settings saved are a change, settings read are not", async () => {
  const project = (await call('/create-project', { projectName: 'Users', subdomain: 'users-activity' }, alice.token, ALICE_IP)).json().project.id;
  const path = (op: string) => `/project/${project}/auth/${op}`;
  expect((await call(path('add_user'), { email: 'ada@example.com', password: 'Str0ng!pass' }, alice.token, ALICE_IP)).statusCode).toBe(200);
  const [user] = (await call(path('users_list'), {}, alice.token, ALICE_IP)).json().users;
  expect((await call(path('delete_user'), { user_id: user.user_id, email: 'ada@example.com' }, alice.token, ALICE_IP)).statusCode).toBe(200);
  expect((await call(path('delete_user'), { user_id: user.user_id }, alice.token, ALICE_IP)).statusCode).toBe(404);
  expect((await call(path('settings'), {}, alice.token, ALICE_IP)).statusCode).toBe(200);
  expect((await call(path('settings'), { allowed_origins: ['https://shop.example'] }, alice.token, ALICE_IP)).statusCode).toBe(200);
  const { entries } = await activity(alice, `/project/${project}/activity`);
  expect(entries.map((e) => e.summary)).toEqual([
    'Changed the authentication settings',
    'Deleted user ada@example.com',
    'Added user ada@example.com',
    'Created project "Users" (users-activity)',
  ]);
  expect((await call(`/project/${project}/delete`, { confirm: 'users-activity' }, alice.token, ALICE_IP)).statusCode).toBe(200);
});

test("a project's log has only its entries; another account gets a 404 that says nothing more than for no project", async () => {
  const other = await call('/create-project', { projectName: 'Blog', subdomain: 'blog-activity' }, alice.token, ALICE_IP);
  const { entries } = await activity(alice, `/project/${projectId}/activity`);
  expect(entries.map((e) => e.summary)).toEqual(['Added user tx@example.com', 'Deleted 1 file', 'Uploaded file "notes.txt"', 'Rotated the publishable key', 'Created project "Shop" (shop-activity)']);
  const blog = await activity(alice, `/project/${other.json().project.id}/activity`);
  expect(blog.entries.map((e) => e.summary)).toEqual(['Created project "Blog" (blog-activity)']);

  const theirs = await t.post(`/project/${projectId}/activity`, {}, bob.token);
  const none = await t.post('/project/00000000-0000-4000-8000-000000000000/activity', {}, bob.token);
  expect(theirs.statusCode).toBe(404);
  expect(theirs.json()).toEqual(none.json());
  expect(theirs.body).not.toContain('Shop');
  expect((await activity(bob)).entries.every((e) => !e.summary.includes('Shop') && !e.summary.includes('Blog'))).toBe(true);
  expect((await t.post('/activity', {})).statusCode).toBe(401);
});

test('a deleted project stays in the account\'s log by its summary; its name is no longer joined', async () => {
  const created = await call('/create-project', { projectName: 'Temp', subdomain: 'temp-activity' }, alice.token, ALICE_IP);
  const id = created.json().project.id;
  expect((await call(`/project/${id}/delete`, { confirm: 'temp-activity' }, alice.token, ALICE_IP)).statusCode).toBe(200);
  const [deleted, made] = (await activity(alice)).entries;
  expect(deleted).toMatchObject({ operation_id: 'deleteProject', summary: 'Deleted project "Temp" (temp-activity)', project_id: id, project_name: null });
  expect(made).toMatchObject({ operation_id: 'createProject', project_id: id, project_name: null });
});

test('paging: page_size and page walk the log; total and next_page tell where it ends; bad paging is a 400', async () => {
  const all = await activity(alice);
  const first = await activity(alice, '/activity', { page_size: 2 });
  expect(first.entries).toEqual(all.entries.slice(0, 2));
  expect(first.total).toBe(all.total);
  expect(first.next_page).toBe(2);
  const second = await activity(alice, '/activity', { page: 2, page_size: 2 });
  expect(second.entries).toEqual(all.entries.slice(2, 4));
  const last = Math.ceil(all.total / 2);
  expect((await activity(alice, '/activity', { page: last, page_size: 2 })).next_page).toBeNull();
  expect((await activity(alice, '/activity', { page: last + 1, page_size: 2 })).entries).toEqual([]);
  for (const bad of [{ page: 0 }, { page: -1 }, { page: 'two' }, { page_size: 0 }, { page_size: 101 }, { page: 1.5 }]) {
    const res = await t.post('/activity', bad, alice.token);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/body/);
  }
  expect((await t.post(`/project/${projectId}/errors`, { page: 0 }, alice.token)).statusCode).toBe(400);
});
