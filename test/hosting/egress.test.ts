// A site's way out (SITE_EGRESS). With `internet` (the default) a site reaches the public internet
// and nothing else: not the host (any of its addresses), not another site, not private ranges.
// The "public internet" here is a test host of our own: a network namespace at 198.51.100.1
// (TEST-NET-2) routed from this machine, serving one TCP answer. With `none` the site has only
// its own loopback.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { buildTestApp, type TestApp } from '../helpers/app';
import { createSiteProject, deploy, site } from './site-helpers';
import { makeZip } from './zips';
import { findTool, probeSandbox } from '../../server/src/modules/hosting/runtime/sandbox';

const ready = probeSandbox().ok && !!findTool('nft') && !!findTool('ip');
if (!ready) console.warn('egress tests skipped: they need the sandbox (root, bubblewrap) and nftables + iproute2');

const NS = `hbtest-inet-${process.pid}`;
const LINK = `hbti${process.pid % 100000}`;
const INTERNET = '198.51.100.1';

const PROBE = `
const http = require('http'), net = require('net'), os = require('os');
const targets = JSON.parse(require('fs').readFileSync('targets.json', 'utf8'));
const reach = ([host, port]) => new Promise((r) => {
  const s = net.connect(port, host); let data = '';
  s.setTimeout(1500, () => { s.destroy(); r('timeout'); });
  s.on('data', (d) => (data += d)); s.on('end', () => r('answered:' + data)); s.on('connect', () => { if (port !== 80) { s.destroy(); r('connected'); } });
  s.on('error', (e) => r(e.code));
});
http.createServer(async (req, res) => {
  const gw = require('fs').readFileSync('/proc/net/route', 'utf8').split('\\n').slice(1).map((l) => l.split('\\t')).find((f) => f[1] === '00000000');
  const gateway = gw ? gw[2].match(/../g).reverse().map((h) => parseInt(h, 16)).join('.') : null;
  const extra = req.url.startsWith('/to/') ? [req.url.slice(4).split(':')].map(([h, p]) => [h, Number(p)]) : [];
  const list = [...targets, ...(gateway ? [[gateway, targets[1][1]], [gateway, 5432]] : []), ...extra];
  const out = { addresses: Object.values(os.networkInterfaces()).flat().filter((i) => i.family === 'IPv4' && !i.internal).map((i) => i.address), gateway, reach: {} };
  for (const t of list) out.reach[t.join(':')] = await reach(t);
  res.end(JSON.stringify(out));
}).listen(process.env.PORT);
`;

function sh(cmd: string, args: string[]) {
  return execFileSync(cmd, args, { stdio: 'pipe' }).toString();
}

(ready ? describe : describe.skip)('a site reaches the public internet and nothing else', () => {
  let t: TestApp;
  let internet: ChildProcess;
  let platformPort: number;

  beforeAll(async () => {
    sh('ip', ['netns', 'add', NS]);
    sh('ip', ['link', 'add', LINK, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', NS]);
    sh('ip', ['addr', 'add', '198.51.100.254/24', 'dev', LINK]);
    sh('ip', ['link', 'set', LINK, 'up']);
    sh('ip', ['netns', 'exec', NS, 'ip', 'addr', 'add', `${INTERNET}/24`, 'dev', 'eth0']);
    sh('ip', ['netns', 'exec', NS, 'ip', 'link', 'set', 'eth0', 'up']);
    internet = spawn('ip', ['netns', 'exec', NS, process.execPath, '-e', `require('net').createServer((s) => s.end('hello from the internet')).listen(80)`], { stdio: 'ignore' });
    for (let i = 0; i < 50; i++) {
      try {
        if (sh('ip', ['netns', 'exec', NS, 'ss', '-ltn']).includes(':80 ')) break;
      } catch {
        /* ss missing: just wait */
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    t = await buildTestApp();
    await t.app.listen({ port: 0, host: '0.0.0.0' });
    platformPort = (t.app.server.address() as net.AddressInfo).port;
  }, 60_000);

  afterAll(async () => {
    internet?.kill('SIGKILL');
    await t?.close();
    try {
      sh('ip', ['link', 'del', LINK]);
    } catch {
      /* gone with the namespace */
    }
    sh('ip', ['netns', 'del', NS]);
  }, 30_000);

  const targetsZip = (targets: [string, number][]) => makeZip([{ name: 'server.js', data: PROBE }, { name: 'targets.json', data: JSON.stringify(targets) }]);

  test('internet yes; the host, PostgreSQL, the platform and another site no', async () => {
    const hostIp = Object.values(os.networkInterfaces()).flat().find((i) => i && i.family === 'IPv4' && !i.internal)?.address ?? '127.0.0.1';
    const targets: [string, number][] = [[INTERNET, 80], [hostIp, platformPort], [hostIp, 5432], ['127.0.0.1', 5432], ['169.254.169.254', 80]];
    const a = await createSiteProject(t);
    const b = await createSiteProject(t, a.dev);
    expect((await deploy(t, a, targetsZip(targets), 'Node')).statusCode).toBe(200);
    expect((await deploy(t, b, targetsZip(targets), 'Node')).statusCode).toBe(200);
    const other = (await site(t, b, '/')).json();
    expect(other.addresses).toHaveLength(1);
    const seen = (await site(t, a, `/to/${other.addresses[0]}:8080`)).json();
    expect(seen.addresses).toHaveLength(1);
    expect(seen.gateway).toMatch(/^10\.231\./);
    expect(seen.reach[`${INTERNET}:80`]).toBe('answered:hello from the internet');
    const blocked = Object.entries(seen.reach as Record<string, string>).filter(([k]) => k !== `${INTERNET}:80`);
    expect(blocked.length).toBe(targets.length - 1 + 3);
    for (const [target, result] of blocked) expect({ target, result }).toEqual({ target, result: expect.not.stringMatching(/^(connected|answered)/) });
  }, 90_000);

  test('SITE_EGRESS=none: only the site’s own loopback', async () => {
    const t2 = await buildTestApp({ SITE_EGRESS: 'none' });
    try {
      const p = await createSiteProject(t2);
      expect((await deploy(t2, p, targetsZip([[INTERNET, 80], ['127.0.0.1', 5432]]), 'Node')).statusCode).toBe(200);
      const seen = (await site(t2, p, '/')).json();
      expect(seen.addresses).toEqual([]);
      expect(seen.gateway).toBeNull();
      expect(seen.reach[`${INTERNET}:80`]).toBe('ENETUNREACH');
      expect(seen.reach['127.0.0.1:5432']).toBe('ECONNREFUSED');
    } finally {
      await t2.close();
    }
  }, 60_000);
});

test('SITE_EGRESS accepts internet or none', () => {
  const { loadConfig } = jest.requireActual('../../server/src/config') as typeof import('../../server/src/config');
  const dir = fs.mkdtempSync(`${os.tmpdir()}/hb-egress-`);
  expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: 's' }).siteEgress).toBe('internet');
  expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: 's', SITE_EGRESS: 'none' }).siteEgress).toBe('none');
  expect(() => loadConfig({ DATA_DIR: dir, JWT_SECRET: 's', SITE_EGRESS: 'all' })).toThrow(/SITE_EGRESS must be "internet" or "none"/);
  fs.rmSync(dir, { recursive: true, force: true });
});
