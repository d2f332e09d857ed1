// A project's errors: a failed deploy and a crashed site land in its errors panel with their
// severity, as do the events other modules raise (a quota reached); newest first, paged; another
// account's project is a 404.
import { buildTestApp, type TestApp } from '../helpers/app';
import { createProject, deploy, makeZip, registerDeveloper, type Developer, type Project } from '../helpers/factories';

let t: TestApp;
let p: Project;
let stranger: Developer;

interface ProjectError {
  kind: string;
  severity: string;
  message: string;
}

async function errors(body: unknown = {}): Promise<{ errors: ProjectError[]; total: number; next_page: number | null }> {
  const res = await t.post(`/project/${p.id}/errors`, body, p.dev.token);
  expect(res.statusCode).toBe(200);
  return res.json();
}

beforeAll(async () => {
  t = await buildTestApp();
  const dev = await registerDeveloper(t, { ip: '192.0.2.10' });
  p = await createProject(t, dev);
  stranger = await registerDeveloper(t, { ip: '192.0.2.11' });
});
afterAll(() => t.close(), 30_000);

test('a new project has no errors', async () => {
  expect(await errors()).toEqual({ errors: [], total: 0, page: 1, page_size: 20, next_page: null });
});

test('a zip that cannot be deployed is a medium error of its project, with the reason', async () => {
  const res = await deploy(t, p, makeZip([]), 'Static');
  expect(res.statusCode).toBe(400);
  const { errors: list } = await errors();
  expect(list).toHaveLength(1);
  expect(list[0]).toMatchObject({ kind: 'deploy_failed', severity: 'medium' });
  expect(list[0].message).toContain(res.json().message);
});

test('a site process that exits unexpectedly is a high error, once per crash streak', async () => {
  const node = makeZip([
    { name: 'package.json', data: JSON.stringify({ name: 'demo', main: 'server.js' }) },
    {
      name: 'server.js',
      data: `require('http').createServer((req, res) => { if (req.url === '/crash') { res.end('bye'); setTimeout(() => process.exit(3), 10); return; } res.end('ok'); }).listen(process.env.PORT, '127.0.0.1');`,
    },
  ]);
  const deployed = await deploy(t, p, node, 'Node.js');
  expect(deployed.statusCode).toBe(200);
  await t.app.inject({ method: 'GET', url: '/crash', headers: { host: p.host } });
  let crash: ProjectError | undefined;
  for (let i = 0; i < 100 && !crash; i++) {
    crash = (await errors()).errors.find((e) => e.kind === 'runtime_crashed');
    if (!crash) await new Promise((r) => setTimeout(r, 50));
  }
  expect(crash).toMatchObject({ kind: 'runtime_crashed', severity: 'high' });
  expect(crash!.message).toMatch(/exited \(code 3\)/);
  // Restarted (the gateway waits out the back-off), then crashing again within the minute: the
  // same streak, no second error.
  expect((await t.app.inject({ method: 'GET', url: '/', headers: { host: p.host } })).body).toBe('ok');
  await t.app.inject({ method: 'GET', url: '/crash', headers: { host: p.host } });
  const restarts = async () => (await t.post(`/project/${p.id}/container-stats/`, {}, p.dev.token)).json().restarts;
  for (let i = 0; i < 100 && (await restarts()) < 2; i++) await new Promise((r) => setTimeout(r, 50));
  expect(await restarts()).toBe(2);
  expect((await errors()).errors.map((e) => e.kind)).toEqual(['runtime_crashed', 'deploy_failed']);
}, 30_000);

test('events raised elsewhere are kept by project: a quota at 80 % is low, at 100 % high; account-wide ones are not a project\'s', async () => {
  const before = (await errors()).total;
  const { events } = t.app.deps;
  await events.emit({ type: 'quota_passed', accountId: p.dev.id, projectId: p.id, limit: 'Storage', plan: 'Hobby', percent: 80, message: 'Storage is at 80 % of the Hobby plan' });
  await events.emit({ type: 'quota_passed', accountId: p.dev.id, projectId: p.id, limit: 'Storage', plan: 'Hobby', percent: 100, message: 'Storage is full on the Hobby plan' });
  await events.emit({ type: 'quota_passed', accountId: p.dev.id, limit: 'Projects', plan: 'Hobby', percent: 100, message: 'No more projects on the Hobby plan' });
  await events.emit({ type: 'mfa_disabled', accountId: p.dev.id, message: 'Two-factor authentication was turned off' });
  const { errors: list, total } = await errors();
  expect(total).toBe(before + 2);
  expect(list.slice(0, 2).map((e) => [e.kind, e.severity, e.message])).toEqual([
    ['quota_passed', 'high', 'Storage is full on the Hobby plan'],
    ['quota_passed', 'low', 'Storage is at 80 % of the Hobby plan'],
  ]);
});

test('paging, bad paging and another account', async () => {
  const all = await errors();
  const first = await errors({ page_size: 1 });
  expect(first.errors).toEqual(all.errors.slice(0, 1));
  expect(first.next_page).toBe(2);
  expect((await errors({ page: 2, page_size: 1 })).errors).toEqual(all.errors.slice(1, 2));
  for (const bad of [{ page: 0 }, { page_size: 500 }, { page: 'x' }]) expect((await t.post(`/project/${p.id}/errors`, bad, p.dev.token)).statusCode).toBe(400);

  const theirs = await t.post(`/project/${p.id}/errors`, {}, stranger.token);
  const none = await t.post('/project/00000000-0000-4000-8000-000000000000/errors', {}, stranger.token);
  expect(theirs.statusCode).toBe(404);
  expect(theirs.json()).toEqual(none.json());
  expect((await t.post(`/project/${p.id}/errors`, {})).statusCode).toBe(401);
});
