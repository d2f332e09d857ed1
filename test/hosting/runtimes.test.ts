// Node, PHP and Flask sites run as processes behind the gateway: isolated environment and user,
// restarted after a crash, replaced on redeploy, stopped on project delete, measured by stats.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { buildTestApp, type TestApp } from '../helpers/app';
import { createSiteProject, deploy, site, type SiteProject } from './site-helpers';
import { makeZip } from './zips';
import { onPlan } from '../helpers/factories';

const has = (cmd: string) => {
  try {
    execFileSync('sh', ['-c', `command -v ${cmd}`]);
    return true;
  } catch {
    return false;
  }
};
const hasPhp = has('php');
const hasFlask = (() => {
  try {
    execFileSync(fs.existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3', ['-c', 'import flask']);
    return true;
  } catch {
    return false;
  }
})();
if (!hasPhp) console.warn('php is not installed (apt-get install -y php-cli): the PHP site test is skipped');
if (!hasFlask) console.warn('Flask is not installed (apt-get install -y python3-flask): the Flask site test is skipped');

const nodeApp = (version: string) =>
  makeZip([
    { name: 'package.json', data: JSON.stringify({ name: 'demo', main: 'src/server.js' }) },
    {
      name: 'src/server.js',
      data: `
const http = require('http');
http.createServer((req, res) => {
  if (req.url === '/burn') { const end = Date.now() + 40; while (Date.now() < end); return res.end('burnt'); }
  if (req.url === '/env') return res.end(JSON.stringify({ keys: Object.keys(process.env).sort(), uid: process.getuid(), cwd: process.cwd() }));
  if (req.url === '/crash') { res.end('bye'); setTimeout(() => process.exit(3), 10); return; }
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => { res.setHeader('content-type', 'application/json'); res.end(JSON.stringify({ hello: 'node', version: ${JSON.stringify(version)}, method: req.method, url: req.url, body, host: req.headers['x-forwarded-host'] })); });
}).listen(process.env.PORT, '127.0.0.1', () => console.log('listening on ' + process.env.PORT));`,
    },
  ]);

let t: TestApp;
let p: SiteProject;

beforeAll(async () => {
  t = await buildTestApp();
  p = await createSiteProject(t);
  await onPlan(t, p.dev, 'enterprise'); // more projects than Hobby's 3: this file is not about plan limits
}, 30_000);
afterAll(() => t.close(), 30_000);

test('a Node site answers through the gateway, with a clean environment and as the site user', async () => {
  const res = await deploy(t, p, nodeApp('1'), 'Node');
  expect(res.statusCode).toBe(200);
  expect(res.json().deployment).toMatchObject({ type: 'Node', live: true });

  const hello = await site(t, p, '/hello?x=1', {}, 'POST', 'ping');
  expect(hello.statusCode).toBe(200);
  expect(hello.json()).toMatchObject({ hello: 'node', version: '1', method: 'POST', url: '/hello?x=1', body: 'ping', host: p.host });

  const env = (await site(t, p, '/env')).json();
  expect(env.keys).toEqual(['NODE_ENV', 'PATH', 'PORT']);
  expect(env.cwd.startsWith(t.dataDir)).toBe(false);
  expect(env.uid).not.toBe(0);
  expect(env.uid).not.toBe(process.getuid?.());
  expect(env.cwd).toBe('/app');

  const logs = await t.post(`/project/${p.id}/deployments/${res.json().deployment.id}/logs`, {}, p.dev.token);
  expect(logs.json().runtime_log).toMatch(/listening on \d+/);
  expect(logs.json().build_log).toMatch(/Starting the node process/);
});

test('container stats: CPU and network move under load', async () => {
  const before = (await t.post(`/project/${p.id}/container-stats/`, {}, p.dev.token)).json();
  expect(before.status).toBe('running');
  expect(before.mem_percent).toBeGreaterThan(0);
  const load = Promise.all(Array.from({ length: 20 }, () => site(t, p, '/burn')));
  await load;
  const after = (await t.post(`/project/${p.id}/container-stats/`, {}, p.dev.token)).json();
  expect(after.cpu_percent).toBeGreaterThan(before.cpu_percent);
  expect(after.cpu_percent).toBeGreaterThan(10);
  expect(after.tx_mb).toBeGreaterThan(before.tx_mb);
  expect(after.rx_mb).toBeGreaterThan(before.rx_mb);
});

test('a crashed site is restarted', async () => {
  const pidOf = async () => (await site(t, p, '/env')).json();
  const before = await pidOf();
  await site(t, p, '/crash');
  await new Promise((r) => setTimeout(r, 200)); // the process is gone; the gateway waits out the back-off
  expect((await t.post(`/project/${p.id}/container-stats/`, {}, p.dev.token)).json().status).toBe('restarting');
  const res = await site(t, p, '/hello');
  expect(res.statusCode).toBe(200);
  expect(res.json().hello).toBe('node');
  expect(before.uid).toBe((await pidOf()).uid);
  const { deployments } = (await t.post(`/project/${p.id}/deployments`, {}, p.dev.token)).json();
  const logs = (await t.post(`/project/${p.id}/deployments/${deployments[0].id}/logs`, {}, p.dev.token)).json();
  expect(logs.runtime_log).toMatch(/process exited \(code 3\)/);
}, 20_000);

test('a Node zip that cannot start fails without touching the live site', async () => {
  const bad = makeZip([{ name: 'index.js', data: 'throw new Error("boom at start")' }]);
  const res = await deploy(t, p, bad, 'Node.js');
  expect(res.statusCode).toBe(400);
  expect(res.json().message).toMatch(/did not start/);
  expect((await site(t, p, '/hello')).json().version).toBe('1');
  const { deployments } = (await t.post(`/project/${p.id}/deployments`, {}, p.dev.token)).json();
  const logs = (await t.post(`/project/${p.id}/deployments/${deployments[0].id}/logs`, {}, p.dev.token)).json();
  expect(logs.build_log).toMatch(/boom at start/);
}, 30_000);

test('redeploy replaces the process; rollback brings the old version back', async () => {
  const first = (await t.post(`/project/${p.id}/deployments`, {}, p.dev.token)).json().live_deployment_id;
  expect((await deploy(t, p, nodeApp('2'), 'Node')).statusCode).toBe(200);
  expect((await site(t, p, '/')).json().version).toBe('2');
  expect((await t.post(`/project/${p.id}/deployments/${first}/activate`, {}, p.dev.token)).statusCode).toBe(200);
  expect((await site(t, p, '/')).json().version).toBe('1');
}, 30_000);

(hasPhp ? test : test.skip)('a PHP site answers through the gateway', async () => {
  const q = await createSiteProject(t, p.dev);
  const zip = makeZip([{ name: 'index.php', data: '<?php header("content-type: text/plain"); echo "hello from php " . PHP_MAJOR_VERSION . " " . ($_GET["q"] ?? "");' }]);
  const res = await deploy(t, q, zip, 'PHP');
  expect(res.statusCode).toBe(200);
  const page = await site(t, q, '/?q=gateway');
  expect(page.statusCode).toBe(200);
  expect(page.body).toMatch(/^hello from php \d+ gateway$/);
}, 30_000);

(hasFlask ? test : test.skip)('a Flask site answers through the gateway', async () => {
  const q = await createSiteProject(t, p.dev);
  const zip = makeZip([{ name: 'app.py', data: 'from flask import Flask\napp = Flask(__name__)\n\n@app.route("/")\ndef home():\n    return "hello from flask"\n' }]);
  const res = await deploy(t, q, zip, 'Flask');
  expect(res.statusCode).toBe(200);
  expect((await site(t, q, '/')).body).toBe('hello from flask');
}, 30_000);

test('deleting the project stops its process', async () => {
  const q = await createSiteProject(t, p.dev);
  expect((await deploy(t, q, nodeApp('3'), 'Node')).statusCode).toBe(200);
  // The site's own process (not its sandbox's launcher and relay, whose arguments name it too).
  const count = () => execFileSync('ps', ['-eo', 'args']).toString().split('\n').filter((l) => l.trim() === `${process.execPath} --max-old-space-size=256 src/server.js`).length;
  const pidLine = count();
  expect(Number(pidLine)).toBeGreaterThanOrEqual(2); // p's and q's
  expect((await t.post(`/project/${q.id}/delete`, { confirm: q.subdomain }, q.dev.token)).statusCode).toBe(200);
  expect(count()).toBe(pidLine - 1);
}, 30_000);
