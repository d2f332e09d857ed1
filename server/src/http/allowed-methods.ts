// Which methods a path answers, from every route Fastify registers (the contract's, the docs',
// the console's, the app APIs' CORS preflights), so that a method a path does not take is a 405
// with `Allow` wherever the path exists, and a 404 only where nothing is routed.
//
// Fastify sends a request with an unrouted method to the not-found handler, but only after
// parsing its body: a QUERY without Content-Type was a 400 (RFC 10008 requires one), another
// Content-Type a 415, a large body a 413, none of them saying what was wrong. The onRequest hook
// below answers such a request before its body is read.
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { Errors, routeNotFound, type AppError } from './errors';

interface RoutePattern {
  pattern: RegExp;
  methods: string[];
}

/** `/api/project/:projectId/delete` or `/api/docs/*` as a regular expression over concrete paths. */
function patternOf(url: string): RegExp {
  const source = url
    .split('/')
    .map((segment) => (segment === '*' ? '.*' : segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}$`);
}

export class RouteTable {
  private readonly routes: RoutePattern[] = [];

  add(route: Pick<RouteOptions, 'method' | 'url'>): void {
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).map((m) => m.toUpperCase());
    this.routes.push({ pattern: patternOf(route.url), methods });
  }

  /**
   * The methods routed for a concrete path: alphabetical, OPTIONS last. Empty when nothing but a
   * CORS preflight wildcard covers it (a preflight is answered anywhere under the app APIs; that
   * does not make a path exist).
   */
  allowed(path: string): string[] {
    const methods = new Set(this.routes.filter((r) => r.pattern.test(path)).flatMap((r) => r.methods));
    if ([...methods].every((m) => m === 'OPTIONS')) return [];
    // HEAD routes are Fastify's copies of GET routes; a prefixed "/" route (the docs' /api/docs/)
    // is reported with only its HEAD copy under the slashed URL.
    if (methods.has('HEAD')) methods.add('GET');
    return [...methods].sort((a, b) => (a === 'OPTIONS' ? 1 : b === 'OPTIONS' ? -1 : a.localeCompare(b)));
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    routeTable: RouteTable;
  }
}

/** Before any route is added: every route that follows is recorded. */
export function recordRoutes(app: FastifyInstance): void {
  const table = new RouteTable();
  app.decorate('routeTable', table);
  app.addHook('onRoute', (route) => table.add(route));
}

/** 405 with Allow when the path is routed under other methods, else 404. */
export function unknownRoute(app: FastifyInstance, method: string, url: string): AppError {
  const pathOnly = url.split('?')[0];
  const allow = app.routeTable.allowed(pathOnly);
  const upper = method.toUpperCase();
  if (allow.length && !allow.includes(upper)) return Errors.methodNotAllowed(upper, pathOnly, allow);
  return routeNotFound(method, pathOnly);
}

/**
 * An onRequest hook: a request no route took is answered here, before its body is parsed, except
 * where the not-found handler serves something itself (`passOn`: the console's pages).
 */
export function answerUnrouted(app: FastifyInstance, passOn: (req: FastifyRequest) => boolean) {
  return async (req: FastifyRequest): Promise<void> => {
    if (!req.is404 || passOn(req)) return;
    throw unknownRoute(app, req.method, req.url);
  };
}
