// The front door: the node:http server Fastify runs on (Fastify's `serverFactory`), whose
// 'request' handler first offers each request to the hosting gateway's fast path and hands
// everything else (API, console, unknown hosts, proxied sites, cold caches) to Fastify untouched.
// A static site's GET then costs a Map look-up and one write instead of Fastify's routing,
// hooks and reply machinery: the difference between ~0.4x and ~0.6x+ of nginx on one core.
// The server carries the slow-client and connection limits (platform/http/connection-limits.ts) for the
// platform and the hosted sites alike.
import http from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { applyHttpLimits, DEFAULT_HTTP_LIMITS, serverOptions, type HttpLimits } from '../../../platform/http/connection-limits';

/** Answers a request itself and returns true, or returns false having touched nothing. */
export type FrontHandler = (req: http.IncomingMessage, res: http.ServerResponse) => boolean;

/** Takes an upgrade request (the server's 'upgrade' event) and owns the socket from then on. */
export type UpgradeHandler = (req: http.IncomingMessage, socket: Duplex, head: Buffer) => void;

interface ServerOptions {
  maxRequestsPerSocket?: number;
}

export class FrontDoor {
  private handler?: FrontHandler;
  private upgradeHandler?: UpgradeHandler;
  private log?: FastifyBaseLogger;

  constructor(private readonly limits: HttpLimits = DEFAULT_HTTP_LIMITS) {}

  /** The app's logger, once it exists (the server is built before it). */
  logTo(log: FastifyBaseLogger): void {
    this.log = log;
  }

  /** The hosting module installs its gateway here once it is built. */
  use(handler: FrontHandler): void {
    this.handler = handler;
  }

  /** The hosting module's tunnel for WebSocket upgrades to sites; without it upgrades are refused. */
  useUpgrade(handler: UpgradeHandler): void {
    this.upgradeHandler = handler;
  }

  /** For Fastify({ serverFactory }): the same server Fastify would build, with the door in front. */
  readonly serverFactory = (fastifyHandler: (req: http.IncomingMessage, res: http.ServerResponse) => void, opts: ServerOptions): http.Server => {
    // Timeouts come from the limits, not from Fastify's options (whose requestTimeout 0 would switch
    // off even Node's own default).
    const server = http.createServer(serverOptions(this.limits), (req, res) => {
      watchBody(req);
      const front = this.handler;
      if (front !== undefined) {
        try {
          if (front(req, res)) return;
        } catch {
          // A bug in the fast path must not take the request down: Fastify answers it instead,
          // unless the fast path had already started answering.
          if (res.headersSent) return void res.destroy();
        }
      }
      fastifyHandler(req, res);
    });
    // Fastify has no upgrade route: an upgrade is a site's (tunnelled) or refused, never left hanging.
    // Fastify has no upgrade route. A WebSocket is a site's (tunnelled) or refused, never left
    // hanging; any other Upgrade (curl's h2c) is only an offer: a body-less request is answered
    // as HTTP/1.1 on the same socket, then closed, as it would be without this listener.
    server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
      socket.on('error', () => socket.destroy());
      const websocket = String(req.headers.upgrade ?? '').toLowerCase() === 'websocket';
      if (!websocket && head.length === 0 && req.headers['transfer-encoding'] === undefined && Number(req.headers['content-length'] ?? 0) === 0) {
        const res = new http.ServerResponse(req);
        res.shouldKeepAlive = false;
        res.assignSocket(socket as Socket);
        res.on('finish', () => socket.end());
        return server.emit('request', req, res);
      }
      const handler = this.upgradeHandler;
      try {
        if (handler !== undefined) return handler(req, socket, head);
      } catch (err) {
        this.log?.error({ err, url: req.url }, 'front door: upgrade handler failed');
      }
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    });
    const watchBody = applyHttpLimits(server, this.limits, () => this.log);
    if (opts.maxRequestsPerSocket && opts.maxRequestsPerSocket > 0) server.maxRequestsPerSocket = opts.maxRequestsPerSocket;
    return server;
  };
}
