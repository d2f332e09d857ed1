// CORS for the APIs a browser app calls with its project's key: end-user auth (/api/auth/v1),
// storage (/api/storage/v1) and database rows with their live changes (/api/db/v1). One policy,
// per project and closed by default; the project's allowed origins are its auth settings'
// `allowed_origins` (the console's Authentication screen). Console routes never get CORS.
//
// Design: a browser's preflight carries no key, so it can't name the project. It is answered 204
// with the allowed methods and headers, and echoes the Origin only when some project lists that
// origin (the preflight grants nothing by itself). The real request then carries the key: it gets
// Access-Control-Allow-Origin only when the key's project lists the origin, so a page on an
// origin listed by project A can't read answers made with project B's key. An error that
// concerns no project (a missing or unknown key, an unknown path, a reset or verify token that
// was bad) is generic: it is readable by any origin some project lists, so the app can show why.
// A success is readable only under its project's list: keyless calls whose token names the project
// (reset, verify) set req.authProjectId once known, and a route that forgot to name its project
// fails closed (no grant) rather than open to every listed origin.
// Errors carry the grant too (a 401 that should trigger a refresh, a 403, a 413 the app explains).
// Origins are exact (scheme://host:port); no wildcards and no credentials (tokens travel in headers).
//
// Why not @fastify/cors (tried with its per-request `delegator`, 11.4.3): its hook decides before
// the handler, at onRequest..preSerialization. (1) A preflight it grants nothing is handed to the
// not-found handler (404), or, with an empty origin list, still gets empty Allow-Methods and
// Allow-Headers; ours is a 204 with none. (2) The project is known only after the route's own
// onRequest verifier (the key), and a 401 from that verifier skips every later hook but
// preSerialization, which in turn never sees preflights; keyless calls know their project only
// after the handler. Deciding in onSend covers every answer, errors and streams included.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { operations } from '../generated/operations';
import { loadSpec } from './contract';
import { varyWith } from './vary';

declare module 'fastify' {
  interface FastifyRequest {
    /** The project a keyless app-side call turned out to concern (reset / verify tokens), for CORS. */
    authProjectId?: string;
  }
}

/** Where the project's allowed origins are read (the auth settings: EndUsersService). */
export interface AllowedOrigins {
  originAllowedForProject(projectId: string, origin: string): Promise<boolean>;
  originAllowedAnywhere(origin: string): Promise<boolean>;
}

/** The APIs an app's pages call with a project key, under one set of allowed origins. */
export const APP_API_PREFIXES = ['/api/auth/v1/', '/api/storage/v1/', '/api/db/v1/'] as const;

/** Request headers apps send besides the key's: tokens, JSON and multipart bodies, ranged and conditional downloads. */
const APP_REQUEST_HEADERS = ['authorization', 'content-type', 'range', 'if-none-match', 'if-modified-since', 'if-range'];
/** Answer headers an app reads beyond the CORS-safelisted ones (downloads, throttling). */
export const EXPOSE_HEADERS = 'content-disposition, content-range, accept-ranges, etag, retry-after';
/** How long a browser may reuse a preflight: removing an origin takes effect within this. */
const PREFLIGHT_MAX_AGE_SECONDS = '600';

export const isAppApi = (url: string) => APP_API_PREFIXES.some((prefix) => url.startsWith(prefix));

/** The methods of the contract's operations under the app prefixes (HEAD with GET), so new operations are covered. */
export function appApiMethods(): string {
  const methods = new Set<string>();
  for (const op of operations) {
    if (!isAppApi('/api' + op.path)) continue;
    methods.add(op.method);
    if (op.method === 'GET') methods.add('HEAD');
  }
  return [...methods, 'OPTIONS'].join(', ');
}

/** The key header names of the contract's apiKey schemes (x-api-key, and any a scheme adds), then the others apps send. */
export function appRequestHeaders(): string {
  const schemes = (loadSpec().components as { securitySchemes?: Record<string, { type?: string; in?: string; name?: string }> } | undefined)?.securitySchemes ?? {};
  const keys = Object.values(schemes)
    .filter((s) => s.type === 'apiKey' && s.in === 'header' && s.name)
    .map((s) => s.name!.toLowerCase());
  return [...new Set([...keys, ...APP_REQUEST_HEADERS])].join(', ');
}

/** Registered once, before the contract, so its preflight routes and onSend hook cover every app route. */
export const appCorsPlugin = fp(
  async (app: FastifyInstance, { origins }: { origins: AllowedOrigins }) => {
    const preflightGrant = {
      'access-control-allow-methods': appApiMethods(),
      'access-control-allow-headers': appRequestHeaders(),
      'access-control-max-age': PREFLIGHT_MAX_AGE_SECONDS,
    };

    const preflight = async (req: FastifyRequest, reply: FastifyReply) => {
      reply.header('vary', varyWith(reply.getHeader('vary'), 'Origin'));
      const origin = req.headers.origin;
      if (origin && (await origins.originAllowedAnywhere(origin))) {
        reply.headers({ 'access-control-allow-origin': origin, ...preflightGrant });
      }
      return reply.code(204).send();
    };
    for (const prefix of APP_API_PREFIXES) app.options(`${prefix}*`, preflight);

    const allowed = async (req: FastifyRequest, reply: FastifyReply, origin: string) => {
      const projectId = req.project?.id ?? req.authProjectId;
      if (projectId) return origins.originAllowedForProject(projectId, origin);
      return reply.statusCode >= 400 && origins.originAllowedAnywhere(origin);
    };

    app.addHook('onSend', async (req: FastifyRequest, reply: FastifyReply, payload) => {
      if (req.method === 'OPTIONS' || !isAppApi(req.url)) return payload;
      reply.header('vary', varyWith(reply.getHeader('vary'), 'Origin'));
      const origin = req.headers.origin;
      if (origin && (await allowed(req, reply, origin))) {
        reply.header('access-control-allow-origin', origin);
        reply.header('access-control-expose-headers', EXPOSE_HEADERS);
      }
      return payload;
    });
  },
  { name: 'hostbase-app-cors' },
);
