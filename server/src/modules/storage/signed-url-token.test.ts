// The signed URL token alone: what it binds (project, file, expiry, caller, token version), what
// it refuses to read, and that a signature is compared as the text it was issued as.
import { SignedUrlSigner } from './signed-url-token';

const P = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const O = '4f7c2a8e-1b3d-4c5e-9f60-7a8b9c0d1e2f';
const U = '0b9d2c7e-5a41-4f3e-8a6b-2c1d0e9f8a7b';
const signer = new SignedUrlSigner('platform secret');

test('a token verifies for what it was made for, and for nothing else', () => {
  const token = signer.token(P, O, { kind: 'user', userId: U, tokenVersion: 3 }, 1_800_000_000);
  expect(token).toMatch(new RegExp(`^1800000000\\.${U}\\.[A-Za-z0-9_-]{43}$`));
  const claims = signer.read(token)!;
  expect(claims).toMatchObject({ expiresAt: 1_800_000_000, caller: U });
  expect(signer.verify(claims, P, O, 3)).toBe(true);
  expect(signer.verify(claims, P, O, 4)).toBe(false); // the password changed
  expect(signer.verify(claims, O, O, 3)).toBe(false); // another project
  expect(signer.verify(claims, P, P, 3)).toBe(false); // another file
  expect(signer.verify({ ...claims, expiresAt: claims.expiresAt + 1 }, P, O, 3)).toBe(false);
  expect(signer.verify({ ...claims, caller: 'd' }, P, O, 0)).toBe(false);
  expect(new SignedUrlSigner('another secret').verify(claims, P, O, 3)).toBe(false);
});

test('the developer and the key alone have their own letters', () => {
  const dev = signer.read(signer.token(P, O, { kind: 'developer' }, 1))!;
  const key = signer.read(signer.token(P, O, { kind: 'key' }, 1))!;
  expect([dev.caller, key.caller]).toEqual(['d', 'k']);
  expect(signer.verify(dev, P, O)).toBe(true);
  expect(signer.verify({ ...key, signature: dev.signature }, P, O)).toBe(false);
});

test('a signature differing only in the bits base64url leaves over is refused', () => {
  const claims = signer.read(signer.token(P, O, { kind: 'key' }, 1))!;
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const last = alphabet.indexOf(claims.signature.at(-1)!);
  // 43 characters carry 258 bits for 256: the last character's two low bits are not decoded.
  const sibling = alphabet[last ^ 1]!;
  expect(Buffer.from(claims.signature.slice(0, -1) + sibling, 'base64url')).toEqual(Buffer.from(claims.signature, 'base64url'));
  expect(signer.verify({ ...claims, signature: claims.signature.slice(0, -1) + sibling }, P, O)).toBe(false);
});

test.each(['', '1.k', '1.x.' + 'A'.repeat(43), '1.k.' + 'A'.repeat(42), 'x.k.' + 'A'.repeat(43), '1.k.' + 'A'.repeat(43) + '.', '1234567890123.k.' + 'A'.repeat(43)])(
  'not a token: %p',
  (token) => expect(signer.read(token)).toBeUndefined(),
);
