// CORS for the app-side APIs a browser calls with the project's authentication key: the auth API
// (/api/auth/v1/*) and the data API (/api/db/v1/*), per project and closed by default.
//
// Design: a browser's preflight carries no x-api-key, so it can't name the project. It is
// answered 204 with the allowed methods and headers (x-api-key, authorization, content-type) and
// echoes the Origin only when some project lists that origin (nothing is revealed: the preflight
// grants nothing by itself). The real request then carries the key: it gets
// Access-Control-Allow-Origin only when the key's project lists the origin, so a page on an
// origin listed by project A can't read answers made with project B's key. Keyless calls (reset
// and verify, whose token names the project) are checked against the token's project once it is
// known, and against "any project" when the token was bad, so the app can show the error.
// Origins are exact (scheme://host:port); no wildcards and no credentials (tokens travel in headers).
//
// Why not @fastify/cors (tried with its per-request `delegator`, 11.4.3): its hook decides before
// the handler, at onRequest..preSerialization. (1) A preflight it grants nothing is handed to the
// not-found handler (404), or, with an empty origin list, still gets empty Allow-Methods and
// Allow-Headers; ours is a 204 with none. (2) The project is known only after the route's own
// onRequest verifier (authKey), and a 401 from that verifier skips every later hook but
// preSerialization, which in turn never sees preflights; keyless calls know their project only
// after the handler. Deciding in onSend covers every answer, errors included.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AuthUsersService } from './auth-users.service';

export const AUTH_API_PREFIX = '/api/auth/v1/';
export const DB_API_PREFIX = '/api/db/v1/';
/** The APIs an app's pages call with the authentication key, under one set of allowed origins. */
const APP_API_PREFIXES = [AUTH_API_PREFIX, DB_API_PREFIX];
const ALLOW_METHODS = 'GET, POST, OPTIONS';
const ALLOW_HEADERS = 'x-api-key, authorization, content-type';

/** Registered by the auth-users plugin before the contract, so the hook covers the /api/auth/v1 and /api/db/v1 routes. */
export const endUserCors = fp(
  async (app: FastifyInstance, { service }: { service: AuthUsersService }) => {
    const preflight = async (req: FastifyRequest, reply: FastifyReply) => {
      const origin = req.headers.origin;
      reply.header('vary', 'Origin');
      if (origin && (await service.originAllowedAnywhere(origin))) {
        reply.headers({
          'access-control-allow-origin': origin,
          'access-control-allow-methods': ALLOW_METHODS,
          'access-control-allow-headers': ALLOW_HEADERS,
          'access-control-max-age': '600',
        });
      }
      return reply.code(204).send();
    };
    for (const prefix of APP_API_PREFIXES) app.options(`${prefix}*`, preflight);

    app.addHook('onSend', async (req: FastifyRequest, reply: FastifyReply, payload) => {
      if (req.method === 'OPTIONS' || !APP_API_PREFIXES.some((prefix) => req.url.startsWith(prefix))) return payload;
      reply.header('vary', 'Origin');
      const origin = req.headers.origin;
      if (!origin) return payload;
      const projectId = req.project?.id ?? req.authProjectId;
      const keyless = req.headers['x-api-key'] === undefined;
      const allowed = projectId
        ? await service.originAllowedForProject(projectId, origin)
        : keyless && (await service.originAllowedAnywhere(origin));
      if (allowed) {
        reply.header('access-control-allow-origin', origin);
        reply.header('access-control-expose-headers', 'retry-after');
      }
      return payload;
    });
  },
  { name: 'hostbase-auth-users-cors' },
);
