// verify-token / verifyToken, and the bearer check in front of every authenticated accounts call:
// valid, garbage, expired, forged, revoked (change_pass, reset_password) and deleted-account tokens.
import crypto from 'node:crypto';
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

const freshIp = ipSequence(4);

function post(path: string, body?: unknown, opts: PostOptions = {}): Promise<LightMyRequestResponse> {
  return injectPost(t.app, path, body, opts, freshIp);
}


type Dev = Developer;
function signUp(): Promise<Developer> {
  return registerDeveloper(t, { name: 'Token Tester', ip: freshIp() });
}

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
function hs256(payload: object, key: string | Buffer): string {
  const head = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(payload)}`;
  return `${head}.${crypto.createHmac('sha256', key).update(head).digest('base64url')}`;
}
const nowSeconds = () => Math.floor(Date.now() / 1000);
/** After a write from outside the platform (plain SQL): until every instance heard of it (platform/lookup-cache.ts). */
const heard = () => t.app.deps.lookups.barrier();

async function resetPasswordByMail(dev: Dev, password: string) {
  const before = t.outbox().length;
  expect((await post('/forgetPassword', { email: dev.email })).json()).toEqual({ message: true });
  const link = t.outbox().slice(before).find((m) => m.to.includes(dev.email))!.links[0];
  const token = /\/auth\/reset-password\/([\w-]+)$/.exec(link)![1];
  expect((await post(`/reset_password/${token}`, { password })).statusCode).toBe(200);
}

/** Tokens that must never pass, each with how to make it. */
const badTokens: { name: string; make: () => Promise<string> }[] = [
  { name: 'garbage', make: async () => 'not-a-jwt' },
  { name: 'three garbage parts', make: async () => 'aaa.bbb.ccc' },
  { name: 'expired', make: async () => { const d = await signUp(); return t.app.jwt.sign({ sub: d.id, tv: 0, typ: 'developer' }, { expiresIn: -10 }); } },
  { name: 'signed with another secret', make: async () => { const d = await signUp(); return hs256({ sub: d.id, tv: 0, typ: 'developer', iat: nowSeconds(), exp: nowSeconds() + 3600 }, 'another-secret'); } },
  { name: 'alg none', make: async () => { const d = await signUp(); return `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: d.id, tv: 0, typ: 'developer', iat: nowSeconds(), exp: nowSeconds() + 3600 })}.`; } },
  { name: 'payload swapped to another account (signature of the first)', make: async () => {
    const a = await signUp();
    const b = await signUp();
    const [head, , sig] = a.token.split('.');
    const claims = t.app.jwt.decode<Record<string, unknown>>(a.token)!;
    return `${head}.${b64({ ...claims, sub: b.id })}.${sig}`;
  } },
  { name: 'right secret, not a developer token', make: async () => { const d = await signUp(); return t.app.jwt.sign({ sub: d.id, tv: 0, typ: 'enduser' }); } },
  { name: 'right secret, older token version', make: async () => { const d = await signUp(); return t.app.jwt.sign({ sub: d.id, tv: -1, typ: 'developer' }); } },
  { name: 'right secret, sub not a uuid', make: async () => t.app.jwt.sign({ sub: 'admin', tv: 0, typ: 'developer' }) },
  { name: 'right secret, unknown account', make: async () => t.app.jwt.sign({ sub: crypto.randomUUID(), tv: 0, typ: 'developer' }) },
  { name: 'of a deleted account', make: async () => { const d = await signUp(); await t.database.query('DELETE FROM accounts WHERE id = $1', [d.id]); await heard(); return d.token; } },
  { name: 'revoked by change_pass', make: async () => {
    const d = await signUp();
    const res = await post('/change_pass', { current_password: d.password, new_password: 'a brand new one' }, { token: d.token });
    expect(res.statusCode).toBe(200);
    return d.token;
  } },
  { name: 'revoked by reset_password', make: async () => { const d = await signUp(); await resetPasswordByMail(d, 'reset to this one'); return d.token; } },
];

describe.each(['/verify-token', '/verifyToken'])('%s', (path) => {
  test('a fresh token is "True"', async () => {
    const dev = await signUp();
    const res = await post(path, { token: dev.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'True' });
  });

  test('a login token is "True" too', async () => {
    const dev = await signUp();
    const login = await post('/verify_user', { email: dev.email, password: dev.password });
    expect((await post(path, { token: login.json().token })).json()).toEqual({ message: 'True' });
  });

  test.each(badTokens)('401 for a token $name', async ({ make }) => {
    expectError(await post(path, { token: await make() }), 401, 'Invalid or expired token');
  });

  test.each([
    { name: 'empty token', body: { token: '' }, status: 401, message: 'Invalid or expired token' },
    { name: 'missing token', body: {}, status: 400, message: "body must have required property 'token'" },
    { name: 'token is an object', body: { token: { a: 1 } }, status: 400, message: 'body/token must be string' },
    { name: 'token too long', body: { token: 'x'.repeat(4097) }, status: 400, message: 'body/token must NOT have more than 4096 characters' },
    { name: 'malformed JSON', body: '{"token"', status: 400, message: /^body is not valid JSON/ },
  ])('$name → $status', async ({ body, status, message }) => {
    expectError(await post(path, body, { headers: { 'content-type': 'application/json' } }), status, message);
  });
});

test('after change_pass the new token is "True" and the old one is not; after a reset neither old token is', async () => {
  const dev = await signUp();
  const login = (await post('/verify_user', { email: dev.email, password: dev.password })).json().token;
  const changed = await post('/change_pass', { current_password: dev.password, new_password: 'second password' }, { token: dev.token });
  const fresh = changed.json().token;
  expect((await post('/verify-token', { token: fresh })).json()).toEqual({ message: 'True' });
  for (const old of [dev.token, login]) expectError(await post('/verify-token', { token: old }), 401, 'Invalid or expired token');

  await resetPasswordByMail({ ...dev, password: 'second password' }, 'third password');
  expectError(await post('/verify-token', { token: fresh }), 401, 'Invalid or expired token');
});

describe('the bearer check on every authenticated accounts call', () => {
  let owner: Dev;
  beforeAll(async () => {
    owner = await signUp();
  });
  const endpoints: { name: string; method: 'GET' | 'POST'; url: () => string; body?: unknown }[] = [
    { name: 'toggle-mfa', method: 'POST', url: () => '/toggle-mfa', body: {} },
    { name: 'send_email_verification', method: 'POST', url: () => '/send_email_verification' },
    { name: 'email-verified', method: 'POST', url: () => '/email-verified' },
    { name: 'change_pass', method: 'POST', url: () => '/change_pass', body: { current_password: 'correct horse battery', new_password: 'hijacked password' } },
    { name: 'account-details', method: 'POST', url: () => '/account-details', body: { name: 'Hijacked' } },
    { name: 'developers/{id}', method: 'GET', url: () => `/developers/${owner.id}` },
  ];
  const credentials: { name: string; authorization: () => Promise<string | undefined>; message: string }[] = [
    { name: 'no Authorization header', authorization: async () => undefined, message: 'Missing bearer token' },
    { name: 'Basic credentials', authorization: async () => `Basic ${Buffer.from(`${owner.email}:correct horse battery`).toString('base64')}`, message: 'Missing bearer token' },
    { name: '"Bearer" with no token', authorization: async () => 'Bearer ', message: 'Missing bearer token' },
    { name: 'the token without "Bearer"', authorization: async () => owner.token, message: 'Missing bearer token' },
    { name: 'garbage bearer', authorization: async () => 'Bearer garbage', message: 'Invalid or expired token' },
    { name: 'expired bearer', authorization: async () => `Bearer ${t.app.jwt.sign({ sub: owner.id, tv: 0, typ: 'developer' }, { expiresIn: -10 })}`, message: 'Invalid or expired token' },
    { name: 'bearer signed with another secret', authorization: async () => `Bearer ${hs256({ sub: owner.id, tv: 0, typ: 'developer', exp: nowSeconds() + 60 }, 'x')}`, message: 'Invalid or expired token' },
    { name: 'bearer of a deleted account', authorization: async () => `Bearer ${(await badTokens.find((b) => b.name === 'of a deleted account')!.make())}`, message: 'Invalid or expired token' },
    { name: 'revoked bearer', authorization: async () => `Bearer ${(await badTokens.find((b) => b.name === 'revoked by change_pass')!.make())}`, message: 'Invalid or expired token' },
  ];
  const cases = endpoints.flatMap((e) => credentials.map((c) => ({ endpoint: e, cred: c, label: `${e.name} with ${c.name}` })));

  test.each(cases)('$label → 401 JSON', async ({ endpoint, cred }) => {
    const authorization = await cred.authorization();
    const res = await t.app.inject({
      method: endpoint.method,
      url: '/api' + endpoint.url(),
      remoteAddress: freshIp(),
      headers: authorization ? { authorization } : {},
      ...(endpoint.body === undefined ? {} : { payload: endpoint.body as object }),
    });
    expectError(res, 401, cred.message);
  });

  test('nothing was changed by the refused calls', async () => {
    const me = await post('/account-details', {}, { token: owner.token });
    expect(me.json()).toMatchObject({ name: 'Token Tester', mfa_enabled: false, email_verified: false });
    expect((await post('/verify_user', { email: owner.email, password: 'correct horse battery' })).statusCode).toBe(200);
    const mails = t.outbox().filter((m) => m.to.includes(owner.email));
    expect(mails).toHaveLength(1); // only the one sent at sign-up
  });

  test('authentication comes before body validation: an anonymous malformed body is a 401', async () => {
    const res = await post('/change_pass', '{"current_password":', { headers: { 'content-type': 'application/json' } });
    expectError(res, 401, 'Missing bearer token');
  });

  test('the scheme name is case-insensitive ("bearer")', async () => {
    const res = await post('/account-details', {}, { authorization: `bearer ${owner.token}` });
    expect(res.statusCode).toBe(200);
    expect(res.json().id).toBe(owner.id);
  });
});
