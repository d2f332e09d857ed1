// Every accounts endpoint, fed bodies that are not what it expects: always a 4xx JSON answer with
// a message, never a 500. Authenticated endpoints get a valid token so the body is really read.
import type { LightMyRequestResponse } from 'fastify';
import { buildTestApp, type TestApp } from '../helpers/app';
import { ipSequence } from '../helpers/inject';

// Building an app (a fresh database from the template) can take seconds on a busy machine.
jest.setTimeout(30_000);

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await buildTestApp();
  const res = await t.post('/register', { name: 'Malformed', email: `malformed-${process.pid}@example.com`, password: 'correct horse battery' });
  token = res.json().token;
});
afterAll(() => t?.close());

const freshIp = ipSequence(9);

/** path, whether it needs a token, and whether the operation has a JSON body at all. */
const endpoints: { path: string; auth: boolean; body: 'required' | 'optional' | 'none' }[] = [
  { path: '/register', auth: false, body: 'required' },
  { path: '/verify_user', auth: false, body: 'required' },
  { path: '/verify-token', auth: false, body: 'required' },
  { path: '/verifyToken', auth: false, body: 'required' },
  { path: '/forgetPassword', auth: false, body: 'required' },
  { path: '/forgot_pass', auth: false, body: 'required' },
  { path: '/reset_password/some-token', auth: false, body: 'required' },
  { path: '/verifyMFACode', auth: false, body: 'required' },
  { path: '/verify-mfa-code', auth: false, body: 'required' },
  { path: '/verify-email', auth: false, body: 'required' },
  { path: '/change_pass', auth: true, body: 'required' },
  { path: '/toggle-mfa', auth: true, body: 'optional' },
  { path: '/account-details', auth: true, body: 'optional' },
  { path: '/send_email_verification', auth: true, body: 'none' },
  { path: '/email-verified', auth: true, body: 'none' },
];

const jsonPayloads: { name: string; payload: string; message: RegExp }[] = [
  { name: 'a lone brace', payload: '{', message: /^body is not valid JSON/ },
  { name: 'truncated object', payload: '{"email": "a@example.com", ', message: /^body is not valid JSON/ },
  { name: 'trailing garbage', payload: '{"a":1} x', message: /^body is not valid JSON/ },
  { name: 'single quotes', payload: "{'email': 'a@example.com'}", message: /^body is not valid JSON/ },
  { name: 'a JSON array', payload: '[]', message: /^body must be object$/ },
  { name: 'an array of an object', payload: '[{"email":"a@example.com","password":"12345678","name":"x"}]', message: /^body must be object$/ },
  { name: 'a JSON string', payload: '"hello"', message: /^body must be object$/ },
  { name: 'a number', payload: '42', message: /^body must be object$/ },
  { name: 'true', payload: 'true', message: /^body must be object$/ },
  { name: 'null', payload: 'null', message: /^body must be object$/ },
  { name: 'an empty body', payload: '', message: /^body must be a JSON object/ },
  { name: 'a prototype-pollution attempt', payload: '{"__proto__": {"admin": true}, "constructor": {"prototype": {"x": 1}}}', message: /./ },
];

const otherTypes: { name: string; contentType?: string; payload?: string }[] = [
  { name: 'text/plain JSON', contentType: 'text/plain', payload: '{"email":"a@example.com"}' },
  { name: 'text/plain garbage', contentType: 'text/plain', payload: 'hello' },
  { name: 'form-encoded', contentType: 'application/x-www-form-urlencoded', payload: 'email=a%40example.com' },
  { name: 'multipart', contentType: 'multipart/form-data; boundary=xyz', payload: '--xyz\r\nContent-Disposition: form-data; name="email"\r\n\r\na@example.com\r\n--xyz--\r\n' },
  { name: 'XML', contentType: 'application/xml', payload: '<email>a@example.com</email>' },
  { name: 'no Content-Type and no body' },
];

function send(path: string, auth: boolean, contentType: string | undefined, payload: string | undefined): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url: '/api' + path,
    remoteAddress: freshIp(),
    headers: { ...(auth ? { authorization: `Bearer ${token}` } : {}), ...(contentType ? { 'content-type': contentType } : {}) },
    ...(payload === undefined ? {} : { payload }),
  });
}

function expectClientError(res: LightMyRequestResponse) {
  expect(res.statusCode).toBeGreaterThanOrEqual(400);
  expect(res.statusCode).toBeLessThan(500);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(typeof res.json().message).toBe('string');
  expect(res.body).not.toMatch(/TypeError|at .*\.ts:|Cannot read prop/);
}

const withBody = endpoints.filter((e) => e.body !== 'none');

describe.each(withBody)('$path', ({ path, auth, body }) => {
  test.each(jsonPayloads)('application/json: $name → 400 JSON', async ({ payload, message }) => {
    const res = await send(path, auth, 'application/json', payload);
    if (payload === '' && body === 'optional') {
      expect(res.statusCode).toBe(200); // the JSON header with no body is no body
      return;
    }
    if (payload.includes('__proto__')) {
      // Valid JSON: a 400 for missing fields where the body is required; never a 500, never an admin.
      expect(res.statusCode).toBeLessThan(500);
      if (body === 'required') expectClientError(res);
      expect(({} as Record<string, unknown>).admin).toBeUndefined();
      return;
    }
    expectClientError(res);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(message);
  });

  test.each(otherTypes)('$name → 4xx JSON', async ({ contentType, payload }) => {
    const res = await send(path, auth, contentType, payload);
    if (body === 'optional' && contentType === undefined) {
      expect(res.statusCode).toBe(200); // the body is optional here
      return;
    }
    expectClientError(res);
    expect([400, 415]).toContain(res.statusCode);
  });
});

describe.each(endpoints.filter((e) => e.body === 'none'))('$path (takes no body)', ({ path, auth }) => {
  test.each(jsonPayloads.filter((p) => p.message.source.includes('not valid JSON')))('unparseable JSON: $name → 400', async ({ payload }) => {
    const res = await send(path, auth, 'application/json', payload);
    expectClientError(res);
    expect(res.statusCode).toBe(400);
  });

  test.each(otherTypes)('$name → never a 500', async ({ contentType, payload }) => {
    const res = await send(path, auth, contentType, payload);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });
});

test('the verification link and developers/{id} take no body and still never 500', async () => {
  for (const url of ['/api/verify/some-token', '/api/developers/some-id']) {
    const res = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, payload: '{' });
    expect(res.statusCode).toBeLessThan(500);
  }
});

test('a body over the 1 MiB limit is a 413 JSON', async () => {
  const res = await send('/register', false, 'application/json', JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10), email: 'a@example.com', password: '12345678' }));
  expect(res.statusCode).toBe(413);
  expect(res.json().message).toBe('Request body is too large');
});
