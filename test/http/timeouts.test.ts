// Slow clients and connection floods (a few clients must not hold every connection), over real sockets against the real
// server (the front door that carries the API, the console and the hosting gateway):
// a body trickled a byte at a time is cut off with 408, so are headers that never finish and a
// connection that sends nothing; an idle keep-alive connection is closed; an honest upload slower
// than the body timeout but above the minimum rate completes; back-pressure from the server is not
// held against the client; one address holds a bounded number of connections; 300 slow clients
// do not starve a normal request. Timeouts are scaled down through the same env variables an
// operator sets; no test asserts a duration, only that a connection was answered or closed
// before a generous bound.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { addressKey, DEFAULT_HTTP_LIMITS } from '../../server/src/platform/http/connection-limits';
import { FrontDoor } from '../../server/src/modules/hosting/edge/front-door';
import { buildTestApp, type TestApp } from '../helpers/app';
import { createSiteProject, deploy } from '../hosting/site-helpers';
import { makeZip } from '../hosting/zips';

jest.setTimeout(60_000);

const BOUND_MS = 15_000;

interface Raw {
  socket: net.Socket;
  /** Everything the server sent so far. */
  received: () => string;
  /** Resolves when the server closed the connection (or it broke). */
  closed: Promise<void>;
  isClosed: () => boolean;
}

function connect(port: number, localAddress = '127.0.0.1'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    let data = '';
    let done = false;
    const socket = net.connect({ port, host: '127.0.0.1', localAddress });
    socket.setNoDelay(true);
    socket.on('data', (d) => (data += d.toString('latin1')));
    socket.on('error', () => undefined); // a reset is a close too
    const closed = new Promise<void>((r) =>
      socket.once('close', () => {
        done = true;
        r();
      }),
    );
    socket.once('connect', () => resolve({ socket, received: () => data, closed, isClosed: () => done }));
    socket.once('error', reject);
  });
}

/** Waits for `p`, failing (not hanging) when it does not settle within the bound. */
async function within<T>(p: Promise<T>, what: string, ms = BOUND_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_r, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([p, bound]);
  } finally {
    clearTimeout(timer);
  }
}

/** Writes one byte every `everyMs` until the socket closes. */
function drip(raw: Raw, everyMs: number, byte = ' '): void {
  const timer = setInterval(() => {
    if (raw.isClosed()) return clearInterval(timer);
    raw.socket.write(byte);
  }, everyMs);
  raw.closed.then(() => clearInterval(timer));
}

function statusOf(text: string): number | undefined {
  const m = /^HTTP\/1\.1 (\d{3}) /.exec(text);
  return m ? Number(m[1]) : undefined;
}

function jsonBodyOf(text: string): unknown {
  return JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
}

/** A plain GET over its own connection from a given local address. */
function get(port: number, path: string, localAddress = '127.0.0.1', host = 'localhost'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, localAddress, agent: false, headers: { host } }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function listen(t: TestApp): Promise<number> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return (t.app.server.address() as AddressInfo).port;
}

describe('defaults', () => {
  test('the server built from an empty environment has the documented limits', async () => {
    const t = await buildTestApp();
    try {
      expect(t.config.http).toEqual(DEFAULT_HTTP_LIMITS);
      const server = t.app.server;
      expect(server.headersTimeout).toBe(10_000);
      expect(server.keepAliveTimeout).toBe(5_000);
      // Node's own checks run every second, so a 10 s header limit is not 10 to 40 s.
      expect((server as http.Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval).toBeLessThanOrEqual(1000);
    } finally {
      await t.close();
    }
  });
});

describe('slow clients are cut off (scaled-down limits)', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await buildTestApp({
      HTTP_HEADERS_TIMEOUT_MS: '700',
      HTTP_BODY_TIMEOUT_MS: '800',
      HTTP_BODY_MIN_BYTES_PER_SECOND: '1024',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '500',
    });
    port = await listen(t);
  });
  afterAll(() => t.close());

  test('POST /api/verify_user announcing 100000 bytes and sending one byte at a time is answered 408 and closed', async () => {
    const raw = await connect(port);
    raw.socket.write('POST /api/verify_user HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{');
    drip(raw, 150);
    await within(raw.closed, 'the trickling client was not cut off');
    expect(statusOf(raw.received())).toBe(408);
    expect(jsonBodyOf(raw.received())).toEqual({ message: 'The request was not received in time', code: 'REQUEST_TIMEOUT' });
    expect(raw.received()).toMatch(/\r\nconnection: close\r\n/i);
    // The server is fine afterwards.
    expect((await get(port, '/api/health')).status).toBe(200);
  });

  test('headers that never finish are answered 408 and closed', async () => {
    const raw = await connect(port);
    raw.socket.write('GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Slow: ');
    drip(raw, 100, 'a');
    await within(raw.closed, 'the slow headers were not cut off');
    expect(statusOf(raw.received())).toBe(408);
    expect(jsonBodyOf(raw.received())).toMatchObject({ code: 'REQUEST_TIMEOUT' });
  });

  test('a connection that never sends anything is closed', async () => {
    const raw = await connect(port);
    await within(raw.closed, 'the silent connection was not closed');
  });

  test('an idle keep-alive connection is closed after its answer', async () => {
    const raw = await connect(port);
    raw.socket.write('GET /api/health HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n');
    await within(raw.closed, 'the idle keep-alive connection was not closed');
    expect(statusOf(raw.received())).toBe(200);
    expect(raw.received().match(/HTTP\/1\.1 /g)).toHaveLength(1);
  });

  test('an honest upload slower than the body timeout but above the minimum rate completes', async () => {
    // ~40 KB/s for 64 KiB: longer than the 0.8 s body timeout, far above 1 KiB/s.
    const body = JSON.stringify({ email: 'nobody@example.com', password: 'x' }).padEnd(64 * 1024, ' ');
    const raw = await connect(port);
    raw.socket.write(`POST /api/verify_user HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`);
    for (let i = 0; i < body.length; i += 4096) {
      raw.socket.write(body.slice(i, i + 4096));
      await new Promise((r) => setTimeout(r, 100));
    }
    await within(raw.closed, 'the upload got no answer');
    const status = statusOf(raw.received());
    expect(status).not.toBe(408);
    expect(status).toBeDefined();
    expect(status).toBeLessThan(500);
  });

  test('a slow body to a hosted site is cut off too (the gateway is the same server)', async () => {
    const p = await createSiteProject(t);
    expect((await deploy(t, p, makeZip([{ name: 'index.html', data: '<title>site</title>' }]), 'Static')).statusCode).toBe(200);
    expect((await get(port, '/', '127.0.0.1', p.host)).body).toContain('<title>site</title>');
    const raw = await connect(port);
    raw.socket.write(`POST /form HTTP/1.1\r\nHost: ${p.host}\r\nContent-Type: text/plain\r\nContent-Length: 100000\r\n\r\n`);
    drip(raw, 150);
    await within(raw.closed, 'the trickling client of a site was not cut off');
  });
});

describe('HTTP_BODY_MIN_BYTES_PER_SECOND=0: the whole body within the body timeout', () => {
  test('the same honest but slow upload is cut off with 408', async () => {
    const t = await buildTestApp({ HTTP_BODY_TIMEOUT_MS: '500', HTTP_BODY_MIN_BYTES_PER_SECOND: '0' });
    try {
      const port = await listen(t);
      const raw = await connect(port);
      raw.socket.write('POST /api/verify_user HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 65536\r\n\r\n');
      const chunk = ' '.repeat(4096);
      const timer = setInterval(() => !raw.isClosed() && raw.socket.write(chunk), 100);
      await within(raw.closed, 'the slow upload was not cut off').finally(() => clearInterval(timer));
      expect(statusOf(raw.received())).toBe(408);
    } finally {
      await t.close();
    }
  });
});

test('time while the server is not reading (back-pressure) is not held against the client', async () => {
  // The front door's server with a handler that reads nothing for a while, then everything.
  const limits = { ...DEFAULT_HTTP_LIMITS, bodyTimeoutMs: 300, bodyMinBytesPerSecond: 1024 };
  const server = new FrontDoor(limits).serverFactory((req, res) => {
    req.pause();
    setTimeout(() => {
      let n = 0;
      req.on('data', (c: Buffer) => (n += c.length));
      req.on('end', () => res.end(String(n)));
      req.resume();
    }, 1500);
  }, {});
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const { port } = server.address() as AddressInfo;
    const size = 8 * 1024 * 1024;
    const raw = await connect(port);
    raw.socket.write(`POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: ${size}\r\nConnection: close\r\n\r\n`);
    raw.socket.write(Buffer.alloc(size, 1));
    await within(raw.closed, 'no answer');
    expect(statusOf(raw.received())).toBe(200);
    expect(raw.received().endsWith(`\r\n\r\n${size}`)).toBe(true);
  } finally {
    server.close();
  }
});

describe('connections per client address', () => {
  test('beyond HTTP_MAX_CONNECTIONS_PER_ADDRESS new connections from that address are closed; other addresses are served', async () => {
    const t = await buildTestApp({ HTTP_MAX_CONNECTIONS_PER_ADDRESS: '3' });
    const held: Raw[] = [];
    try {
      const port = await listen(t);
      for (let i = 0; i < 3; i++) {
        const raw = await connect(port, '127.0.0.20');
        raw.socket.write('GET /api/health HTTP/1.1\r\nHost: localhost\r\n'); // headers left open
        held.push(raw);
      }
      const fourth = await connect(port, '127.0.0.20');
      fourth.socket.write('GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n');
      await within(fourth.closed, 'the connection over the cap was not closed');
      expect(fourth.received()).toBe('');
      expect((await get(port, '/api/health', '127.0.0.21')).status).toBe(200);
      expect(held.every((r) => !r.isClosed())).toBe(true);

      // A slot frees when one of them goes away.
      held[0].socket.destroy();
      let status = 0;
      for (let i = 0; i < 50 && status !== 200; i++) {
        status = await get(port, '/api/health', '127.0.0.20').then((r) => r.status, () => 0);
        if (status !== 200) await new Promise((r) => setTimeout(r, 50));
      }
      expect(status).toBe(200);
    } finally {
      held.forEach((r) => r.socket.destroy());
      await t.close();
    }
  });

  test('300 slow clients at once do not starve a normal request (default limits)', async () => {
    const t = await buildTestApp();
    const slow: Raw[] = [];
    try {
      const port = await listen(t);
      // 100 from each of three addresses: under the default cap of 256 per address.
      for (let i = 0; i < 300; i++) {
        const raw = await connect(port, `127.0.0.${30 + (i % 3)}`);
        if (i % 2 === 0) raw.socket.write('GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Slow: ');
        else raw.socket.write('POST /api/verify_user HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{');
        slow.push(raw);
      }
      expect((await get(port, '/api/health', '127.0.0.2')).status).toBe(200);
      expect((await get(port, '/api/health', '127.0.0.30')).status).toBe(200);
      expect(slow.filter((r) => r.isClosed())).toHaveLength(0);
    } finally {
      slow.forEach((r) => r.socket.destroy());
      await t.close();
    }
  });
});

test('connections are counted per IPv4 address and per IPv6 /64', () => {
  expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
  expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
  expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
  expect(addressKey('2001:0db8:0001:0002:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64');
  expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
  expect(addressKey('2001:db8:1:3::1')).not.toBe(addressKey('2001:db8:1:2::1'));
  expect(addressKey('::1')).toBe('0:0:0:0::/64');
  expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  expect(addressKey(undefined)).toBeUndefined();
});
