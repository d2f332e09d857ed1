// Clients that always send Content-Type: application/json (hand-written fetch code) send it with
// no body too: where the body is optional that is no body, not a 400; where it is required, a 400
// that says so. Broken and poisoned JSON stays refused.
import { buildTestApp, type TestApp } from '../helpers/app';
import { registerDeveloper, type Developer } from '../helpers/factories';

let t: TestApp;
let dev: Developer;
beforeAll(async () => {
  t = await buildTestApp();
  dev = await registerDeveloper(t, { ip: '192.0.2.60' });
});
afterAll(() => t.close());

const send = (url: string, payload: string, token?: string) =>
  t.app.inject({ method: 'POST', url: `/api${url}`, payload, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, remoteAddress: '192.0.2.61' });

test.each([[''], ['   '], ['\n']])('an optional body sent empty (%j) with the JSON header is no body', async (payload) => {
  const res = await send('/projects', payload, dev.token);
  expect(res.statusCode).toBe(200);
  expect(Array.isArray(res.json().projects ?? res.json())).toBe(true);
  const details = await send('/account-details', payload, dev.token);
  expect(details.statusCode).toBe(200);
  expect(details.json().email).toBe(dev.email);
});

test('a required body sent empty is a 400 that says so', async () => {
  const res = await send('/register', '');
  expect(res.statusCode).toBe(400);
  expect(res.json().message).toBe('body must be a JSON object');
});

test.each([
  ['broken JSON', '{"name":', /^body is not valid JSON/],
  ['a __proto__ key', '{"name":"x","__proto__":{"admin":true}}', /^body is not valid JSON/],
  ['a constructor.prototype key', '{"constructor":{"prototype":{"admin":true}}}', /^body is not valid JSON/],
])('%s is refused with a 400', async (_what, payload, message) => {
  const res = await send('/account-details', payload, dev.token);
  expect(res.statusCode).toBe(400);
  expect(res.json().message).toMatch(message);
});
