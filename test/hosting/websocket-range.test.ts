// What a browser needs beyond plain GETs: WebSocket upgrades tunnelled to a dynamic site (through
// the platform's real port, sandboxed or not), streamed responses (server-sent events) arriving
// as they are written, and byte ranges on static sites (video seeking). Upgrades for the API host
// are refused rather than left hanging.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { buildTestApp, type TestApp } from '../helpers/app';
import { createSiteProject, deploy, site, type SiteProject } from './site-helpers';
import { makeZip } from './zips';
import { probeSandbox } from '../../server/src/modules/hosting/runtime/sandbox';

// Dynamic sites only run sandboxed (bubblewrap); without it the Node site tests are skipped.
const sandbox = probeSandbox();
const testSandboxed = sandbox.ok ? test : test.skip;
if (!sandbox.ok) console.warn(`WebSocket and streaming tests skipped: ${sandbox.problem}`);

// A WebSocket echo server on Node built-ins only (RFC 6455: accept key, small masked text frames)
// that also streams server-sent events: the second event only once /sse/next has been requested.
const SITE = `
const http = require('http'), crypto = require('crypto');
let next = [];
const server = http.createServer((req, res) => {
  if (req.url === '/sse') {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write('data: first\\n\\n');
    next.push(() => { res.write('data: second\\n\\n'); res.end(); });
    return;
  }
  if (req.url === '/sse/next') { const n = next; next = []; n.forEach((f) => f()); return res.end('ok ' + n.length); }
  res.end('plain');
});
server.on('upgrade', (req, socket) => {
  const accept = crypto.createHash('sha1').update(req.headers['sec-websocket-key'] + '258EAFA5-E914-47DA-95CA-C5AB0DC85B11').digest('base64');
  socket.write('HTTP/1.1 101 Switching Protocols\\r\\nUpgrade: websocket\\r\\nConnection: Upgrade\\r\\nSec-WebSocket-Accept: ' + accept + '\\r\\n\\r\\n');
  const xf = req.headers['x-forwarded-host'] || '';
  let buf = Buffer.alloc(0);
  socket.on('data', (chunk) => {
    buf = Buffer.concat([buf, chunk]);
    while (buf.length >= 2) {
      const op = buf[0] & 0x0f, masked = buf[1] & 0x80;
      let len = buf[1] & 0x7f, off = 2;
      if (len === 126) { if (buf.length < 4) return; len = buf.readUInt16BE(2); off = 4; }
      else if (len === 127) return socket.destroy();
      const total = off + (masked ? 4 : 0) + len;
      if (buf.length < total) return;
      const mask = masked ? buf.subarray(off, off + 4) : null;
      const data = Buffer.from(buf.subarray(total - len, total));
      if (mask) for (let i = 0; i < data.length; i++) data[i] ^= mask[i % 4];
      buf = buf.subarray(total);
      if (op === 8) { socket.end(Buffer.from([0x88, 0])); return; }
      if (op !== 1) continue;
      const text = Buffer.from(data.toString() === 'who' ? 'host ' + xf : 'echo ' + data.toString());
      const header = text.length < 126 ? Buffer.from([0x81, text.length]) : Buffer.from([0x81, 126, text.length >> 8, text.length & 255]);
      socket.write(Buffer.concat([header, text]));
    }
  });
  socket.on('error', () => socket.destroy());
});
server.listen(process.env.PORT, '127.0.0.1');
`;

const movie = crypto.randomBytes(64 * 1024);
const bigMovie = crypto.randomBytes(1024 * 1024 + 4096); // past the in-memory limit: streamed from disk

let t: TestApp;
let port: number;
let node: SiteProject;
let statics: SiteProject;

beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
  node = await createSiteProject(t);
  statics = await createSiteProject(t, node.dev);
  if (sandbox.ok) {
    const a = await deploy(t, node, makeZip([{ name: 'package.json', data: JSON.stringify({ name: 'ws', main: 'server.js' }) }, { name: 'server.js', data: SITE }]), 'Node');
    expect(a.statusCode).toBe(200);
  }
  const b = await deploy(t, statics, makeZip([{ name: 'index.html', data: '<h1>hi</h1>' }, { name: 'movie.mp4', data: movie }, { name: 'big.mp4', data: bigMovie }]), 'Static');
  expect(b.statusCode).toBe(200);
}, 60_000);
afterAll(() => t.close(), 30_000);

const hostOf = (p: SiteProject) => `${p.subdomain}.${t.config.platformDomain}`;

function open(host: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/chat`, { headers: { host } });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`unexpected ${res.statusCode}`)));
  });
}

function get(path: string, headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path, headers }, (r) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => resolve({ status: r.statusCode ?? 0, headers: r.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

const nextMessage = (ws: WebSocket) => new Promise<string>((resolve) => ws.once('message', (m) => resolve(String(m))));

testSandboxed('a WebSocket to a Node site is tunnelled both ways, with X-Forwarded-Host', async () => {
  const ws = await open(hostOf(node));
  for (const text of ['hello', 'second message', 'x'.repeat(300)]) {
    const reply = nextMessage(ws);
    ws.send(text);
    expect(await reply).toBe(`echo ${text}`);
  }
  const who = nextMessage(ws);
  ws.send('who');
  expect(await who).toMatch(new RegExp(`^host ${hostOf(node).replace(/\./g, '\\.')}`));
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  ws.close(1000);
  await closed;
}, 30_000);

test('a WebSocket upgrade to the API host (or an unknown site) is refused, not left hanging', async () => {
  await expect(open(`127.0.0.1:${port}`)).rejects.toThrow(/unexpected 404/);
  await expect(open(`nosuchsite.${t.config.platformDomain}`)).rejects.toThrow(/unexpected 404/);
  await expect(open(hostOf(statics))).rejects.toThrow(/unexpected 404/);
});

testSandboxed('server-sent events reach the client before the response ends', async () => {
  const received: string[] = [];
  const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path: '/sse', headers: { host: hostOf(node) } }, resolve).on('error', reject);
  });
  // Through the real port: Fastify's proxy() must pass each chunk on as the site writes it.
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('text/event-stream');
  const ended = new Promise<void>((resolve) => res.on('end', resolve));
  const first = new Promise<void>((resolve) => {
    res.setEncoding('utf8');
    res.on('data', (c: string) => {
      received.push(c);
      if (received.join('').includes('data: first')) resolve();
    });
  });
  await first;
  // The site has not sent the second event yet: it waits for this request.
  expect(received.join('')).not.toContain('second');
  const nudge = await get('/sse/next', { host: hostOf(node) });
  expect(nudge.body.toString()).toBe('ok 1');
  await ended;
  expect(received.join('')).toBe('data: first\n\ndata: second\n\n');
}, 30_000);

describe.each([
  ['movie.mp4 (from memory)', '/movie.mp4', movie],
  ['big.mp4 (streamed from disk)', '/big.mp4', bigMovie],
])('ranges of a static %s', (_name, url, bytes) => {
  const size = bytes.length;

  test('the whole file advertises Accept-Ranges and an ETag', async () => {
    const res = await site(t, statics, url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers['content-type']).toBe('video/mp4');
    expect(res.rawPayload.equals(bytes)).toBe(true);
  });

  test.each([
    ['bytes=100-199', 100, 199],
    ['bytes=-10', size - 10, size - 1],
    [`bytes=${size - 50}-`, size - 50, size - 1],
    ['bytes=0-', 0, size - 1],
  ])('%s → 206 with exactly those bytes', async (range, start, end) => {
    const res = await site(t, statics, url, { range });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes ${start}-${end}/${size}`);
    expect(res.headers['content-length']).toBe(String(end - start + 1));
    expect(res.rawPayload.equals(bytes.subarray(start, end + 1))).toBe(true);
  });

  test('If-Range: a matching ETag gets the range, a stale one the whole file', async () => {
    const etag = String((await site(t, statics, url)).headers.etag);
    const ok = await site(t, statics, url, { range: 'bytes=100-199', 'if-range': etag });
    expect(ok.statusCode).toBe(206);
    expect(ok.rawPayload.equals(bytes.subarray(100, 200))).toBe(true);
    const stale = await site(t, statics, url, { range: 'bytes=100-199', 'if-range': '"older"' });
    expect(stale.statusCode).toBe(200);
    expect(stale.rawPayload.equals(bytes)).toBe(true);
  });

  test('unsatisfiable → 416 with Content-Range bytes */size; several ranges → the whole file', async () => {
    const res = await site(t, statics, url, { range: `bytes=${size}-` });
    expect(res.statusCode).toBe(416);
    expect(res.headers['content-range']).toBe(`bytes */${size}`);
    const multi = await site(t, statics, url, { range: 'bytes=0-1,5-6' });
    expect(multi.statusCode).toBe(200);
    expect(multi.rawPayload.length).toBe(size);
  });

  test('HEAD with a range: the 206 headers, no body; If-None-Match still 304', async () => {
    const head = await site(t, statics, url, { range: 'bytes=100-199' }, 'HEAD');
    expect(head.statusCode).toBe(206);
    expect(head.headers['content-length']).toBe('100');
    expect(head.rawPayload.length).toBe(0);
    const etag = String((await site(t, statics, url)).headers.etag);
    expect((await site(t, statics, url, { 'if-none-match': etag })).statusCode).toBe(304);
  });
});

test('ranges also through the real port (the front door fast path)', async () => {
  await site(t, statics, '/movie.mp4'); // warms the caches
  const got = await get('/movie.mp4', { host: hostOf(statics), range: 'bytes=100-199' });
  expect(got.status).toBe(206);
  expect(got.headers['content-range']).toBe(`bytes 100-199/${movie.length}`);
  expect(got.body.equals(movie.subarray(100, 200))).toBe(true);
});

test('an Upgrade that is not a WebSocket (curl --http2 sends h2c) is answered as HTTP/1.1', async () => {
  const res = await get('/api/health', { host: `127.0.0.1:${port}`, connection: 'Upgrade, HTTP2-Settings', upgrade: 'h2c', 'http2-settings': 'AAMAAABkAAQAoAAAAAIAAAAA' });
  expect(res.status).toBe(200);
  const page = await get('/movie.mp4', { host: hostOf(statics), connection: 'Upgrade', upgrade: 'h2c', range: 'bytes=0-9' });
  expect(page.status).toBe(206);
  expect(page.body.equals(movie.subarray(0, 10))).toBe(true);
});
