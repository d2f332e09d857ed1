// Hosted code is hostile. A Node, a PHP and a Flask site each try to reach what the platform and
// other tenants keep (DATA_DIR and the JWT secret, another project's deployment, the platform's
// environment through /proc, PostgreSQL, the platform's port, another site's socket), to write
// outside their temp folder, to fork and allocate past their limits. Every attempt fails, and the
// site keeps serving (restarted, with the cause in its runtime log and stats, when it hit a limit).
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildTestApp, type TestApp } from '../helpers/app';
import { createSiteProject, deploy, site, type SiteProject } from './site-helpers';
import { makeZip } from './zips';
import { onPlan } from '../helpers/factories';
import { probeSandbox } from '../../server/src/modules/hosting/runtime/sandbox';

const sandbox = probeSandbox();
const hasPhp = fs.existsSync('/usr/bin/php');
const hasFlask = fs.existsSync('/usr/lib/python3/dist-packages/flask');
const describeSandboxed = sandbox.ok ? describe : describe.skip;
if (!sandbox.ok) console.warn(`sandbox tests skipped: ${sandbox.problem}`);

interface Targets {
  read: string[];
  list: string[];
  write: string[];
  connect: [string, number][];
  unix: string[];
}

interface ProbeResult {
  uid: number;
  gid: number;
  read: Record<string, boolean>;
  list: Record<string, boolean>;
  write: Record<string, boolean>;
  tmp: boolean;
  connect: Record<string, boolean>;
  unix: Record<string, boolean>;
  /** What the site may do (its own files, its own port): proves the probe can see success. */
  control: { read: boolean; connect: boolean };
}

const NODE_PROBE = `
const http = require('http'), fs = require('fs'), net = require('net'), cp = require('child_process');
const t = JSON.parse(fs.readFileSync('targets.json', 'utf8'));
const ok = (f) => { try { f(); return true; } catch { return false; } };
const conn = (o) => new Promise((r) => { const s = net.connect(o); s.setTimeout(2000, () => { s.destroy(); r(false); }); s.on('connect', () => { s.destroy(); r(true); }); s.on('error', () => r(false)); });
const hog = [];
http.createServer(async (req, res) => {
  if (req.url === '/probe') {
    const out = { uid: process.getuid(), gid: process.getgid(), read: {}, list: {}, write: {}, connect: {}, unix: {} };
    for (const p of t.read) out.read[p] = ok(() => fs.readFileSync(p));
    for (const p of t.list) out.list[p] = ok(() => fs.readdirSync(p));
    for (const p of t.write) out.write[p] = ok(() => fs.writeFileSync(p, 'x'));
    out.tmp = ok(() => fs.writeFileSync('/tmp/mine', 'x'));
    for (const [host, port] of t.connect) out.connect[host + ':' + port] = await conn({ host, port });
    for (const p of t.unix) out.unix[p] = await conn({ path: p });
    out.control = { read: ok(() => fs.readFileSync('targets.json')), connect: await conn({ host: '127.0.0.1', port: Number(process.env.PORT) }) };
    return res.end(JSON.stringify(out));
  }
  if (req.url === '/fork') {
    let started = 0, refused = 0;
    const kids = [];
    for (let i = 0; i < 200; i++) { try { const c = cp.spawn('/bin/sleep', ['3']); c.on('error', () => {}); if (c.pid) { started++; kids.push(c); } else refused++; } catch { refused++; } }
    await Promise.all(kids.map((c) => new Promise((r) => { c.on('exit', r); c.kill('SIGKILL'); })));
    return res.end(JSON.stringify({ started, refused }));
  }
  if (req.url === '/hog') { for (;;) hog.push(Buffer.alloc(8 * 1024 * 1024, 1)); }
  res.end('alive');
}).listen(process.env.PORT, '127.0.0.1');
`;

const PHP_PROBE = `<?php
$t = json_decode(file_get_contents('targets.json'), true);
$uri = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
if ($uri === '/probe') {
  $out = ['uid' => posix_getuid(), 'gid' => posix_getgid(), 'read' => new stdClass, 'list' => new stdClass, 'write' => new stdClass, 'connect' => new stdClass, 'unix' => new stdClass];
  foreach ($t['read'] as $p) $out['read']->$p = @file_get_contents($p) !== false;
  foreach ($t['list'] as $p) $out['list']->$p = @scandir($p) !== false;
  foreach ($t['write'] as $p) $out['write']->$p = @file_put_contents($p, 'x') !== false;
  $out['tmp'] = @file_put_contents('/tmp/mine', 'x') !== false;
  foreach ($t['connect'] as [$h, $port]) { $s = @fsockopen($h, $port, $e, $es, 2); $out['connect']->{"$h:$port"} = $s !== false; if ($s) fclose($s); }
  foreach ($t['unix'] as $p) { $s = @fsockopen('unix://' . $p, -1, $e, $es, 2); $out['unix']->$p = $s !== false; if ($s) fclose($s); }
  $s = @fsockopen('127.0.0.1', (int) getenv('PORT'), $e, $es, 2);
  $out['control'] = ['read' => @file_get_contents('targets.json') !== false, 'connect' => $s !== false];
  header('content-type: application/json'); echo json_encode($out); return;
}
if ($uri === '/fork') {
  $started = 0; $refused = 0;
  $kids = [];
  for ($i = 0; $i < 200; $i++) { $p = @proc_open(['/bin/sleep', '3'], [], $pipes); if ($p === false) $refused++; else { $started++; $kids[] = $p; } }
  foreach ($kids as $p) { proc_terminate($p, 9); proc_close($p); }
  echo json_encode(['started' => $started, 'refused' => $refused]); return;
}
if ($uri === '/hog') { $a = []; for (;;) $a[] = str_repeat('x', 8 * 1024 * 1024); }
echo 'alive';
`;

const FLASK_PROBE = `
import json, os, socket, subprocess
from flask import Flask
app = Flask(__name__)
t = json.load(open('targets.json'))
def ok(f):
    try:
        f(); return True
    except Exception:
        return False
def conn(addr, family=socket.AF_INET):
    s = socket.socket(family, socket.SOCK_STREAM); s.settimeout(2)
    try:
        s.connect(addr); return True
    except Exception:
        return False
    finally:
        s.close()
def write(p):
    with open(p, 'w') as f: f.write('x')
def read(p):
    with open(p, 'rb') as f: f.read()
@app.route('/probe')
def probe():
    return json.dumps({'uid': os.getuid(), 'gid': os.getgid(),
        'read': {p: ok(lambda: read(p)) for p in t['read']},
        'list': {p: ok(lambda: os.listdir(p)) for p in t['list']},
        'write': {p: ok(lambda: write(p)) for p in t['write']},
        'tmp': ok(lambda: write('/tmp/mine')),
        'connect': {h + ':' + str(port): conn((h, port)) for h, port in t['connect']},
        'unix': {p: conn(p, socket.AF_UNIX) for p in t['unix']},
        'control': {'read': ok(lambda: read('targets.json')), 'connect': conn(('127.0.0.1', int(os.environ['PORT'])))}})
@app.route('/fork')
def fork():
    started = refused = 0
    kids = []
    for i in range(200):
        try:
            kids.append(subprocess.Popen(['/bin/sleep', '3'])); started += 1
        except OSError:
            refused += 1
    for k in kids:
        k.kill(); k.wait()
    return json.dumps({'started': started, 'refused': refused})
hog = []
@app.route('/hog')
def eat():
    while True: hog.append(b'x' * (8 * 1024 * 1024))
@app.route('/')
def alive():
    return 'alive'
`;

describeSandboxed('a hostile site cannot reach the platform or other tenants', () => {
  let t: TestApp;
  let victim: SiteProject;
  let platform: net.AddressInfo;
  let targets: Targets;
  const kinds = [
    { type: 'Node', zip: () => makeZip([{ name: 'server.js', data: NODE_PROBE }, { name: 'targets.json', data: JSON.stringify(targets) }]), run: true },
    { type: 'PHP', zip: () => makeZip([{ name: 'index.php', data: PHP_PROBE }, { name: 'targets.json', data: JSON.stringify(targets) }]), run: hasPhp },
    { type: 'Flask', zip: () => makeZip([{ name: 'app.py', data: FLASK_PROBE }, { name: 'targets.json', data: JSON.stringify(targets) }]), run: hasFlask },
  ];

  beforeAll(async () => {
    // No JWT_SECRET: the platform generates DATA_DIR/jwt-secret, as on a fresh `npm start`.
    t = await buildTestApp({ JWT_SECRET: '', SITE_MEMORY_MB: '160', SITE_MAX_PROCESSES: '64' });
    await t.app.listen({ port: 0, host: '0.0.0.0' });
    platform = t.app.server.address() as net.AddressInfo;
    // Another tenant's live Node site: its files and its socket are targets too.
    victim = await createSiteProject(t);
    await onPlan(t, victim.dev, 'enterprise'); // its developer makes more projects than Hobby's 3: this file is not about plan limits
    const v = await deploy(t, victim, makeZip([{ name: 'server.js', data: `require('http').createServer((q, r) => r.end('victim')).listen(process.env.PORT)` }]), 'Node');
    expect(v.statusCode).toBe(200);
    const victimDeployment = v.json().deployment.id as string;
    const runRoot = path.join(os.tmpdir(), `hostbase-sites-${process.getuid!()}`);
    const victimDir = fs.readdirSync(runRoot).map((n) => path.join(runRoot, n)).find((d) => d.endsWith(victimDeployment))!;
    expect(victimDir).toBeDefined();
    const hostIp = Object.values(os.networkInterfaces()).flat().find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
    const secret = path.join(t.dataDir, 'jwt-secret');
    expect(fs.existsSync(secret)).toBe(true);
    targets = {
      read: [secret, path.join(victimDir, 'app', 'server.js'), `/proc/${process.pid}/environ`, '/proc/1/environ', '/etc/shadow', path.join(t.dataDir, 'hosting')],
      list: [t.dataDir, path.join(t.dataDir, 'hosting'), runRoot, victimDir, '/root', '/home', '/var/run/postgresql'],
      write: ['/app/planted.js', '/planted', '/etc/planted', '/usr/planted', path.join(t.dataDir, 'planted')],
      connect: [['127.0.0.1', 5432], ['127.0.0.1', platform.port], ...(hostIp ? ([[hostIp, platform.port], [hostIp, 5432]] as [string, number][]) : [])],
      unix: [path.join(victimDir, 'run', 'http.sock'), '/var/run/postgresql/.s.PGSQL.5432'],
    };
  }, 60_000);
  afterAll(() => t?.close(), 30_000);

  test('DATA_DIR and the secret are private to the platform on disk', () => {
    expect(fs.statSync(t.dataDir).mode & 0o077).toBe(0);
    expect(fs.statSync(path.join(t.dataDir, 'jwt-secret')).mode & 0o777).toBe(0o600);
  });

  for (const k of kinds) {
    (k.run ? test : test.skip)(`${k.type}: every attempt fails, and the site keeps serving`, async () => {
      const p = await createSiteProject(t, victim.dev);
      const res = await deploy(t, p, k.zip(), k.type);
      expect(res.statusCode).toBe(200);
      const probe = await site(t, p, '/probe');
      expect(probe.statusCode).toBe(200);
      const r = probe.json() as ProbeResult;
      // Its own identity: not root, not the platform's, not the other tenant's.
      expect(r.uid).not.toBe(0);
      expect(r.uid).not.toBe(process.getuid?.());
      expect(r.uid).toBeGreaterThanOrEqual(1_900_000_000);
      expect(r.gid).toBe(r.uid);
      const everything = { ...r.read, ...r.list, ...r.write, ...r.connect, ...r.unix };
      expect(Object.keys(everything).length).toBeGreaterThanOrEqual(targets.read.length + targets.list.length + targets.write.length + targets.unix.length);
      expect(Object.entries(everything).filter(([, reached]) => reached)).toEqual([]);
      expect(r.tmp).toBe(true);
      expect(r.control).toEqual({ read: true, connect: true });
      expect(fs.existsSync(path.join(t.dataDir, 'planted'))).toBe(false);
      expect((await site(t, victim, '/')).body).toBe('victim');

      // Forking past the limit is refused; the site still answers.
      const fork = (await site(t, p, '/fork')).json() as { started: number; refused: number };
      expect(fork.refused).toBeGreaterThan(0);
      expect(fork.started).toBeLessThan(64);
      expect((await site(t, p, '/')).body).toBe('alive');

      // Allocating past the memory limit ends the site; it is restarted and says why.
      const hog = await site(t, p, '/hog');
      expect(hog.statusCode).toBeGreaterThanOrEqual(500);
      let alive = await site(t, p, '/');
      for (let i = 0; i < 40 && alive.body !== 'alive'; i++) {
        await new Promise((r) => setTimeout(r, 250));
        alive = await site(t, p, '/');
      }
      expect(alive.body).toBe('alive');
      const deploymentId = res.json().deployment.id;
      const logs = (await t.post(`/project/${p.id}/deployments/${deploymentId}/logs`, {}, p.dev.token)).json();
      expect(logs.runtime_log).toMatch(/used more than its memory limit of 160 MiB/);
      const stats = (await t.post(`/project/${p.id}/container-stats/`, {}, p.dev.token)).json();
      expect(stats.last_exit).toMatch(/memory limit/);
      expect(stats.restarts).toBeGreaterThanOrEqual(1);
    }, 90_000);
  }

  test('two projects never share an identity', async () => {
    const a = await createSiteProject(t, victim.dev);
    const b = await createSiteProject(t, victim.dev);
    const probeZip = () => makeZip([{ name: 'server.js', data: NODE_PROBE }, { name: 'targets.json', data: JSON.stringify(targets) }]);
    expect((await deploy(t, a, probeZip(), 'Node')).statusCode).toBe(200);
    expect((await deploy(t, b, probeZip(), 'Node')).statusCode).toBe(200);
    const [ua, ub] = [(await site(t, a, '/probe')).json().uid, (await site(t, b, '/probe')).json().uid];
    expect(ua).not.toBe(ub);
  }, 60_000);
});

test('without a sandbox, dynamic sites are refused before anything is written; static sites still deploy', async () => {
  const { ProcessRuntime } = await import('../../server/src/modules/hosting/runtime/runtime.process');
  const logged: string[] = [];
  const log = { error: (m: string) => logged.push(m), warn: () => undefined, info: () => undefined } as never;
  const runtime = new ProcessRuntime({ log, siteUid: async () => 1_999_999_999, support: { ok: false, problem: 'Dynamic sites need bubblewrap, which is not installed. Run Hostbase as root … (apt-get install bubblewrap util-linux)' } });
  const t = await buildTestApp({}, { hostingRuntime: runtime });
  try {
    expect(logged.join('\n')).toMatch(/apt-get install bubblewrap.*Static sites still work/);
    const p = await createSiteProject(t);
    const res = await deploy(t, p, makeZip([{ name: 'server.js', data: 'require("http").createServer((q, r) => r.end("x")).listen(process.env.PORT)' }]), 'Node');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/bubblewrap/);
    expect((await t.post(`/project/${p.id}/deployments`, {}, p.dev.token)).json().deployments).toEqual([]);
    const staticSite = await deploy(t, p, makeZip([{ name: 'index.html', data: '<h1>static</h1>' }]), 'Static');
    expect(staticSite.statusCode).toBe(200);
    expect((await site(t, p, '/')).body).toContain('static');
  } finally {
    await t.close();
  }
}, 60_000);
