// A crash mid-deploy leaves nothing half done. The real server runs as a child process (through tsx,
// from the sources), is killed with SIGKILL while it extracts and stores a zip of a few thousand
// files, and is started again on the same DATA_DIR and database. Then the deployment is failed
// ("interrupted by a restart"), the previously live one still serves, no temp folder or partial
// archive is left, and the usage counts exactly what is stored. On PGlite (the `npm start`
// default) always, and on PostgreSQL too when DATABASE_URL is set.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../server/src/db/client';
import { templateName, testDriver, urlWithDatabase } from '../helpers/test-db';
import { makeZip } from './zips';
import { quietPort as freePort } from '../helpers/ports';

jest.setTimeout(240_000);

const root = path.resolve(__dirname, '..', '..');


interface Server {
  child: ChildProcess;
  base: string;
  output: () => string;
}

/** One process (node with tsx's loader, not the tsx wrapper) so SIGKILL reaches the server itself. */
async function startServer(env: Record<string, string>, port: number): Promise<Server> {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server/src/server.ts')], {
    cwd: root,
    env: { ...process.env, NODE_OPTIONS: '', PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: `http://127.0.0.1:${port}`, PASSWORD_HASH_COST: '10', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const base = `http://127.0.0.1:${port}`;
  for (const started = Date.now(); ; ) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`server exited (${child.exitCode ?? child.signalCode}):\n${output}`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() - started > 120_000) {
      child.kill('SIGKILL');
      throw new Error(`server did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { child, base, output: () => output };
}

function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
  });
}

async function api(base: string, p: string, body: unknown, token?: string) {
  const res = await fetch(`${base}/api${p}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as any };
}

function deploy(base: string, token: string, projectId: string, zip: Buffer) {
  const form = new FormData();
  form.set('type', 'Static');
  form.set('file', new Blob([new Uint8Array(zip)]), 'site.zip');
  return fetch(`${base}/api/project/${projectId}/upload-and-extract-zip/`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
}

/** GET a hosted site's page (the Host header picks the site). */
function siteGet(base: string, host: string, url = '/'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const u = new URL(url, base);
    const req = http.get({ hostname: u.hostname, port: u.port, path: u.pathname, headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });
}

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

const bytesUnder = (dir: string) => filesUnder(dir).reduce((n, f) => n + fs.statSync(path.join(dir, f)).size, 0);

/** A static site of `count` files: index.html with `title`, then small pages of random text. */
function siteZip(title: string, count: number): Buffer {
  const items = [{ name: 'index.html', data: `<!doctype html><title>${title}</title>` }];
  for (let i = 1; i < count; i++) items.push({ name: `pages/${i % 50}/p${i}.html`, data: crypto.randomBytes(3000).toString('base64') });
  return makeZip(items);
}

// PGlite always (the `npm start` default); PostgreSQL as well when the suite runs on it.
const drivers: ('pglite' | 'postgres')[] = testDriver() === 'postgres' ? ['pglite', 'postgres'] : ['pglite'];

describe.each(drivers)('SIGKILL mid-deploy, then a restart (%s)', (driver) => {
  let dataDir: string;
  let dbName: string | undefined;
  let server: Server | undefined;
  let env: Record<string, string>;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-crash-'));
    env = { DATA_DIR: dataDir, DATABASE_URL: '' };
    if (driver === 'postgres') {
      dbName = `hostbase_crash_${crypto.randomBytes(5).toString('hex')}`;
      const admin = await openDatabase({ databaseUrl: process.env.DATABASE_URL, migrate: false, poolSize: 1 });
      try {
        await admin.query(`CREATE DATABASE ${dbName} TEMPLATE ${templateName()}`);
      } finally {
        await admin.close();
      }
      env.DATABASE_URL = urlWithDatabase(process.env.DATABASE_URL!, dbName);
    }
  });

  afterAll(async () => {
    if (server && server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGKILL');
      await killed(server.child);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (dbName) {
      const admin = await openDatabase({ databaseUrl: process.env.DATABASE_URL, migrate: false, poolSize: 1 });
      try {
        await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      } finally {
        await admin.close();
      }
    }
  });

  it('fails the interrupted deployment, keeps the live site, leaves no temp files or partial archives, counts only what is stored', async () => {
    const port = await freePort();
    server = await startServer(env, port);
    const reg = await api(server.base, '/register', { name: 'Crash', email: `crash-${driver}@example.com`, password: 'correct horse battery' });
    expect(reg.status).toBe(200);
    const token = reg.json.token as string;
    const subdomain = `crash${driver}${Date.now().toString(36)}`;
    const project = (await api(server.base, '/create-project', { projectName: 'Crash', subdomain }, token)).json.project;
    const host = `${subdomain}.localhost:${port}`;

    const first = await deploy(server.base, token, project.id, siteZip('before the crash', 3));
    expect(first.status).toBe(200);
    const liveId = ((await first.json()) as any).deployment.id as string;
    expect((await siteGet(server.base, host)).body).toContain('<title>before the crash</title>');

    // The big deploy; SIGKILL once it is extracting (files appear in hosting/tmp/deploy-*).
    const tmp = path.join(dataDir, 'hosting', 'tmp');
    const big = siteZip('never live', 4000);
    const pending = deploy(server.base, token, project.id, big).then(
      (r) => `finished with ${r.status}`,
      () => 'cut off',
    );
    let seen: string[];
    for (let outcome: string | undefined; ; ) {
      seen = fs.existsSync(tmp) ? filesUnder(tmp).filter((f) => f.startsWith('deploy-')) : [];
      if (seen.length > 0) break;
      outcome = await Promise.race([pending, new Promise<undefined>((r) => setTimeout(r, 2))]);
      if (outcome) throw new Error(`the deploy ${outcome} before it could be killed mid-way`);
    }
    server.child.kill('SIGKILL');
    await killed(server.child);
    expect(await pending).toBe('cut off');
    // What the crash left: extracted files in a temp folder, and the upload's folder.
    expect(seen.length).toBeGreaterThan(0);
    expect(fs.readdirSync(tmp).some((d) => d.startsWith('upload-'))).toBe(true);

    server = await startServer(env, port);
    const history = (await api(server.base, `/project/${project.id}/deployments`, {}, token)).json;
    expect(history.live_deployment_id).toBe(liveId);
    const interrupted = history.deployments[0];
    expect(interrupted.id).not.toBe(liveId);
    expect(interrupted).toMatchObject({ status: 'failed', live: false, error: 'interrupted by a restart' });
    const logs = (await api(server.base, `/project/${project.id}/deployments/${interrupted.id}/logs`, {}, token)).json;
    expect(logs.build_log).toContain('Failed: interrupted by a restart');
    const sites = (await api(server.base, '/hosting/sites', {}, token)).json;
    expect(sites.find((s: { project_id: string }) => s.project_id === project.id)).toMatchObject({ status: 'live', deployment_id: liveId });

    const page = await siteGet(server.base, host);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>before the crash</title>');

    // Nothing of the interrupted deploy is left: no temp folder, no (partial) archive, no cache.
    expect(fs.readdirSync(tmp)).toEqual([]);
    expect(filesUnder(path.join(dataDir, 'storage', 'tmp'))).toEqual([]);
    const objects = path.join(dataDir, 'storage', 'objects');
    expect(filesUnder(path.join(objects, 'sites'))).toEqual([`${project.id}/${liveId}/archive.zip`]);
    expect(fs.readdirSync(path.join(dataDir, 'hosting', 'cache'))).toEqual([liveId]);

    // Usage: exactly the live deployment's archive and extracted files.
    const stored = fs.statSync(path.join(objects, 'sites', project.id, liveId, 'archive.zip')).size + bytesUnder(path.join(dataDir, 'hosting', 'cache', liveId));
    const usage = (await api(server.base, `/project/${project.id}/object-storage/files`, { page: 1 }, token)).json;
    expect(usage).toMatchObject({ hosting_bytes: stored, files_bytes: 0, usage_bytes: stored });

    // And the platform deploys again after the crash.
    const again = await deploy(server.base, token, project.id, siteZip('after the restart', 50));
    expect(again.status).toBe(200);
    expect((await siteGet(server.base, host)).body).toContain('<title>after the restart</title>');
  });
});
