// The built console (web/dist) at /, with the SPA fallback to index.html for client routes.
// Unknown /api routes stay JSON 404s (405 with Allow when only the method is wrong). Every answer
// of this context carries the console's browser-security headers (security-headers.ts), its
// policy allowing index.html's inline blocks by hash.
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config';
import { unknownRoute } from './contract';
import { consoleSecurityHeaders } from './security-headers';

/** Last: its not-found handler answers whatever the API, the docs and the modules did not route. */
export const webPlugin = fp(
  async (app: FastifyInstance, { config }: { config: Config }) => registerWeb(app, config),
  { name: 'hostbase-web', dependencies: ['hostbase-contract', 'hostbase-docs', 'hostbase-security-headers'] },
);

async function registerWeb(app: FastifyInstance, config: Config): Promise<void> {
  const webDir = config.webDir;
  if (!webDir) {
    app.setNotFoundHandler(async (req) => {
      throw unknownRoute(app, req.method, req.url);
    });
    return;
  }
  const indexHtml = fs.readFileSync(path.join(webDir, 'index.html'), 'utf8');
  await app.register(async (web) => {
    await consoleSecurityHeaders(web, config, indexHtml);
    const { default: fastifyStatic } = await import('@fastify/static');
    await web.register(fastifyStatic, {
      root: webDir,
      prefix: '/',
      wildcard: false,
      index: false,
      // Hashed asset names never change: cache them for a year. index.html is never cached.
      setHeaders: (res, filePath) => {
        if (/[\\/]assets[\\/]/.test(filePath)) res.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
    web.setNotFoundHandler(async (req, reply) => {
      const url = req.url.split('?')[0];
      if (url === '/api' || url.startsWith('/api/') || (req.method !== 'GET' && req.method !== 'HEAD')) {
        throw unknownRoute(app, req.method, url);
      }
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    });
  });
}
