// Two API instances on ONE database (what several replicas behind a load balancer are): limits,
// single-use links and TOTP steps are enforced across them, because their state is in the database.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { generate } from 'otplib';
import { buildApp } from '../../server/src/app';
import { buildTestApp, type TestApp } from '../helpers/app';
import { registerDeveloper, type Developer } from '../helpers/factories';
import { ipSequence, expectError } from '../helpers/inject';

// Building an app (a fresh database from the template) can take seconds on a busy machine.
jest.setTimeout(30_000);

const STEP_MS = 30_000;
const T0 = Math.floor(Date.UTC(2032, 0, 1) / STEP_MS) * STEP_MS + 5_000;
let offsetMs = 0;
const clock = { now: () => new Date(T0 + offsetMs) };
const nextStep = () => { offsetMs += STEP_MS; };
const code = (secret: string) => generate({ secret, epoch: Math.floor(clock.now().getTime() / 1000) });

let t: TestApp;
let a: FastifyInstance;
let b: FastifyInstance;
beforeAll(async () => {
  t = await buildTestApp({}, { clock });
  a = t.app;
  // The second instance: its own Fastify, rate limiter, mailer and hasher; only the database and config are shared.
  b = await buildApp({ ...t.config, webDir: undefined }, { database: t.database, logger: false, clock });
  await b.ready();
});
afterAll(async () => {
  await b.close();
  await t.close();
});

const freshIp = ipSequence(10);

function post(app: FastifyInstance, path: string, body?: unknown, opts: { token?: string; ip?: string } = {}): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/api' + path,
    remoteAddress: opts.ip ?? freshIp(),
    headers: opts.token ? { authorization: `Bearer ${opts.token}` } : {},
    ...(body === undefined ? {} : { payload: body as object }),
  });
}


const signUp = (app: FastifyInstance) => registerDeveloper({ app }, { name: 'Multi', ip: freshIp() });

test('the two instances are separate apps on the same database', async () => {
  expect(a).not.toBe(b);
  expect(a.deps.rateLimiter).not.toBe(b.deps.rateLimiter);
  expect(b.deps.database).toBe(a.deps.database);
  // An account made on A signs in on B; B's token is accepted by A.
  const dev = await signUp(a);
  const login = await post(b, '/verify_user', { email: dev.email, password: dev.password });
  expect(login.statusCode).toBe(200);
  expect((await post(a, '/verify-token', { token: login.json().token })).json()).toEqual({ message: 'True' });
});

test('sign-in failures from one address on A and on B add up to one limit', async () => {
  const dev = await signUp(a);
  const ip = '10.10.251.1';
  for (let i = 0; i < 5; i++) {
    const app = i % 2 ? b : a;
    expectError(await post(app, '/verify_user', { email: dev.email, password: `wrong ${i}` }, { ip }), 401, 'Invalid email or password');
  }
  // Neither instance alone saw 5 failures, yet both make that address wait now.
  for (const app of [a, b]) {
    const res = await post(app, '/verify_user', { email: dev.email, password: dev.password }, { ip });
    expectError(res, 429, /^Too many attempts/);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  }
  const [row] = await t.database.query<{ count: number }>('SELECT count FROM rate_limits WHERE key = $1', [`login:account-address:${dev.email}:${ip}`]);
  expect(Number(row.count)).toBe(5);
});

test('a sign-up on B with an email taken on A is a 409', async () => {
  const dev = await signUp(a);
  expectError(await post(b, '/register', { name: 'Again', email: dev.email.toUpperCase(), password: 'whatever long' }), 409, 'An account with this email already exists');
});

test('forgot-password requests from one IP count across instances', async () => {
  const ip = '10.10.250.1';
  for (let i = 0; i < 10; i++) expect((await post(i < 5 ? a : b, '/forgetPassword', { email: `ip-flood${i}@example.com` }, { ip })).statusCode).toBe(200);
  expectError(await post(a, '/forgot_pass', { email: 'ip-flood-a@example.com' }, { ip }), 429, /^Too many attempts/);
  expectError(await post(b, '/forgot_pass', { email: 'ip-flood-b@example.com' }, { ip }), 429, /^Too many attempts/);
});

test('a reset link used on A is refused on B', async () => {
  const dev = await signUp(a);
  const before = t.outbox().length;
  await post(b, '/forgetPassword', { email: dev.email });
  // Both instances write to the same outbox here (same DATA_DIR).
  const link = t.outbox().slice(before).find((m) => m.subject === 'Reset your Hostbase password')!.links[0];
  const token = /reset-password\/([\w-]+)$/.exec(link)![1];
  expect((await post(a, `/reset_password/${token}`, { password: 'set on instance a' })).statusCode).toBe(200);
  expectError(await post(b, `/reset_password/${token}`, { password: 'set on instance b' }), 400, 'This reset link is invalid or has expired');
  // The token revocation is seen by both.
  for (const app of [a, b]) expectError(await post(app, '/verify-token', { token: dev.token }), 401, 'Invalid or expired token');
});

describe('MFA across instances', () => {
  let dev: Developer;
  let secret: string;
  beforeEach(async () => {
    dev = await signUp(a);
    secret = (await post(a, '/toggle-mfa', {}, { token: dev.token })).json().secret;
    // Enrolled on A, enabled on B.
    const enabled = await post(b, '/toggle-mfa', { mfa_code: await code(secret) }, { token: dev.token });
    expect(enabled.json().mfa_enabled).toBe(true);
    nextStep();
  });

  test('a code accepted on A is a replay on B; the password step on A is the challenge on B', async () => {
    const ip = freshIp();
    const first = (await post(a, '/verify_user', { email: dev.email, password: dev.password }, { ip })).json();
    expect(first.message).toBe('mfa');
    const c = await code(secret);
    expect((await post(b, '/verifyMFACode', { email: dev.email, mfa_code: c, mfa_token: first.mfa_token }, { ip })).json().message).toBe('verified');
    const second = (await post(b, '/verify_user', { email: dev.email, password: dev.password }, { ip })).json();
    expect(second.message).toBe('mfa');
    expectError(await post(a, '/verify-mfa-code', { email: dev.email, mfa_code: c, mfa_token: second.mfa_token }, { ip }), 401, 'Email not found or invalid code.');
  });

  test('wrong codes on A and B add up to the 5 a challenge takes', async () => {
    const ip = freshIp();
    const { mfa_token } = (await post(a, '/verify_user', { email: dev.email, password: dev.password }, { ip })).json();
    const right = await code(secret);
    const wrong = right === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      expectError(await post(i < 3 ? a : b, '/verifyMFACode', { email: dev.email, mfa_code: wrong, mfa_token }, { ip }), 401, 'Email not found or invalid code.');
    }
    for (const app of [a, b]) expectError(await post(app, '/verifyMFACode', { email: dev.email, mfa_code: right, mfa_token }, { ip }), 401, 'Verification failed. Please try again.');
  });
});
