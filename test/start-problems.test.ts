// What an operator sees when the start can't go on: one line on stderr naming the setting to
// change (PORT, DATABASE_URL), never a password, never Node's stack, and exit code 1. The real
// server in a child process, as `npm run dev` starts it.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase, testDriver, urlWithDatabase, type TestDatabase } from './helpers/test-db';
import { quietPort } from './helpers/ports';

const root = path.resolve(__dirname, '..');
const serverTs = path.join(root, 'server/src/server.ts');

/** Runs the server until it exits (or 90 s pass): its exit code and output. */
function runServer(env: Record<string, string>): Promise<{ code: number | null | 'still running'; stdout: string; stderr: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-start-'));
  const child = spawn(process.execPath, ['--import', 'tsx', serverTs], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root', DATA_DIR: dataDir, PASSWORD_HASH_COST: '12', SITE_EGRESS: 'none', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve({ code: 'still running', stdout, stderr });
    }, 90_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const STACK = /\n\s+at /;

let pg: TestDatabase | undefined;
afterAll(async () => {
  await pg?.drop();
});

test('a busy port: one line naming PORT and the process holding it, exit 1, no stack; nothing warned before it', async () => {
  const port = await quietPort();
  const holder = net.createServer();
  await new Promise<void>((r) => holder.listen(port, '127.0.0.1', r));
  pg = testDriver() === 'postgres' ? await createTestDatabase() : undefined;
  try {
    const run = await runServer({ PORT: String(port), HOST: '127.0.0.1', ...(pg ? { DATABASE_URL: urlWithDatabase(process.env.DATABASE_URL!, pg.name) } : {}) });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`hostbase: port ${port} is already in use by pid ${process.pid}`);
    expect(run.stderr).toContain('set PORT to a free port');
    expect(run.stderr).not.toContain('EADDRINUSE');
    expect(run.stderr).not.toMatch(STACK);
    // The start before it was clean: no framework warnings; what is logged at warn or above is
    // the host's missing packages for hosting (this machine may lack bubblewrap), one line each.
    const loud = run.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { level: number; msg: string })
      .filter((l) => l.level >= 40);
    expect(loud.filter((l) => !l.msg.startsWith('hosting: '))).toEqual([]);
    expect(run.stdout).not.toContain('ContentTypeParser');
  } finally {
    holder.close();
  }
}, 120_000);

test('an unreachable DATABASE_URL: named, its password hidden, what was tried, exit 1, no stack', async () => {
  const closed = await quietPort();
  const run = await runServer({ PORT: String(await quietPort()), DATABASE_URL: `postgres://hostbase:pa55-w0rd-secret@127.0.0.1:${closed}/shop` });
  expect(run.code).toBe(1);
  expect(run.stderr).toContain(`DATABASE_URL=postgres://hostbase:***@127.0.0.1:${closed}/shop`);
  expect(run.stderr).toContain(`127.0.0.1:${closed} (connection refused`);
  expect(`${run.stdout}${run.stderr}`).not.toContain('pa55-w0rd-secret');
  expect(run.stderr).not.toMatch(STACK);
}, 120_000);

test('a malformed DATABASE_URL: named with its password hidden before anything connects, exit 1', async () => {
  const run = await runServer({ PORT: String(await quietPort()), DATABASE_URL: 'postgres//hostbase:pa55-w0rd-secret@db' });
  expect(run.code).toBe(1);
  expect(run.stderr).toContain('hostbase: DATABASE_URL is not a PostgreSQL URL');
  expect(run.stderr).toContain('hostbase:***@db');
  expect(`${run.stdout}${run.stderr}`).not.toContain('pa55-w0rd-secret');
  expect(run.stderr).not.toMatch(STACK);
}, 120_000);
