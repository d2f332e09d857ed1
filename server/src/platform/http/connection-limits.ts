// Slow clients and connection floods, on the one server that carries the API, the console, the
// docs and the hosting gateway (modules/hosting/edge/front-door.ts builds it):
// - the request line and headers must arrive within `headersTimeoutMs` (Node's headersTimeout,
//   checked every second instead of Node's 30 s; this also closes a connection that sends nothing);
// - a request body must arrive within `bodyTimeoutMs`, or by then be arriving at
//   `bodyMinBytesPerSecond` or more and keep doing so over each following window: an honest
//   100 MiB upload completes at any reasonable speed, a client trickling a byte now and then is
//   cut. Time while the server itself is not reading (back-pressure from a slow disk, store or
//   site) is not held against the client. 0 bytes/s: the whole body within `bodyTimeoutMs`;
// - an idle keep-alive connection is closed after `keepAliveTimeoutMs`;
// - one client address (an IPv4 address, or an IPv6 /64) holds at most `maxConnectionsPerAddress`
//   connections at once (0: no cap); beyond it new connections are closed at once.
// A request cut off is answered 408 in the error shape while no response has started on its
// connection, and the connection is closed either way.
import type http from 'node:http';
import net from 'node:net';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { ErrorCode } from '../errors';

export interface HttpLimits {
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  bodyMinBytesPerSecond: number;
  keepAliveTimeoutMs: number;
  maxConnectionsPerAddress: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  headersTimeoutMs: 10_000,
  bodyTimeoutMs: 30_000,
  bodyMinBytesPerSecond: 1024,
  keepAliveTimeoutMs: 5_000,
  maxConnectionsPerAddress: 256,
};

/** After the first `bodyTimeoutMs`, the body's rate is judged over windows of this length. */
const RATE_WINDOW_MS = 10_000;

function rawAnswer(status: number, reason: string, message: string, code: ErrorCode): string {
  const body = JSON.stringify({ message, code });
  return `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

const ANSWERS = {
  timeout: rawAnswer(408, 'Request Timeout', 'The request was not received in time', ErrorCode.RequestTimeout),
  headerOverflow: rawAnswer(431, 'Request Header Fields Too Large', 'The request headers are too large', ErrorCode.HeadersTooLarge),
  chunkOverflow: rawAnswer(413, 'Payload Too Large', 'A chunk extension is too large', ErrorCode.PayloadTooLarge),
  malformed: rawAnswer(400, 'Bad Request', 'The request is not valid HTTP', ErrorCode.BadRequest),
};

/** Node's http server options for these limits (timeouts Node enforces itself). */
export function serverOptions(limits: HttpLimits): http.ServerOptions {
  return {
    headersTimeout: limits.headersTimeoutMs,
    // The body has its own rule (BodyWatch below); Node's flat requestTimeout would cut an honest
    // large upload, and a response being computed is not the client's slowness.
    requestTimeout: 0,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(limits.headersTimeoutMs / 4))),
  };
}

/** Installs the body watch and the per-address cap on a server; returns the request hook. */
export function applyHttpLimits(server: http.Server, limits: HttpLimits, log: () => FastifyBaseLogger | undefined): (req: http.IncomingMessage) => void {
  if (limits.maxConnectionsPerAddress > 0) capConnections(server, limits.maxConnectionsPerAddress, log);
  const watch = new BodyWatch(server, limits);
  server.on('close', () => watch.stop());
  return (req) => watch.track(req);
}

/**
 * Fastify's `clientErrorHandler`: what Node reports about a connection before (or instead of) a
 * request: a header timeout, a body too slow (BodyWatch), malformed HTTP, headers too large.
 */
export function onClientError(this: FastifyInstance, err: NodeJS.ErrnoException, socket: net.Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  let answer = ANSWERS.malformed;
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') answer = ANSWERS.timeout;
  else if (err.code === 'HPE_HEADER_OVERFLOW') answer = ANSWERS.headerOverflow;
  else if (err.code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW') answer = ANSWERS.chunkOverflow;
  this.log.debug({ code: err.code, remoteAddress: socket.remoteAddress }, 'client error: connection closed');
  cutOff(socket, answer);
}

/** Answers on a raw socket unless a response has already started on it, then closes it. */
export function cutOff(socket: net.Socket, answer: string = ANSWERS.timeout): void {
  if (socket.destroyed) return;
  const inFlight = (socket as net.Socket & { _httpMessage?: http.ServerResponse | null })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) socket.write(answer);
  socket.destroy();
}

interface Pending {
  req: http.IncomingMessage;
  socket: net.Socket;
  /** Start of the current window and the socket's byte count then. */
  since: number;
  bytes: number;
  /** The first window (bodyTimeoutMs) is over. */
  graceOver: boolean;
  /** The server stopped reading (back-pressure) at some point in the window. */
  relieved: boolean;
}

function hasBody(req: http.IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** Watches the requests whose body is still arriving; one timer for all of them, only while there are any. */
class BodyWatch {
  private readonly pending = new Set<Pending>();
  private timer?: NodeJS.Timeout;
  private readonly windowMs: number;
  private readonly tickMs: number;

  constructor(
    private readonly server: http.Server,
    private readonly limits: HttpLimits,
  ) {
    this.windowMs = Math.min(RATE_WINDOW_MS, limits.bodyTimeoutMs);
    this.tickMs = Math.max(25, Math.min(1000, Math.floor(this.windowMs / 4)));
  }

  track(req: http.IncomingMessage): void {
    if (req.complete || !hasBody(req)) return;
    const socket = req.socket;
    const p: Pending = { req, socket, since: Date.now(), bytes: socket.bytesRead, graceOver: false, relieved: false };
    this.pending.add(p);
    req.once('close', () => this.pending.delete(p));
    if (!this.timer) this.timer = setInterval(() => this.tick(), this.tickMs).unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.pending.clear();
  }

  // Socket timing (bytes per real second) reads real time, not the injected business clock.
  private tick(): void {
    const now = Date.now();
    for (const p of this.pending) {
      if (p.req.complete || p.socket.destroyed) {
        this.pending.delete(p);
        continue;
      }
      if (p.socket.isPaused()) p.relieved = true;
      const elapsed = now - p.since;
      if (elapsed < (p.graceOver ? this.windowMs : this.limits.bodyTimeoutMs)) continue;
      const received = p.socket.bytesRead - p.bytes;
      const rate = this.limits.bodyMinBytesPerSecond;
      if (!p.relieved && (rate === 0 || received < (rate * elapsed) / 1000)) {
        this.pending.delete(p);
        const err: NodeJS.ErrnoException = new Error('request body too slow');
        err.code = 'ERR_HTTP_REQUEST_TIMEOUT';
        // The same path as Node's own header timeout: the clientError handler answers and closes.
        if (!this.server.emit('clientError', err, p.socket)) cutOff(p.socket);
        continue;
      }
      p.graceOver = true;
      p.since = now;
      p.bytes = p.socket.bytesRead;
      p.relieved = p.socket.isPaused();
    }
    if (this.pending.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }
}

/** The key a connection is counted under: an IPv4 address, or an IPv6 address's /64. */
export function addressKey(address: string | undefined): string | undefined {
  if (!address) return undefined;
  if (address.startsWith('::ffff:') && net.isIPv4(address.slice(7))) return address.slice(7);
  if (!address.includes(':')) return address;
  const bare = address.split('%')[0].toLowerCase();
  const [head, tail] = bare.split('::');
  const groups = (s: string | undefined) => (s ? s.split(':') : []);
  const h = groups(head);
  if (tail === undefined) return `${h.slice(0, 4).map(hextet).join(':')}::/64`;
  const t = groups(tail);
  const width = t.reduce((n, g) => n + (g.includes('.') ? 2 : 1), h.length);
  const full = [...h, ...Array<string>(Math.max(0, 8 - width)).fill('0'), ...t];
  return `${full.slice(0, 4).map(hextet).join(':')}::/64`;
}

const hextet = (g: string) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16).toString(16) : g);

function capConnections(server: http.Server, max: number, log: () => FastifyBaseLogger | undefined): void {
  const open = new Map<string, number>();
  const warned = new Set<string>();
  server.on('connection', (socket: net.Socket) => {
    const key = addressKey(socket.remoteAddress);
    if (key === undefined) return;
    const n = open.get(key) ?? 0;
    if (n >= max) {
      socket.destroy();
      if (!warned.has(key)) {
        warned.add(key);
        log()?.warn({ address: key, max }, 'connection limit per address reached: new connections are closed');
      }
      return;
    }
    open.set(key, n + 1);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left > 0) open.set(key, left);
      else {
        open.delete(key);
        warned.delete(key);
      }
    });
  });
}
