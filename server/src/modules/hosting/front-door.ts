// The front door: the node:http server Fastify runs on (Fastify's `serverFactory`), whose
// 'request' handler first offers each request to the hosting gateway's fast path and hands
// everything else (API, console, unknown hosts, proxied sites, cold caches) to Fastify untouched.
// A static site's GET then costs a Map look-up and one write instead of Fastify's routing,
// hooks and reply machinery: the difference between ~0.4x and ~0.6x+ of nginx on one core.
import http from 'node:http';

/** Answers a request itself and returns true, or returns false having touched nothing. */
export type FrontHandler = (req: http.IncomingMessage, res: http.ServerResponse) => boolean;

interface ServerOptions {
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
  maxRequestsPerSocket?: number;
}

export class FrontDoor {
  private handler?: FrontHandler;

  /** The hosting module installs its gateway here once it is built. */
  use(handler: FrontHandler): void {
    this.handler = handler;
  }

  /** For Fastify({ serverFactory }): the same server Fastify would build, with the door in front. */
  readonly serverFactory = (fastifyHandler: (req: http.IncomingMessage, res: http.ServerResponse) => void, opts: ServerOptions): http.Server => {
    const server = http.createServer((req, res) => {
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
    // What Fastify sets on the servers it builds itself (lib/server.js getServerInstance).
    if (opts.keepAliveTimeout) server.keepAliveTimeout = opts.keepAliveTimeout;
    if (opts.requestTimeout !== undefined) server.requestTimeout = opts.requestTimeout;
    if (opts.connectionTimeout !== undefined) server.setTimeout(opts.connectionTimeout);
    if (opts.maxRequestsPerSocket && opts.maxRequestsPerSocket > 0) server.maxRequestsPerSocket = opts.maxRequestsPerSocket;
    return server;
  };
}
