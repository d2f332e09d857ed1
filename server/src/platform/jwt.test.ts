// The one JWT stack (platform/jwt.ts) on its own: what it accepts, what it refuses and why, with the
// clock injected; and that tokens in the formats issued before it (end-user tokens by hand on
// node:crypto, developer tokens by @fastify/jwt) still verify.
import crypto from 'node:crypto';
import { createJwt, JwtError, type JwtRefusal } from './jwt';
import { deriveKey } from './crypto';
import { createEndUserTokens } from '../modules/end-users/end-user-tokens';
import { createDeveloperTokens } from '../modules/accounts/developer-tokens';

let nowMs = Date.UTC(2031, 2, 4, 5, 6, 7, 890);
const clock = { now: () => new Date(nowMs) };
const jwt = createJwt(clock);
const key = crypto.randomBytes(32);
const otherKey = crypto.randomBytes(32);
const seconds = () => Math.floor(nowMs / 1000);

const b64 = (o: unknown) => Buffer.from(typeof o === 'string' ? o : JSON.stringify(o)).toString('base64url');
/** A token made by hand: any header, any payload, HMAC with the named hash. */
function handMade(header: object, payload: object, k: Buffer | string, hash = 'sha256'): string {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${crypto.createHmac(hash, k).update(input).digest('base64url')}`;
}

async function refusal(token: string, keyFor = () => key): Promise<JwtRefusal> {
  const error = await jwt.verify(token, keyFor).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(JwtError);
  return (error as JwtError).reason;
}

beforeEach(() => {
  nowMs = Date.UTC(2031, 2, 4, 5, 6, 7, 890);
});

test('a signed token verifies: header HS256/JWT, the payload then iat and exp from the injected clock', async () => {
  const token = jwt.sign({ sub: 'u1', n: 1 }, key, { expiresIn: 60 });
  const [header, payload] = token.split('.').map((part) => Buffer.from(part, 'base64url').toString('utf8'));
  expect(header).toBe('{"alg":"HS256","typ":"JWT"}');
  expect(payload).toBe(JSON.stringify({ sub: 'u1', n: 1, iat: seconds(), exp: seconds() + 60 }));
  expect(await jwt.verify(token, () => key)).toEqual({ sub: 'u1', n: 1, iat: seconds(), exp: seconds() + 60 });
});

test('clock injection: a token is good until its exp by the injected clock, whatever the real time', async () => {
  const token = jwt.sign({ sub: 'u1' }, key, { expiresIn: 60 });
  const iat = seconds();
  nowMs = (iat + 59) * 1000 + 999;
  await expect(jwt.verify(token, () => key)).resolves.toMatchObject({ sub: 'u1' });
  nowMs = (iat + 60) * 1000; // exactly exp: refused (RFC 7519 4.1.4)
  expect(await refusal(token)).toBe('expired');
  nowMs = Date.UTC(2040, 0, 1);
  expect(await refusal(token)).toBe('expired');
  // And a clock in the past signs tokens that are already expired by the real time, yet verify by the clock.
  nowMs = Date.UTC(2001, 0, 1);
  const old = jwt.sign({ sub: 'u2' }, key, { expiresIn: 60 });
  await expect(jwt.verify(old, () => key)).resolves.toMatchObject({ sub: 'u2', iat: seconds() });
});

test('expired: a negative lifetime, and an exp in the past signed by hand', async () => {
  expect(await refusal(jwt.sign({ sub: 'u1' }, key, { expiresIn: -10 }))).toBe('expired');
  expect(await refusal(handMade({ alg: 'HS256', typ: 'JWT' }, { sub: 'u1', exp: seconds() - 1 }, key))).toBe('expired');
});

test('not yet valid: an nbf the clock has not reached is refused, then accepted once it has', async () => {
  const token = handMade({ alg: 'HS256', typ: 'JWT' }, { sub: 'u1', nbf: seconds() + 30, exp: seconds() + 3600 }, key);
  expect(await refusal(token)).toBe('not_yet_valid');
  nowMs += 30_000;
  await expect(jwt.verify(token, () => key)).resolves.toMatchObject({ sub: 'u1' });
});

test('wrong key: signed with another key, or checked with another', async () => {
  expect(await refusal(jwt.sign({ sub: 'u1' }, otherKey, { expiresIn: 60 }))).toBe('signature');
  expect(await refusal(jwt.sign({ sub: 'u1' }, key, { expiresIn: 60 }), () => otherKey)).toBe('signature');
});

test('wrong algorithm: none without a signature is refused (for the missing signature, before its alg is read)', async () => {
  expect(await refusal(`${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: 'u1', exp: seconds() + 60 })}.`)).toBe('signature');
});

test.each([
  ['none, with an HS256 signature', () => handMade({ alg: 'none', typ: 'JWT' }, { sub: 'u1', exp: seconds() + 60 }, key)],
  ['HS512 with the right key', () => handMade({ alg: 'HS512', typ: 'JWT' }, { sub: 'u1', exp: seconds() + 60 }, key, 'sha512')],
  ['HS384 with the right key', () => handMade({ alg: 'HS384', typ: 'JWT' }, { sub: 'u1', exp: seconds() + 60 }, key, 'sha384')],
  ['RS256 header over an HMAC', () => handMade({ alg: 'RS256', typ: 'JWT' }, { sub: 'u1', exp: seconds() + 60 }, key)],
  ['"HS256 " (not exactly the name)', () => handMade({ alg: 'HS256 ', typ: 'JWT' }, { sub: 'u1', exp: seconds() + 60 }, key)],
])('wrong algorithm: %s is refused', async (_name, make) => {
  expect(await refusal(make())).toBe('algorithm');
});

test('an HS256 token made by hand with the right key passes (so the refusals above are the algorithm)', async () => {
  await expect(jwt.verify(handMade({ alg: 'HS256', typ: 'JWT' }, { sub: 'u1', exp: seconds() + 60 }, key), () => key)).resolves.toMatchObject({ sub: 'u1' });
});

test('tampered: payload or header changed under the same signature, signature flipped or cut', async () => {
  const token = jwt.sign({ sub: 'u1', tv: 0 }, key, { expiresIn: 60 });
  const [header, payload, signature] = token.split('.');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  expect(await refusal(`${header}.${b64({ ...claims, sub: 'u2' })}.${signature}`)).toBe('signature');
  expect(await refusal(`${header}.${b64({ ...claims, exp: claims.exp + 3600 })}.${signature}`)).toBe('signature');
  expect(await refusal(`${b64({ alg: 'HS256', typ: 'JWT', kid: 'x' })}.${payload}.${signature}`)).toBe('signature');
  const flipped = Buffer.from(signature, 'base64url');
  flipped[0] ^= 1;
  expect(await refusal(`${header}.${payload}.${flipped.toString('base64url')}`)).toBe('signature');
  expect(await refusal(`${header}.${payload}.${signature.slice(0, 20)}`)).toBe('signature');
  expect(await refusal(`${header}.${payload}.`)).toBe('signature');
});

test.each([
  ['garbage', 'not-a-jwt'],
  ['three garbage parts', 'aaa.bbb.ccc'],
  ['four parts', 'a.b.c.d'],
  ['padding in a segment', 'eyJhbGciOiJIUzI1NiJ9=.e30.AAAA'],
  ['a payload that is not an object', `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64('[1]')}.AAAA`],
  ['longer than 2048 characters', 'a'.repeat(2049)],
])('malformed: %s', async (_name, token) => {
  expect(await refusal(token)).toBe('malformed');
});

test('claims: a token without exp, or with a non-numeric exp, is refused even when well signed', async () => {
  expect(await refusal(handMade({ alg: 'HS256', typ: 'JWT' }, { sub: 'u1' }, key))).toBe('claims');
  expect(await refusal(handMade({ alg: 'HS256', typ: 'JWT' }, { sub: 'u1', exp: String(seconds() + 60) }, key))).toBe('claims');
});

test('keyFor sees the header and payload it is asked about', async () => {
  const seen: unknown[] = [];
  const token = jwt.sign({ pid: 'p1' }, key, { expiresIn: 60 });
  await jwt.verify(token, (decoded) => (seen.push(decoded), key));
  expect(seen).toEqual([{ header: { alg: 'HS256', typ: 'JWT' }, payload: expect.objectContaining({ pid: 'p1' }) }]);
});

test('decode reads a payload without verifying it; not a JWT is undefined', () => {
  expect(jwt.decode(jwt.sign({ sub: 'u1' }, otherKey, { expiresIn: 60 }))).toMatchObject({ sub: 'u1' });
  expect(jwt.decode('not-a-jwt')).toBeUndefined();
});

// ------------------------------------------------------------------ tokens issued before
const SECRET = 'the-platform-secret';

/** An end-user token exactly as the hand-written signer (end-user-tokens.ts before platform/jwt.ts) made it. */
function oldEndUserToken(claims: { sub: string; pid: string; tv: number }, iatSeconds: number, ttl = 3600): string {
  const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
  const body = { sub: claims.sub, pid: claims.pid, typ: 'enduser', tv: claims.tv, iat: iatSeconds, exp: iatSeconds + ttl };
  const input = `${header}.${Buffer.from(JSON.stringify(body)).toString('base64url')}`;
  const mac = crypto.createHmac('sha256', deriveKey(SECRET, `enduser-jwt:${claims.pid}`)).update(input).digest();
  return `${input}.${mac.toString('base64url')}`;
}

/** A developer token as @fastify/jwt made it: the key was the base64 text of the derived key. */
function oldDeveloperToken(claims: { sub: string; tv: number; typ: string }, iatSeconds: number, ttl: number): string {
  return handMade({ alg: 'HS256', typ: 'JWT' }, { ...claims, iat: iatSeconds, exp: iatSeconds + ttl }, deriveKey(SECRET, 'developer-jwt').toString('base64'));
}

describe('end-user tokens issued before the one stack', () => {
  const tokens = createEndUserTokens(SECRET, jwt);
  const claims = { sub: crypto.randomUUID(), pid: crypto.randomUUID(), tv: 3 };

  test('the old format verifies with the new stack, for its project only', async () => {
    const old = oldEndUserToken(claims, seconds() - 100);
    expect(await tokens.verify(old, claims.pid)).toEqual({ ...claims, typ: 'enduser', iat: seconds() - 100, exp: seconds() + 3500 });
    expect(await tokens.verify(old, crypto.randomUUID())).toBeUndefined();
    nowMs += 3500 * 1000;
    expect(await tokens.verify(old, claims.pid)).toBeUndefined();
  });

  test('the new stack signs byte for byte what the old code signed at the same time', () => {
    expect(tokens.sign(claims)).toBe(oldEndUserToken(claims, seconds()));
  });

  test('a developer token never passes as an end-user token, nor the other way round', async () => {
    const developers = createDeveloperTokens(SECRET, jwt);
    const dev = developers.sign({ sub: claims.sub, tv: 3, typ: 'developer' });
    await expect(developers.verify(dev)).resolves.toMatchObject({ sub: claims.sub, typ: 'developer' });
    expect(await tokens.verify(dev, claims.pid)).toBeUndefined();
    await expect(developers.verify(tokens.sign(claims))).rejects.toBeInstanceOf(JwtError);
  });
});

describe('developer tokens issued by @fastify/jwt', () => {
  const developers = createDeveloperTokens(SECRET, jwt);
  const claims = { sub: crypto.randomUUID(), tv: 0, typ: 'developer' };

  test('the old format verifies with the new stack until its exp', async () => {
    const old = oldDeveloperToken(claims, seconds() - 100, 7 * 86400);
    await expect(developers.verify(old)).resolves.toEqual({ ...claims, iat: seconds() - 100, exp: seconds() - 100 + 7 * 86400 });
    nowMs += 7 * 86400 * 1000;
    await expect(developers.verify(old)).rejects.toMatchObject({ reason: 'expired' });
  });

  test('the new stack signs byte for byte what @fastify/jwt signed (7 days unless told)', () => {
    expect(developers.sign(claims)).toBe(oldDeveloperToken(claims, seconds(), 7 * 86400));
    expect(developers.sign(claims, { expiresIn: 30 * 86400 })).toBe(oldDeveloperToken(claims, seconds(), 30 * 86400));
  });

  test('another platform secret refuses them', async () => {
    const others = createDeveloperTokens('another-secret', jwt);
    await expect(others.verify(oldDeveloperToken(claims, seconds(), 60))).rejects.toMatchObject({ reason: 'signature' });
  });
});
