// The console's files served by content negotiation (a cold visit downloads less): the build's brotli and gzip copies
// by Accept-Encoding and its q-values, identity otherwise, each representation with its own ETag
// (304 only for the one asked for), Vary on all of them, byte ranges always of the identity
// bytes; robots.txt and sitemap.xml as text and XML, never the app's page.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/src/app';
import { loadConfig } from '../../server/src/config';
import { PUBLIC_PAGES } from '../../server/src/http/public-pages';
import { createTestDatabase } from '../helpers/test-db';

jest.setTimeout(30_000);

// Big enough to compress, varied enough that the copies differ from each other.
const APP_JS = Array.from({ length: 400 }, (_, i) => `export const v${i} = "value ${i * 7919}";`).join('\n');
const LOOSE_CSS = Array.from({ length: 100 }, (_, i) => `.c${i} { margin: ${i}px; }`).join('\n');
const INDEX = `<!doctype html><html lang="en"><head><meta charset="UTF-8" /><title>Hostbase</title>
<meta name="description" content="${'Hostbase: database, authentication, storage, hosting and email. '.repeat(6)}" />
<script type="module" crossorigin src="/assets/app-abc.js"></script></head><body><div id="root"></div></body></html>`;
// As web/prerender.mts writes them: the shell with the page inside and its stylesheet inlined.
const INLINE_CSS = '.hero{padding:88px 0}';
const prerendered = (page: string) =>
  INDEX.replace('<div id="root"></div>', `<div id="root"><h1 class="hero-title">${page}</h1></div>`).replace('</head>', `<style>${INLINE_CSS}</style></head>`);
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(2000, 7)]);

let app: FastifyInstance;
let webDir: string;
let close: () => Promise<void>;

beforeAll(async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hostbase-web-'));
  webDir = path.join(dataDir, 'web');
  fs.mkdirSync(path.join(webDir, 'assets'), { recursive: true });
  const write = (rel: string, body: string | Buffer) => fs.writeFileSync(path.join(webDir, rel), body);
  write('index.html', INDEX);
  write('assets/app-abc.js', APP_JS);
  // The build's copies (web/precompress.mts) at its levels: the server must serve these bytes.
  write('assets/app-abc.js.br', zlib.brotliCompressSync(APP_JS, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }));
  write('assets/app-abc.js.gz', zlib.gzipSync(APP_JS, { level: 9 }));
  write('assets/loose-def.css', LOOSE_CSS); // no copies: made at start
  write('assets/tiny-123.js', 'export {};'); // too small to be worth compressing
  write('assets/logo-456.png', PNG);
  write('assets/later-789.js', 'export const v = "as built";'.repeat(20));
  write('assets/removed-000.js', 'export {};');
  fs.mkdirSync(path.join(webDir, 'prerendered'));
  write('prerendered/index.html', prerendered('Landing'));
  write('prerendered/pricing.html', prerendered('Pricing'));
  const config = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'web-test', PUBLIC_URL: 'https://hostbase.example', PASSWORD_HASH_COST: '12', LOG_LEVEL: 'silent' });
  const { database, drop } = await createTestDatabase();
  app = await buildApp({ ...config, webDir }, { database, logger: false });
  await app.ready();
  close = async () => {
    await app.close();
    await drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
});
afterAll(() => close());

const get = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') => app.inject({ method, url, headers });
const onDisk = (rel: string) => fs.readFileSync(path.join(webDir, rel));

describe('content negotiation', () => {
  test('br is preferred when accepted: the build copy, decompressing to the file, with its own length, tag and Vary', async () => {
    const res = await get('/assets/app-abc.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.rawPayload).toEqual(onDisk('assets/app-abc.js.br'));
    expect(res.headers['content-length']).toBe(String(onDisk('assets/app-abc.js.br').length));
    expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(APP_JS);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  test('gzip when br is not accepted', async () => {
    const res = await get('/assets/app-abc.js', { 'accept-encoding': 'gzip' });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.rawPayload).toEqual(onDisk('assets/app-abc.js.gz'));
    expect(res.headers['content-length']).toBe(String(onDisk('assets/app-abc.js.gz').length));
    expect(zlib.gunzipSync(res.rawPayload).toString()).toBe(APP_JS);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
  });

  test.each([
    ['no Accept-Encoding', undefined],
    ['identity', 'identity'],
    ['an empty header', ''],
    ['only codings we lack', 'deflate, zstd'],
    ['br and gzip refused', 'br;q=0, gzip;q=0'],
    ['everything refused (the header is disregarded)', '*;q=0'],
  ])('identity for %s, with Vary and the file length', async (_label, header) => {
    const res = await get('/assets/app-abc.js', header === undefined ? {} : { 'accept-encoding': header });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe(APP_JS);
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(APP_JS)));
    expect(res.headers.vary).toMatch(/accept-encoding/i);
  });

  test.each([
    ['gzip;q=1, br;q=0.9', 'gzip'],
    ['br;q=0.1, gzip;q=0.2', 'gzip'],
    ['br;q=0.5, gzip;q=0.5', 'br'],
    ['*', 'br'],
    ['*;q=0.5, br;q=0', 'gzip'],
    ['x-gzip', 'gzip'],
    ['BR', 'br'],
    ['br;q=abc, gzip', 'gzip'],
    ['br;q=2, gzip', 'gzip'],
    ['identity;q=1, gzip;q=0.5', undefined],
  ])('q-values: %s gives %s', async (header, coding) => {
    const res = await get('/assets/app-abc.js', { 'accept-encoding': header });
    expect(res.headers['content-encoding']).toBe(coding);
    const body = coding === 'br' ? zlib.brotliDecompressSync(res.rawPayload) : coding === 'gzip' ? zlib.gunzipSync(res.rawPayload) : res.rawPayload;
    expect(body.toString()).toBe(APP_JS);
  });

  test('HEAD answers the headers of the chosen representation and no body', async () => {
    const res = await get('/assets/app-abc.js', { 'accept-encoding': 'br' }, 'HEAD');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-length']).toBe(String(onDisk('assets/app-abc.js.br').length));
    expect(res.rawPayload.length).toBe(0);
  });

  test('a file the build left uncompressed gets its copies at start', async () => {
    for (const [header, decode] of [['br', zlib.brotliDecompressSync], ['gzip', zlib.gunzipSync]] as const) {
      const res = await get('/assets/loose-def.css', { 'accept-encoding': header });
      expect(res.headers['content-encoding']).toBe(header);
      expect(res.headers['content-type']).toBe('text/css; charset=utf-8');
      expect(decode(res.rawPayload).toString()).toBe(LOOSE_CSS);
      expect(res.rawPayload.length).toBeLessThan(Buffer.byteLength(LOOSE_CSS));
    }
  });

  test('a tiny file and an image are sent as they are, without Vary', async () => {
    const tiny = await get('/assets/tiny-123.js', { 'accept-encoding': 'br, gzip' });
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body).toBe('export {};');
    expect(tiny.headers.vary).toBeUndefined();
    const png = await get('/assets/logo-456.png', { 'accept-encoding': 'br, gzip' });
    expect(png.headers['content-encoding']).toBeUndefined();
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.rawPayload).toEqual(PNG);
  });

  test('the page and its client routes are negotiated too, never cached without revalidation', async () => {
    for (const url of ['/index.html', '/about', '/project/abc/storage?x=1']) {
      const res = await get(url, { 'accept-encoding': 'br' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(INDEX);
      // The page's policy and the other browser-security headers are still there.
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    }
  });

  test('a prerendered page is served at its route, negotiated; other routes get the empty shell', async () => {
    for (const [url, page] of [['/', 'Landing'], ['/?ref=x', 'Landing'], ['/pricing', 'Pricing']]) {
      const res = await get(url, { 'accept-encoding': 'gzip' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(zlib.gunzipSync(res.rawPayload).toString()).toBe(prerendered(page));
      // Its inlined stylesheet is allowed by hash: the policy stays without 'unsafe-inline'.
      const csp = res.headers['content-security-policy'] as string;
      expect(csp).toContain(`'sha256-${crypto.createHash('sha256').update(INLINE_CSS).digest('base64')}'`);
      expect(csp).not.toContain('unsafe-inline');
    }
    // The prerendered files are pages, not files of their own.
    for (const url of ['/prerendered/index.html', '/prerendered/pricing.html', '/console']) expect((await get(url)).body).toBe(INDEX);
  });

  test('the copies are not files of their own: /x.js.br is a client route, not brotli bytes', async () => {
    const res = await get('/assets/app-abc.js.br', { 'accept-encoding': 'identity' });
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toBe(INDEX);
    expect((await get('/.vite/manifest.json')).headers['content-type']).toBe('text/html; charset=utf-8');
  });

  test('a path out of the build never reads another file', async () => {
    for (const url of ['/assets/../../web/index.html', '/assets/%2e%2e/%2e%2e/etc/passwd', '/..%2f..%2fetc%2fpasswd']) {
      const res = await get(url);
      expect([200, 400, 403, 404]).toContain(res.statusCode);
      if (res.statusCode === 200) expect(res.body).toBe(INDEX);
    }
  });

  test('unknown API routes stay JSON 404s whatever the encoding asked', async () => {
    const res = await get('/api/nope', { 'accept-encoding': 'br' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json().message).toBeDefined();
  });
});

describe('conditional requests per encoding', () => {
  test('each representation has its own ETag; a 304 only for the tag of the one negotiated', async () => {
    const br = await get('/assets/app-abc.js', { 'accept-encoding': 'br' });
    const gz = await get('/assets/app-abc.js', { 'accept-encoding': 'gzip' });
    const id = await get('/assets/app-abc.js');
    const tags = [br.headers.etag, gz.headers.etag, id.headers.etag];
    for (const tag of tags) expect(tag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(new Set(tags).size).toBe(3);

    const again = await get('/assets/app-abc.js', { 'accept-encoding': 'br', 'if-none-match': br.headers.etag as string });
    expect(again.statusCode).toBe(304);
    expect(again.headers.etag).toBe(br.headers.etag);
    expect(again.headers.vary).toMatch(/accept-encoding/i);
    expect(again.rawPayload.length).toBe(0);

    // The br tag does not validate the gzip bytes: the gzip client gets them whole.
    const other = await get('/assets/app-abc.js', { 'accept-encoding': 'gzip', 'if-none-match': br.headers.etag as string });
    expect(other.statusCode).toBe(200);
    expect(other.headers['content-encoding']).toBe('gzip');
    expect(other.headers.etag).toBe(gz.headers.etag);

    expect((await get('/assets/app-abc.js', { 'if-none-match': id.headers.etag as string })).statusCode).toBe(304);
    expect((await get('/assets/app-abc.js', { 'if-none-match': br.headers.etag as string })).statusCode).toBe(200);
  });

  test('If-Modified-Since alone gives a 304 too', async () => {
    const first = await get('/assets/app-abc.js', { 'accept-encoding': 'br' });
    const res = await get('/assets/app-abc.js', { 'accept-encoding': 'br', 'if-modified-since': first.headers['last-modified'] as string });
    expect(res.statusCode).toBe(304);
  });
});

describe('byte ranges are ranges of the identity bytes', () => {
  const size = Buffer.byteLength(APP_JS);

  test.each([
    ['bytes=0-99', 0, 99],
    ['bytes=-50', size - 50, size - 1],
    [`bytes=${size - 10}-`, size - 10, size - 1],
  ])('%s: 206 of the file, even from a client that accepts br', async (range, start, end) => {
    const res = await get('/assets/app-abc.js', { range, 'accept-encoding': 'br, gzip' });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-range']).toBe(`bytes ${start}-${end}/${size}`);
    expect(res.headers['content-length']).toBe(String(end - start + 1));
    expect(res.rawPayload).toEqual(Buffer.from(APP_JS).subarray(start, end + 1));
  });

  test('an unsatisfiable range is a 416 with the size', async () => {
    const res = await get('/assets/app-abc.js', { range: `bytes=${size}-`, 'accept-encoding': 'br' });
    expect(res.statusCode).toBe(416);
    expect(res.headers['content-range']).toBe(`bytes */${size}`);
  });

  test('If-Range with the identity tag gives the range; with a compressed tag, the whole file negotiated', async () => {
    const id = await get('/assets/app-abc.js');
    const br = await get('/assets/app-abc.js', { 'accept-encoding': 'br' });
    const ranged = await get('/assets/app-abc.js', { range: 'bytes=0-9', 'if-range': id.headers.etag as string, 'accept-encoding': 'br' });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.body).toBe(APP_JS.slice(0, 10));
    const whole = await get('/assets/app-abc.js', { range: 'bytes=0-9', 'if-range': br.headers.etag as string, 'accept-encoding': 'br' });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(whole.rawPayload).toString()).toBe(APP_JS);
  });
});

describe('robots.txt and sitemap.xml', () => {
  test('robots.txt is text that keeps crawlers out of the console and points at the sitemap', async () => {
    const res = await get('/robots.txt');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    const lines = res.body.split('\n');
    expect(lines[0]).toBe('User-agent: *');
    for (const p of ['/api/', '/auth/', '/console', '/dashboard', '/project/']) expect(lines).toContain(`Disallow: ${p}`);
    expect(lines).toContain('Sitemap: https://hostbase.example/sitemap.xml');
    expect(res.body).not.toContain('<html');
  });

  test('sitemap.xml lists exactly the public pages, absolute, as XML', async () => {
    const res = await get('/sitemap.xml', { 'accept-encoding': 'gzip' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    const xml = res.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(res.rawPayload).toString() : res.body;
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')).toBe(true);
    const locs = [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toEqual(['/', '/pricing', '/docs', '/about', '/blog', '/careers', '/contact'].map((p) => `https://hostbase.example${p === '/' ? '/' : p}`));
    expect(PUBLIC_PAGES).toHaveLength(7);
  });

  test('both answer conditional requests and refuse other methods', async () => {
    const first = await get('/robots.txt');
    expect((await get('/robots.txt', { 'if-none-match': first.headers.etag as string })).statusCode).toBe(304);
    const post = await app.inject({ method: 'POST', url: '/sitemap.xml' });
    expect(post.statusCode).toBeGreaterThanOrEqual(400);
    expect(post.statusCode).toBeLessThan(500);
  });
});

describe('files are read on their first request, not at start', () => {
  test('a file changed after start is served as it is on disk at its first request, then kept', async () => {
    const file = path.join(webDir, 'assets/later-789.js');
    fs.writeFileSync(file, 'export const v = "changed";'.repeat(20));
    const first = await app.inject({ method: 'GET', url: '/assets/later-789.js' });
    expect(first.statusCode).toBe(200);
    expect(first.body).toContain('"changed"');
    fs.writeFileSync(file, 'export const v = "again";'.repeat(20));
    const second = await app.inject({ method: 'GET', url: '/assets/later-789.js' });
    expect(second.body).toBe(first.body);
  });

  test('a file removed since start is a 404 in the error shape, not a 500', async () => {
    fs.rmSync(path.join(webDir, 'assets/removed-000.js'));
    const res = await app.inject({ method: 'GET', url: '/assets/removed-000.js' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ message: 'File /assets/removed-000.js not found' });
  });
});
