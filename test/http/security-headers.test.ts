// Browser-security headers (no inline script, no framing, no sniffing), over real HTTP against the real app serving a
// console build: the console and marketing pages (any route, deep console routes included) and
// the API reference carry a Content-Security-Policy without inline scripts (the page's own inline
// block is allowed by its hash), no framing, nosniff, a referrer policy, and HSTS only for an
// https PUBLIC_URL; API answers carry nosniff only; hosted sites keep their own headers.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/src/app';
import { loadConfig } from '../../server/src/config';
import { inlineHashes, swaggerUiStyleHashes } from '../../server/src/http/security-headers';
import { createTestDatabase } from '../helpers/test-db';
import type { TestApp } from '../helpers/app';
import { createSiteProject, deploy } from '../hosting/site-helpers';
import { makeZip } from '../hosting/zips';

jest.setTimeout(30_000);

const INLINE_SCRIPT = 'window.__boot = 1;';
const INLINE_STYLE = 'body{margin:0}';
const INDEX = `<!doctype html><html><head><title>Hostbase</title>
<script type="module" crossorigin src="/assets/index-abc.js"></script>
<script>${INLINE_SCRIPT}</script><style>${INLINE_STYLE}</style></head><body><div id="root"></div></body></html>`;
const sha256 = (s: string) => `'sha256-${crypto.createHash('sha256').update(s).digest('base64')}'`;

interface Running {
  app: FastifyInstance;
  base: string;
  close: () => Promise<void>;
  t: TestApp;
}

/** The real app with a console build in a temp dir, listening on a free port. */
async function start(env: Record<string, string> = {}): Promise<Running> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-headers-'));
  const webDir = path.join(dataDir, 'web');
  fs.mkdirSync(path.join(webDir, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(webDir, 'index.html'), INDEX);
  fs.writeFileSync(path.join(webDir, 'assets', 'index-abc.js'), 'console.log(1)');
  const config = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'headers-test', PUBLIC_URL: 'http://localhost:3000', PASSWORD_HASH_COST: '12', LOG_LEVEL: 'silent', ...env });
  const { database, drop } = await createTestDatabase();
  const app = await buildApp({ ...config, webDir }, { database, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const close = async () => {
    await app.close();
    await drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const t: TestApp = {
    app,
    database,
    config,
    dataDir,
    outbox: () => [],
    post: (p, body, token, headers = {}) =>
      app.inject({ method: 'POST', url: '/api' + p, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers }, ...(body === undefined ? {} : { payload: body as object }) }),
    close,
  };
  return { app, base, close, t };
}

/** fetch() cannot set Host; hosted sites are told apart by it. */
function getWithHost(base: string, host: string): Promise<{ body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const url = new URL(base);
    const req = http.request({ host: url.hostname, port: url.port, path: '/', headers: { host }, agent: false }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Content-Security-Policy → { directive: [sources] }. */
function policy(header: string | null): Record<string, string[]> {
  expect(header).toBeTruthy();
  const out: Record<string, string[]> = {};
  for (const part of String(header).split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) out[name] = sources;
  }
  return out;
}

describe('console and marketing pages', () => {
  let r: Running;
  beforeAll(async () => {
    r = await start();
  });
  afterAll(() => r.close());

  test.each(['/', '/auth/login', '/console/projects/6f1c/hosting', '/index.html', '/pricing'])('%s carries the browser-security headers', async (url) => {
    const res = await fetch(r.base + url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.text()).toContain('<div id="root">');
    const csp = policy(res.headers.get('content-security-policy'));
    expect(csp['default-src']).toEqual(["'self'"]);
    expect(csp['script-src']).toEqual(["'self'", sha256(INLINE_SCRIPT)]);
    expect(csp['style-src']).toEqual(["'self'", sha256(INLINE_STYLE)]);
    expect(csp['script-src-attr']).toEqual(["'none'"]);
    expect(csp['object-src']).toEqual(["'none'"]);
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
    expect(res.headers.get('content-security-policy')).not.toContain('unsafe-inline');
    expect(res.headers.get('content-security-policy')).not.toContain('unsafe-eval');
    expect(csp['upgrade-insecure-requests']).toBeUndefined();
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    // PUBLIC_URL is http: no HSTS (it would lock browsers out of a plain-http install).
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });

  test('the console assets carry nosniff too', async () => {
    const res = await fetch(r.base + '/assets/index-abc.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  test('API JSON answers carry nosniff and no page policy (they are read cross-origin)', async () => {
    const res = await fetch(r.base + '/api/health');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBeNull();
    expect(res.headers.get('cross-origin-resource-policy')).toBeNull();
    const spec = await fetch(r.base + '/api/openapi.json');
    expect(spec.headers.get('x-content-type-options')).toBe('nosniff');
  });

  test('/api/docs has its own policy under which Swagger UI loads its files', async () => {
    const res = await fetch(r.base + '/api/docs');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('swagger-ui-bundle.js');
    const csp = policy(res.headers.get('content-security-policy'));
    expect(csp['script-src']).toEqual(["'self'"]);
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
    expect(csp['img-src']).toContain('data:');
    // Swagger UI's one inline <style> (its SVG logo) by hash, nothing inline beyond it.
    expect(swaggerUiStyleHashes().length).toBeGreaterThan(0);
    expect(csp['style-src']).toEqual(["'self'", ...swaggerUiStyleHashes()]);
    expect(res.headers.get('content-security-policy')).not.toContain('unsafe-inline');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    // Every script the page loads is a file from this origin (no inline block needing a hash).
    expect(inlineHashes(html).scripts).toEqual([]);
    for (const src of html.matchAll(/<script src="([^"]+)"/g)) {
      const asset = await fetch(new URL(src[1], r.base + '/api/docs').toString());
      expect(asset.status).toBe(200);
    }
  });

  test('a hosted site keeps its own headers: no console policy on the tenant pages', async () => {
    const p = await createSiteProject(r.t);
    expect((await deploy(r.t, p, makeZip([{ name: 'index.html', data: '<title>tenant</title><script>alert(1)</script>' }]), 'Static')).statusCode).toBe(200);
    for (let i = 0; i < 2; i++) {
      // The first request goes through Fastify's gateway hook, the second through the front door.
      const res = await getWithHost(r.base, p.host);
      expect(res.body).toContain('<title>tenant</title>');
      expect(res.headers['content-security-policy']).toBeUndefined();
      expect(res.headers['x-frame-options']).toBeUndefined();
    }
  });
});

test('an https PUBLIC_URL adds HSTS (without subdomains: hosted sites live there) and upgrade-insecure-requests', async () => {
  const r = await start({ PUBLIC_URL: 'https://hostbase.example.com' });
  try {
    for (const url of ['/', '/api/docs']) {
      const res = await fetch(r.base + url);
      expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000');
      const csp = policy(res.headers.get('content-security-policy'));
      expect(csp['upgrade-insecure-requests']).toEqual([]);
      expect(csp['connect-src']).toEqual(["'self'", 'https://hostbase.example.com']);
    }
  } finally {
    await r.close();
  }
});

test('inline blocks are hashed, scripts with a src are not', () => {
  const { scripts, styles } = inlineHashes(`<script src="/a.js"></script><script type="module">a()</script><SCRIPT>b()</SCRIPT><style media="x">p{}</style>`);
  expect(scripts).toEqual([sha256('a()'), sha256('b()')]);
  expect(styles).toEqual([sha256('p{}')]);
  expect(inlineHashes('<div></div>')).toEqual({ scripts: [], styles: [] });
});
