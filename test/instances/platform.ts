// Real platform processes for the several-instances and shutdown tests: `node --import tsx server/src/server.ts`
// with an environment of the test's choosing, plain HTTP requests that also answer headers, and
// the pids of a hosted site's processes (its control group).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..');
const serverTs = path.join(root, 'server/src/server.ts');

export interface Platform {
  child: ChildProcess;
  port: number;
  exited: Promise<number | null>;
  output(): string;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export function send(port: number, method: string, url: string, body?: Buffer | string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    // No keep-alive: every request is a new connection (the balancer picks per request anyway).
    const req = http.request({ host: '127.0.0.1', port, method, path: url, headers: { connection: 'close', ...headers }, agent: false }, (res) => {
      let data = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (data += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: data }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

export const json = (port: number, url: string, body: unknown, token?: string, headers: Record<string, string> = {}) =>
  send(port, 'POST', url, JSON.stringify(body), { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers });

export async function startPlatform(env: Record<string, string>, port: number): Promise<Platform> {
  // Node itself with tsx's loader: the recorded pid is the server's (signals reach it, not a wrapper).
  const child = spawn(process.execPath, ['--import', 'tsx', serverTs], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root', PORT: String(port), LOG_LEVEL: 'warn', PASSWORD_HASH_COST: '12', SITE_EGRESS: 'none', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c) => (output += c));
  child.stderr!.on('data', (c) => (output += c));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  for (let i = 0; i < 480; i++) {
    if (child.exitCode !== null) break;
    const up = await send(port, 'GET', '/api/health').then((r) => r.status === 200, () => false);
    if (up) return { child, port, exited, output: () => output };
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill('SIGKILL');
  throw new Error(`the platform did not start on port ${port}:\n${output}`);
}

export async function stopPlatform(p: Platform | undefined): Promise<void> {
  if (!p || p.child.exitCode !== null || p.child.signalCode !== null) return;
  p.child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const done = await Promise.race([p.exited.then(() => true), new Promise((r) => (timer = setTimeout(() => r(false), 30_000)))]);
  clearTimeout(timer);
  if (!done) p.child.kill('SIGKILL');
}

export async function until(check: () => boolean | Promise<boolean>, tries = 100, everyMs = 100): Promise<boolean> {
  for (let i = 0; i < tries; i++) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return check();
}

export const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const CGROUP_ROOT = fs.existsSync('/sys/fs/cgroup/cgroup.controllers') ? '/sys/fs/cgroup/hostbase' : '/sys/fs/cgroup/pids/hostbase';

/**
 * Every control group (and its pids) of a deployment's site on this machine, whichever platform
 * process started it: a group is named `{platform pid}-{n}-{deploymentId}` (runtime.process.ts).
 */
export function siteGroups(deploymentId: string): { group: string; serverPid: number; pids: number[] }[] {
  const names = fs.existsSync(CGROUP_ROOT) ? fs.readdirSync(CGROUP_ROOT).filter((n) => n.endsWith(deploymentId)) : [];
  return names.map((group) => ({
    group,
    serverPid: Number(group.split('-')[0]),
    pids: fs.readFileSync(path.join(CGROUP_ROOT, group, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number),
  }));
}
