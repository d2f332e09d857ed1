// Mailbox passwords as Dovecot verifies them itself (passdb sql, the scheme in the stored value):
// "{ARGON2ID}$argon2id$v=19$m=65536,t=3,p=1$<salt>$<hash>" (base64 without padding). Dovecot
// wants the parameters in m,t,p order, which is what hash-wasm writes (the argon2 npm package
// writes m,p,t: Dovecot reports a mismatch). Argon2id runs in WASM (no native build), and
// synchronously: ~0.3 s of CPU per hash. So hashes are made in one worker thread, one after the
// other: the API's event loop never stalls on them, and memory stays at one 64 MiB hash.
import crypto from 'node:crypto';
import { Worker } from 'node:worker_threads';

export const SCHEME = '{ARGON2ID}';
/** 64 MiB, 3 passes, 1 lane: the RFC 9106 second recommendation. */
const PARAMS = { memorySize: 65536, iterations: 3, parallelism: 1, hashLength: 32 } as const;

// Plain JavaScript (no build step, works from dist/ and from the sources alike).
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { argon2id } = require(${JSON.stringify(require.resolve('hash-wasm'))});
let queue = Promise.resolve();
parentPort.on('message', ({ id, password, salt, params }) => {
  queue = queue.then(async () => {
    try {
      const encoded = await argon2id({ password, salt: new Uint8Array(salt), ...params, outputType: 'encoded' });
      parentPort.postMessage({ id, encoded });
    } catch (err) {
      parentPort.postMessage({ id, error: String((err && err.message) || err) });
    }
  });
});`;

type Pending = { resolve(encoded: string): void; reject(err: Error): void };
let worker: Worker | undefined;
const pending = new Map<number, Pending>();
let nextId = 0;

function hasher(): Worker {
  if (worker) return worker;
  const w = new Worker(WORKER_SOURCE, { eval: true });
  // Idle, it must not keep the process alive (tests, graceful shutdown).
  w.unref();
  w.on('message', ({ id, encoded, error }: { id: number; encoded?: string; error?: string }) => {
    const p = pending.get(id);
    pending.delete(id);
    if (!pending.size) w.unref();
    if (encoded) p?.resolve(encoded);
    else p?.reject(new Error(`argon2id failed: ${error}`));
  });
  const fail = (err: Error) => {
    if (worker === w) worker = undefined;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  w.on('error', fail);
  w.on('exit', (code) => fail(new Error(`the password hashing worker exited (${code})`)));
  worker = w;
  return w;
}

export function hashMailboxPassword(password: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const id = ++nextId;
    pending.set(id, { resolve: (encoded) => resolve(SCHEME + encoded), reject });
    const w = hasher();
    w.ref(); // while a hash is owed, the process waits for it
    w.postMessage({ id, password, salt: crypto.randomBytes(16), params: PARAMS });
  });
}

export async function verifyMailboxPassword(password: string, stored: string): Promise<boolean> {
  if (!stored.startsWith(SCHEME)) return false;
  try {
    // Loaded at the first check (mailbox passwords exist only with the mail servers attached).
    const { argon2Verify } = await import('hash-wasm');
    return await argon2Verify({ password, hash: stored.slice(SCHEME.length) });
  } catch {
    return false;
  }
}
