// The account's errors across its projects (listAccountErrors): what the console's browser alerts
// read. Newest first, each with its project; another account's errors never show.
import { buildTestApp, type TestApp } from '../helpers/app';
import { createProject, registerDeveloper, type Developer } from '../helpers/factories';

let t: TestApp;
let dev: Developer;
let stranger: Developer;
beforeAll(async () => {
  t = await buildTestApp();
  dev = await registerDeveloper(t, { ip: '192.0.2.30' });
  stranger = await registerDeveloper(t, { ip: '192.0.2.31' });
});
afterAll(() => t.close(), 30_000);

test("errors of all the account's projects, newest first, each with its project; nobody else's", async () => {
  const shop = await createProject(t, dev);
  const blog = await createProject(t, dev);
  const theirs = await createProject(t, stranger);
  await t.app.deps.events.emit({ type: 'deploy_failed', accountId: dev.id, projectId: shop.id, message: 'first' });
  await t.app.deps.events.emit({ type: 'runtime_crashed', accountId: dev.id, projectId: blog.id, message: 'second' });
  await t.app.deps.events.emit({ type: 'deploy_failed', accountId: stranger.id, projectId: theirs.id, message: 'not yours' });

  const res = await t.post('/errors', {}, dev.token);
  expect(res.statusCode).toBe(200);
  const body = res.json();
  expect(body.total).toBe(2);
  expect(body.errors.map((e: { message: string; project_id: string; project_name: string }) => [e.message, e.project_id, e.project_name])).toEqual([
    ['second', blog.id, `Project ${blog.subdomain}`],
    ['first', shop.id, `Project ${shop.subdomain}`],
  ]);
  expect(res.body).not.toContain('not yours');

  const page2 = await t.post('/errors', { page: 2, page_size: 1 }, dev.token);
  expect(page2.json()).toMatchObject({ total: 2, page: 2, page_size: 1, next_page: null, errors: [{ message: 'first' }] });
});

test('bad paging is a 400 with a message; no token is a 401', async () => {
  for (const body of [{ page: 0 }, { page_size: 101 }, { page: 'one' }]) {
    const res = await t.post('/errors', body, dev.token);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/page/);
  }
  expect((await t.post('/errors', {})).statusCode).toBe(401);
});
