// The path a new user takes: `npm start` (scripts/start.mjs) with no configuration at all (embedded
// PGlite, files on disk, no site user created by hand). A hostile Node site sees neither root nor
// the platform's identity, nor the secret or the data directory, nor PostgreSQL. Ten Ctrl-Cs at
// the terminal's process group stop the platform and every site it started; a kill -9 of the
// server takes its sites down with it, and the next start sweeps what they left.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { probeSandbox } from '../../server/src/modules/hosting/runtime/sandbox';
import { makeZip, multipart } from './zips';
import { createTestDatabase, testDriver, urlWithDatabase } from '../helpers/test-db';
import { request } from '../helpers/http-request';

const root = path.resolve(__dirname, '..', '..');
const sandboxed = probeSandbox().ok;
const RUN_ROOT = path.join(os.tmpdir(), `hostbase-sites-${process.getuid!()}`);
const PIDS_CGROUP = '/sys/fs/cgroup/pids/hostbase';
const CGROUP_ROOT = fs.existsSync('/sys/fs/cgroup/cgroup.controllers') ? '/sys/fs/cgroup/hostbase' : PIDS_CGROUP;

interface Platform {
  child: ChildProcess;
  port: number;
  exited: Promise<number | null>;
}

const json = (port: number, url: string, body: unknown, token?: string) =>
  request(port, 'POST', url, JSON.stringify(body), { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) });

async function startPlatform(dataDir: string, port: number, databaseUrl?: string): Promise<Platform> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root', PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', PASSWORD_HASH_COST: '12' };
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  // Its own process group, as a terminal gives `npm start`: signals go to the whole group.
  const child = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (c) => (output += c));
  child.stderr!.on('data', (c) => (output += c));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  for (let i = 0; i < 600; i++) {
    try {
      if ((await request(port, 'GET', '/api/health')).status === 200) return { child, port, exited };
    } catch {
      /* not up yet */
    }
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill('SIGKILL');
  throw new Error(`the platform did not start:\n${output}`);
}

/** The probe: what a hosted site can see of the platform. */
const probe = (dataDir: string) => `
const http = require('http'), fs = require('fs'), net = require('net'), { execSync } = require('child_process');
const code = (f) => { try { f(); return 'read'; } catch (e) { return e.code; } };
http.createServer((req, res) => {
  const out = { id: execSync('id').toString().trim(), uid: process.getuid(), secret: code(() => fs.readFileSync(${JSON.stringify(path.join(dataDir, 'jwt-secret'))})), ls: code(() => fs.readdirSync(${JSON.stringify(dataDir)})) };
  const s = net.connect(5432, '127.0.0.1');
  s.on('connect', () => { s.destroy(); out.pg = 'connected'; res.end(JSON.stringify(out)); });
  s.on('error', (e) => { out.pg = e.code; res.end(JSON.stringify(out)); });
}).listen(process.env.PORT);
`;

const sitePids = (deploymentId: string): { group: string; pids: number[] } | undefined => {
  const group = fs.readdirSync(CGROUP_ROOT).find((n) => n.endsWith(deploymentId));
  if (!group) return undefined;
  const pids = fs.readFileSync(path.join(CGROUP_ROOT, group, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);
  return { group, pids };
};
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
async function until(check: () => boolean, tries = 100): Promise<boolean> {
  for (let i = 0; i < tries; i++) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
}

/**
 * What a new user's machine gives `npm start`: an empty DATA_DIR, a free port, and, in the
 * PostgreSQL pass, a fresh database of its own (the PGlite pass is `npm start` with no configuration).
 */
async function freshMachine() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-start-'));
  const port = 20000 + Math.floor(Math.random() * 20000);
  const pg = testDriver() === 'postgres' ? await createTestDatabase() : undefined;
  const databaseUrl = pg ? urlWithDatabase(process.env.DATABASE_URL!, pg.name) : undefined;
  return { dataDir, port, pg, databaseUrl };
}

(sandboxed ? test : test.skip)('npm start on a fresh machine: sandboxed sites, stopped by Ctrl-C bursts and by the death of the server', async () => {
  const { dataDir, port, pg, databaseUrl } = await freshMachine();
  let platform = await startPlatform(dataDir, port, databaseUrl);
  try {
    const email = `new-${Date.now()}@example.com`;
    const reg = await json(port, '/api/register', { name: 'New User', email, password: 'Tq8#vLm2-ZpWx9rK' });
    expect(reg.status).toBe(200);
    const token = JSON.parse(reg.body).token as string;
    const subdomain = `fresh${Date.now().toString(36)}`;
    const created = await json(port, '/api/create-project', { projectName: 'Fresh', subdomain }, token);
    expect(created.status).toBe(200);
    const projectId = JSON.parse(created.body).project.id as string;
    const form = multipart({ domain: `${subdomain}.localhost:${port}`, projectId, type: 'Node' }, { data: makeZip([{ name: 'server.js', data: probe(dataDir) }]) });
    const deployed = await request(port, 'POST', `/api/project/${projectId}/upload-and-extract-zip/`, form.payload, { ...form.headers, authorization: `Bearer ${token}` });
    expect(deployed.status).toBe(200);
    const deploymentId = JSON.parse(deployed.body).deployment.id as string;

    // The acceptance of the sandbox issue, on the default path.
    const seen = JSON.parse((await request(port, 'GET', '/', undefined, { host: `${subdomain}.localhost:${port}` })).body);
    expect(seen.uid).not.toBe(0);
    expect(seen.uid).not.toBe(process.getuid?.());
    expect(seen.id).not.toMatch(/uid=0\(/);
    expect(['EACCES', 'ENOENT']).toContain(seen.secret);
    expect(['EACCES', 'ENOENT']).toContain(seen.ls);
    expect(seen.pg).toBe('ECONNREFUSED');
    // The data directory is the platform's alone, PGlite's files included.
    expect(fs.statSync(dataDir).mode & 0o077).toBe(0);
    if (!pg) expect(fs.statSync(path.join(dataDir, 'pglite', 'global', 'pg_control')).mode & 0o077).toBe(0);

    // Ten Ctrl-Cs in a row at the whole process group.
    const before = sitePids(deploymentId)!;
    expect(before.pids.length).toBeGreaterThan(0);
    const serverPid = Number(before.group.split('-')[0]);
    for (let i = 0; i < 10; i++) process.kill(-platform.child.pid!, 'SIGINT');
    await platform.exited;
    expect(await until(() => before.pids.every((p) => !alive(p)) && !alive(serverPid))).toBe(true);
    expect(sitePids(deploymentId)).toBeUndefined();
    expect(fs.readdirSync(RUN_ROOT).filter((n) => n.startsWith(`${serverPid}-`))).toEqual([]);

    // Start again; the live site comes back on its first request. Then kill -9 the server alone.
    platform = await startPlatform(dataDir, port, databaseUrl);
    expect(JSON.parse((await request(port, 'GET', '/', undefined, { host: `${subdomain}.localhost:${port}` })).body).pg).toBe('ECONNREFUSED');
    const running = sitePids(deploymentId)!;
    const killedServer = Number(running.group.split('-')[0]);
    process.kill(killedServer, 'SIGKILL');
    await platform.exited;
    // The sandbox dies with its parent; its folder and control group stay until the next start
    // (of any platform on this machine: another one starting meanwhile may sweep them first, so
    // only their absence after this start is asserted).
    expect(await until(() => running.pids.every((p) => !alive(p)))).toBe(true);
    platform = await startPlatform(dataDir, port, databaseUrl);
    expect(await until(() => !fs.readdirSync(RUN_ROOT).some((n) => n.startsWith(`${killedServer}-`)) && !fs.readdirSync(CGROUP_ROOT).some((n) => n.startsWith(`${killedServer}-`)))).toBe(true);
  } finally {
    if (platform.child.exitCode === null) {
      process.kill(-platform.child.pid!, 'SIGTERM');
      await platform.exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
    await pg?.drop();
  }
}, 300_000);

(sandboxed ? test : test.skip)('kill -9 of npm start (scripts/start.mjs): the server it started shuts down and no site process remains', async () => {
  const { dataDir, port, pg, databaseUrl } = await freshMachine();
  const platform = await startPlatform(dataDir, port, databaseUrl);
  try {
    const reg = await json(port, '/api/register', { name: 'New User', email: `kill-${Date.now()}@example.com`, password: 'Tq8#vLm2-ZpWx9rK' });
    const token = JSON.parse(reg.body).token as string;
    const subdomain = `kill${Date.now().toString(36)}`;
    const projectId = JSON.parse((await json(port, '/api/create-project', { projectName: 'Kill', subdomain }, token)).body).project.id as string;
    // A site with its own variable, and a child process of its own (a second pid to watch).
    const server = `require('child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
require('http').createServer((q, r) => r.end(process.env.GREETING)).listen(process.env.PORT);`;
    expect((await json(port, `/api/project/${projectId}/hosting/env/set`, { variables: [{ name: 'GREETING', value: 'still here' }] }, token)).status).toBe(200);
    const form = multipart({ type: 'Node' }, { data: makeZip([{ name: 'server.js', data: server }]) });
    const deployed = await request(port, 'POST', `/api/project/${projectId}/upload-and-extract-zip/`, form.payload, { ...form.headers, authorization: `Bearer ${token}` });
    expect(deployed.status).toBe(200);
    const deploymentId = JSON.parse(deployed.body).deployment.id as string;
    expect((await request(port, 'GET', '/', undefined, { host: `${subdomain}.localhost:${port}` })).body).toBe('still here');
    const running = sitePids(deploymentId)!;
    expect(running.pids.length).toBeGreaterThanOrEqual(3); // relay, site, its child
    const serverPid = Number(running.group.split('-')[0]);
    expect(serverPid).not.toBe(platform.child.pid);

    // kill -9 of start.mjs alone (not its group): nothing forwards a signal.
    process.kill(platform.child.pid!, 'SIGKILL');
    await platform.exited;
    expect(await until(() => !alive(serverPid) && running.pids.every((p) => !alive(p)), 200)).toBe(true);
    expect(sitePids(deploymentId)).toBeUndefined(); // stopped in order: its control group is gone too
  } finally {
    try {
      process.kill(-platform.child.pid!, 'SIGKILL');
    } catch {
      /* gone */
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
    await pg?.drop();
  }
}, 300_000);

(sandboxed ? test : test.skip)('kill -9 of the server during a build from source: the build dies with it and fails at the next start; the live site stays', async () => {
  const { dataDir, port, pg, databaseUrl } = await freshMachine();
  let platform = await startPlatform(dataDir, port, databaseUrl);
  try {
    const reg = await json(port, '/api/register', { name: 'New User', email: `build-${Date.now()}@example.com`, password: 'Tq8#vLm2-ZpWx9rK' });
    const token = JSON.parse(reg.body).token as string;
    const subdomain = `bld${Date.now().toString(36)}`;
    const host = { host: `${subdomain}.localhost:${port}` };
    const projectId = JSON.parse((await json(port, '/api/create-project', { projectName: 'Build', subdomain }, token)).body).project.id as string;
    const upload = (files: { name: string; data: string }[]) => {
      const form = multipart({ type: 'Static' }, { data: makeZip(files) });
      return request(port, 'POST', `/api/project/${projectId}/upload-and-extract-zip/`, form.payload, { ...form.headers, authorization: `Bearer ${token}` });
    };
    expect((await upload([{ name: 'index.html', data: '<h1>before the build</h1>' }])).status).toBe(200);
    expect((await json(port, `/api/project/${projectId}/hosting/build-settings/set`, { build_command: 'sleep 600', output_directory: 'public' }, token)).status).toBe(200);
    const started = await upload([{ name: 'package.json', data: '{"name":"slow"}' }]);
    expect(started.status).toBe(202);
    const deploymentId = JSON.parse(started.body).deployment.id as string;
    // The build's processes, once its sandbox runs.
    let build: { group: string; pids: number[] } | undefined;
    expect(await until(() => (build = sitePids(deploymentId)) !== undefined && build.pids.length > 0, 300)).toBe(true);
    const serverPid = Number(fs.readFileSync(`/proc/${platform.child.pid}/task/${platform.child.pid}/children`, 'utf8').trim().split(/\s+/)[0]);
    expect(serverPid).toBeGreaterThan(0);

    process.kill(serverPid, 'SIGKILL');
    await platform.exited;
    expect(await until(() => build!.pids.every((p) => !alive(p)), 200)).toBe(true);

    platform = await startPlatform(dataDir, port, databaseUrl);
    const { deployments, live_deployment_id: liveId } = JSON.parse((await json(port, `/api/project/${projectId}/deployments`, {}, token)).body);
    const interrupted = deployments.find((d: { id: string }) => d.id === deploymentId);
    expect(interrupted).toMatchObject({ status: 'failed', error: 'interrupted by a restart' });
    expect(liveId).not.toBe(deploymentId);
    expect((await request(port, 'GET', '/', undefined, host)).body).toContain('before the build');
    // Its control group went with the next start's sweep.
    expect(await until(() => sitePids(deploymentId) === undefined, 100)).toBe(true);
  } finally {
    try {
      process.kill(-platform.child.pid!, 'SIGKILL');
    } catch {
      /* gone */
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
    await pg?.drop();
  }
}, 300_000);
