// Custom domains: the API's rules against a real local DNS server, and end to end
// against Pebble (Let's Encrypt's ACME test server): a verified domain gets a certificate that
// chains to Pebble's root, its site is served over HTTPS by SNI, plain HTTP redirects there, and
// an unverified domain gets neither a site nor a certificate.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { buildTestApp, type TestApp } from '../helpers/app';
import { createProject, deploy, makeZip, onPlan, registerDeveloper, type Project } from '../helpers/factories';
import { startDomainDns, type DomainDns } from './dns';
import { quietPort } from '../helpers/ports';

jest.setTimeout(120_000);

const PLATFORM = 'hostbase.test';
const pebble = ['/usr/bin/pebble', '/usr/sbin/pebble'].find((p) => fs.existsSync(p));


let devs = 0;
const newDeveloper = (t: TestApp) => registerDeveloper(t, { ip: `127.0.${Math.floor(++devs / 200)}.${(devs % 200) + 2}` });

async function siteProject(t: TestApp, plan: 'hobby' | 'pro' = 'pro'): Promise<Project> {
  const dev = await newDeveloper(t);
  await onPlan(t, dev, plan);
  const p = await createProject(t, dev);
  const res = await deploy(t, p, makeZip([{ name: 'index.html', data: `<h1>custom ${p.subdomain}</h1>` }]), 'Static');
  expect(res.statusCode).toBe(200);
  return p;
}

const add = (t: TestApp, p: Project, hostname: unknown, token = p.dev.token) => t.post(`/project/${p.id}/hosting/add_domain`, { hostname }, token);
const verify = (t: TestApp, p: Project, hostname: string, token = p.dev.token) => t.post(`/project/${p.id}/hosting/verify_domain`, { hostname }, token);
const list = (t: TestApp, p: Project, token = p.dev.token) => t.post(`/project/${p.id}/hosting/domains`, undefined, token);
const remove = (t: TestApp, p: Project, hostname: string, token = p.dev.token) => t.post(`/project/${p.id}/hosting/remove_domain`, { hostname }, token);

describe('the API', () => {
  let t: TestApp;
  let dns: DomainDns;
  let shared: Project | undefined;
  beforeAll(async () => {
    dns = await startDomainDns();
    t = await buildTestApp({ PLATFORM_DOMAIN: PLATFORM, DNS_SERVERS: dns.server }, { domains: { renewCheckMs: 0, issuer: { issue: () => Promise.reject(new Error('no CA in this test')) } } });
  });
  afterAll(async () => {
    await t?.close();
    await dns?.close();
  });

  test('add shows the CNAME to publish; verify reads DNS; a verified name is the project\'s alone; remove', async () => {
    const p = await siteProject(t);
    const res = await add(t, p, '  WWW.Shop-One.Example. ');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ hostname: 'www.shop-one.example', status: 'pending', verified: false, records: [{ type: 'CNAME', host: 'www.shop-one.example', value: `${p.subdomain}.${PLATFORM}` }], certificate_expires_at: null });
    expect((await add(t, p, 'www.shop-one.example')).statusCode).toBe(409);

    // Unverified claims block nobody: a second project may claim the same name.
    const squatter = await siteProject(t);
    expect((await add(t, squatter, 'www.shop-one.example')).statusCode).toBe(200);

    // Nothing published, then a CNAME elsewhere: not verified, and the message says why.
    let v = await verify(t, p, 'www.shop-one.example');
    expect(v.statusCode).toBe(200);
    expect(v.json().message).toBe(`No CNAME record to ${p.subdomain}.${PLATFORM} was found at www.shop-one.example`);
    dns.set('www.shop-one.example', [{ type: 'CNAME', value: 'elsewhere.example.net' }]);
    expect((await verify(t, p, 'www.shop-one.example')).json().message).toMatch(/points at elsewhere\.example\.net/);
    // The site is not served there while unverified.
    const before = await t.app.inject({ url: '/', headers: { host: 'www.shop-one.example' } });
    expect(before.statusCode).toBe(404);
    expect(before.body).not.toContain('custom');

    dns.set('www.shop-one.example', [{ type: 'CNAME', value: `${p.subdomain}.${PLATFORM}` }]);
    v = await verify(t, p, 'www.shop-one.example');
    expect(v.json()).toMatchObject({ message: 'verified', domain: { verified: true, status: 'issuing' } });
    // Served by the gateway under the custom Host (no certificate yet: plain HTTP, no redirect).
    const served = await t.app.inject({ url: '/', headers: { host: 'www.shop-one.example' } });
    expect(served.statusCode).toBe(200);
    expect(served.body).toContain(`custom ${p.subdomain}`);

    // Now the squatter can neither verify it nor add it again elsewhere.
    expect((await verify(t, squatter, 'www.shop-one.example')).statusCode).toBe(409);
    const third = await siteProject(t);
    expect((await add(t, third, 'www.shop-one.example')).statusCode).toBe(409);

    expect((await list(t, p)).json()).toHaveLength(1);
    expect((await remove(t, p, 'www.shop-one.example')).json()).toEqual({ message: 'removed' });
    expect((await list(t, p)).json()).toEqual([]);
    expect((await remove(t, p, 'www.shop-one.example')).statusCode).toBe(404);
  });

  test.each([
    ['', 'Hostname is required'],
    ['   ', 'Hostname is required'],
    ['1.2.3.4', 'Please enter a valid hostname (e.g., www.example.com)'],
    ['[::1]', 'Please enter a valid hostname (e.g., www.example.com)'],
    ['example.com:443', 'Please enter a valid hostname (e.g., www.example.com)'],
    ['http://example.com/', 'Please enter a valid hostname (e.g., www.example.com)'],
    ['exa mple.com', 'Please enter a valid hostname (e.g., www.example.com)'],
    ['localhost', 'Please enter a valid hostname (e.g., www.example.com)'],
    [`${'a'.repeat(64)}.example.com`, 'Please enter a valid hostname (e.g., www.example.com)'],
    [`${'abcdefgh.'.repeat(30)}com`, 'Please enter a valid hostname (e.g., www.example.com)'],
    [PLATFORM, 'This hostname belongs to the platform'],
    [`shop.${PLATFORM.toUpperCase()}`, 'This hostname belongs to the platform'],
    [`mail.${PLATFORM}`, 'This hostname belongs to the platform'],
  ])('hostname %j is refused: %s', async (hostname, message) => {
    const p = (shared ??= await siteProject(t));
    const res = await add(t, p, hostname);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
    expect((await list(t, p)).json()).toEqual([]);
  });

  test('an international name is kept in its punycode form', async () => {
    const p = await siteProject(t);
    expect((await add(t, p, 'Bücher.Example')).json().hostname).toBe('xn--bcher-kva.example');
  });

  test('another account\'s token sees and changes nothing', async () => {
    const p = await siteProject(t);
    expect((await add(t, p, 'mine.example.org')).statusCode).toBe(200);
    const other = await newDeveloper(t);
    await onPlan(t, other, 'pro');
    for (const res of [await list(t, p, other.token), await add(t, p, 'x.example.org', other.token), await verify(t, p, 'mine.example.org', other.token), await remove(t, p, 'mine.example.org', other.token)]) {
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('mine.example.org');
    }
    expect((await list(t, p, '')).statusCode).toBe(401);
    expect((await list(t, p)).json().map((d: { hostname: string }) => d.hostname)).toEqual(['mine.example.org']);
  });

  test('plan limits: Hobby has no custom domains; Pro has 10 across the account\'s projects', async () => {
    const hobby = await siteProject(t, 'hobby');
    const refused = await add(t, hobby, 'www.hobby.example');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Your Hobby plan allows no custom domains. Upgrade the plan in Settings → Billing.');
    const pro = await siteProject(t);
    const second = await createProject(t, pro.dev);
    for (let i = 0; i < 10; i++) expect((await add(t, i % 2 ? pro : second, `d${i}.pro.example`)).statusCode).toBe(200);
    const eleventh = await add(t, pro, 'd10.pro.example');
    expect(eleventh.statusCode).toBe(403);
    expect(eleventh.json().message).toBe('Your Pro plan allows 10 custom domains. Upgrade the plan in Settings → Billing.');
  });
});

describe('certificates: obtained once verified, renewed before expiry, one instance at a time', () => {
  let t: TestApp;
  let dns: DomainDns;
  const issued: string[] = [];
  let release: (() => void) | undefined;
  beforeAll(async () => {
    dns = await startDomainDns();
    const issuer = {
      issue: async (hostname: string) => {
        issued.push(hostname);
        if (release === undefined) await new Promise<void>((r) => (release = r));
        return { certPem: 'CERT', keyPem: 'KEY', expiresAt: new Date(Date.now() + 90 * 86_400_000) };
      },
    };
    t = await buildTestApp({ PLATFORM_DOMAIN: PLATFORM, DNS_SERVERS: dns.server }, { domains: { renewCheckMs: 0, issuer } });
  });
  afterAll(async () => {
    release?.();
    await t?.close();
    await dns?.close();
  });

  test('the request started by verify holds the lease; renewal comes 30 days before expiry', async () => {
    const p = await siteProject(t);
    dns.set('renew.example.com', [{ type: 'CNAME', value: `${p.subdomain}.${PLATFORM}` }]);
    await add(t, p, 'renew.example.com');
    expect((await verify(t, p, 'renew.example.com')).json().message).toBe('verified');
    while (!release) await new Promise((r) => setTimeout(r, 10));
    // While that request runs, the periodic check (any instance) leaves the domain alone.
    expect(await t.app.domains.renewDue()).toBe(0);
    release();
    await t.app.domains.settle();
    expect(issued).toEqual(['renew.example.com']);
    const [d] = (await list(t, p)).json();
    expect(d.status).toBe('active');
    const sealed = await t.database.query<{ key_sealed: string }>("SELECT key_sealed FROM site_domains WHERE hostname = 'renew.example.com'");
    expect(sealed[0].key_sealed).not.toBe('KEY');
    // Fresh: nothing to do. Within 30 days of expiry: renewed.
    expect(await t.app.domains.renewDue()).toBe(0);
    await t.database.query("UPDATE site_domains SET cert_expires_at = now() + interval '10 days' WHERE hostname = 'renew.example.com'");
    expect(await t.app.domains.renewDue()).toBe(1);
    expect(issued).toEqual(['renew.example.com', 'renew.example.com']);
    expect(await t.app.domains.renewDue()).toBe(0);
  });
});

const pebbleMissing = !pebble && !process.env.CI;
if (pebbleMissing) console.warn('custom-domains: pebble is not installed (apt-get install pebble); the ACME end-to-end test is skipped');
(pebbleMissing ? describe.skip : describe)('end to end against Pebble', () => {
  let t: TestApp;
  let dns: DomainDns;
  let dir: string;
  let proc: ChildProcess | undefined;
  let acmeCa: string;
  let pebbleRoot: string;
  let httpPort: number;
  let pebbleLog = '';

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-pebble-'));
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'), '-days', '2', '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'], { stdio: 'ignore' });
    acmeCa = path.join(dir, 'cert.pem');
    dns = await startDomainDns();
    const [acmePort, mgmtPort] = [await quietPort(), await quietPort()];
    t = await buildTestApp(
      { PLATFORM_DOMAIN: PLATFORM, DNS_SERVERS: dns.server, HTTPS_PORT: '0', HOST: '127.0.0.1', ACME_DIRECTORY_URL: `https://127.0.0.1:${acmePort}/dir`, ACME_CA_FILE: acmeCa, ACME_EMAIL: 'ops@hostbase.test' },
      { domains: { renewCheckMs: 0 } },
    );
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    httpPort = (t.app.server.address() as AddressInfo).port;
    fs.writeFileSync(
      path.join(dir, 'pebble.json'),
      JSON.stringify({ pebble: { listenAddress: `127.0.0.1:${acmePort}`, managementListenAddress: `127.0.0.1:${mgmtPort}`, certificate: acmeCa, privateKey: path.join(dir, 'key.pem'), httpPort, tlsPort: await quietPort(), ocspResponderURL: '', externalAccountBindingRequired: false } }),
    );
    proc = spawn(pebble!, ['-config', path.join(dir, 'pebble.json'), '-dnsserver', dns.server], { env: { ...process.env, PEBBLE_VA_NOSLEEP: '1', PEBBLE_WFE_NONCEREJECT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
    proc.stdout!.on('data', (b: Buffer) => (pebbleLog += b.toString()));
    proc.stderr!.on('data', (b: Buffer) => (pebbleLog += b.toString()));
    const ca = fs.readFileSync(acmeCa);
    for (let i = 0; ; i++) {
      try {
        pebbleRoot = await get(`https://127.0.0.1:${mgmtPort}/roots/0`, ca);
        break;
      } catch (err) {
        if (i > 100) throw new Error(`pebble did not start: ${String(err)}\n${pebbleLog}`, { cause: err });
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  });
  afterAll(async () => {
    proc?.kill('SIGTERM');
    await t?.close();
    await dns?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  function get(url: string, ca: Buffer | string): Promise<string> {
    return new Promise((resolve, reject) => {
      https.get(url, { ca }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => (res.statusCode === 200 ? resolve(body) : reject(new Error(`${res.statusCode} ${body}`))));
      }).on('error', reject);
    });
  }

  function httpsGet(servername: string, ca: string): Promise<{ status: number; body: string; authorized: boolean; issuer: string }> {
    return new Promise((resolve, reject) => {
      const req = https.request({ host: '127.0.0.1', port: t.app.domains.httpsPort, servername, path: '/', headers: { host: servername }, ca, agent: false }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        const socket = res.socket as tls.TLSSocket;
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, authorized: socket.authorized, issuer: String(socket.getPeerCertificate().issuer?.CN ?? '') }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  function plainGet(host: string, url = '/'): Promise<{ status: number; location?: string; body: string }> {
    return new Promise((resolve, reject) => {
      http.get({ host: '127.0.0.1', port: httpPort, path: url, headers: { host }, agent: false }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location, body }));
      }).on('error', reject);
    });
  }

  test('a verified domain gets a certificate from Pebble and serves its site over HTTPS; HTTP redirects; an unverified one gets nothing', async () => {
    const p = await siteProject(t);
    const host = 'www.custom-site.example';
    expect((await add(t, p, host)).statusCode).toBe(200);
    // Unverified: no certificate issued and none served.
    expect((await verify(t, p, host)).json().message).toMatch(/^No CNAME record/);
    await expect(httpsGet(host, pebbleRoot)).rejects.toThrow();
    expect((await plainGet(host)).status).toBe(404);

    dns.set(host, [{ type: 'CNAME', value: `${p.subdomain}.${PLATFORM}` }]);
    dns.set(`${p.subdomain}.${PLATFORM}`, [{ type: 'A', value: '127.0.0.1' }]);
    expect((await verify(t, p, host)).json().message).toBe('verified');
    await t.app.domains.settle();
    const [domain] = (await list(t, p)).json();
    if (domain.status !== 'active') throw new Error(`no certificate: ${domain.error}\n${pebbleLog}`);
    expect(Date.parse(domain.certificate_expires_at)).toBeGreaterThan(Date.now());

    const res = await httpsGet(host, pebbleRoot);
    expect(res).toMatchObject({ status: 200, authorized: true });
    expect(res.issuer).toMatch(/Pebble/i);
    expect(res.body).toContain(`custom ${p.subdomain}`);
    // Pebble's root is what makes the chain valid: without it the handshake is refused.
    await expect(httpsGet(host, acmeCa ? fs.readFileSync(acmeCa, 'utf8') : '')).rejects.toThrow();

    const redirect = await plainGet(host, '/about?x=1');
    expect(redirect.status).toBe(308);
    expect(redirect.location).toBe(`https://${host}:${t.app.domains.httpsPort}/about?x=1`);

    // Another claimed but unverified name on the same platform still gets nothing.
    const other = await siteProject(t);
    expect((await add(t, other, 'pending.custom-site.example')).statusCode).toBe(200);
    await expect(httpsGet('pending.custom-site.example', pebbleRoot)).rejects.toThrow();
    expect((await plainGet('pending.custom-site.example')).status).toBe(404);

    // The key is kept sealed at rest.
    const rows = await t.database.query<{ key_sealed: string }>('SELECT key_sealed FROM site_domains WHERE key_sealed IS NOT NULL');
    expect(rows.length).toBe(1);
    expect(rows[0].key_sealed).not.toMatch(/PRIVATE KEY/);
  });
});
