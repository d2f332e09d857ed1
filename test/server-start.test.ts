// A newcomer copies .env.example to .env and starts the server from that directory: its values
// are used, the environment's own values win over the file's, and a malformed file stops the
// start with the line to fix (and never prints what the line holds).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase, testDriver, urlWithDatabase, type TestDatabase } from './helpers/test-db';
import { request } from './helpers/http-request';
import { quietPort as freePort } from './helpers/ports';

const root = path.resolve(__dirname, '..');
const tsx = path.join(root, 'node_modules/.bin/tsx');
const serverTs = path.join(root, 'server/src/server.ts');


function startIn(dir: string, env: Record<string, string>) {
  const child = spawn(tsx, [serverTs], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (c) => (out.stdout += c));
  child.stderr.on('data', (c) => (out.stderr += c));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return { child, out, exited };
}

let pg: TestDatabase | undefined;
afterAll(async () => {
  await pg?.drop();
});

test('values come from the .env of the start directory; the environment wins over the file', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-dotenv-'));
  const port = await freePort();
  pg = testDriver() === 'postgres' ? await createTestDatabase() : undefined;
  const lines = [
    '# copied from .env.example',
    `PORT=${port}`,
    'DATA_DIR=./data',
    'PUBLIC_URL=http://from-dotenv.example',
    'PASSWORD_HASH_COST=12',
    ...(pg ? [`DATABASE_URL="${urlWithDatabase(process.env.DATABASE_URL!, pg.name)}"`] : []),
  ];
  fs.writeFileSync(path.join(dir, '.env'), lines.join('\n') + '\n');

  const server = startIn(dir, { PUBLIC_URL: 'http://from-environment.example' });
  try {
    let up = false;
    for (let i = 0; i < 240 && !up && server.child.exitCode === null; i++) {
      up = await request(port, 'GET', '/api/health').then((r) => r.status === 200, () => false);
      if (!up) await new Promise((r) => setTimeout(r, 250));
    }
    if (!up) throw new Error(`the server did not start on the .env's PORT:\n${server.out.stdout}${server.out.stderr}`);

    expect(fs.existsSync(path.join(dir, 'data', 'jwt-secret'))).toBe(true);
    // Not a terminal: JSON lines, one of them the start line with the environment's PUBLIC_URL.
    const started = server.out.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { msg?: string; publicUrl?: string })
      .find((l) => l.msg?.startsWith('Hostbase is up'));
    expect(started?.publicUrl).toBe('http://from-environment.example');
    expect(started?.msg).not.toContain('from-dotenv');
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
}, 120_000);

test('a malformed .env stops the start with its line number, exit code 1, and none of its contents', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-dotenv-'));
  fs.writeFileSync(path.join(dir, '.env'), 'PORT=1\nJWT_SECRET s3cr3t-value\n');
  const server = startIn(dir, { DATA_DIR: path.join(dir, 'data') });
  try {
    const ended = await Promise.race([server.exited, new Promise((r) => setTimeout(() => r('still running'), 30_000))]);
    expect(ended).toBe(1);
    expect(server.out.stderr).toContain(`${path.join(dir, '.env')}: line 2 is not NAME=value`);
    expect(server.out.stderr).not.toContain('s3cr3t-value');
    expect(server.out.stderr).not.toMatch(/\n\s+at /);
    expect(server.out.stdout).toBe('');
  } finally {
    if (server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }
}, 60_000);
