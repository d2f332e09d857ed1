// The app-side auth API through HTTP: the whole journey of an end user, then the ways a token
// must be refused (other project, developer API, rotated key, reuse, reset, expiry).
import { buildTestApp, type TestApp } from '../helpers/app';
import { app, consoleCall, createProject, tokenFromOutbox, type TestProject } from './setup';

let t: TestApp;
let a: TestProject;
let b: TestProject;
// frozenAt: a test about expiry stops the clock, so a slow machine's real seconds don't count.
const clock = { offsetMs: 0, frozenAt: undefined as number | undefined, now: () => new Date((clock.frozenAt ?? Date.now()) + clock.offsetMs) };

beforeAll(async () => {
  t = await buildTestApp({}, { clock });
  a = await createProject(t);
  b = await createProject(t);
});
afterAll(() => t.close());

const password = 'first password 1';

test('sign up, sign in, refresh, current user, sign out, reset by mail, sign in again', async () => {
  const email = 'Alice@Example.com';
  const up = await app(t, a.authKey, 'POST', '/signup', { email, password });
  expect(up.statusCode).toBe(200);
  const upBody = up.json();
  expect(upBody).toMatchObject({ token_type: 'bearer', expires_in: 3600, user: { email, email_verified: false } });
  expect(upBody.refresh_token).toEqual(expect.any(String));

  const wrong = await app(t, a.authKey, 'POST', '/signin', { email, password: 'not the password' });
  expect(wrong.statusCode).toBe(401);
  expect(wrong.json().message).toBe('Invalid email or password');
  const unknown = await app(t, a.authKey, 'POST', '/signin', { email: 'nobody@example.com', password });
  expect(unknown.statusCode).toBe(401);
  expect(unknown.json().message).toBe(wrong.json().message);

  const signIn = await app(t, a.authKey, 'POST', '/signin', { email: 'alice@example.com', password });
  expect(signIn.statusCode).toBe(200);
  const session = signIn.json();
  expect(session.user.last_login).toEqual(expect.any(String));

  const me = await app(t, a.authKey, 'GET', '/user', undefined, session.access_token);
  expect(me.statusCode).toBe(200);
  expect(me.json()).toMatchObject({ id: upBody.user.id, email, email_verified: false });
  expect(me.json()).not.toHaveProperty('password_hash');

  const refreshed = await app(t, a.authKey, 'POST', '/refresh', { refresh_token: session.refresh_token });
  expect(refreshed.statusCode).toBe(200);
  const next = refreshed.json();
  expect(next.refresh_token).not.toBe(session.refresh_token);
  expect((await app(t, a.authKey, 'GET', '/user', undefined, next.access_token)).statusCode).toBe(200);

  const out = await app(t, a.authKey, 'POST', '/signout', { refresh_token: next.refresh_token });
  expect(out.statusCode).toBe(200);
  const afterOut = await app(t, a.authKey, 'POST', '/refresh', { refresh_token: next.refresh_token });
  expect(afterOut.statusCode).toBe(401);
  expect(afterOut.json().message).toBe('Invalid refresh token');
  // Signing out once more: the token is no longer a session.
  expect((await app(t, a.authKey, 'POST', '/signout', { refresh_token: next.refresh_token })).statusCode).toBe(401);

  // Forgotten password: the answer is the same for a known and an unknown address.
  const rec = await app(t, a.authKey, 'POST', '/recover', { email });
  expect(rec.statusCode).toBe(200);
  expect(rec.json()).toEqual({ message: true });
  expect((await app(t, a.authKey, 'POST', '/recover', { email: 'ghost@example.com' })).json()).toEqual({ message: true });
  expect(t.outbox().filter((m) => m.to.includes('ghost@example.com'))).toHaveLength(0);

  const other = await app(t, a.authKey, 'POST', '/signin', { email, password });
  const { link, token } = tokenFromOutbox(t, 'Alice@Example.com');
  expect(link.startsWith(`${t.config.publicUrl}/auth/end-user/reset-password?token=`)).toBe(true);

  const tooShort = await app(t, undefined, 'POST', '/reset', { token, password: 'short' });
  expect(tooShort.statusCode).toBe(400);
  expect(tooShort.json().message).toMatch(/at least 8/);
  const reset = await app(t, undefined, 'POST', '/reset', { token, password: 'second password 2' });
  expect(reset.statusCode).toBe(200);
  // Single use.
  const again = await app(t, undefined, 'POST', '/reset', { token, password: 'third password 3' });
  expect(again.statusCode).toBe(400);
  expect(again.json().message).toMatch(/invalid or has expired/);

  // The reset revoked every session: refresh tokens and access tokens issued before it.
  expect((await app(t, a.authKey, 'POST', '/refresh', { refresh_token: other.json().refresh_token })).statusCode).toBe(401);
  expect((await app(t, a.authKey, 'GET', '/user', undefined, other.json().access_token)).statusCode).toBe(401);

  expect((await app(t, a.authKey, 'POST', '/signin', { email, password })).statusCode).toBe(401);
  const withNew = await app(t, a.authKey, 'POST', '/signin', { email, password: 'second password 2' });
  expect(withNew.statusCode).toBe(200);
  expect((await app(t, a.authKey, 'GET', '/user', undefined, withNew.json().access_token)).statusCode).toBe(200);

  // The console sees the sign-in.
  const list = await consoleCall(t, a, 'users_list', {}, a.dev.token);
  const row = list.json().users.find((u: { email: string }) => u.email === email);
  expect(row.last_login).toBe(withNew.json().user.last_login);
});

test('email verification: send, confirm once, then reported verified', async () => {
  const s = (await app(t, a.authKey, 'POST', '/signup', { email: 'verify@example.com', password })).json();
  expect((await app(t, a.authKey, 'POST', '/verify/send')).statusCode).toBe(401);
  const sent = await app(t, a.authKey, 'POST', '/verify/send', undefined, s.access_token);
  expect(sent.statusCode).toBe(200);
  const { token } = tokenFromOutbox(t, 'verify@example.com', 'verify-email');
  expect((await app(t, undefined, 'POST', '/verify', { token })).json()).toEqual({ message: 'verified' });
  const twice = await app(t, undefined, 'POST', '/verify', { token });
  expect(twice.statusCode).toBe(400);
  expect((await app(t, a.authKey, 'GET', '/user', undefined, s.access_token)).json().email_verified).toBe(true);
  expect((await app(t, a.authKey, 'POST', '/verify/send', undefined, s.access_token)).json().message).toBe('Email already verified');
});

test('sign-up: duplicate email in the project is 409, the same email in another project is fine, bad input is 400', async () => {
  const email = 'dup@example.com';
  expect((await app(t, a.authKey, 'POST', '/signup', { email, password })).statusCode).toBe(200);
  const dup = await app(t, a.authKey, 'POST', '/signup', { email: 'DUP@example.com', password });
  expect(dup.statusCode).toBe(409);
  expect(dup.json().message).toMatch(/already exists/);
  expect((await app(t, b.authKey, 'POST', '/signup', { email, password })).statusCode).toBe(200);

  for (const body of [{ email: 'not-an-email', password }, { email }, { email, password: 'short' }, {}]) {
    const res = await app(t, a.authKey, 'POST', '/signup', body);
    expect(res.statusCode).toBe(400);
    expect(typeof res.json().message).toBe('string');
  }
  const noKey = await app(t, undefined, 'POST', '/signup', { email: 'x@example.com', password });
  expect(noKey.statusCode).toBe(401);
  expect(noKey.json().message).toMatch(/API key/);
  expect((await app(t, 'hb_auth_wrong', 'POST', '/signup', { email: 'x@example.com', password })).statusCode).toBe(401);
});

test("project A's tokens are refused with project B's key, and by the developer API", async () => {
  const s = (await app(t, a.authKey, 'POST', '/signup', { email: 'cross@example.com', password })).json();
  const withB = await app(t, b.authKey, 'GET', '/user', undefined, s.access_token);
  expect(withB.statusCode).toBe(401);
  expect((await app(t, b.authKey, 'POST', '/refresh', { refresh_token: s.refresh_token })).statusCode).toBe(401);
  expect((await app(t, b.authKey, 'POST', '/signout', { refresh_token: s.refresh_token })).statusCode).toBe(401);
  // The refusal by B did not burn A's refresh token.
  expect((await app(t, a.authKey, 'POST', '/refresh', { refresh_token: s.refresh_token })).statusCode).toBe(200);

  // The bucket key is not an auth key.
  const bucket = await t.post(`/project/${a.id}/bucket-details`, {}, a.dev.token);
  expect((await app(t, bucket.json().api_key, 'GET', '/user', undefined, s.access_token)).statusCode).toBe(401);

  // The developer API: bearer end-user token is not a developer token.
  expect((await t.post('/verify-token', { token: s.access_token })).json()).not.toEqual({ message: 'True' });
  expect((await t.post('/projects', {}, s.access_token)).statusCode).toBe(401);
  expect((await t.post('/account-details', {}, s.access_token)).statusCode).toBe(401);
  // And a developer token is not an end-user token.
  expect((await app(t, a.authKey, 'GET', '/user', undefined, a.dev.token)).statusCode).toBe(401);

  // A token whose claims were edited to name project B fails its signature.
  const [h, p, sig] = s.access_token.split('.');
  const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
  const forged = [h, Buffer.from(JSON.stringify({ ...claims, pid: b.id })).toString('base64url'), sig].join('.');
  expect((await app(t, b.authKey, 'GET', '/user', undefined, forged)).statusCode).toBe(401);
  const none = [Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url'), p, ''].join('.');
  expect((await app(t, a.authKey, 'GET', '/user', undefined, none)).statusCode).toBe(401);
});

test('a rotated auth key refuses old clients; the new key works with existing tokens', async () => {
  const p = await createProject(t);
  const s = (await app(t, p.authKey, 'POST', '/signup', { email: 'rot@example.com', password })).json();
  const rotated = await t.post(`/project/${p.id}/rotate-key`, { key: 'authentication' }, p.dev.token);
  expect(rotated.statusCode).toBe(200);
  const newKey = rotated.json().api_key as string;
  const old = await app(t, p.authKey, 'POST', '/signin', { email: 'rot@example.com', password });
  expect(old.statusCode).toBe(401);
  expect(old.json().message).toBe('Invalid API key');
  expect((await app(t, p.authKey, 'GET', '/user', undefined, s.access_token)).statusCode).toBe(401);
  expect((await app(t, newKey, 'GET', '/user', undefined, s.access_token)).statusCode).toBe(200);
  expect((await app(t, newKey, 'POST', '/signin', { email: 'rot@example.com', password })).statusCode).toBe(200);
});

test('reusing a rotated refresh token revokes the whole family', async () => {
  const s = (await app(t, a.authKey, 'POST', '/signup', { email: 'reuse@example.com', password })).json();
  const second = (await app(t, a.authKey, 'POST', '/refresh', { refresh_token: s.refresh_token })).json();
  const third = (await app(t, a.authKey, 'POST', '/refresh', { refresh_token: second.refresh_token })).json();
  // A thief replays the first token:
  const replay = await app(t, a.authKey, 'POST', '/refresh', { refresh_token: s.refresh_token });
  expect(replay.statusCode).toBe(401);
  // ... and the legitimate holder's newest token is dead too.
  expect((await app(t, a.authKey, 'POST', '/refresh', { refresh_token: third.refresh_token })).statusCode).toBe(401);
  // Another session of the same user (another family) is untouched.
  const other = (await app(t, a.authKey, 'POST', '/signin', { email: 'reuse@example.com', password })).json();
  expect((await app(t, a.authKey, 'POST', '/refresh', { refresh_token: other.refresh_token })).statusCode).toBe(200);
  const families = await t.database.query<{ n: string }>(
    `SELECT count(*) AS n FROM end_user_refresh_tokens WHERE revoked_at IS NOT NULL AND user_id = $1`,
    [s.user.id],
  );
  expect(Number(families[0].n)).toBe(3);
});

test('access tokens expire after an hour', async () => {
  clock.frozenAt = Date.now();
  const s = (await app(t, a.authKey, 'POST', '/signup', { email: 'expiry@example.com', password })).json();
  clock.offsetMs = 3599 * 1000;
  expect((await app(t, a.authKey, 'GET', '/user', undefined, s.access_token)).statusCode).toBe(200);
  clock.offsetMs = 3601 * 1000;
  const res = await app(t, a.authKey, 'GET', '/user', undefined, s.access_token);
  expect(res.statusCode).toBe(401);
  expect(res.json().message).toBe('Invalid or expired token');
  // The refresh token still gets a fresh access token.
  const r = await app(t, a.authKey, 'POST', '/refresh', { refresh_token: s.refresh_token });
  expect(r.statusCode).toBe(200);
  expect((await app(t, a.authKey, 'GET', '/user', undefined, r.json().access_token)).statusCode).toBe(200);
  clock.offsetMs = 0;
  clock.frozenAt = undefined;
});

test('sign-in failures of one user from one address: 5, then 429 with growing waits, state in the database; others unaffected', async () => {
  const p = await createProject(t);
  await app(t, p.authKey, 'POST', '/signup', { email: 'limited@example.com', password });
  for (let i = 0; i < 5; i++) {
    expect((await app(t, p.authKey, 'POST', '/signin', { email: 'limited@example.com', password: `wrong ${i}` })).statusCode).toBe(401);
  }
  const limited = await app(t, p.authKey, 'POST', '/signin', { email: 'limited@example.com', password });
  expect(limited.statusCode).toBe(429);
  expect(limited.json().message).toBe('Too many attempts. Try again in 60 seconds.');
  expect(limited.headers['retry-after']).toBe('60');
  // The counters live in the database (shared by instances), keyed by project.
  const rows = await t.database.query<{ key: string }>(`SELECT key FROM rate_limits WHERE key LIKE $1 ORDER BY key`, [`enduser-login:${p.id}:%`]);
  expect(rows.map((r) => r.key)).toEqual([
    `enduser-login:${p.id}:account-address:limited@example.com:127.0.0.1`,
    `enduser-login:${p.id}:account:limited@example.com`,
    `enduser-login:${p.id}:address:127.0.0.1`,
  ]);
  // Another user of the project from the same address is not blocked by this user's failures.
  await app(t, p.authKey, 'POST', '/signup', { email: 'fine@example.com', password });
  expect((await app(t, p.authKey, 'POST', '/signin', { email: 'fine@example.com', password })).statusCode).toBe(200);
  // Another project's users are not affected.
  expect((await app(t, a.authKey, 'POST', '/signin', { email: 'dup@example.com', password })).statusCode).toBe(200);
});

test('deleting the project deletes its end users and sessions (FK cascade)', async () => {
  const p = await createProject(t);
  const s = (await app(t, p.authKey, 'POST', '/signup', { email: 'gone@example.com', password })).json();
  const del = await t.post(`/project/${p.id}/delete`, { confirm: p.subdomain }, p.dev.token);
  expect(del.statusCode).toBe(200);
  for (const table of ['end_users', 'end_user_refresh_tokens', 'auth_settings']) {
    const rows = await t.database.query(`SELECT 1 FROM ${table} WHERE project_id = $1`, [p.id]);
    expect(rows).toHaveLength(0);
  }
  expect((await app(t, p.authKey, 'GET', '/user', undefined, s.access_token)).statusCode).toBe(401);
});
