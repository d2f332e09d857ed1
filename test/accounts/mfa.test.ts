// TOTP with real otplib codes: toggle-mfa enroll / enable / disable, sign-in with "mfa" then
// verifyMFACode (and verify-mfa-code), each time step once, the challenge, recovery codes and the
// failure limits. The server's clock is frozen 5 s into a 30-s step and moved by whole steps.
// Calls naming an e-mail come from one address per e-mail (a code sent without mfa_token only
// completes a sign-in started from the same address); throttling: test/accounts/throttling.test.ts.
import { generate } from 'otplib';
import type { LightMyRequestResponse } from 'fastify';
import { buildTestApp, type TestApp } from '../helpers/app';
import { registerDeveloper, type Developer } from '../helpers/factories';
import { ipSequence, injectPost, type PostOptions, expectError } from '../helpers/inject';

// Building an app (a fresh database from the template) can take seconds on a busy machine.
jest.setTimeout(30_000);

const STEP_MS = 30_000;
const T0 = Math.floor(Date.UTC(2031, 2, 3, 4, 5, 6) / STEP_MS) * STEP_MS + 5_000;
let offsetMs = 0;
const clock = { now: () => new Date(T0 + offsetMs) };
const nextStep = () => { offsetMs += STEP_MS; };
const epoch = () => Math.floor(clock.now().getTime() / 1000);
/** The real code for the server's current step (or `steps` steps away). */
const code = (secret: string, steps = 0) => generate({ secret, epoch: epoch() + steps * 30 });

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({}, { clock });
});
afterAll(() => t?.close());

let seq = 0;
const freshIp = ipSequence(6);

const addressOf = new Map<string, string>();
function post(path: string, body?: unknown, opts: PostOptions = {}): Promise<LightMyRequestResponse> {
  const email = body && typeof body === 'object' ? (body as { email?: unknown }).email : undefined;
  let ip = opts.ip;
  if (!ip && typeof email === 'string') {
    if (!addressOf.has(email.toLowerCase())) addressOf.set(email.toLowerCase(), freshIp());
    ip = addressOf.get(email.toLowerCase());
  }
  return injectPost(t.app, path, body, { ...opts, ip }, freshIp);
}


const TEXT = {
  invalidCode: 'Invalid code. Please try again.',
  noChallenge: 'Verification failed. Please try again.',
  notFound: 'Email not found or invalid code.',
};

type Dev = Developer;
function signUp(): Promise<Developer> {
  return registerDeveloper(t, { name: 'Mfa Tester', ip: freshIp() });
}

async function enroll(dev: Dev): Promise<string> {
  const res = await post('/toggle-mfa', {}, { token: dev.token });
  expect(res.statusCode).toBe(200);
  return res.json().secret;
}

/** Enrolls and enables MFA; returns the secret and the recovery codes. The enabling step is used up. */
async function enableMfa(dev: Dev): Promise<{ secret: string; recovery: string[] }> {
  const secret = await enroll(dev);
  const res = await post('/toggle-mfa', { mfa_code: await code(secret) }, { token: dev.token });
  expect(res.statusCode).toBe(200);
  nextStep();
  return { secret, recovery: res.json().recovery_codes };
}

const login = (dev: Dev) => post('/verify_user', { email: dev.email, password: dev.password });
/** A 6-digit code that matches none of the steps the server accepts now. */
async function wrongCode(secret: string): Promise<string> {
  const valid = new Set(await Promise.all([-1, 0, 1].map((s) => code(secret, s))));
  let n = 123456;
  while (valid.has(String(n).padStart(6, '0'))) n += 1;
  return String(n).padStart(6, '0');
}

describe('toggle-mfa', () => {
  test('enroll returns a base32 secret and an otpauth:// URI once, and changes nothing yet', async () => {
    const dev = await signUp();
    const res = await post('/toggle-mfa', {}, { token: dev.token });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({ message: expect.any(String), mfa_enabled: false, secret: expect.stringMatching(/^[A-Z2-7]{16,}=*$/), otpauth_url: expect.any(String) });
    const uri = new URL(body.otpauth_url);
    expect(uri.protocol).toBe('otpauth:');
    expect(body.otpauth_url.startsWith('otpauth://totp/')).toBe(true);
    expect(uri.searchParams.get('secret')).toBe(body.secret);
    expect(uri.searchParams.get('issuer')).toBe('Hostbase');
    expect(decodeURIComponent(uri.pathname)).toContain(dev.email);

    expect((await post('/account-details', {}, { token: dev.token })).json().mfa_enabled).toBe(false);
    expect((await login(dev)).json()).toEqual({ message: 'Login successful', token: expect.any(String), device_token: expect.any(String) });
    // A second enrollment gives a new secret (the first is dropped).
    const again = await post('/toggle-mfa', { action: 'enroll' }, { token: dev.token });
    expect(again.json().secret).not.toBe(body.secret);
  });

  test('enabling with a wrong code is a 400 with the spec text; MFA stays off', async () => {
    const dev = await signUp();
    const secret = await enroll(dev);
    for (const bad of [await wrongCode(secret), 'abcdef', '12345', '1234567']) {
      expectError(await post('/toggle-mfa', { mfa_code: bad }, { token: dev.token }), 400, TEXT.invalidCode);
    }
    expect((await post('/account-details', {}, { token: dev.token })).json().mfa_enabled).toBe(false);
  });

  test('a code of another secret does not enable', async () => {
    const dev = await signUp();
    const secret = await enroll(dev);
    const other = await enroll(await signUp());
    const foreign = await code(other);
    if (foreign !== (await code(secret))) expectError(await post('/toggle-mfa', { mfa_code: foreign }, { token: dev.token }), 400, TEXT.invalidCode);
  });

  test('enabling before enrolling is a 400', async () => {
    const dev = await signUp();
    expectError(await post('/toggle-mfa', { action: 'enable', mfa_code: '123456' }, { token: dev.token }), 400, 'Start enrollment first (toggle-mfa without a code)');
  });

  test('enable and disable need a code', async () => {
    const dev = await signUp();
    await enroll(dev);
    expectError(await post('/toggle-mfa', { action: 'enable' }, { token: dev.token }), 400, "body must have required property 'mfa_code'");
  });

  test.each([
    { name: 'unknown action', body: { action: 'explode' }, message: 'body/action must be equal to one of the allowed values' },
    { name: 'empty code', body: { mfa_code: '' }, message: 'body/mfa_code must NOT have fewer than 1 characters' },
    { name: 'code too long', body: { mfa_code: '1'.repeat(33) }, message: 'body/mfa_code must NOT have more than 32 characters' },
    { name: 'a JSON array', body: '[]', message: 'body must be object' },
    { name: 'malformed JSON', body: '{"mfa_code"', message: /^body is not valid JSON/ },
  ])('$name → 400', async ({ body, message }) => {
    const dev = await signUp();
    expectError(await post('/toggle-mfa', body, { token: dev.token, headers: { 'content-type': 'application/json' } }), 400, message);
  });

  test('enabling with a real code returns 10 distinct recovery codes; sign-in then answers "mfa" and no token', async () => {
    const dev = await signUp();
    const secret = await enroll(dev);
    const res = await post('/toggle-mfa', { mfa_code: await code(secret) }, { token: dev.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Two-factor authentication enabled', mfa_enabled: true, recovery_codes: expect.any(Array) });
    const recovery: string[] = res.json().recovery_codes;
    expect(recovery).toHaveLength(10);
    expect(new Set(recovery).size).toBe(10);
    expect((await post('/account-details', {}, { token: dev.token })).json().mfa_enabled).toBe(true);
    // The secret is stored sealed, never in clear.
    const [row] = await t.database.query<{ mfa_secret_enc: string }>('SELECT mfa_secret_enc FROM accounts WHERE email = $1', [dev.email]);
    expect(row.mfa_secret_enc).not.toContain(secret);

    const signIn = await login(dev);
    expect(signIn.statusCode).toBe(200);
    expect(signIn.json()).toEqual({ message: 'mfa', mfa_token: expect.any(String) });
    expect(signIn.json().token).toBeUndefined();

    // With MFA on, a call without a code means "disable" and needs a code; enrolling again is a conflict.
    expectError(await post('/toggle-mfa', {}, { token: dev.token }), 400, "body must have required property 'mfa_code'");
    expectError(await post('/toggle-mfa', { action: 'enroll' }, { token: dev.token }), 409, 'Two-factor authentication is already enabled');
  });

  test('a wrong password with MFA on is still the plain 401, no challenge', async () => {
    const dev = await signUp();
    const { secret } = await enableMfa(dev);
    expectError(await post('/verify_user', { email: dev.email, password: 'wrong password' }), 401, 'Invalid email or password');
    expectError(await post('/verifyMFACode', { email: dev.email, mfa_code: await code(secret) }), 401, TEXT.noChallenge);
  });

  test('disable: a wrong code is a 400; a real code turns MFA off and sign-in gives a token directly', async () => {
    const dev = await signUp();
    const { secret } = await enableMfa(dev);
    expectError(await post('/toggle-mfa', { mfa_code: await wrongCode(secret) }, { token: dev.token }), 400, TEXT.invalidCode);
    expect((await post('/account-details', {}, { token: dev.token })).json().mfa_enabled).toBe(true);

    const res = await post('/toggle-mfa', { action: 'disable', mfa_code: await code(secret) }, { token: dev.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Two-factor authentication disabled', mfa_enabled: false });
    expect((await login(dev)).json()).toEqual({ message: 'Login successful', token: expect.any(String), device_token: expect.any(String) });
    nextStep();
    expectError(await post('/verifyMFACode', { email: dev.email, mfa_code: await code(secret) }), 401, TEXT.notFound);
    expectError(await post('/toggle-mfa', { action: 'disable', mfa_code: await code(secret) }, { token: dev.token }), 409, 'Two-factor authentication is not enabled');
  });

  test('disable with a recovery code; the old recovery codes die with it', async () => {
    const dev = await signUp();
    const { recovery } = await enableMfa(dev);
    expect((await post('/toggle-mfa', { mfa_code: recovery[0] }, { token: dev.token })).json().mfa_enabled).toBe(false);
    // Enabling again gives new codes; the old ones are worthless.
    const { secret } = await enableMfa(dev);
    expect((await login(dev)).json().message).toBe('mfa');
    expectError(await post('/verifyMFACode', { email: dev.email, mfa_code: recovery[1] }), 401, TEXT.notFound);
    expect((await post('/verifyMFACode', { email: dev.email, mfa_code: await code(secret) })).json().message).toBe('verified');
  });

  test('5 wrong codes on toggle-mfa lock it (429) even for the right code', async () => {
    const dev = await signUp();
    const secret = await enroll(dev);
    for (let i = 0; i < 5; i++) expectError(await post('/toggle-mfa', { mfa_code: await wrongCode(secret) }, { token: dev.token }), 400, TEXT.invalidCode);
    const blocked = await post('/toggle-mfa', { mfa_code: await code(secret) }, { token: dev.token });
    expectError(blocked, 429, 'Too many attempts. Try again in 5 minutes.');
    expect(blocked.headers['retry-after']).toBe('300');
  });
});

describe.each(['/verifyMFACode', '/verify-mfa-code'])('%s', (path) => {
  test('a real code after the password step answers "verified" and a working token', async () => {
    const dev = await signUp();
    const { secret } = await enableMfa(dev);
    expect((await login(dev)).json().message).toBe('mfa');
    const res = await post(path, { email: dev.email, mfa_code: await code(secret) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'verified', token: expect.any(String), device_token: expect.any(String) });
    expect((await post('/verify-token', { token: res.json().token })).json()).toEqual({ message: 'True' });
    expect((await post('/account-details', {}, { token: res.json().token })).json().email).toBe(dev.email);
  });

  test('the email is matched case-insensitively and the code may contain spaces', async () => {
    const dev = await signUp();
    const { secret } = await enableMfa(dev);
    await login(dev);
    const c = await code(secret);
    const res = await post(path, { email: dev.email.toUpperCase(), mfa_code: `${c.slice(0, 3)} ${c.slice(3)}` });
    expect(res.json().message).toBe('verified');
  });

  test('a replayed code is refused, also for a new sign-in in the same step', async () => {
    const dev = await signUp();
    const { secret } = await enableMfa(dev);
    const c = await code(secret);
    await login(dev);
    expect((await post(path, { email: dev.email, mfa_code: c })).json().message).toBe('verified');
    expect((await login(dev)).json().message).toBe('mfa');
    const replay = await post(path, { email: dev.email, mfa_code: c });
    expectError(replay, 401, TEXT.notFound);
    expect(replay.json().token).toBeUndefined();
    // The next step's code is fine.
    nextStep();
    expect((await post(path, { email: dev.email, mfa_code: await code(secret) })).json().message).toBe('verified');
  });

  test('one step of clock drift is accepted; an older step after a newer one is not', async () => {
    const dev = await signUp();
    const { secret } = await enableMfa(dev);
    await login(dev);
    expect((await post(path, { email: dev.email, mfa_code: await code(secret, +1) })).json().message).toBe('verified');
    await login(dev);
    expectError(await post(path, { email: dev.email, mfa_code: await code(secret) }), 401, TEXT.notFound);
    expectError(await post(path, { email: dev.email, mfa_code: await code(secret, +2) }), 401, TEXT.notFound);
  });

  test('without a password step first there is no challenge: 401 "Verification failed"', async () => {
    const dev = await signUp();
    const { secret } = await enableMfa(dev);
    const res = await post(path, { email: dev.email, mfa_code: await code(secret) });
    expectError(res, 401, TEXT.noChallenge);
    expect(res.json().token).toBeUndefined();
  });

  test('the challenge is single-use and expires after 5 minutes', async () => {
    const dev = await signUp();
    const { secret } = await enableMfa(dev);
    await login(dev);
    expect((await post(path, { email: dev.email, mfa_code: await code(secret) })).json().message).toBe('verified');
    nextStep();
    expectError(await post(path, { email: dev.email, mfa_code: await code(secret) }), 401, TEXT.noChallenge);

    await login(dev);
    offsetMs += 5 * 60_000;
    expectError(await post(path, { email: dev.email, mfa_code: await code(secret) }), 401, TEXT.noChallenge);
  });

  test('mfa_token binds the code to that password step', async () => {
    const dev = await signUp();
    const { secret } = await enableMfa(dev);
    const { mfa_token } = (await login(dev)).json();
    expectError(await post(path, { email: dev.email, mfa_code: await code(secret), mfa_token: 'not-the-token' }), 401, TEXT.noChallenge);
    const other = await signUp();
    await enableMfa(other);
    const { mfa_token: othersToken } = (await login(other)).json();
    expectError(await post(path, { email: dev.email, mfa_code: await code(secret), mfa_token: othersToken }), 401, TEXT.noChallenge);
    expect((await post(path, { email: dev.email, mfa_code: await code(secret), mfa_token })).json().message).toBe('verified');
  });

  test('unknown email, and an account without MFA, give "Email not found or invalid code."', async () => {
    expectError(await post(path, { email: `ghost${++seq}@example.com`, mfa_code: '123456' }), 401, TEXT.notFound);
    const plain = await signUp();
    await login(plain);
    expectError(await post(path, { email: plain.email, mfa_code: '123456' }), 401, TEXT.notFound);
  });

  test('a wrong code is 401 "Email not found or invalid code."; 5 wrong codes use the challenge up, not the account', async () => {
    const dev = await signUp();
    const { secret } = await enableMfa(dev);
    await login(dev);
    for (let i = 0; i < 5; i++) expectError(await post(path, { email: dev.email, mfa_code: await wrongCode(secret) }), 401, TEXT.notFound);
    // The challenge is used up: even the right code needs a new sign-in ...
    const spent = await post(path, { email: dev.email, mfa_code: await code(secret) });
    expectError(spent, 401, TEXT.noChallenge);
    expect(spent.json().token).toBeUndefined();
    // ... which works at once: nothing is locked.
    await login(dev);
    expect((await post(path, { email: dev.email, mfa_code: await code(secret) })).json().message).toBe('verified');
  });

  test('a recovery code works once, in any case and with spaces', async () => {
    const dev = await signUp();
    const { recovery } = await enableMfa(dev);
    await login(dev);
    const res = await post(path, { email: dev.email, mfa_code: recovery[3] });
    expect(res.json()).toEqual({ message: 'verified', token: expect.any(String), device_token: expect.any(String) });
    await login(dev);
    expectError(await post(path, { email: dev.email, mfa_code: recovery[3] }), 401, TEXT.notFound);
    expect((await post(path, { email: dev.email, mfa_code: ` ${recovery[4].toUpperCase()} ` })).json().message).toBe('verified');
  });

  test.each([
    { name: 'missing code', body: { email: 'a@example.com' }, message: "body must have required property 'mfa_code'" },
    { name: 'missing email', body: { mfa_code: '123456' }, message: "body must have required property 'email'" },
    { name: 'invalid email', body: { email: 'a', mfa_code: '123456' }, message: 'body/email must match format "email"' },
    { name: 'empty code', body: { email: 'a@example.com', mfa_code: '' }, message: 'body/mfa_code must NOT have fewer than 1 characters' },
    { name: 'code too long', body: { email: 'a@example.com', mfa_code: '9'.repeat(33) }, message: 'body/mfa_code must NOT have more than 32 characters' },
    { name: 'malformed JSON', body: '{"email":"a@example.com",', message: /^body is not valid JSON/ },
  ])('$name → 400', async ({ body, message }) => {
    expectError(await post(path, body, { headers: { 'content-type': 'application/json' } }), 400, message);
  });
});

test('MFA attempts are limited per IP (30 per 5 minutes)', async () => {
  const ip = '10.66.0.1';
  for (let i = 0; i < 30; i++) expectError(await post('/verifyMFACode', { email: `spray${i}@example.com`, mfa_code: '000000' }, { ip }), 401, TEXT.notFound);
  expectError(await post('/verify-mfa-code', { email: 'spray-last@example.com', mfa_code: '000000' }, { ip }), 429, /^Too many attempts/);
  expectError(await post('/verify-mfa-code', { email: 'spray-last@example.com', mfa_code: '000000' }, { ip: '10.66.0.2' }), 401, TEXT.notFound);
});

test('a password reset does not switch MFA off and closes an open challenge', async () => {
  const dev = await signUp();
  const { secret } = await enableMfa(dev);
  expect((await login(dev)).json().message).toBe('mfa');
  const before = t.outbox().length;
  await post('/forgetPassword', { email: dev.email });
  const token = /reset-password\/([\w-]+)$/.exec(t.outbox().slice(before)[0].links[0])![1];
  expect((await post(`/reset_password/${token}`, { password: 'after the reset' })).statusCode).toBe(200);
  expectError(await post('/verifyMFACode', { email: dev.email, mfa_code: await code(secret) }), 401, TEXT.noChallenge);
  const again = await post('/verify_user', { email: dev.email, password: 'after the reset' });
  expect(again.json().message).toBe('mfa');
  expect((await post('/verifyMFACode', { email: dev.email, mfa_code: await code(secret) })).json().message).toBe('verified');
});
