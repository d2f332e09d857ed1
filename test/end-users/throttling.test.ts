// A project's end users get the same sign-in throttling as developers (nobody can lock a
// user out from another address; a device token skips the ceiling), reset requests throttled the
// same way, and the same password rules, which a project may relax in its auth settings.
import { Writable } from 'node:stream';
import type { LightMyRequestResponse } from 'fastify';
import { buildTestApp, type TestApp } from '../helpers/app';
import { ipSequence } from '../helpers/inject';
import { consoleCall, createProject, tokenFromOutbox, type TestProject } from './setup';
import { signUpEndUser } from '../helpers/factories';

jest.setTimeout(60_000);

let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };
const logLines: Record<string, unknown>[] = [];
const logStream = new Writable({
  write(chunk, _enc, done) {
    for (const line of String(chunk).split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
    done();
  },
});

let t: TestApp;
let p: TestProject;
beforeAll(async () => {
  t = await buildTestApp({}, { clock, logger: { level: 'warn', stream: logStream } });
  p = await createProject(t);
});
afterAll(() => t?.close());

const freshIp = ipSequence(29);
let seq = 0;
const password = 'reading list 42';

function call(path: string, body: unknown, ip = freshIp(), key = p.authKey): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'POST', url: '/api/auth/v1' + path, remoteAddress: ip, headers: { 'x-api-key': key }, payload: body as object });
}
const signUp = (project = p) => signUpEndUser(t, project, { email: `reader${++seq}@example.com`, password, ip: freshIp() });

describe('sign-in', () => {
  test('wrong passwords from one address: 5, then growing waits; the user from another address signs in', async () => {
    const user = await signUp();
    const attacker = '10.29.200.1';
    for (let i = 0; i < 5; i++) expect((await call('/signin', { email: user.email, password: `guess ${i} wrong` }, attacker)).statusCode).toBe(401);
    const waits: number[] = [];
    for (let i = 5; i < 10; i++) {
      const blocked = await call('/signin', { email: user.email, password: `guess ${i} wrong` }, attacker);
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().message).toMatch(/^Too many attempts\. Try again in \d+ (seconds|minutes)\.$/);
      waits.push(Number(blocked.headers['retry-after']));
      offsetMs += waits[waits.length - 1] * 1000;
      expect((await call('/signin', { email: user.email, password: `guess ${i} wrong` }, attacker)).statusCode).toBe(401);
    }
    expect(waits).toEqual([60, 120, 240, 480, 960]);
    expect((await call('/signin', { email: user.email, password }, attacker)).statusCode).toBe(429);
    const owner = await call('/signin', { email: user.email, password }, '10.29.200.2');
    expect(owner.statusCode).toBe(200);
    expect(owner.json()).toMatchObject({ token_type: 'bearer', device_token: expect.any(String), user: { email: user.email } });
  });

  test('after 100 failures from anywhere new clients wait, the user\'s device token does not; a burst is logged', async () => {
    const user = await signUp();
    for (let i = 0; i < 100; i++) expect((await call('/signin', { email: user.email, password: `botnet ${i} guess` })).statusCode).toBe(401);
    expect((await call('/signin', { email: user.email, password })).statusCode).toBe(429);
    const other = await signUp();
    expect((await call('/signin', { email: user.email, password, device_token: other.deviceToken })).statusCode).toBe(429);
    const trusted = await call('/signin', { email: user.email, password, device_token: user.deviceToken });
    expect(trusted.statusCode).toBe(200);
    expect(trusted.json().device_token).toBe(user.deviceToken);
    const bursts = logLines.filter((l) => l.msg === 'security: end-user sign-in failures burst' && l.userId === user.id);
    expect(bursts.map((l) => l.failures)).toEqual([10, 20, 40, 80]);
    expect(bursts[0]).toMatchObject({ projectId: p.id, level: 40 });
  });

  test('a device token of this user in another project counts for nothing there', async () => {
    const q = await createProject(t);
    const here = await signUp();
    const there = await call('/signup', { email: here.email, password }, freshIp(), q.authKey);
    expect(there.statusCode).toBe(200);
    for (let i = 0; i < 100; i++) await call('/signin', { email: here.email, password: `spread ${i} guess` }, freshIp(), q.authKey);
    expect((await call('/signin', { email: here.email, password, device_token: here.deviceToken }, freshIp(), q.authKey)).statusCode).toBe(429);
    expect((await call('/signin', { email: here.email, password, device_token: there.json().device_token }, freshIp(), q.authKey)).statusCode).toBe(200);
  });
});

describe('reset requests', () => {
  test('one e-mail from one address: 3, then 429, known or not; from another address the mail still goes', async () => {
    const user = await signUp();
    for (const email of [user.email, `nobody${++seq}@example.com`]) {
      const ip = freshIp();
      for (let i = 0; i < 3; i++) expect((await call('/recover', { email }, ip)).json()).toEqual({ message: true });
      const blocked = await call('/recover', { email }, ip);
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().message).toBe('Too many attempts. Try again in 60 seconds.');
    }
    const sent = () => t.outbox().filter((m) => m.to.includes(user.email)).length;
    expect(sent()).toBe(3);
    expect((await call('/recover', { email: user.email })).statusCode).toBe(200);
    expect(sent()).toBe(4);
  });

  test('after 5 requests from anywhere, new clients wait; the user\'s device token still gets a mail', async () => {
    const user = await signUp();
    for (let i = 0; i < 5; i++) expect((await call('/recover', { email: user.email })).statusCode).toBe(200);
    expect((await call('/recover', { email: user.email })).statusCode).toBe(429);
    expect((await call('/recover', { email: user.email, device_token: user.deviceToken })).statusCode).toBe(200);
    expect(t.outbox().filter((m) => m.to.includes(user.email))).toHaveLength(6);
  });
});

describe('password rules', () => {
  const TOO_COMMON = 'body/password: Password is too common; choose one that is harder to guess';
  const PERSONAL = 'body/password: Password must not contain your email address';

  test('sign-up, console add_user and reset refuse common passwords and the e-mail', async () => {
    for (const [pw, message] of [
      ['password', TOO_COMMON],
      ['12345678', TOO_COMMON],
      ['qwertyui', TOO_COMMON],
      ['bookworm-2024', PERSONAL],
    ]) {
      const res = await call('/signup', { email: 'bookworm@example.com', password: pw });
      expect({ status: res.statusCode, message: res.json().message }).toEqual({ status: 400, message });
      const add = await consoleCall(t, p, 'add_user', { email: 'bookworm@example.com', password: pw }, p.dev.token);
      expect({ status: add.statusCode, message: add.json().message }).toEqual({ status: 400, message });
    }
    const user = await signUp();
    await call('/recover', { email: user.email });
    const { token } = tokenFromOutbox(t, user.email);
    const weak = await t.app.inject({ method: 'POST', url: '/api/auth/v1/reset', payload: { token, password: 'iloveyou' } });
    expect({ status: weak.statusCode, message: weak.json().message }).toEqual({ status: 400, message: TOO_COMMON });
    const ok = await t.app.inject({ method: 'POST', url: '/api/auth/v1/reset', payload: { token, password: 'a quieter evening' } });
    expect(ok.statusCode).toBe(200);
  });

  test('a project may switch the check off (block_common_passwords: false); the length still counts', async () => {
    const q = await createProject(t);
    const settings = await consoleCall(t, q, 'settings', { block_common_passwords: false }, q.dev.token);
    expect(settings.json()).toMatchObject({ block_common_passwords: false });
    expect((await call('/signup', { email: 'relaxed@example.com', password: 'password' }, freshIp(), q.authKey)).statusCode).toBe(200);
    const short = await call('/signup', { email: 'short@example.com', password: 'passwor' }, freshIp(), q.authKey);
    expect(short.json().message).toBe('body/password: Password must be at least 8 characters');
    // The default stays on for other projects, and the setting can be switched back.
    expect((await call('/signup', { email: 'relaxed@example.com', password: 'password' })).statusCode).toBe(400);
    expect((await consoleCall(t, q, 'settings', { block_common_passwords: true }, q.dev.token)).json().block_common_passwords).toBe(true);
    expect((await call('/signup', { email: 'strict@example.com', password: 'password' }, freshIp(), q.authKey)).statusCode).toBe(400);
    const wrongType = await consoleCall(t, q, 'settings', { block_common_passwords: 'no' }, q.dev.token);
    expect(wrongType.statusCode).toBe(400);
  });
});
