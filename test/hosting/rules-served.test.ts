// _redirects and _headers on a deployed static site, through both doors: a real socket (the front
// door, before Fastify) and an injected request (the Fastify gateway hook). Same answers on both.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildTestApp, type TestApp } from '../helpers/app';
import { createSiteProject, deploy, type SiteProject } from './site-helpers';
import { makeZip } from './zips';

jest.setTimeout(60_000);

let t: TestApp;
let port: number;
let p: SiteProject;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function overSocket(url: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: url, headers: { host: p.host }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function injected(url: string): Promise<Answer> {
  const res = await t.app.inject({ method: 'GET', url, headers: { host: p.host } });
  return { status: res.statusCode, headers: res.headers as Answer['headers'], body: res.payload };
}

const REDIRECTS = [
  '# moved pages',
  '/old /new.html',
  '/temp /new.html 302',
  '/form /thanks.html 303',
  '/keep-method /new.html 307',
  '/perm /new.html 308',
  '/blog/:year/:slug /posts/:year-:slug.html 301',
  '/docs/* https://docs.example.com/:splat 302',
  '/app/* /app.html 200',
  '/secret /_redirects 200',
  '/escape/* /:splat 200',
  '/removed /gone.html 404',
  '/new.html /elsewhere 301',
  '/forced.html /new.html 302!',
  '/moved/*  /:splat  301',
  '/shop/:store  https://:store.shops.example/welcome  302',
].join('\n');
const HEADERS = ['/*', '  X-Frame-Options: DENY', '/new.html', '  Cache-Control: public, max-age=60', '  X-Custom: yes'].join('\n');

beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
  p = await createSiteProject(t);
  const zip = makeZip([
    { name: 'index.html', data: '<title>home</title>' },
    { name: 'new.html', data: '<title>new</title>' },
    { name: 'forced.html', data: '<title>forced</title>' },
    { name: 'app.html', data: '<title>app shell</title>' },
    { name: 'gone.html', data: '<title>gone</title>' },
    { name: 'posts/2024-hello.html', data: '<title>post</title>' },
    { name: '_redirects', data: REDIRECTS },
    { name: '_headers', data: HEADERS },
  ]);
  const res = await deploy(t, p, zip, 'Static');
  expect(res.statusCode).toBe(200);
});
afterAll(() => t.close());

const both = async (url: string): Promise<Answer> => {
  await overSocket(url); // warm: the first request of a site goes through Fastify
  const a = await overSocket(url);
  const b = await injected(url);
  const strip = (x: Answer) => ({ ...x, headers: Object.fromEntries(Object.entries(x.headers).filter(([k]) => !['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(k))) });
  expect(strip(a)).toEqual(strip(b));
  return a;
};

describe.each([
  ['/old', 301, '/new.html'],
  ['/old/', 301, '/new.html'],
  ['/old?utm=1', 301, '/new.html?utm=1'],
  ['/temp', 302, '/new.html'],
  ['/form', 303, '/thanks.html'],
  ['/keep-method', 307, '/new.html'],
  ['/perm', 308, '/new.html'],
  ['/blog/2024/hello', 301, '/posts/2024-hello.html'],
  ['/docs/guide/intro', 302, 'https://docs.example.com/guide/intro'],
  ['/forced.html', 302, '/new.html'],
])('redirect %s', (url, status, location) => {
  test(`${status} to ${location} on both doors`, async () => {
    const a = await both(url);
    expect(a.status).toBe(status);
    expect(a.headers.location).toBe(location);
    expect(a.headers['x-frame-options']).toBe('DENY');
  });
});

describe('a redirect built from the request stays on the site (/moved/*  /:splat  301)', () => {
  test.each([
    ['/moved/about', '/about'],
    ['/moved//evil.example/login', '/evil.example/login'],
    ['/moved///evil.example', '/evil.example'],
    ['/moved/%2F%2Fevil.example', '/evil.example'],
    ['/moved/%2f/evil.example', '/evil.example'],
    ['/moved/%5Cevil.example', '/evil.example'],
    ['/moved/%5c%5cevil.example', '/evil.example'],
    ['/moved/%09/evil.example', '/evil.example'],
    ['/moved/%0D%0A/evil.example', '/evil.example'],
    ['/moved/%20/evil.example', '/evil.example'],
    ['/moved//evil.example?next=1', '/evil.example?next=1'],
  ])('%s -> %s on both doors', async (url, location) => {
    const a = await both(url);
    expect(a.status).toBe(301);
    expect(a.headers.location).toBe(location);
  });

  // Over the socket only: an injected request's URL is parsed as a WHATWG URL, which turns '\\' into '/'.
  test.each([
    ['/moved/\\evil.example', '/evil.example'],
    ['/moved//\\evil.example', '/evil.example'],
  ])('%s -> %s', async (url, location) => {
    const a = await overSocket(url);
    expect(a.status).toBe(301);
    expect(a.headers.location).toBe(location);
  });

  test('an http(s) target keeps its host: a value there is letters, digits, - and . only, else 400', async () => {
    const ok = await both('/shop/acme-1');
    expect(ok.status).toBe(302);
    expect(ok.headers.location).toBe('https://acme-1.shops.example/welcome');
    for (const url of ['/shop/evil.example%23', '/shop/evil.example%2F', '/shop/me@evil.example', '/shop/evil.example:8080']) {
      const a = await both(url);
      expect({ url, status: a.status, location: a.headers.location }).toEqual({ url, status: 400, location: undefined });
    }
    // The literal external target of the developer still works as it did.
    expect((await both('/docs/a//b')).headers.location).toBe('https://docs.example.com/a//b');
  });
});

test('a 200 rewrite serves the target file at the original URL', async () => {
  const a = await both('/app/settings/42');
  expect(a.status).toBe(200);
  expect(a.body).toContain('app shell');
  expect(a.headers.location).toBeUndefined();
});

test('a 404 rule serves its file with status 404', async () => {
  const a = await both('/removed');
  expect(a.status).toBe(404);
  expect(a.body).toContain('<title>gone</title>');
});

test('an existing file shadows an unforced rule; a forced one wins', async () => {
  const a = await both('/new.html');
  expect(a.status).toBe(200);
  expect(a.body).toContain('<title>new</title>');
  expect((await both('/forced.html')).status).toBe(302);
});

test('custom headers per path, on top of (and replacing) the platform\'s', async () => {
  const a = await both('/new.html');
  expect(a.headers['x-custom']).toBe('yes');
  expect(a.headers['cache-control']).toBe('public, max-age=60');
  expect(a.headers['x-content-type-options']).toBe('nosniff');
  const home = await both('/');
  expect(home.headers['x-frame-options']).toBe('DENY');
  expect(home.headers['x-custom']).toBeUndefined();
  expect(home.headers['cache-control']).toBe('no-cache');
});

test('the rule files are never served, not even through a rewrite, and a rewrite cannot leave the site', async () => {
  for (const url of ['/_redirects', '/_headers', '/%5Fredirects', '/secret', '/escape/_headers', '/escape/..%2f..%2fetc%2fpasswd', '/escape/%2e%2e/%2e%2e/etc/passwd']) {
    const a = await both(url);
    expect({ url, status: a.status }).toEqual({ url, status: 404 });
    expect(a.body).not.toContain('X-Frame-Options');
    expect(a.body).not.toContain('/old');
    expect(a.body).not.toContain('root:');
  }
});

describe('a bad rules file fails the deploy with the file and line, and the live site stays', () => {
  test.each([
    ['_redirects', '/a /b\n/api/* https://api.example.com/:splat 200', /_redirects line 2: a 200 rewrite to another site \(proxying to https:\/\/api\.example\.com\/:splat\) is not supported/],
    ['_headers', '/*\n  Set-Cookie: sid=1; Domain=localhost', /_headers line 2: the set-cookie header cannot be set here/],
  ])('%s', async (name, text, message) => {
    const res = await deploy(t, p, makeZip([{ name: 'index.html', data: '<title>broken</title>' }, { name, data: text }]), 'Static');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(message);
    expect((await injected('/')).body).toContain('<title>home</title>');
  });
});
