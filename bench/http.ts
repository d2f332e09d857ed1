// What the API benches share: the child process that serves the real app (or a bare Fastify
// route), started with fork and told to stop over IPC; autocannon's results as typed here; a JSON
// POST that throws on anything but 2xx, and number formatting.
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';

export interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Autocannon = (opts: Record<string, unknown>) => Promise<AutocannonResult>;
// autocannon ships no types; this is the part we use.
export const autocannon = require('autocannon') as Autocannon;

export async function post(base: string, p: string, body: unknown, headers: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const res = await fetch(base + p, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const json = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${p}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

export function fmt(n: number, digits = 0): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

/** The port a listening Fastify instance got. */
export const portOf = (f: { server: { address(): unknown } }): number => (f.server.address() as { port: number }).port;

/**
 * Forks `file` with `role` as its argument and resolves with the first message it sends (its
 * ready message); rejects when it exits first. execArgv: extra Node flags (a CPU profile).
 */
export async function startChild<R>(file: string, role: string, opts: { env?: NodeJS.ProcessEnv; execArgv?: string[] } = {}): Promise<{ child: ChildProcess; ready: R }> {
  const child = fork(file, [role], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env: opts.env ?? process.env, execArgv: [...process.execArgv, ...(opts.execArgv ?? [])] });
  const ready = await new Promise<R>((resolve, reject) => {
    child.once('message', (m) => resolve(m as R));
    child.once('exit', (code) => reject(new Error(`${role} exited with ${code}`)));
  });
  return { child, ready };
}

/** Tells a child started by startChild to stop, and waits until it is gone. */
export async function stopChild(child: ChildProcess): Promise<void> {
  child.send('stop');
  await new Promise((r) => child.once('exit', r));
}

/** In a child: runs `close` and exits when the parent says stop. */
export function onStop(close: () => Promise<void> = async () => undefined): void {
  process.on('message', async (m) => {
    if (m !== 'stop') return;
    await close();
    process.exit(0);
  });
}

/**
 * The real app in a temporary data dir (removed by close), listening on a free loopback port,
 * with logs off and TRUST_PROXY on (a bench may send X-Forwarded-For). env: the configuration
 * (DATABASE_URL set: PostgreSQL, else PGlite).
 */
export async function serveApp(name: string, env: NodeJS.ProcessEnv = process.env): Promise<{ app: FastifyInstance; close(): Promise<void> }> {
  const { buildApp } = await import('../server/src/app');
  const { loadConfig } = await import('../server/src/config');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `hostbase-bench-${name}-`));
  const config = loadConfig({ ...env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', TRUST_PROXY: '1' } as Record<string, string>);
  const app = await buildApp({ ...config, webDir: undefined }, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    close: async () => {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A bare Fastify route (GET /bare, a small JSON object) listening on a free loopback port: the floor the benches compare with. */
export async function serveBare(): Promise<FastifyInstance> {
  const { default: Fastify } = await import('fastify');
  const bare = Fastify({ logger: false });
  bare.get('/bare', async () => ({ id: '00000000-0000-4000-8000-000000000000', email: 'bench@example.com' }));
  await bare.listen({ port: 0, host: '127.0.0.1' });
  return bare;
}
