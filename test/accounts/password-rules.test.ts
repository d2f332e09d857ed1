// Guessable passwords are refused, with the same rules on register, reset and
// change: 8 characters, none of the 10,000 most common passwords, nothing containing the e-mail's
// local part or the name (case-insensitive).
import type { LightMyRequestResponse } from 'fastify';
import { buildTestApp, type TestApp } from '../helpers/app';
import { registerDeveloper } from '../helpers/factories';
import { ipSequence, injectPost, type PostOptions, expectError } from '../helpers/inject';
import { COMMON_PASSWORDS_REFUSED, checkPassword, isCommonPassword, personalParts } from '../../server/src/modules/sign-in/credentials';
import { dictionary } from '@zxcvbn-ts/language-common';

jest.setTimeout(30_000);

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t?.close());

const freshIp = ipSequence(23);
let seq = 0;
function post(path: string, body?: unknown, opts: PostOptions = {}): Promise<LightMyRequestResponse> {
  return injectPost(t.app, path, body, opts, freshIp);
}

const TOO_COMMON = 'body/password: Password is too common; choose one that is harder to guess';
const PERSONAL = 'body/password: Password must not contain your email address or name';
const TOO_SHORT = 'body/password: Password must be at least 8 characters';

describe('the rules', () => {
  test('the 10,000 most common passwords of the list are refused, in any letter case; the rest of the list is not', () => {
    const list = dictionary['passwords-common'];
    expect(list.length).toBeGreaterThan(COMMON_PASSWORDS_REFUSED);
    for (const p of ['password', '12345678', 'qwertyui', 'PassWord', 'iloveyou', list[COMMON_PASSWORDS_REFUSED - 1]]) expect(isCommonPassword(p)).toBe(true);
    expect(isCommonPassword(list[COMMON_PASSWORDS_REFUSED])).toBe(false);
    expect(isCommonPassword('correct horse battery')).toBe(false);
  });

  test('personal parts: the e-mail, its local part and pieces, the name and its words, 3 characters or more', () => {
    expect(personalParts({ email: 'Grace.Hopper@Navy.mil', name: 'Grace B. Hopper' }).sort()).toEqual(
      ['grace.hopper@navy.mil', 'grace.hopper', 'grace', 'hopper', 'graceb.hopper'].sort(),
    );
    expect(personalParts({ email: 'jo@x.io', name: 'Al' })).toEqual(['jo@x.io']);
  });

  test('length first, then common, then personal', () => {
    const who = { email: 'ada@example.com', name: 'Ada Lovelace' };
    expect(() => checkPassword('passwor', 'password', who)).toThrow(TOO_SHORT);
    expect(() => checkPassword('password', 'password', who)).toThrow(TOO_COMMON);
    expect(() => checkPassword('ADA@example.com', 'password', who)).toThrow(PERSONAL);
    expect(() => checkPassword('lovelace rocks', 'password', who)).toThrow(PERSONAL);
    expect(() => checkPassword('analytical engine', 'password', who)).not.toThrow();
    // Under a project's relaxed policy only the length counts.
    expect(() => checkPassword('password', 'password', who, { blockGuessable: false })).not.toThrow();
    expect(() => checkPassword('short', 'password', who, { blockGuessable: false })).toThrow(TOO_SHORT);
  });
});

describe('register', () => {
  const email = () => `rules${++seq}-${process.pid}@example.com`;
  test.each([
    { password: 'password', message: TOO_COMMON },
    { password: '12345678', message: TOO_COMMON },
    { password: 'qwertyui', message: TOO_COMMON },
    { password: 'Password', message: TOO_COMMON },
    { password: 'seven77', message: TOO_SHORT },
  ])('$password → 400 "$message", nothing created', async ({ password, message }) => {
    const address = email();
    expectError(await post('/register', { name: 'Grace Hopper', email: address, password }), 400, message);
    expect(await t.database.query('SELECT 1 FROM accounts WHERE email = $1', [address])).toHaveLength(0);
  });

  test('the account\'s own e-mail address, its local part or the name → 400', async () => {
    const address = email();
    const local = address.split('@')[0];
    for (const password of [address, address.toUpperCase(), `${local}!!`, 'grace-hopper-2024', 'xxHOPPERxx']) {
      expectError(await post('/register', { name: 'Grace Hopper', email: address, password }), 400, PERSONAL);
    }
    expect((await post('/register', { name: 'Grace Hopper', email: address, password: 'compiler of cobol' })).statusCode).toBe(200);
  });

  test('sign-in with "password" is not possible: no such account can exist', async () => {
    const address = email();
    await post('/register', { name: 'Weak', email: address, password: 'password' });
    expectError(await post('/verify_user', { email: address, password: 'password' }), 401, 'Invalid email or password');
  });
});

describe('reset and change', () => {
  const signUp = () => registerDeveloper(t, { name: 'Katherine Johnson', email: `change${++seq}-${process.pid}@example.com`, password: 'orbital mechanics' });

  test('reset: weak passwords are refused and the link still works after', async () => {
    const dev = await signUp();
    const before = t.outbox().length;
    await post('/forgetPassword', { email: dev.email });
    const token = /reset-password\/([\w-]+)$/.exec(t.outbox().slice(before)[0].links[0])![1];
    expectError(await post(`/reset_password/${token}`, { password: 'qwertyui' }), 400, TOO_COMMON);
    expectError(await post(`/reset_password/${token}`, { password: 'katherine1918' }), 400, PERSONAL);
    expectError(await post(`/reset_password/${token}`, { password: `${dev.email}` }), 400, PERSONAL);
    expect((await post(`/reset_password/${token}`, { password: 'friendship 7 flight' })).statusCode).toBe(200);
    expect((await post('/verify_user', { email: dev.email, password: 'friendship 7 flight' })).statusCode).toBe(200);
  });

  test('change: weak new passwords are refused (body/new_password) and the old one stays', async () => {
    const dev = await signUp();
    for (const [next, message] of [
      ['12345678', 'body/new_password: Password is too common; choose one that is harder to guess'],
      ['johnson-johnson', 'body/new_password: Password must not contain your email address or name'],
      ['short', 'body/new_password: Password must be at least 8 characters'],
    ]) {
      expectError(await post('/change_pass', { current_password: 'orbital mechanics', new_password: next }, { token: dev.token }), 400, message);
    }
    expect((await post('/verify_user', { email: dev.email, password: 'orbital mechanics' })).statusCode).toBe(200);
    expect((await post('/change_pass', { current_password: 'orbital mechanics', new_password: 'hidden figures 1962' }, { token: dev.token })).statusCode).toBe(200);
  });
});
