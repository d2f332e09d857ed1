// The hosting gateway: an onRequest hook, registered before the API and the console, that takes
// over a request only when its Host is `{subdomain}.{PLATFORM_DOMAIN}` (any port) and names a
// project. Static types are answered from the local cache of the live deployment; Node, PHP and
// Flask types are proxied (streamed both ways) to the site's process. Every answer is counted.
import http from 'node:http';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { HostingService } from './hosting.service';
import type { Runtime } from './runtime';
import type { SiteFiles } from './site-files';
import { isSpa, runtimeOf } from './site-layout';
import type { StaticSites } from './static-site';
import type { TrafficCounter } from './traffic';
import { noSitePage, unavailablePage } from './pages';
import type { DeploymentRow } from './hosting.tables';
import type { ProjectRow } from '../projects/projects.tables';

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']);
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

export interface GatewayDeps {
  platformDomain: string;
  service: HostingService;
  files: SiteFiles;
  statics: StaticSites;
  runtime: Runtime;
  traffic: TrafficCounter;
}

/** `shop.example.com:3000` → `shop` when the platform domain is example.com; else undefined. */
export function subdomainOf(host: string | undefined, platformDomain: string): string | undefined {
  if (!host) return undefined;
  const name = (host.startsWith('[') ? host : host.replace(/:\d+$/, '')).toLowerCase().replace(/\.$/, '');
  const suffix = `.${platformDomain}`;
  if (!name.endsWith(suffix)) return undefined;
  const sub = name.slice(0, -suffix.length);
  return /^[a-z0-9-]{1,63}$/.test(sub) ? sub : undefined;
}

export function registerGateway(app: FastifyInstance, d: GatewayDeps): void {
  const ready = new Set<string>(); // deployments whose local copy is known to exist
  app.addHook('onRequest', async (req, reply) => {
    const sub = subdomainOf(req.headers.host, d.platformDomain);
    if (!sub) return;
    const site = await d.service.liveSite(sub);
    if (!site) return; // not a project: the platform answers as usual
    const bytesIn = requestHeaderBytes(req) + Number(req.headers['content-length'] ?? 0);
    if (!site.deployment) {
      return reply.code(404).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(noSitePage(req.headers.host ?? sub));
    }
    const deployment = site.deployment;
    if (!ready.has(deployment.id)) {
      await d.files.ensureLocal(site.project.id, deployment.id);
      ready.add(deployment.id);
    }
    if (runtimeOf(deployment.type)) return proxy(d, site.project, deployment, req, reply, bytesIn);
    return serveStatic(d, site.project, deployment, req, reply, bytesIn);
  });
}

async function serveStatic(d: GatewayDeps, project: ProjectRow, deployment: DeploymentRow, req: FastifyRequest, reply: FastifyReply, bytesIn: number) {
  const urlPath = req.url.split('?')[0];
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    d.traffic.record(project.id, 405, urlPath, bytesIn, 0);
    return reply.code(405).header('allow', 'GET, HEAD').type('text/plain; charset=utf-8').send('Method not allowed');
  }
  const res = await d.statics.serve({
    deploymentId: deployment.id,
    servedRoot: path.join(d.files.cacheDir(deployment.id), deployment.root),
    urlPath,
    spa: isSpa(deployment.type),
    headers: req.headers,
  });
  const out = typeof res.body === 'string' ? Buffer.byteLength(res.body) : Buffer.isBuffer(res.body) ? res.body.length : Number(res.headers['content-length'] ?? 0);
  d.traffic.record(project.id, res.status, urlPath, bytesIn, req.method === 'HEAD' ? 0 : out);
  // Written straight to the socket: the platform's onSend hooks (CORS, serialisation) are for the
  // API and cost the gateway a third of its throughput.
  reply.hijack();
  const raw = reply.raw;
  if (typeof res.body === 'string' || Buffer.isBuffer(res.body)) {
    if (res.status !== 304) res.headers['content-length'] = String(typeof res.body === 'string' ? Buffer.byteLength(res.body) : res.body.length);
    raw.writeHead(res.status, res.headers);
    raw.end(req.method === 'HEAD' ? undefined : res.body);
  } else {
    raw.writeHead(res.status, res.headers);
    if (req.method === 'HEAD') {
      res.body.destroy();
      raw.end();
    } else {
      res.body.on('error', () => raw.destroy());
      res.body.pipe(raw);
    }
  }
  return reply;
}

async function proxy(d: GatewayDeps, project: ProjectRow, deployment: DeploymentRow, req: FastifyRequest, reply: FastifyReply, bytesIn: number) {
  const urlPath = req.url.split('?')[0];
  let upstream;
  try {
    upstream = await d.runtime.ensure(d.service.specOf(project, deployment));
    // This instance may still run an older deployment of the project (switched elsewhere).
    const running = d.runtime.running(project.id);
    if (running && running.deploymentId !== deployment.id) void d.runtime.retire(project.id, deployment.id);
  } catch {
    d.traffic.record(project.id, 503, urlPath, bytesIn, 0);
    return reply.code(503).type('text/html; charset=utf-8').header('retry-after', '5').send(unavailablePage());
  }
  const headers: http.OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(req.headers)) if (!HOP_BY_HOP.has(k) && v !== undefined) headers[k] = v;
  headers['x-forwarded-for'] = req.ip;
  headers['x-forwarded-host'] = req.headers.host;
  headers['x-forwarded-proto'] = req.protocol;

  return new Promise<FastifyReply>((resolve) => {
    let bodyIn = 0;
    const up = http.request({ host: upstream.host, port: upstream.port, method: req.method, path: req.url, headers, agent }, (res) => {
      let out = 0;
      // Count in a pass-through: a 'data' listener on res itself would drain it before Fastify pipes it.
      const counted = new PassThrough({
        transform(chunk: Buffer, _e, done) {
          out += chunk.length;
          done(null, chunk);
        },
      });
      counted.on('end', () => d.traffic.record(project.id, res.statusCode ?? 502, urlPath, Math.max(bytesIn, requestHeaderBytes(req) + bodyIn), out));
      res.on('error', (err) => counted.destroy(err));
      res.pipe(counted);
      const outHeaders: Record<string, string | string[]> = {};
      for (const [k, v] of Object.entries(res.headers)) if (!HOP_BY_HOP.has(k) && v !== undefined) outHeaders[k] = v;
      resolve(reply.code(res.statusCode ?? 502).headers(outHeaders).send(counted));
    });
    up.setTimeout(60_000, () => up.destroy(new Error('upstream timeout')));
    up.on('error', () => {
      if (reply.sent) return;
      d.traffic.record(project.id, 502, urlPath, bytesIn, 0);
      resolve(reply.code(502).type('text/html; charset=utf-8').send(unavailablePage()));
    });
    const counter = new PassThrough({
      transform(chunk: Buffer, _e, done) {
        bodyIn += chunk.length;
        done(null, chunk);
      },
    });
    req.raw.pipe(counter).pipe(up);
  });
}

function requestHeaderBytes(req: FastifyRequest): number {
  let n = req.method.length + req.url.length + 12;
  const raw = req.raw.rawHeaders;
  for (let i = 0; i < raw.length; i++) n += raw[i].length + 2;
  return n;
}
