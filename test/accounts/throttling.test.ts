// Nobody can lock a developer out. Failed sign-ins are counted per account and
// client address, per address, and per account for clients without the account's device token;
// waits grow; the owner's right password from another address still works. MFA codes count only
// against a valid challenge, and too many wrong ones use the challenge up, not the account.
import { Writable } from 'node:stream';
import { generate } from 'otplib';
import type { LightMyRequestResponse } from 'fastify';
import { buildTestApp, type TestApp } from '../helpers/app';
import { registerDeveloper, type Developer } from '../helpers/factories';
import { ipSequence, injectPost, type PostOptions, expectError } from '../helpers/inject';

jest.setTimeout(60_000);

const STEP_MS = 30_000;
const T0 = Math.floor(Date.UTC(2032, 4, 6, 7, 8, 9) / STEP_MS) * STEP_MS + 5_000;
let offsetMs = 0;
const clock = { now: () => new Date(T0 + offsetMs) };
const advanceSeconds = (s: number) => {
  offsetMs += s * 1000;
};
const epoch = () => Math.floor(clock.now().getTime() / 1000);
const code = (secret: string, steps = 0) => generate({ secret, epoch: epoch() + steps * 30 });

const logLines: Record<string, unknown>[] = [];
const logStream = new Writable({
  write(chunk, _enc, done) {
    for (const line of String(chunk).split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
    done();
  },
});

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({}, { clock, logger: { level: 'warn', stream: logStream } });
});
afterAll(() => t?.close());

const freshIp = ipSequence(19);
let seq = 0;
function post(path: string, body?: unknown, opts: PostOptions = {}): Promise<LightMyRequestResponse> {
  return injectPost(t.app, path, body, opts, freshIp);
}

type Dev = Developer;
/** Each sign-up from its own address, so the per-address sign-up limit never interferes. */
const signUp = () => registerDeveloper(t, { name: 'Owen Owner', ip: freshIp() });
const login = (email: string, password: string, ip: string, device_token?: string) =>
  post('/verify_user', { email, password, ...(device_token ? { device_token } : {}) }, { ip });
const RATE_LIMITED = /^Too many attempts\. Try again in \d+ (seconds|minutes)\.$/;

describe('wrong passwords from one address', () => {
  test('slow that address down, then block it (growing waits); the owner from another address signs in', async () => {
    const owner = await signUp();
    const attacker = '10.19.200.1';
    for (let i = 0; i < 5; i++) expectError(await login(owner.email, `guess ${i} wrong`, attacker), 401, 'Invalid email or password');
    // Then each failure costs a wait twice as long as the one before.
    const waits: number[] = [];
    for (let i = 5; i < 12; i++) {
      const blocked = await login(owner.email, `guess ${i} wrong`, attacker);
      expectError(blocked, 429, RATE_LIMITED);
      waits.push(Number(blocked.headers['retry-after']));
      advanceSeconds(waits[waits.length - 1]);
      expectError(await login(owner.email, `guess ${i} wrong`, attacker), 401, 'Invalid email or password');
    }
    expect(waits).toEqual([60, 120, 240, 480, 960, 1920, 3600]);
    // 12 failures: the attacker is refused at once, even with the right password ...
    const stopped = await login(owner.email, owner.password, attacker);
    expectError(stopped, 429, 'Too many attempts. Try again in 60 minutes.');
    expect(stopped.headers['retry-after']).toBe('3600');
    expect(stopped.json().token).toBeUndefined();
    // ... while the owner, from another address and without any device token, is let in.
    const ok = await login(owner.email.toUpperCase(), owner.password, '10.19.200.2');
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ message: 'Login successful', token: expect.any(String), device_token: expect.any(String) });
  });

  test('the counting is atomic: of 20 parallel guesses from one address, 5 are checked', async () => {
    const owner = await signUp();
    const ip = '10.19.201.1';
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => login(owner.email, `parallel ${i}`, ip)));
    const statuses = answers.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
  });

  test('a success from that address starts its count for the account again', async () => {
    const owner = await signUp();
    const ip = '10.19.202.1';
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 4; i++) expectError(await login(owner.email, 'typo typo', ip), 401, 'Invalid email or password');
      expect((await login(owner.email, owner.password, ip)).statusCode).toBe(200);
    }
  });

  test('unknown e-mails are slowed exactly like known ones', async () => {
    const ip = '10.19.203.1';
    const ghost = `ghost${++seq}@example.com`;
    for (let i = 0; i < 5; i++) expectError(await login(ghost, 'whatever pass', ip), 401, 'Invalid email or password');
    const blocked = await login(ghost, 'whatever pass', ip);
    expectError(blocked, 429, 'Too many attempts. Try again in 60 seconds.');
    expect(blocked.headers['retry-after']).toBe('60');
  });
});

describe('one address guessing many accounts', () => {
  test('30 failures, then growing waits for that address; others are not affected', async () => {
    const ip = '10.19.204.1';
    for (let i = 0; i < 30; i++) expectError(await login(`spray${i}-${seq}@example.com`, 'Summer2024!', ip), 401, 'Invalid email or password');
    const owner = await signUp();
    expectError(await login(owner.email, owner.password, ip), 429, 'Too many attempts. Try again in 60 seconds.');
    expect((await login(owner.email, owner.password, '10.19.204.2')).statusCode).toBe(200);
  });

  test('successes from a shared address do not count against it', async () => {
    const ip = '10.19.205.1';
    const owner = await signUp();
    for (let i = 0; i < 40; i++) expect((await login(owner.email, owner.password, ip)).statusCode).toBe(200);
    const rows = await t.database.query<{ count: number }>('SELECT count FROM rate_limits WHERE key = $1', [`login:address:${ip}`]);
    expect(rows.map((r) => Number(r.count))).toEqual([0]);
  });
});

describe('the account-wide ceiling and the device token', () => {
  /** 100 failures, each from its own address (guessing spread over a botnet). */
  async function exhaustCeiling(email: string) {
    for (let i = 0; i < 100; i++) expectError(await login(email, `botnet ${i} guess`, freshIp()), 401, 'Invalid email or password');
  }

  test('after 100 failures from anywhere, new clients wait; a client that signed in before does not', async () => {
    const owner = await signUp();
    const earlier = await login(owner.email, owner.password, freshIp());
    const deviceToken: string = earlier.json().device_token;
    expect(deviceToken).toMatch(/^[\w-]{40,}$/);
    await exhaustCeiling(owner.email);

    // A new client (no device token, a forged one, or another account's) waits, right password or not.
    const other = await signUp();
    for (const token of [undefined, 'A'.repeat(43), other.deviceToken]) {
      expectError(await login(owner.email, owner.password, freshIp(), token), 429, 'Too many attempts. Try again in 60 seconds.');
    }
    // The owner's own client, from any address, signs in (and keeps its token).
    const trusted = await login(owner.email, owner.password, freshIp(), deviceToken);
    expect(trusted.statusCode).toBe(200);
    expect(trusted.json().device_token).toBe(deviceToken);
    // That success lifted the ceiling for everyone.
    expect((await login(owner.email, owner.password, freshIp())).statusCode).toBe(200);
  });

  test('the device token from register works too; it is stored hashed', async () => {
    const owner = await signUp();
    const rows = await t.database.query<{ token_hash: string }>(
      'SELECT d.token_hash FROM account_devices d JOIN accounts a ON a.id = d.account_id WHERE a.email = $1',
      [owner.email],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).not.toContain(owner.deviceToken);
    await exhaustCeiling(owner.email);
    expect((await login(owner.email, owner.password, freshIp(), owner.deviceToken)).statusCode).toBe(200);
  });

  test('the device token has its own wait: 10 failures, then growing waits', async () => {
    const owner = await signUp();
    for (let i = 0; i < 10; i++) expectError(await login(owner.email, `mine ${i} typo`, freshIp(), owner.deviceToken), 401, 'Invalid email or password');
    expectError(await login(owner.email, owner.password, freshIp(), owner.deviceToken), 429, 'Too many attempts. Try again in 60 seconds.');
    // It changes nothing for other clients.
    expect((await login(owner.email, owner.password, freshIp())).statusCode).toBe(200);
  });

  test('a password reset lifts the ceiling', async () => {
    const owner = await signUp();
    await exhaustCeiling(owner.email);
    expectError(await login(owner.email, owner.password, freshIp()), 429, RATE_LIMITED);
    const before = t.outbox().length;
    expect((await post('/forgetPassword', { email: owner.email })).statusCode).toBe(200);
    const link = t.outbox().slice(before)[0].links[0];
    const token = /reset-password\/([\w-]+)$/.exec(link)![1];
    expect((await post(`/reset_password/${token}`, { password: 'unlocked at last' })).statusCode).toBe(200);
    expect((await login(owner.email, 'unlocked at last', freshIp())).statusCode).toBe(200);
  });

  test('a burst of failures is logged with the account id', async () => {
    const owner = await signUp();
    const [{ id }] = await t.database.query<{ id: string }>('SELECT id FROM accounts WHERE email = $1', [owner.email]);
    const burst = () => logLines.filter((l) => l.msg === 'security: sign-in failures burst' && l.accountId === id);
    for (let i = 0; i < 9; i++) await login(owner.email, `burst ${i} guess`, freshIp());
    expect(burst()).toHaveLength(0);
    await login(owner.email, 'burst 9 guess', freshIp());
    expect(burst()).toEqual([expect.objectContaining({ level: 40, accountId: id, failures: 10, clientAddress: expect.any(String) })]);
  });
});

describe('password-reset requests', () => {
  test('for one e-mail from many addresses: 5, then waits for new clients; the owner\'s device token still gets a link', async () => {
    const owner = await signUp();
    const mails = () => t.outbox().filter((m) => m.to.includes(owner.email) && m.subject === 'Reset your Hostbase password').length;
    for (let i = 0; i < 5; i++) expect((await post('/forgetPassword', { email: owner.email }, { ip: freshIp() })).json()).toEqual({ message: true });
    expectError(await post('/forgetPassword', { email: owner.email }, { ip: freshIp() }), 429, 'Too many attempts. Try again in 60 seconds.');
    expect(mails()).toBe(5);
    expect((await post('/forgetPassword', { email: owner.email, device_token: owner.deviceToken }, { ip: freshIp() })).json()).toEqual({ message: true });
    expect(mails()).toBe(6);
    // An unknown e-mail is refused at the same point, so a 429 tells nothing about an account.
    const ghost = `ghost${++seq}@example.com`;
    for (let i = 0; i < 5; i++) expect((await post('/forgetPassword', { email: ghost }, { ip: freshIp() })).statusCode).toBe(200);
    expectError(await post('/forgetPassword', { email: ghost }, { ip: freshIp() }), 429, 'Too many attempts. Try again in 60 seconds.');
  });
});

describe('MFA: codes count only against a valid challenge', () => {
  async function mfaOwner(): Promise<Dev & { secret: string }> {
    const owner = await signUp();
    const secret = (await post('/toggle-mfa', {}, { token: owner.token })).json().secret;
    expect((await post('/toggle-mfa', { mfa_code: await code(secret) }, { token: owner.token })).statusCode).toBe(200);
    advanceSeconds(30);
    return { ...owner, secret };
  }
  async function wrongCode(secret: string): Promise<string> {
    const valid = new Set(await Promise.all([-1, 0, 1].map((s) => code(secret, s))));
    let n = 314159;
    while (valid.has(String(n).padStart(6, '0'))) n += 1;
    return String(n).padStart(6, '0');
  }

  test('wrong codes without the challenge token, from another address, change nothing', async () => {
    const owner = await mfaOwner();
    const ownerIp = freshIp();
    const challenge = await login(owner.email, owner.password, ownerIp);
    expect(challenge.json()).toEqual({ message: 'mfa', mfa_token: expect.any(String) });
    const attacker = '10.19.210.1';
    for (let i = 0; i < 12; i++) {
      expectError(await post('/verifyMFACode', { email: owner.email, mfa_code: await wrongCode(owner.secret) }, { ip: attacker }), 401, 'Verification failed. Please try again.');
    }
    for (const bogus of ['A'.repeat(43), 'x']) {
      expectError(
        await post('/verifyMFACode', { email: owner.email, mfa_code: await wrongCode(owner.secret), mfa_token: bogus }, { ip: attacker }),
        401,
        'Verification failed. Please try again.',
      );
    }
    const [{ attempts }] = await t.database.query<{ attempts: number }>(
      `SELECT attempts FROM account_tokens t JOIN accounts a ON a.id = t.account_id WHERE a.email = $1 AND kind = 'mfa_challenge'`,
      [owner.email],
    );
    expect(Number(attempts)).toBe(0);
    const res = await post('/verifyMFACode', { email: owner.email, mfa_code: await code(owner.secret), mfa_token: challenge.json().mfa_token }, { ip: ownerIp });
    expect(res.json()).toEqual({ message: 'verified', token: expect.any(String), device_token: expect.any(String) });
  });

  test('with the token, 5 wrong codes use the challenge up; signing in again gives a working one', async () => {
    const owner = await mfaOwner();
    const ip = freshIp();
    const { mfa_token } = (await login(owner.email, owner.password, ip)).json();
    for (let i = 0; i < 5; i++) {
      expectError(await post('/verifyMFACode', { email: owner.email, mfa_code: await wrongCode(owner.secret), mfa_token }, { ip }), 401, 'Email not found or invalid code.');
    }
    expectError(await post('/verifyMFACode', { email: owner.email, mfa_code: await code(owner.secret), mfa_token }, { ip }), 401, 'Verification failed. Please try again.');
    const again = (await login(owner.email, owner.password, ip)).json().mfa_token;
    const res = await post('/verify-mfa-code', { email: owner.email, mfa_code: await code(owner.secret), mfa_token: again }, { ip });
    expect(res.json().message).toBe('verified');
  });

  test('a challenge takes at most 5 codes even when they arrive in parallel', async () => {
    const owner = await mfaOwner();
    const ip = freshIp();
    const { mfa_token } = (await login(owner.email, owner.password, ip)).json();
    const wrong = await wrongCode(owner.secret);
    const answers = await Promise.all(Array.from({ length: 12 }, () => post('/verifyMFACode', { email: owner.email, mfa_code: wrong, mfa_token }, { ip })));
    const messages = answers.map((r) => r.json().message);
    expect(messages.filter((m) => m === 'Email not found or invalid code.')).toHaveLength(5);
    expect(messages.filter((m) => m === 'Verification failed. Please try again.')).toHaveLength(7);
  });

  test('wrong codes per account and address slow down like passwords; the owner elsewhere is not affected', async () => {
    const owner = await mfaOwner();
    const ip = freshIp();
    for (let round = 0; round < 2; round++) {
      const { mfa_token } = (await login(owner.email, owner.password, ip)).json();
      for (let i = 0; i < 5; i++) await post('/verifyMFACode', { email: owner.email, mfa_code: await wrongCode(owner.secret), mfa_token }, { ip });
    }
    const { mfa_token } = (await login(owner.email, owner.password, ip)).json();
    const blocked = await post('/verifyMFACode', { email: owner.email, mfa_code: await code(owner.secret), mfa_token }, { ip });
    expectError(blocked, 429, 'Too many attempts. Try again in 60 seconds.');
    // The wait did not use up the challenge's attempts.
    advanceSeconds(60);
    expect((await post('/verifyMFACode', { email: owner.email, mfa_code: await code(owner.secret), mfa_token }, { ip })).json().message).toBe('verified');
    advanceSeconds(30);
    const elsewhere = freshIp();
    const other = (await login(owner.email, owner.password, elsewhere)).json().mfa_token;
    expect((await post('/verifyMFACode', { email: owner.email, mfa_code: await code(owner.secret), mfa_token: other }, { ip: elsewhere })).json().message).toBe('verified');
  });
});
