// The contract itself (/api/openapi.yaml and .json) and Swagger UI (/api/docs) from the npm
// package's own assets, with Hostbase's name and mark and the docs' browser-security headers.
// Swagger UI reads a view of the contract (/api/docs/json) whose Authorize dialog offers only the
// current ways to authenticate.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config';
import { loadSpec } from './contract';
import { docsSecurityHeaders } from './security-headers';
import { FAVICON_SVG, LOGO_SVG, PAGE_TITLE } from './docs-brand';

type Security = Record<string, string[]>[];
type Operation = { security?: Security };

/**
 * The contract as Swagger UI shows it: the security schemes marked `x-deprecated` (still
 * accepted, listed under the Deprecated tag) are left out of the Authorize dialog and of each
 * operation's alternatives. An operation that only took deprecated ones keeps them.
 */
export function docsView(spec: ReturnType<typeof loadSpec>): ReturnType<typeof loadSpec> {
  const components = spec.components as { securitySchemes?: Record<string, { 'x-deprecated'?: boolean }> } | undefined;
  const schemes = components?.securitySchemes ?? {};
  const deprecated = new Set(Object.keys(schemes).filter((name) => schemes[name]['x-deprecated'] === true));
  if (deprecated.size === 0) return spec;
  for (const name of deprecated) delete schemes[name];
  const current = (security: Security | undefined) => {
    const kept = security?.filter((alt) => !Object.keys(alt).some((name) => deprecated.has(name)));
    return kept && kept.length > 0 ? kept : security;
  };
  spec.security = current(spec.security);
  for (const item of Object.values(spec.paths)) {
    for (const op of Object.values(item) as Operation[]) if (op?.security) op.security = current(op.security);
  }
  return spec;
}

/**
 * The contract as served: the committed file with its templated `servers` entry replaced by this
 * platform's absolute API address (`{PUBLIC_URL}/api`) first, so that a generated client, Swagger
 * UI or Postman imported from /api/openapi.json knows where to send calls without being told.
 */
export function servedSpec(config: Pick<Config, 'publicUrl'>): ReturnType<typeof loadSpec> {
  const spec = loadSpec();
  spec.servers = [
    { url: `${config.publicUrl}/api`, description: 'This Hostbase platform (its PUBLIC_URL)' },
    // Swagger UI reached through another address than PUBLIC_URL (127.0.0.1 for localhost, a
    // proxy's name) can pick this one: "Try it out" then stays on the page's own origin.
    { url: '/api', description: 'The address this page was loaded from' },
  ];
  return spec;
}

export const docsPlugin = fp(
  async (app: FastifyInstance, { config }: { config: Config }) => {
    // Serialised at the first request, then kept: not per request, and not at start either (their
    // ~1.5 MB are not held by a platform whose contract is never downloaded).
    let specYaml: string | undefined;
    let specJson: string | undefined;
    app.get('/api/openapi.yaml', async (_req, reply) => {
      // The yaml package is loaded for this download only (the server reads the contract as JSON).
      specYaml ??= (await import('yaml')).default.stringify(servedSpec(config));
      return reply.type('application/yaml; charset=utf-8').send(specYaml);
    });
    app.get('/api/openapi.json', async (_req, reply) =>
      reply.type('application/json; charset=utf-8').send((specJson ??= JSON.stringify(servedSpec(config)))),
    );
    app.register(async (instance) => {
      const { default: swagger } = await import('@fastify/swagger');
      const { default: swaggerUi } = await import('@fastify/swagger-ui');
      await instance.register(swagger, { mode: 'static', specification: { document: docsView(servedSpec(config)) as never } });
      await docsSecurityHeaders(instance, config);
      await instance.register(swaggerUi, {
        routePrefix: '/api/docs',
        // Its own view (/api/docs/json): the downloadable contract (/api/openapi.json) stays whole.
        uiConfig: { url: '/api/docs/json', validatorUrl: null } as never,
        logo: { type: 'image/svg+xml', content: Buffer.from(LOGO_SVG), href: '/', target: '_self' },
        theme: { title: PAGE_TITLE, favicon: [{ filename: 'favicon.svg', rel: 'icon', sizes: 'any', type: 'image/svg+xml', content: Buffer.from(FAVICON_SVG) }] },
      });
    });
  },
  { name: 'hostbase-docs', dependencies: ['hostbase-security-headers'] },
);
