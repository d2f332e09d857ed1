// Password hashing (scrypt, memory-hard, per-password salt), random tokens, hashes and
// authenticated encryption for secrets the platform must read back (API keys, TOTP secrets).
import crypto from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(crypto.scrypt) as (
  password: crypto.BinaryLike,
  salt: crypto.BinaryLike,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

const KEY_LEN = 32;

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(password: string, stored: string): Promise<boolean>;
  /** Spends the same time as a real verify, for unknown accounts (no timing oracle). */
  dummyVerify(password: string): Promise<void>;
  readonly params: { algorithm: 'scrypt'; N: number; r: number; p: number; memoryMiB: number };
}

export function createPasswordHasher(logN = 15, r = 8, p = 1): PasswordHasher {
  const N = 2 ** logN;
  const params = { algorithm: 'scrypt' as const, N, r, p, memoryMiB: (128 * N * r) / 2 ** 20 };
  const derive = (password: string, salt: Buffer, n: number, rr: number, pp: number) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LEN, { N: n, r: rr, p: pp, maxmem: 128 * n * rr * 2 + 1024 * 1024 });
  let dummy: string | undefined;
  return {
    params,
    async hash(password) {
      const salt = crypto.randomBytes(16);
      const key = await derive(password, salt, N, r, p);
      return `$scrypt$ln=${logN},r=${r},p=${p}$${salt.toString('base64')}$${key.toString('base64')}`;
    },
    async verify(password, stored) {
      const m = /^\$scrypt\$ln=(\d+),r=(\d+),p=(\d+)\$([^$]+)\$([^$]+)$/.exec(stored);
      if (!m) return false;
      const expected = Buffer.from(m[5], 'base64');
      const key = await derive(password, Buffer.from(m[4], 'base64'), 2 ** Number(m[1]), Number(m[2]), Number(m[3]));
      return key.length === expected.length && crypto.timingSafeEqual(key, expected);
    },
    async dummyVerify(password) {
      dummy ??= await this.hash('not-a-real-password');
      await this.verify(password, dummy);
    },
  };
}

export function randomToken(bytes = 32): string {
  return crypto.randomBytes(bytes).toString('base64url');
}

export function sha256(value: string): string {
  return crypto.createHash('sha256').update(value).digest('hex');
}

export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && crypto.timingSafeEqual(ab, bb);
}

/** Derives independent keys for independent purposes from the one platform secret. */
export function deriveKey(secret: string, purpose: string): Buffer {
  return Buffer.from(crypto.hkdfSync('sha256', secret, 'hostbase', purpose, 32));
}

export interface SecretBox {
  seal(plaintext: string): string;
  open(sealed: string): string;
}

/** AES-256-GCM: "v1.<iv>.<tag>.<ciphertext>" in base64url. */
export function createSecretBox(key: Buffer): SecretBox {
  return {
    seal(plaintext) {
      const iv = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
      const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ct.toString('base64url')].join('.');
    },
    open(sealed) {
      const [v, iv, tag, ct] = sealed.split('.');
      if (v !== 'v1' || !iv || !tag || ct === undefined) throw new Error('sealed value has an unknown format');
      const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
