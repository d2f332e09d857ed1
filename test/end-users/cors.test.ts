// CORS on /api/auth/v1: closed by default, per project exact origins.
import { buildTestApp, type TestApp } from '../helpers/app';
import { app, consoleCall, createProject, type TestProject } from './setup';

let t: TestApp;
let a: TestProject;
let b: TestProject;
beforeAll(async () => {
  t = await buildTestApp();
  a = await createProject(t);
  b = await createProject(t);
  await consoleCall(t, a, 'settings', { allowed_origins: ['https://app-a.example.com'] }, a.dev.token);
});
afterAll(() => t.close());

const preflight = (origin: string, path = '/signin') =>
  t.app.inject({
    method: 'OPTIONS',
    url: '/api/auth/v1' + path,
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-api-key, content-type' },
  });

test('preflight: a listed origin gets the allowance, any other gets none', async () => {
  const ok = await preflight('https://app-a.example.com');
  expect(ok.statusCode).toBe(204);
  expect(ok.headers['access-control-allow-origin']).toBe('https://app-a.example.com');
  expect(ok.headers['access-control-allow-headers']).toMatch(/x-api-key/);
  expect(ok.headers['access-control-allow-headers']).toMatch(/authorization/);
  expect(ok.headers['access-control-allow-methods']).toMatch(/POST/);
  expect(ok.headers.vary).toMatch(/Origin/);

  const user = await preflight('https://app-a.example.com', '/user');
  expect(user.headers['access-control-allow-origin']).toBe('https://app-a.example.com');

  for (const origin of ['https://evil.example.com', 'https://app-a.example.com.evil.com', 'http://app-a.example.com', 'null']) {
    const res = await preflight(origin);
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers['access-control-allow-headers']).toBeUndefined();
  }
});

test("actual requests: ACAO only when the key's project lists the origin", async () => {
  const body = { email: 'cors@example.com', password: 'tangerine mosaic 1' };
  const allowed = await app(t, a.authKey, 'POST', '/signup', body, undefined, { origin: 'https://app-a.example.com' });
  expect(allowed.statusCode).toBe(200);
  expect(allowed.headers['access-control-allow-origin']).toBe('https://app-a.example.com');

  const denied = await app(t, a.authKey, 'POST', '/signin', body, undefined, { origin: 'https://evil.example.com' });
  expect(denied.headers['access-control-allow-origin']).toBeUndefined();

  // Project B lists nothing: closed, even for A's origin.
  const closed = await app(t, b.authKey, 'POST', '/signup', body, undefined, { origin: 'https://app-a.example.com' });
  expect(closed.statusCode).toBe(200);
  expect(closed.headers['access-control-allow-origin']).toBeUndefined();

  // Errors on an allowed origin are readable by the app (e.g. a 401 that should trigger a refresh).
  const expired = await app(t, a.authKey, 'GET', '/user', undefined, 'not.a.token', { origin: 'https://app-a.example.com' });
  expect(expired.statusCode).toBe(401);
  expect(expired.headers['access-control-allow-origin']).toBe('https://app-a.example.com');

  // Server-to-server calls (no Origin) get no CORS headers at all.
  const noOrigin = await app(t, a.authKey, 'POST', '/signin', body);
  expect(noOrigin.headers['access-control-allow-origin']).toBeUndefined();

  // Keyless reset/verify: allowed for an origin some project lists.
  const reset = await app(t, undefined, 'POST', '/verify', { token: 'bogus' }, undefined, { origin: 'https://app-a.example.com' });
  expect(reset.statusCode).toBe(400);
  expect(reset.headers['access-control-allow-origin']).toBe('https://app-a.example.com');
  const resetEvil = await app(t, undefined, 'POST', '/verify', { token: 'bogus' }, undefined, { origin: 'https://evil.example.com' });
  expect(resetEvil.headers['access-control-allow-origin']).toBeUndefined();
});

test('removing the origin closes it again; console routes never get CORS headers', async () => {
  await consoleCall(t, a, 'settings', { allowed_origins: [] }, a.dev.token);
  expect((await preflight('https://app-a.example.com')).headers['access-control-allow-origin']).toBeUndefined();
  const res = await t.post(`/project/${a.id}/auth/users_list`, {}, a.dev.token, { origin: 'https://app-a.example.com' });
  expect(res.headers['access-control-allow-origin']).toBeUndefined();
});
