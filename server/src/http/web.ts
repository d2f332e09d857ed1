// The built console (web/dist) at /, with the SPA fallback to index.html for client routes, the
// public pages the build prerendered (dist/prerendered/<page>.html, web/prerender.mts) at their
// routes, and the site's robots.txt and sitemap.xml. Files are held in memory (pages from the start,
// other files once asked for) and served precompressed by content negotiation (web-assets.ts). Unknown /api routes stay JSON 404s (405 with Allow when only the
// method is wrong). Every answer of this context carries the console's browser-security headers
// (security-headers.ts), its policy allowing index.html's inline blocks by hash.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config';
import { unknownRoute } from './allowed-methods';
import { Errors } from './errors';
import { consoleSecurityHeaders } from './security-headers';
import { listWebAssets, makeAsset, sendAsset, type AssetLoader, type WebAsset } from './web-assets';
import { robotsTxt, sitemapXml } from './public-pages';

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
  const assets = await listWebAssets(webDir);
  const loadIndex = assets.get('/index.html');
  if (!loadIndex) throw new Error(`${webDir} has no index.html: build the console (npm run build:web)`);
  const index = await loadIndex();
  const started = new Date();
  const ready = (asset: WebAsset): AssetLoader => () => Promise.resolve(asset);
  // Crawlers read these often; an hour is fresh enough for a list that changes with a release.
  const crawlerFiles: [string, AssetLoader][] = [
    ['/robots.txt', ready(await makeAsset(Buffer.from(robotsTxt(config.publicUrl)), 'text/plain; charset=utf-8', 'public, max-age=3600', started))],
    ['/sitemap.xml', ready(await makeAsset(Buffer.from(sitemapXml(config.publicUrl)), 'application/xml; charset=utf-8', 'public, max-age=3600', started))],
  ];

  // dist/prerendered/index.html is /, dist/prerendered/pricing.html is /pricing: pages, not files.
  // Pages are read now: the security policy allows their inline blocks by hash.
  const pages = new Map<string, WebAsset>([['/', index]]);
  for (const [url, load] of assets) {
    const m = /^\/prerendered\/([a-z0-9-]+)\.html$/.exec(url);
    if (!m) continue;
    assets.delete(url);
    pages.set(m[1] === 'index' ? '/' : `/${m[1]}`, await load());
  }
  // Every page's inline blocks are allowed by hash (the prerendered ones share the shell's head).
  const html = [index, ...pages.values()].map((a) => a.identity.body.toString('utf8')).join('\n');
  const pageLoaders = [...pages].map(([url, page]): [string, AssetLoader] => [url, ready(page)]);

  await app.register(async (web) => {
    await consoleSecurityHeaders(web, config, html);
    const serve = (url: string, load: AssetLoader) =>
      web.route({
        method: ['GET', 'HEAD'],
        url,
        handler: async (req, reply) => {
          const asset = await load().catch((err: NodeJS.ErrnoException) => {
            // Removed since start (a rebuild replaced the hashed names): gone, not a server error.
            if (err.code === 'ENOENT') throw Errors.notFound(`File ${url}`);
            throw err;
          });
          return sendAsset(req, reply, asset);
        },
      });
    // A robots.txt or sitemap.xml the build ships (web/public) wins over the generated one.
    for (const [url, load] of new Map([...crawlerFiles, ...assets, ...pageLoaders])) serve(url, load);
    web.setNotFoundHandler(async (req, reply) => {
      const url = req.url.split('?')[0];
      if (url === '/api' || url.startsWith('/api/') || (req.method !== 'GET' && req.method !== 'HEAD')) {
        throw unknownRoute(app, req.method, url);
      }
      return sendAsset(req, reply, index);
    });
  });
}
