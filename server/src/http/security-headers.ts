// Browser-security headers (@fastify/helmet) for the pages the platform serves itself:
// - the console and marketing site (web.ts) and the API reference (/api/docs) each get a
//   Content-Security-Policy without inline scripts or styles (an inline block in the built
//   index.html is allowed by its sha256 hash, computed at start), no framing at all
//   (frame-ancestors 'none' and X-Frame-Options DENY), nosniff, Referrer-Policy
//   strict-origin-when-cross-origin, and HSTS only when PUBLIC_URL is https;
// - every other platform answer (the API's JSON, the contract files) gets nosniff only: API
//   answers are read cross-origin (end-user auth, share links), so no resource policy there;
// - hosted sites (the hosting gateway answers them before these hooks) are the tenants' pages
//   and keep their own headers.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { FastifyHelmetOptions } from '@fastify/helmet';
import type { Config } from '../config';

type Directives = Record<string, string[]>;

/** nosniff on every platform answer. After the hosting gateway's hook: hosted sites keep their own headers. */
export const securityHeadersPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRequest', (_req, reply, done) => {
      reply.header('x-content-type-options', 'nosniff');
      done();
    });
  },
  { name: 'hostbase-security-headers', dependencies: ['hostbase-hosting'] },
);

/** 'sha256-…' sources for each inline <script> and <style> block of an HTML page. */
const hash = (body: string) => `'sha256-${crypto.createHash('sha256').update(body, 'utf8').digest('base64')}'`;

export function inlineHashes(html: string): { scripts: string[]; styles: string[] } {
  const blocks = (tag: 'script' | 'style') =>
    [...html.matchAll(new RegExp(`<${tag}\\b([^>]*)>([\\s\\S]*?)</${tag}\\s*>`, 'gi'))]
      .filter(([, attrs]) => tag === 'style' || !/\ssrc\s*=/i.test(attrs))
      .map(([, , body]) => hash(body));
  return { scripts: [...new Set(blocks('script'))], styles: [...new Set(blocks('style'))] };
}

function origin(url: string): string {
  return new URL(url).origin;
}

/** The policy for the console and the marketing site (web/dist). */
export function consoleDirectives(config: Pick<Config, 'publicUrl'> & Partial<Pick<Config, 'razorpay'>>, indexHtml = ''): Directives {
  const { scripts, styles } = inlineHashes(indexHtml);
  const publicOrigin = origin(config.publicUrl);
  const directives: Directives = {
    'default-src': ["'self'"],
    'base-uri': ["'self'"],
    // The API and stored files are under PUBLIC_URL, which may differ from the address in the bar.
    'connect-src': ["'self'", publicOrigin],
    'img-src': ["'self'", 'data:', publicOrigin],
    'font-src': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    'object-src': ["'none'"],
    'script-src': ["'self'", ...scripts],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", ...styles],
  };
  // Razorpay's checkout (Settings → Billing) is its script, which opens its page in a frame.
  if (config.razorpay) {
    directives['script-src'].push('https://checkout.razorpay.com');
    directives['frame-src'] = ['https://api.razorpay.com', 'https://checkout.razorpay.com'];
  }
  if (isHttps(config)) directives['upgrade-insecure-requests'] = [];
  return directives;
}

/**
 * Swagger UI renders its logo as an inline SVG with a constant <style> element
 * (`createElement("style", null, "…")` in its bundles): allowed by hash, read from the installed
 * package at start so an upgrade keeps working.
 */
export function swaggerUiStyleHashes(): string[] {
  const dir = path.join(path.dirname(require.resolve('@fastify/swagger-ui')), 'static');
  const out = new Set<string>();
  for (const file of ['swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js']) {
    const js = fs.readFileSync(path.join(dir, file), 'utf8');
    for (const m of js.matchAll(/createElement\("style",null,("(?:[^"\\]|\\.)*")\)/g)) out.add(hash(JSON.parse(m[1]) as string));
  }
  return [...out];
}

/** The policy for Swagger UI at /api/docs: its own files only, "Try it out" against this origin. */
export function docsDirectives(config: Pick<Config, 'publicUrl'>, styleHashes: string[] = []): Directives {
  const publicOrigin = origin(config.publicUrl);
  const directives: Directives = {
    'default-src': ["'self'"],
    'base-uri': ["'self'"],
    'connect-src': ["'self'", publicOrigin],
    'img-src': ["'self'", 'data:'],
    'font-src': ["'self'", 'data:'],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    'object-src': ["'none'"],
    'script-src': ["'self'"],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", ...styleHashes],
  };
  if (isHttps(config)) directives['upgrade-insecure-requests'] = [];
  return directives;
}

const isHttps = (config: Pick<Config, 'publicUrl'>) => config.publicUrl.startsWith('https:');

/** Helmet's options around a policy: the rest is the same for every page. */
export function helmetOptions(config: Pick<Config, 'publicUrl'>, directives: Directives): FastifyHelmetOptions {
  return {
    global: true,
    contentSecurityPolicy: { useDefaults: false, directives },
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // Not includeSubDomains: hosted sites live on subdomains and may be served over plain http.
    strictTransportSecurity: isHttps(config) ? { maxAge: 31_536_000, includeSubDomains: false } : false,
    xFrameOptions: { action: 'deny' },
    xContentTypeOptions: true,
  };
}

/** Helmet for the console's (encapsulated) context. */
export async function consoleSecurityHeaders(instance: FastifyInstance, config: Pick<Config, 'publicUrl'>, indexHtml: string): Promise<void> {
  const { default: helmet } = await import('@fastify/helmet');
  await instance.register(helmet, helmetOptions(config, consoleDirectives(config, indexHtml)));
}

/** Helmet for the docs' (encapsulated) context: Swagger UI's page, assets and spec routes. */
export async function docsSecurityHeaders(instance: FastifyInstance, config: Pick<Config, 'publicUrl'>): Promise<void> {
  const { default: helmet } = await import('@fastify/helmet');
  await instance.register(helmet, helmetOptions(config, docsDirectives(config, swaggerUiStyleHashes())));
}
