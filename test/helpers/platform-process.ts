// Real platform processes for the tests that need them (several instances, graceful shutdown,
// kill -9 faults) and the benches: `node --import tsx server/src/server.ts` with an environment
// of the caller's choosing, so the recorded pid is the server's own (signals reach it, not a
// wrapper's). `group: true` gives it a process group of its own, which kill9() ends whole.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { request } from './http-request';

const root = path.resolve(__dirname, '..', '..');
const serverTs = path.join(root, 'server/src/server.ts');

/** A port for a platform about to start (below the ephemeral range: helpers/ports.ts says why). */
export { quietPort as freePort } from './ports';

export interface Platform {
  child: ChildProcess;
  port: number;
  exited: Promise<number | null>;
  /** Leads a process group of its own (kill9 ends the whole group). */
  group: boolean;
  output(): string;
}

/** Starts a platform on `port` and waits until /api/health answers (a start that fails throws with its output). */
export async function startPlatform(env: Record<string, string>, port: number, options: { group?: boolean } = {}): Promise<Platform> {
  const child = spawn(process.execPath, ['--import', 'tsx', serverTs], {
    // As `npm run dev` runs it: its workers resolve tsx from the repository.
    cwd: root,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root', HOST: '127.0.0.1', LOG_LEVEL: 'warn', PASSWORD_HASH_COST: '12', SITE_EGRESS: 'none', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.group ?? false,
  });
  let output = '';
  child.stdout!.on('data', (c) => (output += c));
  child.stderr!.on('data', (c) => (output += c));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const platform = { child, port, exited, group: options.group ?? false, output: () => output };
  for (let i = 0; i < 480; i++) {
    if (child.exitCode !== null) break;
    const up = await request(port, 'GET', '/api/health').then((r) => r.status === 200, () => false);
    if (up) return platform;
    await new Promise((r) => setTimeout(r, 250));
  }
  await kill9(platform);
  throw new Error(`the platform did not start on port ${port}:\n${output.slice(-4000)}`);
}

/** SIGTERM, and SIGKILL when it has not exited within 30 s. */
export async function stopPlatform(p: Platform | undefined): Promise<void> {
  if (!p || p.child.exitCode !== null || p.child.signalCode !== null) return;
  p.child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const done = await Promise.race([p.exited.then(() => true), new Promise((r) => (timer = setTimeout(() => r(false), 30_000)))]);
  clearTimeout(timer);
  if (!done) p.child.kill('SIGKILL');
}

/** A crash: SIGKILL to the server (to its whole group when it has one), resolved once it is gone. */
export async function kill9(p: Platform): Promise<void> {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return;
  const gone = p.exited.then(() => undefined);
  if (p.group) process.kill(-p.child.pid!, 'SIGKILL');
  else p.child.kill('SIGKILL');
  await gone;
}
