// Mailbox passwords as Dovecot verifies them itself (passdb sql, default_pass_scheme unused):
// "{ARGON2ID}$argon2id$v=19$m=65536,t=3,p=1$<salt>$<hash>" (base64 without padding). Dovecot
// wants the parameters in m,t,p order, which is what hash-wasm writes (the argon2 npm package
// writes m,p,t: Dovecot reports a mismatch). Argon2id runs in WASM: no native build.
import crypto from 'node:crypto';
import { argon2id, argon2Verify } from 'hash-wasm';

export const SCHEME = '{ARGON2ID}';
/** 64 MiB, 3 passes, 1 lane: the RFC 9106 second recommendation, ~0.3 s here. */
const PARAMS = { memorySize: 65536, iterations: 3, parallelism: 1, hashLength: 32 } as const;

export async function hashMailboxPassword(password: string): Promise<string> {
  const encoded = await argon2id({ password, salt: crypto.randomBytes(16), ...PARAMS, outputType: 'encoded' });
  return SCHEME + encoded;
}

export async function verifyMailboxPassword(password: string, stored: string): Promise<boolean> {
  if (!stored.startsWith(SCHEME)) return false;
  try {
    return await argon2Verify({ password, hash: stored.slice(SCHEME.length) });
  } catch {
    return false;
  }
}
