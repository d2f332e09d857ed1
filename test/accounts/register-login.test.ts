// register and verify_user: the happy paths, every validation and error message, the same answer
// for an unknown email and a wrong password, and "remember". Throttling: test/accounts/throttling.test.ts.
import type { LightMyRequestResponse } from 'fastify';
import { buildTestApp, type TestApp } from '../helpers/app';
import { registerDeveloper } from '../helpers/factories';
import { injectPost, type PostOptions, expectError } from '../helpers/inject';

// Building an app (a fresh database from the template) can take seconds on a busy machine.
jest.setTimeout(30_000);

// A frozen clock the tests move by hand (rate-limit windows); JWTs still use real time.
const offsetMs = 0;
const clock = { now: () => new Date(Date.UTC(2030, 0, 1) + offsetMs) };

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({}, { clock });
});
afterAll(() => t?.close());

let seq = 0;
const uniqueEmail = (tag = 'dev') => `${tag}${++seq}-${process.pid}@example.com`;
/** Every sign-up from its own address, so the per-IP sign-up limit never interferes. */
const freshIp = () => `10.1.${Math.floor(seq / 200)}.${(++seq % 200) + 1}`;

function post(path: string, body?: unknown, opts: PostOptions = {}): Promise<LightMyRequestResponse> {
  return injectPost(t.app, path, body, opts, () => '127.0.0.1');
}


const signUp = (password = 'correct horse battery') => registerDeveloper(t, { name: 'Grace Hopper', email: uniqueEmail(), password, ip: freshIp() });

const verifyToken = async (token: string) => (await post('/verify-token', { token })).json().message;

describe('register', () => {
  test('creates the account, answers a token that verifies, and mails a verification link', async () => {
    const email = uniqueEmail('Ada.');
    const before = t.outbox().length;
    const res = await post('/register', { name: '  Ada Lovelace ', email, password: 'analytical engine' }, { ip: freshIp() });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 200, message: 'Account created', token: expect.any(String), device_token: expect.any(String) });
    expect(await verifyToken(res.json().token)).toBe('True');

    const me = await post('/account-details', {}, { token: res.json().token });
    expect(me.json()).toMatchObject({ name: 'Ada Lovelace', email, email_verified: false, mfa_enabled: false, plan: 'hobby' });

    const mails = t.outbox().slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0].to).toContain(email);
    expect(mails[0].subject).toBe('Verify your email for Hostbase');
    expect(mails[0].links).toEqual([expect.stringMatching(/^http:\/\/localhost:3000\/api\/verify\/[\w-]+$/)]);

    // Stored as a salted scrypt hash, never the password.
    const [row] = await t.database.query<{ password_hash: string }>('SELECT password_hash FROM accounts WHERE email = $1', [email]);
    expect(row.password_hash).toMatch(/^\$scrypt\$/);
    expect(row.password_hash).not.toContain('analytical engine');
  });

  test('a password of exactly 8 characters is enough', async () => {
    const res = await post('/register', { name: 'Eight', email: uniqueEmail(), password: 'k7#Qp2zX' }, { ip: freshIp() });
    expect(res.statusCode).toBe(200);
  });

  test('a duplicate email, in any letter case, is a 409 and creates nothing', async () => {
    const email = uniqueEmail('dup');
    expect((await post('/register', { name: 'First', email, password: 'password one' }, { ip: freshIp() })).statusCode).toBe(200);
    const mailsBefore = t.outbox().length;
    for (const again of [email, email.toUpperCase()]) {
      const res = await post('/register', { name: 'Second', email: again, password: 'password two' }, { ip: freshIp() });
      expectError(res, 409, 'An account with this email already exists');
    }
    expect(t.outbox().length).toBe(mailsBefore);
    const rows = await t.database.query('SELECT id FROM accounts WHERE email_normalized = $1', [email.toLowerCase()]);
    expect(rows).toHaveLength(1);
    // The first password still signs in; the second never took.
    expect((await post('/verify_user', { email, password: 'password one' }, { ip: freshIp() })).statusCode).toBe(200);
    expectError(await post('/verify_user', { email, password: 'password two' }, { ip: freshIp() }), 401, 'Invalid email or password');
  });

  const valid = () => ({ name: 'Val Id', email: uniqueEmail('v'), password: 'long enough' });
  const scenarios: { name: string; body: () => unknown; contentType?: string; status: number; message: string | RegExp }[] = [
    { name: 'missing name', body: () => ({ ...valid(), name: undefined }), status: 400, message: "body must have required property 'name'" },
    { name: 'missing email', body: () => ({ ...valid(), email: undefined }), status: 400, message: "body must have required property 'email'" },
    { name: 'missing password', body: () => ({ ...valid(), password: undefined }), status: 400, message: "body must have required property 'password'" },
    { name: 'empty object', body: () => ({}), status: 400, message: /^body must have required property '\w+'$/ },
    { name: 'invalid email', body: () => ({ ...valid(), email: 'not-an-email' }), status: 400, message: 'body/email must match format "email"' },
    { name: 'email without a domain', body: () => ({ ...valid(), email: 'someone@' }), status: 400, message: 'body/email must match format "email"' },
    { name: 'short password (7)', body: () => ({ ...valid(), password: 'seven77' }), status: 400, message: 'body/password: Password must be at least 8 characters' },
    { name: 'short password counted in characters, not UTF-16 units', body: () => ({ ...valid(), password: '🔑🔑🔑🔑🔑🔑🔑' }), status: 400, message: 'body/password: Password must be at least 8 characters' },
    { name: 'empty password', body: () => ({ ...valid(), password: '' }), status: 400, message: 'body/password: Password must be at least 8 characters' },
    { name: 'password too long', body: () => ({ ...valid(), password: 'x'.repeat(1025) }), status: 400, message: 'body/password must NOT have more than 1024 characters' },
    { name: 'empty name', body: () => ({ ...valid(), name: '' }), status: 400, message: 'body/name must NOT have fewer than 1 characters' },
    { name: 'whitespace name', body: () => ({ ...valid(), name: ' \t  ' }), status: 400, message: 'body/name must not be empty' },
    { name: 'name too long', body: () => ({ ...valid(), name: 'n'.repeat(201) }), status: 400, message: 'body/name must NOT have more than 200 characters' },
    { name: 'name is an object', body: () => ({ ...valid(), name: { first: 'A' } }), status: 400, message: 'body/name must be string' },
    { name: 'extra property', body: () => ({ ...valid(), admin: true }), status: 400, message: 'body must NOT have additional properties' },
    { name: 'malformed JSON', body: () => '{"name": "x", ', contentType: 'application/json', status: 400, message: /^body is not valid JSON/ },
    { name: 'a JSON array', body: () => JSON.stringify([valid()]), contentType: 'application/json', status: 400, message: 'body must be object' },
    { name: 'a JSON string', body: () => JSON.stringify('hello'), contentType: 'application/json', status: 400, message: 'body must be object' },
    { name: 'empty JSON body', body: () => '', contentType: 'application/json', status: 400, message: /^body must be a JSON object/ },
    { name: 'JSON sent as text/plain', body: () => JSON.stringify(valid()), contentType: 'text/plain', status: 415, message: /^Unsupported Content-Type/ },
    { name: 'form-encoded body', body: () => 'name=a&email=b%40c.de&password=12345678', contentType: 'application/x-www-form-urlencoded', status: 415, message: /^Unsupported Content-Type/ },
    { name: 'XML body', body: () => '<register/>', contentType: 'application/xml', status: 415, message: /^Unsupported Content-Type/ },
  ];

  test.each(scenarios)('$name → $status', async ({ body, contentType, status, message }) => {
    const payload = body();
    const res = await post('/register', payload, { ip: freshIp(), headers: contentType ? { 'content-type': contentType } : {} });
    expectError(res, status, message);
    expect(await t.database.query('SELECT 1 FROM accounts WHERE name = $1', ['Val Id'])).toHaveLength(0);
  });

  test('no body and no Content-Type is a 400, not a 500', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/register', remoteAddress: freshIp() });
    expectError(res, 400, /^body must be/);
  });

  test('sign-ups are limited per IP (20 an hour)', async () => {
    const ip = '10.9.9.9';
    for (let i = 0; i < 20; i++) {
      const res = await post('/register', { name: 'Bulk', email: uniqueEmail('bulk'), password: 'long enough' }, { ip });
      expect(res.statusCode).toBe(200);
    }
    const blocked = await post('/register', { name: 'Bulk', email: uniqueEmail('bulk'), password: 'long enough' }, { ip });
    expectError(blocked, 429, /^Too many attempts\. Try again in \d+ (seconds|minutes)\.$/);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await post('/register', { name: 'Other', email: uniqueEmail(), password: 'long enough' }, { ip: freshIp() })).statusCode).toBe(200);
  });
});

describe('verify_user', () => {
  test('the right password gives a working token; the email is matched case-insensitively', async () => {
    const dev = await signUp();
    for (const email of [dev.email, dev.email.toUpperCase()]) {
      const res = await post('/verify_user', { email, password: dev.password }, { ip: freshIp() });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: 'Login successful', token: expect.any(String), device_token: expect.any(String) });
      expect(await verifyToken(res.json().token)).toBe('True');
    }
  });

  test('a wrong password and an unknown email give the same 401 answer', async () => {
    const dev = await signUp();
    const wrong = await post('/verify_user', { email: dev.email, password: 'not the password' }, { ip: freshIp() });
    const unknown = await post('/verify_user', { email: uniqueEmail('nobody'), password: dev.password }, { ip: freshIp() });
    expectError(wrong, 401, 'Invalid email or password');
    expectError(unknown, 401, 'Invalid email or password');
    expect(unknown.json()).toEqual(wrong.json());
    expect(wrong.json().token).toBeUndefined();
  });

  test.each([
    { name: 'missing email', body: { password: 'whatever1' }, message: "body must have required property 'email'" },
    { name: 'missing password', body: { email: 'a@example.com' }, message: "body must have required property 'password'" },
    { name: 'invalid email', body: { email: 'a@', password: 'whatever1' }, message: 'body/email must match format "email"' },
    { name: 'email is a number', body: { email: 12, password: 'whatever1' }, message: 'body/email must be string' },
    { name: 'remember is not a boolean', body: { email: 'a@example.com', password: 'whatever1', remember: 'yes please' }, message: 'body/remember must be boolean' },
    { name: 'malformed JSON', body: '{"email":', message: /^body is not valid JSON/ },
  ])('$name → 400', async ({ body, message }) => {
    const res = await post('/verify_user', body, { ip: freshIp(), headers: { 'content-type': 'application/json' } });
    expectError(res, 400, message);
  });

  test('remember asks for a 30-day token instead of 7 days', async () => {
    const dev = await signUp();
    const life = async (remember?: boolean) => {
      const res = await post('/verify_user', { email: dev.email, password: dev.password, ...(remember === undefined ? {} : { remember }) }, { ip: freshIp() });
      const claims = t.app.jwt.decode<{ iat: number; exp: number }>(res.json().token)!;
      return (claims.exp - claims.iat) / 86400;
    };
    expect(await life()).toBe(7);
    expect(await life(false)).toBe(7);
    expect(await life(true)).toBe(30);
  });

  test('a successful sign-in clears the failure count', async () => {
    const dev = await signUp();
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 9; i++) expectError(await post('/verify_user', { email: dev.email, password: 'nope nope' }, { ip: freshIp() }), 401, 'Invalid email or password');
      expect((await post('/verify_user', { email: dev.email, password: dev.password }, { ip: freshIp() })).statusCode).toBe(200);
    }
  });

  test('sign-in attempts are limited per IP (30 per 15 minutes), whatever the account', async () => {
    const dev = await signUp();
    const ip = '10.3.0.1';
    for (let i = 0; i < 30; i++) expectError(await post('/verify_user', { email: uniqueEmail('ghost'), password: 'whatever1' }, { ip }), 401, 'Invalid email or password');
    expectError(await post('/verify_user', { email: dev.email, password: dev.password }, { ip }), 429, /^Too many attempts/);
    expect((await post('/verify_user', { email: dev.email, password: dev.password }, { ip: '10.3.0.2' })).statusCode).toBe(200);
  });
});
