// What the process benches share: a real server process (`node dist/server/src/server.js` with the
// flags and environment `npm start` gives it, scripts/server-process.mjs; or the sources through
// tsx when dist/ is missing or BENCH_SERVER=tsx), its memory from /proc, and a PostgreSQL
// database of the bench's own.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { freePort } from '../test/helpers/platform-process';
// @ts-expect-error -- a plain .mjs shared with scripts/start.mjs (tsx loads it)
import { SERVER_ENTRY, SERVER_ENV, SERVER_NODE_FLAGS } from '../scripts/server-process.mjs';

const ROOT = path.resolve(__dirname, '..');
const DIST_SERVER = path.join(ROOT, SERVER_ENTRY);

export { freePort };

/** kB figures of /proc/<pid>/status: VmRSS now, VmHWM the peak since start. */
export function memory(pid: number): { rss: number; hwm: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

export interface Server {
  child: ChildProcess;
  port: number;
  mode: string;
  output: () => string;
}

/**
 * The server as `npm start` runs it. opts.discardOutput: its stdout (the log) goes to /dev/null
 * rather than into memory here, for load benches that keep logging on at its default level.
 */
export async function startServer(dataDir: string, databaseUrl?: string, env: Record<string, string> = {}, opts: { discardOutput?: boolean } = {}): Promise<Server> {
  const port = await freePort();
  const useDist = process.env.BENCH_SERVER ? process.env.BENCH_SERVER === 'dist' : fs.existsSync(DIST_SERVER);
  // tsx by its file URL: the server runs from the temp dir, where a bare 'tsx' does not resolve.
  const entry = useDist ? [DIST_SERVER] : ['--import', pathToFileURL(require.resolve('tsx')).href, path.join(ROOT, 'server', 'src', 'server.ts')];
  const extra = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...extra, ...entry], {
    cwd: os.tmpdir(),
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      // As `npm start` (BENCH_MALLOC_ARENA_MAX='' for glibc's default arenas).
      ...(process.env.BENCH_MALLOC_ARENA_MAX === '' ? {} : { ...SERVER_ENV, ...(process.env.BENCH_MALLOC_ARENA_MAX ? { MALLOC_ARENA_MAX: process.env.BENCH_MALLOC_ARENA_MAX } : {}) }),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      PASSWORD_HASH_COST: '12',
      ...env,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
    stdio: ['ignore', opts.discardOutput ? 'ignore' : 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (c) => (out += c));
  child.stderr!.on('data', (c) => (out += c));
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${out}`);
    const up = await fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.ok, () => false);
    if (up) break;
    if (i > 1200) throw new Error(`server did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, port, mode: useDist ? 'dist' : 'tsx', output: () => out };
}

export async function stopServer(s: Server): Promise<void> {
  if (s.child.exitCode !== null) return;
  const exited = new Promise((r) => s.child.once('exit', r));
  s.child.kill('SIGTERM');
  await exited;
}

/** A database of the bench's own on DATABASE_URL's server, dropped afterwards. */
export async function benchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const { Client } = await import('pg');
  const name = `hostbase_bench_${crypto.randomBytes(4).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

