// Two platform processes behind Debian's nginx (the shape of a platform on several machines): one PostgreSQL database, one S3 server
// (s3rver), two DATA_DIRs, two ports, and a round-robin balancer on loopback that names the
// instance of each answer (X-Upstream, nginx's $upstream_addr). The API journey runs through the
// balancer with consecutive requests on different instances: signed in on one and used on the
// other, uploaded on one and downloaded on the other, a site deployed on one and served by both,
// sign-in failures counted across both, an MFA code used on one refused on the other. A Node site
// runs once (SITE_RUNNER=lease): both instances answer with the same process, whose log both show.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { generate } from 'otplib';
import { peerTokenOf } from '../../server/src/modules/hosting/runtime/runtime.leased';
import { probeSandbox } from '../../server/src/modules/hosting/runtime/sandbox';
import { createTestDatabase, testDriver, urlWithDatabase, type TestDatabase } from '../helpers/test-db';
import { multipart as form } from '../helpers/factories';
import { makeZip, multipart } from '../hosting/zips';
import { alive, freePort, send, siteGroups, startPlatform, stopPlatform, until, type Answer, type Platform } from './platform';

const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => fs.existsSync(p));
const onPostgres = testDriver() === 'postgres';
// Under CI the balancer must be there (.ci/run installs nginx): a missing one fails, never skips.
const run = onPostgres && (NGINX !== undefined || process.env.CI);
if (!onPostgres) console.log('test/instances/load-balanced: skipped on PGlite (one process\'s embedded database cannot be shared by two instances)');
else if (!run) console.log('test/instances/load-balanced: skipped: nginx is not installed (apt-get install nginx); CI runs it');
const sandboxed = probeSandbox().ok;

// s3rver is CommonJS and ships no types; this is the little of it the test uses.
interface S3rverServer {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
}
const S3rver = require('s3rver') as new (opts: Record<string, unknown>) => S3rverServer;

const nodeSite = `
const http = require('http');
const me = require('crypto').randomUUID();
const server = http.createServer((req, res) => {
  console.log('request ' + req.url + ' for ' + req.headers['x-forwarded-for']);
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ process: me, url: req.url, peer: req.headers['x-hostbase-peer'] || null }));
});
// A WebSocket upgrade answers 101, then (raw, no frames: the tunnel passes bytes) its process and what it was told, and closes.
server.on('upgrade', (req, socket) => {
  socket.end('HTTP/1.1 101 Switching Protocols\\r\\nUpgrade: websocket\\r\\nConnection: Upgrade\\r\\n\\r\\n' + JSON.stringify({ process: me, peer: req.headers['x-hostbase-peer'] || null }));
});
server.listen(process.env.PORT);
`;

/** An upgrade (as a WebSocket starts) straight to one instance's port: the status and the bytes after it. */
function upgrade(port: number, host: string): Promise<{ status: number; data: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: '/ws', agent: false, headers: { host, connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' } });
    req.on('upgrade', (res, socket, head) => {
      let data = head.toString();
      socket.on('data', (c: Buffer) => (data += c.toString()));
      socket.on('close', () => resolve({ status: res.statusCode ?? 0, data }));
      socket.on('error', reject);
    });
    req.on('response', (res) => {
      let data = '';
      res.on('data', (c: Buffer) => (data += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, data }));
    });
    req.on('error', reject);
    req.end();
  });
}

let work: string;
let pg: TestDatabase | undefined;
let s3: S3rverServer | undefined;
let nginx: ChildProcess | undefined;
const platforms: Platform[] = [];
let lb = 0;

afterAll(async () => {
  await Promise.all(platforms.map((p) => stopPlatform(p)));
  if (nginx && nginx.exitCode === null) {
    const gone = new Promise((r) => nginx!.once('exit', r));
    nginx.kill('SIGQUIT');
    await gone;
  }
  await s3?.close();
  await pg?.drop();
  if (work) fs.rmSync(work, { recursive: true, force: true });
}, 60_000);

function nginxConfig(dir: string, port: number, upstreams: number[]): string {
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((n) => `${n}_temp_path ${path.join(dir, n)};`).join('\n  ');
  return `
worker_processes 1;
daemon off;
pid ${path.join(dir, 'nginx.pid')};
error_log ${path.join(dir, 'error.log')} warn;
${process.getuid?.() === 0 ? 'user root;' : ''}
events { worker_connections 512; }
http {
  access_log off;
  ${temp}
  client_max_body_size 110m;
  upstream hostbase {
    ${upstreams.map((p) => `server 127.0.0.1:${p};`).join('\n    ')}
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://hostbase;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_request_buffering off;
      proxy_buffering off;
      # A failed request is the instance's answer, not retried on the other one.
      proxy_next_upstream off;
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`;
}

async function startNginx(dir: string, upstreams: number[]): Promise<number> {
  const port = await freePort();
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'nginx.conf'), nginxConfig(dir, port, upstreams));
  nginx = spawn(NGINX ?? 'nginx', ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  nginx.stdout!.on('data', (c) => (output += c));
  nginx.stderr!.on('data', (c) => (output += c));
  const up = await until(() => send(port, 'GET', '/api/health').then((r) => r.status === 200, () => false), 100, 100);
  if (!up) throw new Error(`nginx did not start:\n${output}\n${fs.existsSync(path.join(dir, 'error.log')) ? fs.readFileSync(path.join(dir, 'error.log'), 'utf8') : ''}`);
  return port;
}

/** Every answer through the balancer, with the instance (upstream address) that gave it. */
const seen: { what: string; upstream: string }[] = [];
async function via(what: string, method: string, url: string, body?: Buffer | string, headers: Record<string, string> = {}): Promise<Answer & { upstream: string }> {
  const answer = await send(lb, method, url, body, headers);
  const upstream = String(answer.headers['x-upstream'] ?? '');
  seen.push({ what, upstream });
  return { ...answer, upstream };
}
const post = (what: string, url: string, body: unknown, token?: string) =>
  via(what, 'POST', url, JSON.stringify(body), { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) });

/** Two answers in a row came from different instances. */
function differ(a: { upstream: string }, b: { upstream: string }) {
  expect(a.upstream).toMatch(/^127\.0\.0\.1:\d+$/);
  expect(b.upstream).toMatch(/^127\.0\.0\.1:\d+$/);
  expect(a.upstream).not.toBe(b.upstream);
}

(run ? test : test.skip)('two instances behind nginx: the whole journey alternating between them', async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-instances-'));
  pg = await createTestDatabase();
  s3 = new S3rver({ address: '127.0.0.1', port: 0, directory: path.join(work, 's3'), silent: true });
  const { port: s3Port } = await s3.run();
  const ports = [await freePort(), await freePort()];
  const shared = {
    DATABASE_URL: urlWithDatabase(process.env.DATABASE_URL!, pg.name),
    JWT_SECRET: 'one-secret-for-every-instance-' + path.basename(work),
    S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
    S3_ACCESS_KEY: 'S3RVER',
    S3_SECRET_KEY: 'S3RVER',
    S3_BUCKET: 'hostbase-instances',
    TRUST_PROXY: 'true',
    SITE_RUNNER: 'lease',
  };
  // One after the other: the first creates the bucket and applies the migrations.
  for (const [i, port] of ports.entries()) {
    platforms.push(await startPlatform({ ...shared, DATA_DIR: path.join(work, `instance-${i}`), PUBLIC_URL: 'http://localhost', INSTANCE_URL: `http://127.0.0.1:${port}` }, port));
  }
  lb = await startNginx(path.join(work, 'nginx'), ports);

  // Register on one, use the token on the other.
  const email = `ada-${Date.now()}@example.com`;
  const password = 'Tq8#vLm2-ZpWx9rK';
  const reg = await post('register', '/api/register', { name: 'Ada Lovelace', email, password });
  expect(reg.status).toBe(200);
  const verified = await post('verify-token', '/api/verify-token', { token: JSON.parse(reg.body).token });
  expect(verified.status).toBe(200);
  differ(reg, verified);
  const signIn = await post('sign in', '/api/verify_user', { email, password });
  expect(signIn.status).toBe(200);
  const token = JSON.parse(signIn.body).token as string;
  expect(token).toBeTruthy();
  const subdomain = `ada${Date.now().toString(36)}`;
  const created = await post('create project', '/api/create-project', { projectName: 'Ada', subdomain }, token);
  expect(created.status).toBe(200);
  differ(signIn, created);
  const projectId = JSON.parse(created.body).project.id as string;

  // Upload on one, download on the other (the bytes are in S3, the row in PostgreSQL).
  const bytes = Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 7) % 251));
  const parts = form([{ field: 'file', name: 'notes.bin', type: 'application/octet-stream', content: bytes }]);
  const uploaded = await via('upload', 'POST', `/api/project/${projectId}/object-storage/upload`, parts.body, { authorization: `Bearer ${token}`, 'content-type': parts.contentType });
  expect(uploaded.status).toBe(200);
  // Shared through one instance, served by the other at once.
  const sharing = await post('share', `/api/project/${projectId}/object-storage/share`, { object_id: JSON.parse(uploaded.body).file.object_id }, token);
  expect(sharing.status).toBe(200);
  differ(uploaded, sharing);
  const share = new URL(JSON.parse(sharing.body).file.path as string).pathname;
  const downloaded = await sendBinary(share);
  expect(downloaded.status).toBe(200);
  expect(Buffer.compare(downloaded.body, bytes)).toBe(0);
  differ(sharing, downloaded);
  const listed = await post('list files', `/api/project/${projectId}/object-storage/files`, {}, token);
  expect(listed.status).toBe(200);
  expect(JSON.parse(listed.body).files.map((f: { object_id: string }) => f.object_id)).toContain(JSON.parse(uploaded.body).file.object_id);

  // A static site deployed on one is served by both.
  const host = `${subdomain}.localhost`;
  const site = multipart({ domain: host, projectId, type: 'Static' }, { data: makeZip([{ name: 'index.html', data: '<h1>Served by every instance</h1>' }]) });
  const deployed = await via('deploy static', 'POST', `/api/project/${projectId}/upload-and-extract-zip/`, site.payload, { ...site.headers, authorization: `Bearer ${token}` });
  expect(deployed.status).toBe(200);
  const pages = [await via('static site', 'GET', '/', undefined, { host }), await via('static site', 'GET', '/', undefined, { host })];
  differ(pages[0], pages[1]);
  for (const page of pages) {
    expect(page.status).toBe(200);
    expect(page.body).toBe('<h1>Served by every instance</h1>');
  }

  // Sign-in failures are counted in the database: 5 free per account and address, whichever
  // instance hears them; the 6th attempt waits (429) on the other instance than the 5th.
  const failures: (Answer & { upstream: string })[] = [];
  for (let i = 0; i < 6; i++) failures.push(await post('wrong password', '/api/verify_user', { email, password: 'not-the-password-1' }));
  expect(failures.slice(0, 5).map((f) => f.status)).not.toContain(429);
  expect(failures[5].status).toBe(429);
  expect(failures[5].headers['retry-after']).toBeDefined();
  differ(failures[4], failures[5]);
  expect(new Set(failures.map((f) => f.upstream)).size).toBe(2);

  // MFA: enabled through both; a code that signed in on one instance is refused on the other.
  const mfaUser = { email: `grace-${Date.now()}@example.com`, password: 'Zr7!kWq4-NpLx2vB' };
  const mfaReg = await post('register (mfa)', '/api/register', { name: 'Grace Hopper', ...mfaUser });
  const mfaToken = JSON.parse(mfaReg.body).token as string;
  const enroll = await post('enroll mfa', '/api/toggle-mfa', {}, mfaToken);
  expect(enroll.status).toBe(200);
  const secret = JSON.parse(enroll.body).secret as string;
  const now = Math.floor(Date.now() / 1000);
  const enabled = await post('enable mfa', '/api/toggle-mfa', { mfa_code: await generate({ secret, epoch: now }) }, mfaToken);
  expect(enabled.status).toBe(200);
  differ(enroll, enabled);
  // The next time step's code (accepted within the one-step drift): later than the one enabling used.
  const code = await generate({ secret, epoch: now + 30 });
  // Two sign-ins waiting for their second step; the code completes the first on one instance.
  const first = await post('mfa sign-in 1', '/api/verify_user', mfaUser);
  expect(JSON.parse(first.body).message).toBe('mfa');
  const second = await post('mfa sign-in 2', '/api/verify_user', mfaUser);
  expect(JSON.parse(second.body).message).toBe('mfa');
  const accepted = await post('mfa code', '/api/verifyMFACode', { email: mfaUser.email, mfa_code: code, mfa_token: JSON.parse(first.body).mfa_token });
  expect(accepted.status).toBe(200);
  expect(JSON.parse(accepted.body).token).toBeTruthy();
  const replayed = await post('mfa code again', '/api/verifyMFACode', { email: mfaUser.email, mfa_code: code, mfa_token: JSON.parse(second.body).mfa_token });
  differ(accepted, replayed);
  expect(replayed.status).toBeGreaterThanOrEqual(400);
  expect(replayed.status).toBeLessThan(500);
  expect(JSON.parse(replayed.body).token).toBeUndefined();

  // Every step above alternated; both instances answered.
  expect(new Set(seen.map((s) => s.upstream))).toEqual(new Set(ports.map((p) => `127.0.0.1:${p}`)));

  if (!sandboxed) {
    console.log('test/instances/load-balanced: the dynamic-site part needs the site sandbox (bubblewrap, root, cgroups); skipped here');
    return;
  }
  // A Node site deployed through the balancer runs once: both instances answer with one process.
  // The first instance to start holds the runner lease; the deploy lands on the other one, which
  // has the runner start the new deployment before it goes live.
  const gatewayOnly = `127.0.0.1:${platforms[1].port}`;
  const nextOnGatewayOnly = async () => {
    if ((await via('health', 'GET', '/api/health')).upstream === gatewayOnly) await via('health', 'GET', '/api/health');
  };
  await nextOnGatewayOnly();
  const nodeZip = multipart({ domain: host, projectId, type: 'Node' }, { data: makeZip([{ name: 'server.js', data: nodeSite }]) });
  const nodeDeploy = await via('deploy node', 'POST', `/api/project/${projectId}/upload-and-extract-zip/`, nodeZip.payload, { ...nodeZip.headers, authorization: `Bearer ${token}` });
  expect(nodeDeploy.status).toBe(200);
  expect(nodeDeploy.upstream).toBe(gatewayOnly);
  const deploymentId = JSON.parse(nodeDeploy.body).deployment.id as string;
  const answers = [];
  for (let i = 0; i < 4; i++) answers.push(await via('node site', 'GET', `/hello-${i}`, undefined, { host }));
  for (const a of answers) expect({ status: a.status, body: a.body }).toEqual({ status: 200, body: expect.stringContaining('"process"') });
  differ(answers[0], answers[1]);
  const processes = new Set(answers.map((a) => JSON.parse(a.body).process));
  expect(processes.size).toBe(1);
  // The instances' token never reaches the site.
  for (const a of answers) expect(JSON.parse(a.body).peer).toBeNull();
  // Upgrades (WebSockets) reach the same process from either instance, tunnelled runner-ward.
  for (const p of platforms) {
    const up = await upgrade(p.port, host);
    expect({ status: up.status, data: up.data }).toMatchObject({ status: 101 });
    expect(JSON.parse(up.data)).toEqual({ process: [...processes][0], peer: null });
  }
  // On this machine: one control group for the deployment, started by one of the two instances.
  const groups = siteGroups(deploymentId);
  expect(groups).toHaveLength(1);
  expect(groups[0].serverPid).toBe(platforms[0].child.pid);
  // The client's address reached the site through either instance (nginx's X-Forwarded-For).
  for (const a of answers) expect(JSON.parse(a.body).url).toMatch(/^\/hello-\d$/);

  // Its runtime log is in the database: both instances show every request, whichever ran it.
  const logs: (Answer & { upstream: string })[] = [];
  expect(
    await until(async () => {
      const pair = [await post('logs', `/api/project/${projectId}/deployments/${deploymentId}/logs`, {}, token), await post('logs', `/api/project/${projectId}/deployments/${deploymentId}/logs`, {}, token)];
      logs.splice(0, logs.length, ...pair);
      return pair.every((l) => [0, 1, 2, 3].every((i) => String(JSON.parse(l.body).runtime_log).includes(`request /hello-${i} for 127.0.0.1`)));
    }, 50, 200),
  ).toBe(true);
  differ(logs[0], logs[1]);

  // A deploy whose process cannot start, on the instance that does not run sites: refused with
  // the site's own output (the runner's answer), and the live site is the same process.
  await nextOnGatewayOnly();
  const brokenZip = multipart({ domain: host, projectId, type: 'Node' }, { data: makeZip([{ name: 'server.js', data: 'console.error("cannot start: no config"); process.exit(3);' }]) });
  const broken = await via('deploy broken node', 'POST', `/api/project/${projectId}/upload-and-extract-zip/`, brokenZip.payload, { ...brokenZip.headers, authorization: `Bearer ${token}` });
  expect(broken.upstream).toBe(gatewayOnly);
  expect(broken.status).toBe(400);
  expect(JSON.parse(broken.body).message).toMatch(/did not start/);
  const brokenId = (JSON.parse((await post('deployments', `/api/project/${projectId}/deployments`, {}, token)).body).deployments as { id: string; status: string }[]).find((d) => d.status === 'failed')!.id;
  const brokenLogs = JSON.parse((await post('logs', `/api/project/${projectId}/deployments/${brokenId}/logs`, {}, token)).body);
  expect(brokenLogs.build_log).toContain('cannot start: no config');
  for (let i = 0; i < 2; i++) expect(JSON.parse((await via('node site', 'GET', '/still', undefined, { host })).body).process).toBe([...processes][0]);

  // The instances' own route answers nothing to anyone else, with or without a made-up token.
  for (const op of ['ensure', 'has-process']) {
    for (const headers of [{}, { 'x-hostbase-peer': 'a-guess' }] as Record<string, string>[]) {
      const probe = await via('runner route', 'POST', `/_hostbase/runner/${op}`, JSON.stringify({ projectId, deploymentId }), { 'content-type': 'application/json', ...headers });
      expect([op, probe.status]).toEqual([op, 404]);
    }
  }
  // With the instances' token, on the runner: no project is a 400; an id that names nothing (a NUL
  // in it too) has no process; the site's project has one.
  const peer = { 'content-type': 'application/json', 'x-hostbase-peer': peerTokenOf(shared.JWT_SECRET) };
  const hasProcess = (body: unknown) => send(platforms[0].port, 'POST', '/_hostbase/runner/has-process', JSON.stringify(body), peer);
  expect((await hasProcess({})).status).toBe(400);
  const nothing = await hasProcess({ projectId: 'no-such\u0000project' });
  expect({ status: nothing.status, body: JSON.parse(nothing.body) }).toEqual({ status: 200, body: { running: false } });
  expect(JSON.parse((await hasProcess({ projectId })).body)).toEqual({ running: true });

  // An environment change made on the instance that does not run sites restarts the runner's
  // process, and the answer says so (it asks the runner whether the site had a process).
  await nextOnGatewayOnly();
  const envSet = await via('set env', 'POST', `/api/project/${projectId}/hosting/env/set`, JSON.stringify({ variables: [{ name: 'GREETING', value: 'hi' }] }), { 'content-type': 'application/json', authorization: `Bearer ${token}` });
  expect(envSet.upstream).toBe(gatewayOnly);
  expect({ status: envSet.status, body: JSON.parse(envSet.body) }).toMatchObject({ status: 200, body: { restarted: true, message: expect.stringMatching(/restarted/) } });
  const restarted = JSON.parse((await via('node site', 'GET', '/env', undefined, { host })).body).process as string;
  expect(restarted).not.toBe([...processes][0]);
  const regrouped = siteGroups(deploymentId);
  expect(regrouped.map((g) => g.serverPid)).toEqual([groups[0].serverPid]);

  // The runner stops (SIGTERM): its site stops with it and the lease is given back; the other
  // instance takes over at its next request for the site, with a process of its own, still one.
  const runner = platforms.find((p) => p.child.pid === groups[0].serverPid)!;
  const other = platforms.find((p) => p !== runner)!;
  runner.child.kill('SIGTERM');
  expect(await runner.exited).toBe(0);
  expect(await until(() => regrouped[0].pids.every((pid) => !alive(pid)))).toBe(true);
  const after = await send(other.port, 'GET', '/after', undefined, { host });
  expect(after.status).toBe(200);
  expect(JSON.parse(after.body).process).not.toBe(restarted);
  const moved = siteGroups(deploymentId);
  expect(moved).toHaveLength(1);
  expect(moved[0].serverPid).toBe(other.child.pid);

  // Every site request was counted once, by the instance the client reached (a forwarded one is
  // not counted again by the runner): 2 static pages, 7 Node answers, 2 upgrades, 1 after the hand-over. The
  // stopped runner saved its counts when it closed; the report saves the other's.
  const total = async () => {
    const report = await send(other.port, 'POST', `/api/project/${projectId}/hosting/traffic`, '{}', { 'content-type': 'application/json', authorization: `Bearer ${token}` });
    return (JSON.parse(report.body).traffic as { requests: number }[]).reduce((n, h) => n + h.requests, 0);
  };
  expect(await until(async () => (await total()) >= 12, 50, 200)).toBe(true);
  expect(await total()).toBe(12);
}, 300_000);

/** A GET through the balancer whose body is kept as bytes. */
async function sendBinary(url: string): Promise<{ status: number; body: Buffer; upstream: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: lb, method: 'GET', path: url, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const upstream = String(res.headers['x-upstream'] ?? '');
        seen.push({ what: 'download', upstream });
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), upstream });
      });
    });
    req.on('error', reject);
    req.end();
  });
}
