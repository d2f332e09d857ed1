// CORS on /api/db/v1: the one policy of every app API (server/src/http/app-cors.ts), from the project's allowed origins;
// closed by default: a page on an origin project A lists can read answers made with A's key only.
import { buildTestApp, type TestApp } from '../helpers/app';
import { createProject, registerDeveloper, type Developer, type Project } from '../helpers/factories';
import { appRows, consoleRows, makeTable } from './tables';

let t: TestApp;
let dev: Developer;
let a: Project;
let b: Project;
const ORIGIN = 'https://app-a.example.com';
beforeAll(async () => {
  t = await buildTestApp();
  dev = await registerDeveloper(t);
  a = await createProject(t, dev);
  b = await createProject(t, dev);
  for (const p of [a, b]) await makeTable(t, p, 'items', 'id int PRIMARY KEY', 'read');
  const res = await t.post(`/project/${a.id}/auth/settings`, { allowed_origins: [ORIGIN] }, dev.token);
  expect(res.statusCode).toBe(200);
});
afterAll(() => t.close());

const preflight = (origin: string, verb = 'select') =>
  t.app.inject({
    method: 'OPTIONS',
    url: `/api/db/v1/items/${verb}`,
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-api-key, authorization, content-type' },
  });

test('preflight: a listed origin gets the allowance, any other gets a bare 204', async () => {
  for (const verb of ['select', 'insert', 'update', 'delete', 'changes']) {
    const ok = await preflight(ORIGIN, verb);
    expect(ok.statusCode).toBe(204);
    expect(ok.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(ok.headers['access-control-allow-headers']).toMatch(/x-api-key/);
    expect(ok.headers['access-control-allow-headers']).toMatch(/authorization/);
    expect(ok.headers['access-control-allow-methods']).toMatch(/POST/);
  }
  for (const origin of ['https://evil.example.com', 'https://app-a.example.com.evil.com', 'http://app-a.example.com', 'null']) {
    const res = await preflight(origin);
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  }
});

test("requests: ACAO only when the key's project lists the origin, errors included", async () => {
  const ok = await appRows(t, a.authKey, 'items', 'select', {}, undefined, { origin: ORIGIN });
  expect(ok.statusCode).toBe(200);
  expect(ok.headers['access-control-allow-origin']).toBe(ORIGIN);
  expect(ok.headers.vary).toMatch(/Origin/);

  const forbidden = await appRows(t, a.authKey, 'items', 'insert', { rows: [{ id: 1 }] }, undefined, { origin: ORIGIN });
  expect(forbidden.statusCode).toBe(403);
  expect(forbidden.headers['access-control-allow-origin']).toBe(ORIGIN);
  const badToken = await appRows(t, a.authKey, 'items', 'select', {}, 'not.a.token', { origin: ORIGIN });
  expect(badToken.statusCode).toBe(401);
  expect(badToken.headers['access-control-allow-origin']).toBe(ORIGIN);

  expect((await appRows(t, a.authKey, 'items', 'select', {}, undefined, { origin: 'https://evil.example.com' })).headers['access-control-allow-origin']).toBeUndefined();
  // Project B lists nothing: closed, even for A's origin.
  const closed = await appRows(t, b.authKey, 'items', 'select', {}, undefined, { origin: ORIGIN });
  expect(closed.statusCode).toBe(200);
  expect(closed.headers['access-control-allow-origin']).toBeUndefined();
  // No Origin (server to server): no CORS headers.
  expect((await appRows(t, a.authKey, 'items', 'select', {})).headers['access-control-allow-origin']).toBeUndefined();
});

test('the live-changes stream gets the same allowance (HEAD: its headers)', async () => {
  const head = (key: string, origin: string) => t.app.inject({ method: 'HEAD', url: '/api/db/v1/items/changes', headers: { 'x-api-key': key, origin } });
  const ok = await head(a.authKey, ORIGIN);
  expect(ok.statusCode).toBe(200);
  expect(ok.headers['access-control-allow-origin']).toBe(ORIGIN);
  expect((await head(b.authKey, ORIGIN)).headers['access-control-allow-origin']).toBeUndefined();
});

test('the console row API never gets CORS headers', async () => {
  const res = await consoleRows(t, a, 'items', 'select', {}, dev.token);
  expect(res.statusCode).toBe(200);
  const withOrigin = await t.post(`/project/${a.id}/database/tables/items/rows/select`, {}, dev.token, { origin: ORIGIN });
  expect(withOrigin.headers['access-control-allow-origin']).toBeUndefined();
});
