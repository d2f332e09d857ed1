// send_email_verification, the mailed link GET /verify/{token} (302 to the console), POST
// /verify-email with a token, and email-verified; single use, 24-hour expiry, per-account limit.
import type { LightMyRequestResponse } from 'fastify';
import { buildTestApp, type TestApp } from '../helpers/app';
import { registerDeveloper, type Developer } from '../helpers/factories';
import { ipSequence, injectPost, type PostOptions, expectError } from '../helpers/inject';

// Building an app (a fresh database from the template) can take seconds on a busy machine.
jest.setTimeout(30_000);

let offsetMs = 0;
const clock = { now: () => new Date(Date.UTC(2030, 8, 9) + offsetMs) };

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({}, { clock });
});
afterAll(() => t?.close());

const freshIp = ipSequence(7);

function post(path: string, body?: unknown, opts: PostOptions = {}): Promise<LightMyRequestResponse> {
  return injectPost(t.app, path, body, opts, freshIp);
}
const get = (path: string) => t.app.inject({ method: 'GET', url: '/api' + path, remoteAddress: freshIp() });


type Dev = Developer;
function signUp(): Promise<Developer> {
  return registerDeveloper(t, { name: 'Verify Tester', ip: freshIp() });
}

const LINK = /^http:\/\/localhost:3000\/api\/verify\/([\w-]{20,})$/;
const verifyMails = (email: string) => t.outbox().filter((m) => m.to.includes(email) && m.subject === 'Verify your email for Hostbase');
/** The token of the newest verification mail to this address. */
function lastVerifyToken(email: string): string {
  const mails = verifyMails(email);
  expect(mails.length).toBeGreaterThan(0);
  const links = mails[mails.length - 1].links;
  expect(links).toHaveLength(1);
  return LINK.exec(links[0])![1];
}
const isVerified = async (dev: Dev) => (await post('/email-verified', undefined, { token: dev.token })).json();

const VERIFIED_URL = 'http://localhost:3000/email-verified';
const INVALID_URL = 'http://localhost:3000/verify-email?error=invalid';
const INVALID = 'This verification link is invalid or has expired';

test('send_email_verification mails a link; opening it redirects to /email-verified and verifies; reuse redirects to the error page', async () => {
  const dev = await signUp();
  expect(await isVerified(dev)).toEqual({ email: dev.email, email_verified: false });

  const res = await post('/send_email_verification', undefined, { token: dev.token });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({ message: 'Verification email sent' });
  expect(verifyMails(dev.email)).toHaveLength(2); // sign-up's and this one
  const token = lastVerifyToken(dev.email);

  const open = await get(`/verify/${token}`);
  expect(open.statusCode).toBe(302);
  expect(open.headers.location).toBe(VERIFIED_URL);
  expect(await isVerified(dev)).toEqual({ email: dev.email, email_verified: true });
  expect((await post('/account-details', {}, { token: dev.token })).json().email_verified).toBe(true);

  const reuse = await get(`/verify/${token}`);
  expect(reuse.statusCode).toBe(302);
  expect(reuse.headers.location).toBe(INVALID_URL);

  // Already verified: no more mail.
  const again = await post('/send_email_verification', undefined, { token: dev.token });
  expect(again.json()).toEqual({ message: 'Email already verified' });
  expect(verifyMails(dev.email)).toHaveLength(2);
});

test('the link mailed at sign-up works too, and verifies only its own account', async () => {
  const a = await signUp();
  const b = await signUp();
  const open = await get(`/verify/${lastVerifyToken(a.email)}`);
  expect(open.headers.location).toBe(VERIFIED_URL);
  expect((await isVerified(a)).email_verified).toBe(true);
  expect(await isVerified(b)).toEqual({ email: b.email, email_verified: false });
});

test('an unknown link redirects to the error page', async () => {
  const res = await get(`/verify/${'x'.repeat(43)}`);
  expect(res.statusCode).toBe(302);
  expect(res.headers.location).toBe(INVALID_URL);
});

test('POST /verify-email with the token answers "verified"; a second time, or a bad token, is a 400', async () => {
  const dev = await signUp();
  const token = lastVerifyToken(dev.email);
  const res = await post('/verify-email', { token });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({ message: 'verified' });
  expect((await isVerified(dev)).email_verified).toBe(true);
  expectError(await post('/verify-email', { token }), 400, INVALID);
  expectError(await post('/verify-email', { token: 'garbage' }), 400, INVALID);
});

test.each([
  { name: 'missing token', body: {}, message: "body must have required property 'token'" },
  { name: 'empty token', body: { token: '' }, message: 'body/token must NOT have fewer than 1 characters' },
  { name: 'token too long', body: { token: 'x'.repeat(257) }, message: 'body/token must NOT have more than 256 characters' },
  { name: 'token not a string', body: { token: { $ne: null } }, message: 'body/token must be string' },
  { name: 'malformed JSON', body: '{"token":', message: /^body is not valid JSON/ },
])('verify-email: $name → 400', async ({ body, message }) => {
  expectError(await post('/verify-email', body, { headers: { 'content-type': 'application/json' } }), 400, message);
});

test('a verification link expires after 24 hours', async () => {
  const dev = await signUp();
  const stale = lastVerifyToken(dev.email);
  offsetMs += 23 * 3600_000;
  await post('/send_email_verification', undefined, { token: dev.token });
  const fresh = lastVerifyToken(dev.email);
  offsetMs += 3600_000 + 1000;
  expect((await get(`/verify/${stale}`)).headers.location).toBe(INVALID_URL);
  expectError(await post('/verify-email', { token: stale }), 400, INVALID);
  expect((await isVerified(dev)).email_verified).toBe(false);
  expect((await get(`/verify/${fresh}`)).headers.location).toBe(VERIFIED_URL);
  expect((await isVerified(dev)).email_verified).toBe(true);
});

test('at most 5 verification mails an hour per account (sign-up included), then 429', async () => {
  const dev = await signUp();
  for (let i = 0; i < 4; i++) expect((await post('/send_email_verification', undefined, { token: dev.token })).statusCode).toBe(200);
  const blocked = await post('/send_email_verification', undefined, { token: dev.token });
  expectError(blocked, 429, 'Too many attempts. Try again in 60 minutes.');
  expect(blocked.headers['retry-after']).toBe('3600');
  expect(verifyMails(dev.email)).toHaveLength(5);
  // Every one of them is a valid link; the oldest still verifies.
  expect((await get(`/verify/${LINK.exec(verifyMails(dev.email)[0].links[0])![1]}`)).headers.location).toBe(VERIFIED_URL);
});

test('email-verified and send_email_verification answer for the caller only', async () => {
  const a = await signUp();
  const b = await signUp();
  const before = verifyMails(a.email).length;
  await post('/send_email_verification', undefined, { token: b.token });
  expect(verifyMails(a.email)).toHaveLength(before);
  expect(verifyMails(b.email)).toHaveLength(2);
  expect((await isVerified(b)).email).toBe(b.email);
});
