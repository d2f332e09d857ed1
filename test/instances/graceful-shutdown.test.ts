// SIGTERM (how a balancer's rolling restart stops an instance): the server stops accepting connections at once, lets a request in flight
// finish, stops the hosted sites it started and exits 0. A real process on a real port, with a
// Node site whose /slow answer takes a few seconds.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { probeSandbox } from '../../server/src/modules/hosting/runtime/sandbox';
import { createTestDatabase, testDriver, urlWithDatabase, type TestDatabase } from '../helpers/test-db';
import { makeZip, multipart } from '../hosting/zips';
import { alive, freePort, json, send, siteGroups, startPlatform, stopPlatform, until, type Platform } from './platform';

const sandboxed = probeSandbox().ok;

const slowSite = `
const http = require('http');
http.createServer((req, res) => {
  console.log('got ' + req.url);
  if (req.url === '/slow') return void setTimeout(() => res.end('slow and done'), 6000);
  res.end('ok');
}).listen(process.env.PORT);
`;

const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(false);
    });
    s.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });

let pg: TestDatabase | undefined;
let platform: Platform | undefined;
let dataDir: string | undefined;
afterAll(async () => {
  await stopPlatform(platform);
  await pg?.drop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

(sandboxed ? test : test.skip)('SIGTERM: no new connections, the request in flight finishes, the sites stop, exit code 0', async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-sigterm-'));
  pg = testDriver() === 'postgres' ? await createTestDatabase() : undefined;
  const port = await freePort();
  platform = await startPlatform({ DATA_DIR: dataDir, ...(pg ? { DATABASE_URL: urlWithDatabase(process.env.DATABASE_URL!, pg.name) } : {}) }, port);

  const reg = await json(port, '/api/register', { name: 'Grace Hopper', email: `grace-${Date.now()}@example.com`, password: 'Tq8#vLm2-ZpWx9rK' });
  expect(reg.status).toBe(200);
  const token = JSON.parse(reg.body).token as string;
  const subdomain = `grace${Date.now().toString(36)}`;
  const created = await json(port, '/api/create-project', { projectName: 'Grace', subdomain }, token);
  expect(created.status).toBe(200);
  const projectId = JSON.parse(created.body).project.id as string;
  const host = `${subdomain}.localhost:${port}`;
  const form = multipart({ domain: host, projectId, type: 'Node' }, { data: makeZip([{ name: 'server.js', data: slowSite }]) });
  const deployed = await send(port, 'POST', `/api/project/${projectId}/upload-and-extract-zip/`, form.payload, { ...form.headers, authorization: `Bearer ${token}` });
  expect(deployed.status).toBe(200);
  const deploymentId = JSON.parse(deployed.body).deployment.id as string;
  expect((await send(port, 'GET', '/', undefined, { host })).body).toBe('ok');
  const groups = siteGroups(deploymentId);
  expect(groups).toHaveLength(1);
  expect(groups[0].serverPid).toBe(platform.child.pid);
  const sitePids = groups[0].pids;
  expect(sitePids.length).toBeGreaterThan(0);

  // A slow request reaches the site (its log says so), then the signal.
  let slowDone = false;
  const slow = send(port, 'GET', '/slow', undefined, { host }).finally(() => (slowDone = true));
  const logs = () => json(port, `/api/project/${projectId}/deployments/${deploymentId}/logs`, {}, token);
  expect(await until(async () => JSON.parse((await logs()).body).runtime_log?.includes('got /slow'), 100)).toBe(true);
  platform.child.kill('SIGTERM');

  // New connections are refused while the slow one is still being answered.
  expect(await until(() => refused(port), 50, 50)).toBe(true);
  expect(slowDone).toBe(false);
  const answer = await slow;
  expect(answer.status).toBe(200);
  expect(answer.body).toBe('slow and done');

  expect(await platform.exited).toBe(0);
  expect(await until(() => sitePids.every((pid) => !alive(pid)))).toBe(true);
  expect(siteGroups(deploymentId)).toEqual([]);
}, 180_000);
