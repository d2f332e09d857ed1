// forgetPassword / forgot_pass and reset_password/{token}: no account enumeration, one mail with a
// single-use link that expires in an hour, revocation of earlier tokens, and the limits.
import type { LightMyRequestResponse } from 'fastify';
import { buildTestApp, type TestApp } from '../helpers/app';
import { registerDeveloper, type Developer } from '../helpers/factories';
import { ipSequence, injectPost, type PostOptions, expectError } from '../helpers/inject';

// Building an app (a fresh database from the template) can take seconds on a busy machine.
jest.setTimeout(30_000);

let offsetMs = 0;
const clock = { now: () => new Date(Date.UTC(2030, 5, 1) + offsetMs) };
const advanceMinutes = (m: number) => { offsetMs += m * 60_000; };

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({}, { clock });
});
afterAll(() => t?.close());

let seq = 0;
const freshIp = ipSequence(5);

function post(path: string, body?: unknown, opts: PostOptions = {}): Promise<LightMyRequestResponse> {
  return injectPost(t.app, path, body, opts, freshIp);
}


type Dev = Developer;
function signUp(): Promise<Developer> {
  return registerDeveloper(t, { name: 'Reset Tester', password: 'original password', ip: freshIp() });
}

const resetMails = (email: string) => t.outbox().filter((m) => m.to.includes(email) && m.subject === 'Reset your Hostbase password');
const LINK = /^http:\/\/localhost:3000\/auth\/reset-password\/([\w-]{20,})$/;

/** Asks for a reset and returns the token from the newest reset mail. */
async function requestReset(dev: Dev, path = '/forgetPassword'): Promise<string> {
  const before = resetMails(dev.email).length;
  const res = await post(path, { email: dev.email });
  expect(res.json()).toEqual({ message: true });
  const mails = resetMails(dev.email);
  expect(mails).toHaveLength(before + 1);
  const links = mails[mails.length - 1].links;
  expect(links).toHaveLength(1);
  return LINK.exec(links[0])![1];
}

const login = (email: string, password: string) => post('/verify_user', { email, password });
const INVALID_LINK = 'This reset link is invalid or has expired';

describe.each(['/forgetPassword', '/forgot_pass'])('%s', (path) => {
  test('answers the same for an existing and an unknown email; only the existing one gets a mail', async () => {
    const dev = await signUp();
    const unknown = `nobody${++seq}@example.com`;
    const total = t.outbox().length;

    const known = await post(path, { email: dev.email });
    const missing = await post(path, { email: unknown });
    expect(known.statusCode).toBe(200);
    expect(missing.statusCode).toBe(200);
    expect(known.json()).toEqual({ message: true });
    expect(missing.json()).toEqual(known.json());

    const mails = t.outbox().slice(total);
    expect(mails).toHaveLength(1);
    expect(mails[0].to).toContain(dev.email);
    expect(mails[0].subject).toBe('Reset your Hostbase password');
    expect(mails[0].text).toContain('within 1 hour');
    expect(mails[0].links).toEqual([expect.stringMatching(LINK)]);
  });

  test('the email is matched case-insensitively', async () => {
    const dev = await signUp();
    expect((await post(path, { email: dev.email.toUpperCase() })).json()).toEqual({ message: true });
    expect(resetMails(dev.email)).toHaveLength(1);
  });

  test.each([
    { name: 'invalid email', body: { email: 'nope' }, message: 'body/email must match format "email"' },
    { name: 'missing email', body: {}, message: "body must have required property 'email'" },
    { name: 'email is a list', body: { email: ['a@example.com', 'b@example.com'] }, message: 'body/email must be string' },
    { name: 'email is an object', body: { email: { address: 'a@example.com' } }, message: 'body/email must be string' },
    { name: 'malformed JSON', body: '{"email"', message: /^body is not valid JSON/ },
  ])('$name → 400', async ({ body, message }) => {
    expectError(await post(path, body, { headers: { 'content-type': 'application/json' } }), 400, message);
  });
});

test('the link sets a new password: the old one fails, the new one works, earlier tokens are revoked', async () => {
  const dev = await signUp();
  const session = (await login(dev.email, dev.password)).json().token;
  const token = await requestReset(dev, '/forgot_pass');

  const res = await post(`/reset_password/${token}`, { password: 'the new password' });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({ message: 'Password has been reset' });

  expectError(await login(dev.email, dev.password), 401, 'Invalid email or password');
  const fresh = await login(dev.email, 'the new password');
  expect(fresh.statusCode).toBe(200);
  expect((await post('/verify-token', { token: fresh.json().token })).json()).toEqual({ message: 'True' });
  for (const old of [dev.token, session]) expectError(await post('/verify-token', { token: old }), 401, 'Invalid or expired token');
});

test('the link is single-use', async () => {
  const dev = await signUp();
  const token = await requestReset(dev);
  expect((await post(`/reset_password/${token}`, { password: 'first new password' })).statusCode).toBe(200);
  expectError(await post(`/reset_password/${token}`, { password: 'second new password' }), 400, INVALID_LINK);
  expect((await login(dev.email, 'first new password')).statusCode).toBe(200);
  expectError(await login(dev.email, 'second new password'), 401, 'Invalid email or password');
});

test('using one link closes the other open links of the account', async () => {
  const dev = await signUp();
  const first = await requestReset(dev);
  const second = await requestReset(dev);
  expect(first).not.toBe(second);
  expect((await post(`/reset_password/${second}`, { password: 'from the second link' })).statusCode).toBe(200);
  expectError(await post(`/reset_password/${first}`, { password: 'from the first link' }), 400, INVALID_LINK);
});

test('a link works until 1 hour and is refused after', async () => {
  const dev = await signUp();
  const stale = await requestReset(dev);
  advanceMinutes(30);
  const valid = await requestReset(dev);
  advanceMinutes(31); // stale is 61 minutes old, valid 31
  expectError(await post(`/reset_password/${stale}`, { password: 'too late for this' }), 400, INVALID_LINK);
  advanceMinutes(28); // valid is 59 minutes old
  expect((await post(`/reset_password/${valid}`, { password: 'just in time' })).statusCode).toBe(200);
  expect((await login(dev.email, 'just in time')).statusCode).toBe(200);
});

test('a short new password is a 400 and does not use up the link', async () => {
  const dev = await signUp();
  const token = await requestReset(dev);
  expectError(await post(`/reset_password/${token}`, { password: 'short' }), 400, 'body/password: Password must be at least 8 characters');
  expectError(await post(`/reset_password/${token}`, {}), 400, "body must have required property 'password'");
  expectError(await post(`/reset_password/${token}`, '{"password":', { headers: { 'content-type': 'application/json' } }), 400, /^body is not valid JSON/);
  expect((await login(dev.email, dev.password)).statusCode).toBe(200);
  expect((await post(`/reset_password/${token}`, { password: 'long enough now' })).statusCode).toBe(200);
  expect((await login(dev.email, 'long enough now')).statusCode).toBe(200);
});

test.each([
  { name: 'an unknown token', token: 'A'.repeat(43), status: 400, message: INVALID_LINK },
  // Fastify refuses path parameters over 100 characters before routing.
  { name: 'a token that is too long', token: 'a'.repeat(257), status: 414, message: /./ },
])('$name → $status', async ({ token, status, message }) => {
  expectError(await post(`/reset_password/${token}`, { password: 'long enough now' }), status, message);
});

test('a link of one account cannot be used with another (the token is all that counts) and a used link of A does not touch B', async () => {
  const a = await signUp();
  const b = await signUp();
  const token = await requestReset(a);
  expect((await post(`/reset_password/${token}`, { password: 'only for account a' })).statusCode).toBe(200);
  expect((await login(b.email, b.password)).statusCode).toBe(200);
  expectError(await login(b.email, 'only for account a'), 401, 'Invalid email or password');
});

test('requests from one address: 10, then growing waits (429 with retry-after), whatever the e-mail', async () => {
  const ip = '10.55.0.1';
  for (let i = 0; i < 10; i++) {
    const res = await post(i % 2 ? '/forgot_pass' : '/forgetPassword', { email: `flood${i}@example.com` }, { ip });
    expect(res.json()).toEqual({ message: true });
  }
  const blocked = await post('/forgetPassword', { email: 'flood-last@example.com' }, { ip });
  expectError(blocked, 429, 'Too many attempts. Try again in 60 seconds.');
  expect(blocked.headers['retry-after']).toBe('60');
  expect((await post('/forgetPassword', { email: 'other-ip@example.com' }, { ip: '10.55.0.2' })).statusCode).toBe(200);
  advanceMinutes(1);
  expect((await post('/forgetPassword', { email: 'flood-again@example.com' }, { ip })).json()).toEqual({ message: true });
  const longer = await post('/forgetPassword', { email: 'flood-more@example.com' }, { ip });
  expectError(longer, 429, 'Too many attempts. Try again in 2 minutes.');
  expect(longer.headers['retry-after']).toBe('120');
});

test('one e-mail from one address: 3 requests, then 429, for an unknown e-mail exactly as for a known one', async () => {
  const dev = await signUp();
  const unknown = `nobody${++seq}@example.com`;
  for (const email of [dev.email, unknown]) {
    const ip = freshIp();
    for (let i = 0; i < 3; i++) expect((await post('/forgetPassword', { email }, { ip })).json()).toEqual({ message: true });
    const blocked = await post('/forgetPassword', { email }, { ip });
    expectError(blocked, 429, 'Too many attempts. Try again in 60 seconds.');
  }
  expect(resetMails(dev.email)).toHaveLength(3);
  // From another address the owner still gets a link.
  expect((await post('/forgetPassword', { email: dev.email }, { ip: freshIp() })).json()).toEqual({ message: true });
  expect(resetMails(dev.email)).toHaveLength(4);
});
