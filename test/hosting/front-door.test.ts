// The hosting front door (raw node:http, before Fastify) answers exactly what the Fastify gateway
// hook answers: same status, headers and bytes for the same requests. It only answers from the
// service's TTL-bounded live-site cache, so a rollback (which invalidates it) shows at once and
// another instance's switch within the TTL. API, console and unknown hosts still reach Fastify.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../../server/src/app';
import { loadConfig } from '../../server/src/config';
import { HostingService } from '../../server/src/modules/hosting/hosting.service';
import { buildTestApp, type TestApp } from '../helpers/app';
import { createSiteProject, deploy, site, type SiteProject } from './site-helpers';
import { makeZip } from './zips';

jest.setTimeout(30_000);

let t: TestApp;
let port: number;
let spa: SiteProject;
let plain: SiteProject;
let empty: SiteProject;
let v1Id: string;

const reactApp = (title: string) =>
  makeZip([
    { name: 'dist/index.html', data: `<!doctype html><title>${title}</title><script src="/assets/index-abc12345.js"></script>` },
    { name: 'dist/assets/index-abc12345.js', data: `console.log(${JSON.stringify(title)});`.repeat(200) },
    { name: 'dist/assets/logo.svg', data: `<svg xmlns="http://www.w3.org/2000/svg">${'<g/>'.repeat(400)}</svg>` },
    { name: 'dist/robots.txt', data: 'User-agent: *' },
    { name: 'dist/big.bin', data: require('node:crypto').randomBytes(1024 * 1024 + 10) as Buffer },
    { name: 'dist/.env', data: 'SECRET=1' },
  ]);

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A request through a real socket: the path `npm start` serves. */
function overSocket(host: string, url: string, headers: Record<string, string> = {}, method = 'GET', payload?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: url, method, headers: { host, ...headers }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** The same request injected (no socket): always the Fastify gateway hook. */
async function injected(host: string, url: string, headers: Record<string, string> = {}, method = 'GET', payload?: string): Promise<Answer> {
  const res = await t.app.inject({ method: method as 'GET', url, headers: { host, ...headers }, ...(payload === undefined ? {} : { payload }) });
  return { status: res.statusCode, headers: res.headers as Answer['headers'], body: res.rawPayload };
}

const PER_CONNECTION = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);
const comparable = (a: Answer) => ({
  status: a.status,
  headers: Object.fromEntries(Object.entries(a.headers).filter(([k]) => !PER_CONNECTION.has(k))),
  body: a.body.toString('base64'),
});

const title = async (p: SiteProject) => /<title>(.*?)<\/title>/.exec((await overSocket(p.host, '/')).body.toString())?.[1];

beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
  spa = await createSiteProject(t);
  plain = await createSiteProject(t, spa.dev);
  empty = await createSiteProject(t, spa.dev);
  const first = await deploy(t, spa, reactApp('v1'), 'React');
  expect(first.statusCode).toBe(200);
  v1Id = first.json().deployment.id;
  const zip = makeZip([
    { name: 'index.html', data: '<title>home</title>' },
    { name: 'about.html', data: '<title>about</title>' },
    { name: '404.html', data: '<title>custom 404</title>' },
  ]);
  expect((await deploy(t, plain, zip, 'Static')).statusCode).toBe(200);
});
afterAll(() => t.close());

describe('the front door and the Fastify gateway give the same answers', () => {
  const cases: [string, () => SiteProject, string, Record<string, string>, string?, string?][] = [
    ['index', () => spa, '/', {}],
    ['hashed asset', () => spa, '/assets/index-abc12345.js', {}],
    ['asset with a query string', () => spa, '/assets/index-abc12345.js?v=2', {}],
    ['brotli', () => spa, '/assets/index-abc12345.js', { 'accept-encoding': 'gzip, deflate, br' }],
    ['gzip', () => spa, '/assets/logo.svg', { 'accept-encoding': 'gzip' }],
    ['small file (no compression)', () => spa, '/robots.txt', { 'accept-encoding': 'gzip' }],
    ['big file (streamed)', () => spa, '/big.bin', {}],
    ['SPA deep link', () => spa, '/dashboard/settings/42', {}],
    ['missing asset', () => spa, '/assets/missing-12345678.js', {}],
    ['dotfile', () => spa, '/.env', {}],
    ['encoded dotfile', () => spa, '/%2eenv', {}],
    ['HEAD', () => spa, '/assets/index-abc12345.js', {}, 'HEAD'],
    ['POST', () => spa, '/', { 'content-type': 'text/plain' }, 'POST', 'x'],
    ['static clean URL', () => plain, '/about', {}],
    ['static 404.html', () => plain, '/nope', {}],
    ['no site deployed yet', () => empty, '/', {}],
  ];
  test.each(cases)('%s', async (_name, project, url, headers, method = 'GET', payload) => {
    const p = project();
    await overSocket(p.host, url, headers, method, payload); // warm: the first request fills the caches
    const viaSocket = await overSocket(p.host, url, headers, method, payload);
    const viaFastify = await injected(p.host, url, headers, method, payload);
    expect(comparable(viaSocket)).toEqual(comparable(viaFastify));
  });

  test('a malformed escape is a 400 on both (Fastify refuses the URL before any hook runs)', async () => {
    await overSocket(spa.host, '/');
    expect((await overSocket(spa.host, '/%E0%A4%A')).status).toBe(400);
    expect((await injected(spa.host, '/%E0%A4%A')).status).toBe(400);
  });

  test('304 with the ETag of either door', async () => {
    const first = await overSocket(spa.host, '/assets/index-abc12345.js');
    const etag = String(first.headers.etag);
    const viaSocket = await overSocket(spa.host, '/assets/index-abc12345.js', { 'if-none-match': etag });
    expect(viaSocket.status).toBe(304);
    expect(viaSocket.body.length).toBe(0);
    expect(comparable(viaSocket)).toEqual(comparable(await injected(spa.host, '/assets/index-abc12345.js', { 'if-none-match': etag })));
    const big = await overSocket(spa.host, '/big.bin');
    expect((await overSocket(spa.host, '/big.bin', { 'if-none-match': String(big.headers.etag) })).status).toBe(304);
  });
});

test('warm requests are answered without the database look-up of the Fastify path', async () => {
  const liveSite = jest.spyOn(HostingService.prototype, 'liveSite');
  try {
    await overSocket(spa.host, '/assets/index-abc12345.js');
    liveSite.mockClear();
    const n = 20;
    for (let i = 0; i < n; i++) expect((await overSocket(spa.host, '/assets/index-abc12345.js')).status).toBe(200);
    // At most one refresh when the 2 s TTL happens to expire during the loop.
    expect(liveSite.mock.calls.length).toBeLessThanOrEqual(1);
  } finally {
    liveSite.mockRestore();
  }
});

test('front-door answers are counted as the site traffic', async () => {
  const before = (await t.post(`/project/${spa.id}/hosting/traffic`, {}, spa.dev.token)).json();
  const sum = (b: { traffic: { requests: number }[] }) => b.traffic.reduce((s, x) => s + x.requests, 0);
  for (let i = 0; i < 5; i++) await overSocket(spa.host, '/robots.txt');
  await overSocket(spa.host, '/assets/front-door-missing.css');
  const after = (await t.post(`/project/${spa.id}/hosting/traffic`, {}, spa.dev.token)).json();
  expect(sum(after) - sum(before)).toBeGreaterThanOrEqual(6);
  expect(after.errors).toContainEqual(expect.objectContaining({ status: 404, path: '/assets/front-door-missing.css' }));
});

test('a redeploy and a rollback show at once through the front door', async () => {
  expect(await title(spa)).toBe('v1');
  expect((await deploy(t, spa, reactApp('v2'), 'Vite')).statusCode).toBe(200);
  expect(await title(spa)).toBe('v2');
  expect((await overSocket(spa.host, '/deep/link')).body.toString()).toContain('<title>v2</title>');
  expect((await t.post(`/project/${spa.id}/deployments/${v1Id}/activate`, {}, spa.dev.token)).statusCode).toBe(200);
  expect(await title(spa)).toBe('v1');
  expect((await overSocket(spa.host, '/deep/link')).body.toString()).toContain('<title>v1</title>');
});

test("another instance's switch reaches this front door within the live-site TTL (2 s)", async () => {
  const fs = require('node:fs') as typeof import('node:fs');
  const os = require('node:os') as typeof import('node:os');
  const path = require('node:path') as typeof import('node:path');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-second-'));
  const config = { ...loadConfig({ DATA_DIR: dataDir, JWT_SECRET: t.config.jwtSecret, LOG_LEVEL: 'silent', PASSWORD_HASH_COST: '12' }), webDir: undefined };
  const second = await buildApp(config, { database: t.database, objectStore: t.app.deps.objectStore, logger: false });
  try {
    expect(await title(spa)).toBe('v1');
    const history = (await t.post(`/project/${spa.id}/deployments`, {}, spa.dev.token)).json();
    const v2 = history.deployments.find((d: { type: string; status: string }) => d.type === 'Vite' && d.status === 'superseded');
    const res = await second.inject({ method: 'POST', url: `/api/project/${spa.id}/deployments/${v2.id}/activate`, headers: { authorization: `Bearer ${spa.dev.token}`, 'content-type': 'application/json' }, payload: '{}' });
    expect(res.statusCode).toBe(200);
    const started = Date.now();
    let seen = await title(spa);
    while (seen !== 'v2' && Date.now() - started < 4000) {
      await new Promise((r) => setTimeout(r, 100));
      seen = await title(spa);
    }
    expect(seen).toBe('v2');
    expect(Date.now() - started).toBeLessThan(3000);
  } finally {
    await second.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test('the API, unknown subdomains and the platform host still reach Fastify through the same server', async () => {
  expect((await overSocket(`localhost:${port}`, '/api/health')).status).toBe(200);
  expect((await overSocket(`nosuchsite.localhost:${port}`, '/api/health')).status).toBe(200);
  const api = await overSocket(spa.host, '/api/health');
  // A site's Host is the site, even for /api paths: the same as the Fastify gateway.
  expect(comparable(api)).toEqual(comparable(await injected(spa.host, '/api/health')));
  expect((await site(t, spa, '/')).statusCode).toBe(200);
});
