// Starts the real platform (API + built console) on a free port with a throw-away data dir.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { quietPort as freePort } from '../../helpers/ports';

export const root = path.resolve(__dirname, '..', '..', '..');

export interface RunningServer {
  url: string;
  dataDir: string;
  stop: () => Promise<void>;
  log: () => string;
}


function newestMtime(p: string): number {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(0, ...fs.readdirSync(p).map((e) => newestMtime(path.join(p, e))));
}

/** Builds web/dist when it is missing or older than the web sources. */
export function ensureWebBuild(): void {
  const index = path.join(root, 'web/dist/index.html');
  const sources = ['web/src', 'web/index.html', 'web/vite.config.mts', 'web/after-build.mts', 'web/prerender.mts', 'web/precompress.mts', 'web/public', 'docs'].map((p) => newestMtime(path.join(root, p)));
  if (fs.existsSync(index) && fs.statSync(index).mtimeMs >= Math.max(...sources)) return;
  const r = spawnSync(path.join(root, 'node_modules/.bin/vite'), ['build', '--config', 'web/vite.config.mts', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (r.status !== 0) throw new Error('vite build failed');
}

export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  ensureWebBuild();
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-e2e-'));
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  // The server from its sources through tsx (never a stale build); E2E_FROM_DIST=1 runs dist/.
  const built = path.join(root, 'dist/server/src/server.js');
  const useBuilt = process.env.E2E_FROM_DIST === '1' && fs.existsSync(built);
  const [cmd, args] = useBuilt
    ? [process.execPath, [built]]
    : [path.join(root, 'node_modules/.bin/tsx'), [path.join(root, 'server/src/server.ts')]];
  const child: ChildProcess = spawn(cmd, args, {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      PASSWORD_HASH_COST: '10',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));

  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${output}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start in 90 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }

  return {
    url,
    dataDir,
    log: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.once('exit', () => {
          clearTimeout(timer);
          fs.rmSync(dataDir, { recursive: true, force: true });
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}
