// account-details (read and name update), developers/{id} (own account only), change_pass, and
// what another account's token can see or change: only its own account.
import type { LightMyRequestResponse } from 'fastify';
import { buildTestApp, type TestApp } from '../helpers/app';
import { registerDeveloper, type Developer } from '../helpers/factories';
import { ipSequence, injectPost, type PostOptions, expectError } from '../helpers/inject';

// Building an app (a fresh database from the template) can take seconds on a busy machine.
jest.setTimeout(30_000);

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t?.close());

const freshIp = ipSequence(8);

function post(path: string, body?: unknown, opts: PostOptions = {}): Promise<LightMyRequestResponse> {
  return injectPost(t.app, path, body, opts, freshIp);
}
const getDeveloper = (id: string, token: string) =>
  t.app.inject({ method: 'GET', url: `/api/developers/${id}`, remoteAddress: freshIp(), headers: { authorization: `Bearer ${token}` } });


type Dev = Developer;
function signUp(name = 'Details Tester'): Promise<Developer> {
  return registerDeveloper(t, { name, ip: freshIp() });
}
const details = (dev: Dev) => post('/account-details', {}, { token: dev.token });

describe('account-details', () => {
  test('answers the caller\'s account and nothing secret', async () => {
    const dev = await signUp('Katherine Johnson');
    for (const body of [undefined, {}]) {
      const res = await post('/account-details', body, { token: dev.token });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
        name: 'Katherine Johnson',
        email: dev.email,
        email_verified: false,
        mfa_enabled: false,
        plan: 'hobby',
        notifications: { email: true, push: false },
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
      });
    }
    expect((await details(dev)).body).not.toMatch(/scrypt|password|token_version|secret/i);
  });

  test('a name updates the profile (trimmed) and is kept', async () => {
    const dev = await signUp();
    const res = await post('/account-details', { name: '  Dorothy Vaughan  ' }, { token: dev.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: dev.id, name: 'Dorothy Vaughan', email: dev.email });
    expect((await details(dev)).json().name).toBe('Dorothy Vaughan');
  });

  test.each([
    { name: 'empty name', body: { name: '' }, status: 400, message: 'body/name must NOT have fewer than 1 characters' },
    { name: 'whitespace name', body: { name: '   ' }, status: 400, message: 'body/name must not be empty' },
    { name: 'name too long', body: { name: 'x'.repeat(201) }, status: 400, message: 'body/name must NOT have more than 200 characters' },
    { name: 'name is an object', body: { name: { first: 'x' } }, status: 400, message: 'body/name must be string' },
    // ajv's type coercion turns null into "" first.
    { name: 'null name', body: { name: null }, status: 400, message: /^body\/name must/ },
    { name: 'a JSON array', body: '[]', status: 400, message: 'body must be object' },
    { name: 'malformed JSON', body: '{"name":', status: 400, message: /^body is not valid JSON/ },
    { name: 'text/plain body', body: 'name=x', contentType: 'text/plain', status: 415, message: /^Unsupported Content-Type/ },
  ])('$name → $status and the name is unchanged', async ({ body, status, message, contentType }) => {
    const dev = await signUp('Unchanged Name');
    expectError(await post('/account-details', body, { token: dev.token, headers: { 'content-type': contentType ?? 'application/json' } }), status, message);
    expect((await details(dev)).json().name).toBe('Unchanged Name');
  });
});

describe('developers/{id}', () => {
  test('the own id answers the same account as account-details', async () => {
    const dev = await signUp();
    const res = await getDeveloper(dev.id, dev.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual((await details(dev)).json());
  });

  test.each([
    { name: 'another account\'s id', id: async () => (await signUp()).id, status: 404, message: 'Developer not found' },
    { name: 'a random uuid', id: async () => crypto.randomUUID(), status: 404, message: 'Developer not found' },
    { name: 'not a uuid', id: async () => 'me', status: 404, message: 'Developer not found' },
    { name: 'an SQL-ish id', id: async () => encodeURIComponent("1' OR '1'='1"), status: 404, message: 'Developer not found' },
  ])('$name → $status', async ({ id, status, message }) => {
    const dev = await signUp();
    const res = await getDeveloper(await id(), dev.token);
    expectError(res, status, message);
    expect(res.body).not.toContain('@example.com');
  });

  test('an id over 64 characters is rejected without a 500', async () => {
    const dev = await signUp();
    const res = await getDeveloper('a'.repeat(65), dev.token);
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(typeof res.json().message).toBe('string');
  });
});

describe('change_pass', () => {
  test('returns a new token that works; the old token is revoked; the new password signs in', async () => {
    const dev = await signUp();
    const res = await post('/change_pass', { current_password: dev.password, new_password: 'a new password' }, { token: dev.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Password changed', token: expect.any(String) });
    expect((await post('/verify-token', { token: res.json().token })).json()).toEqual({ message: 'True' });
    expect((await post('/account-details', {}, { token: res.json().token })).json().id).toBe(dev.id);
    expectError(await post('/verify-token', { token: dev.token }), 401, 'Invalid or expired token');
    expectError(await post('/account-details', {}, { token: dev.token }), 401, 'Invalid or expired token');
    expectError(await post('/verify_user', { email: dev.email, password: dev.password }), 401, 'Invalid email or password');
    expect((await post('/verify_user', { email: dev.email, password: 'a new password' })).statusCode).toBe(200);
  });

  test.each([
    { name: 'wrong current password', body: (_d: Dev) => ({ current_password: 'not it at all', new_password: 'a new password' }), status: 401, message: 'Current password is incorrect' },
    { name: 'short new password', body: (d: Dev) => ({ current_password: d.password, new_password: 'short' }), status: 400, message: 'body/new_password: Password must be at least 8 characters' },
    { name: 'missing current password', body: () => ({ new_password: 'a new password' }), status: 400, message: "body must have required property 'current_password'" },
    { name: 'missing new password', body: (d: Dev) => ({ current_password: d.password }), status: 400, message: "body must have required property 'new_password'" },
    { name: 'empty new password', body: (d: Dev) => ({ current_password: d.password, new_password: '' }), status: 400, message: 'body/new_password: Password must be at least 8 characters' },
    { name: 'malformed JSON', body: () => '{"current_password":', status: 400, message: /^body is not valid JSON/ },
  ])('$name → $status; the password and token are unchanged', async ({ body, status, message }) => {
    const dev = await signUp();
    expectError(await post('/change_pass', body(dev), { token: dev.token, headers: { 'content-type': 'application/json' } }), status, message);
    expect((await post('/verify-token', { token: dev.token })).json()).toEqual({ message: 'True' });
    expect((await post('/verify_user', { email: dev.email, password: dev.password })).statusCode).toBe(200);
  });

  test('5 wrong current passwords lock change_pass (429) even with the right one', async () => {
    const dev = await signUp();
    for (let i = 0; i < 5; i++) expectError(await post('/change_pass', { current_password: `wrong ${i} pass`, new_password: 'a new password' }, { token: dev.token }), 401, 'Current password is incorrect');
    const blocked = await post('/change_pass', { current_password: dev.password, new_password: 'a new password' }, { token: dev.token });
    expectError(blocked, 429, /^Too many attempts/);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await post('/verify_user', { email: dev.email, password: dev.password })).statusCode).toBe(200);
  });
});

describe("another account's token", () => {
  test('sees and changes only its own account', async () => {
    const a = await signUp('Alice');
    const b = await signUp('Bob');
    expect((await details(a)).json()).toMatchObject({ id: a.id, email: a.email, name: 'Alice' });
    expect((await details(b)).json()).toMatchObject({ id: b.id, email: b.email, name: 'Bob' });
    expect(a.id).not.toBe(b.id);

    // B renames: only B changes.
    await post('/account-details', { name: 'Bobby' }, { token: b.token });
    expect((await details(a)).json().name).toBe('Alice');
    expect((await details(b)).json().name).toBe('Bobby');

    // B asks for A by id: not found, no data.
    expectError(await getDeveloper(a.id, b.token), 404, 'Developer not found');
    expect((await getDeveloper(b.id, b.token)).json().email).toBe(b.email);

    // email-verified with B's token is B's.
    expect((await post('/email-verified', undefined, { token: b.token })).json()).toEqual({ email: b.email, email_verified: false });

    // B's token with A's password on change_pass checks B's password, so it fails; A is untouched.
    expectError(await post('/change_pass', { current_password: a.password === b.password ? 'not the same' : a.password, new_password: 'taken over' }, { token: b.token }), 401, 'Current password is incorrect');

    // B enrolls MFA: A's state is untouched.
    expect((await post('/toggle-mfa', {}, { token: b.token })).statusCode).toBe(200);
    const [rowA] = await t.database.query<{ mfa_pending_secret_enc: string | null }>('SELECT mfa_pending_secret_enc FROM accounts WHERE id = $1', [a.id]);
    expect(rowA.mfa_pending_secret_enc).toBeNull();
    expect((await post('/verify-token', { token: a.token })).json()).toEqual({ message: 'True' });
  });
});
