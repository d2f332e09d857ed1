// The upgrade tunnel on its own, against both kinds of upstream: TCP (a site on a port) and a
// unix socket (the sandbox relay); and a dead upstream answers 502 instead of hanging.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { tunnel, upstreamHead } from './tunnel';
import type { Upstream } from '../runtime/runtime';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tunnel-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function listen(server: http.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** A site: WebSocket echo that also reports the headers it was upgraded with. */
async function site(kind: 'tcp' | 'unix'): Promise<{ upstream: Upstream; close: () => void; seen: http.IncomingHttpHeaders[] }> {
  const server = http.createServer((_q, s) => s.end('plain'));
  const wss = new WebSocketServer({ noServer: true });
  const seen: http.IncomingHttpHeaders[] = [];
  server.on('upgrade', (req, socket, head) => {
    seen.push(req.headers);
    wss.handleUpgrade(req, socket, head, (ws) => ws.on('message', (m) => ws.send(`echo ${String(m)}`)));
  });
  if (kind === 'tcp') {
    return { upstream: { host: '127.0.0.1', port: await listen(server) }, close: () => server.close(), seen };
  }
  const socketPath = path.join(dir, `s${Date.now()}.sock`);
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  return { upstream: { socketPath }, close: () => server.close(), seen };
}

/** The platform side: every upgrade tunnelled to `upstream`. */
async function front(upstream: Upstream, done: (status: number, i: number, o: number) => void): Promise<{ port: number; close: () => void }> {
  const server = http.createServer((_q, s) => s.end());
  server.on('upgrade', (req, socket, head) => tunnel(req, socket, head, { upstream, forwardedFor: '10.0.0.9', forwardedProto: 'http', done }));
  return { port: await listen(server), close: () => server.close() };
}

test.each(['tcp', 'unix'] as const)('a WebSocket through the tunnel to a %s upstream: echo, headers, counted, closed', async (kind) => {
  const s = await site(kind);
  let counted: [number, number, number] | undefined;
  let whenCounted!: () => void;
  const countedP = new Promise<void>((resolve) => (whenCounted = resolve));
  const door = await front(s.upstream, (status, i, o) => {
    counted = [status, i, o];
    whenCounted();
  });
  const ws = new WebSocket(`ws://127.0.0.1:${door.port}/x?y=1`, { headers: { 'x-forwarded-for': '6.6.6.6', 'proxy-connection': 'keep-alive', 'x-custom': 'kept' } });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const reply = new Promise<string>((resolve) => ws.once('message', (m) => resolve(String(m))));
  ws.send('hi');
  expect(await reply).toBe('echo hi');
  ws.close();
  await countedP;
  expect(counted![0]).toBe(101);
  expect(counted![1]).toBeGreaterThan(0);
  expect(counted![2]).toBeGreaterThan(0);
  const h = s.seen[0]!;
  expect(h['x-forwarded-for']).toBe('10.0.0.9'); // the client's own claim is not passed on
  expect(h['x-custom']).toBe('kept');
  expect(h['proxy-connection']).toBeUndefined();
  expect(h.upgrade).toBe('websocket');
  door.close();
  s.close();
});

test('a dead upstream: the client gets 502, not a hang', async () => {
  let status = 0;
  const door = await front({ socketPath: path.join(dir, 'nobody.sock') }, (st) => (status = st));
  const ws = new WebSocket(`ws://127.0.0.1:${door.port}/`);
  const code = await new Promise<number>((resolve) => ws.once('unexpected-response', (_q, res) => resolve(res.statusCode ?? 0)));
  expect(code).toBe(502);
  expect(status).toBe(502);
  door.close();
});

test('the upstream head: hop-by-hop and Connection-named headers dropped, Upgrade and X-Forwarded-* set', () => {
  const req = {
    method: 'GET',
    url: '/chat',
    headers: { host: 'a.example.com', connection: 'Upgrade, x-secret', upgrade: 'websocket' },
    rawHeaders: ['Host', 'a.example.com', 'Connection', 'Upgrade, x-secret', 'Upgrade', 'websocket', 'X-Secret', '1', 'Keep-Alive', '5', 'X-Forwarded-Host', 'evil', 'Sec-WebSocket-Key', 'k'],
  } as unknown as http.IncomingMessage;
  expect(upstreamHead(req, '1.2.3.4', 'https')).toBe(
    'GET /chat HTTP/1.1\r\nHost: a.example.com\r\nSec-WebSocket-Key: k\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n' +
      'X-Forwarded-For: 1.2.3.4\r\nX-Forwarded-Host: a.example.com\r\nX-Forwarded-Proto: https\r\n\r\n',
  );
});
