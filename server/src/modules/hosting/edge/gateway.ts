// The hosting gateway: takes over a request only when its Host is `{subdomain}.{PLATFORM_DOMAIN}`
// (any port) and names a project. Static types are answered from the local cache of the live
// deployment; Node, PHP and Flask types are proxied (streamed both ways) to the site's process.
// Every answer is counted.
//
// Two doors, one behaviour: `front` runs in the raw node:http 'request' handler before Fastify
// (see front-door.ts) and answers static sites when everything it needs is already known on this
// instance (a fresh entry of the service's live-site cache, the same TTL-bounded cache that deploy
// and rollback invalidate, and a local copy of the deployment); anything else falls through to
// Fastify, where the onRequest hook below does the same work with database look-ups, fills those
// caches, and also serves requests injected without a socket (tests).
import http from 'node:http';
import path from 'node:path';
import { PassThrough, type Duplex } from 'node:stream';
import { refuseUpgrade, tunnel } from './tunnel';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { LiveSite } from '../hosting.repository';
import { deploymentKind, isSpa, type SiteFiles } from '../deploy';
import type { SiteResponse, StaticSites } from './static-site';
import type { TrafficCounter } from './traffic';
import { bandwidthPage, noSitePage, unavailablePage } from './pages';
import type { BandwidthGuard } from './bandwidth';
import type { DeploymentRow } from '../hosting.tables';
import type { ProjectRow } from '../../projects';
import { endToEndHeaders } from '../../../platform/http/hop-by-hop';
import { isPeerRequest, PEER_HEADER, type Runtime, type SiteSpec } from '../runtime';

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

/**
 * What the edge asks of the hosting service (hosting.service.ts): which deployment a subdomain
 * serves (its TTL-bounded cache), whether a switch is under way here, and what to run for a site.
 */
export interface LiveSiteSource {
  liveSite(subdomain: string): Promise<LiveSite | undefined>;
  cachedLiveSite(subdomain: string): { site: LiveSite | undefined } | undefined;
  switching(projectId: string): boolean;
  specOf(project: Pick<ProjectRow, 'id'>, d: Pick<DeploymentRow, 'id' | 'type' | 'root' | 'entry' | 'runtime' | 'command'>, envVersion: number): SiteSpec;
}

export interface GatewayDeps {
  platformDomain: string;
  service: LiveSiteSource;
  files: SiteFiles;
  statics: StaticSites;
  runtime: Runtime;
  traffic: TrafficCounter;
  log: FastifyBaseLogger;
  /** Sites of an account over its plan's monthly bandwidth answer 503 (bandwidth.ts). */
  bandwidth?: BandwidthGuard;
  /** SITE_RUNNER=lease: the token of requests another instance forwards to this one (runtime.leased.ts). */
  peerToken?: string;
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

export class Gateway {
  private readonly ready = new Set<string>(); // deployments whose local copy is known to exist
  private readonly subs = new Map<string, string | null>(); // Host header → subdomain (or none)
  private readonly roots = new Map<string, string>(); // deployment → served folder

  constructor(private readonly d: GatewayDeps) {}

  /** The Fastify door: an onRequest hook registered before the API and the console. */
  register(app: FastifyInstance): void {
    app.addHook('onRequest', async (req, reply) => {
      const sub = this.subdomain(req.headers.host);
      if (!sub) return;
      const site = await this.d.service.liveSite(sub);
      if (!site) return; // not a project: the platform answers as usual
      const deployment = site.deployment;
      // A static deployment's files are served from here; a dynamic one's are fetched by the
      // runtime that starts it (SiteSpec.prepare), not by every instance that proxies to it.
      if (deployment && !deploymentKind(deployment) && !this.ready.has(deployment.id)) {
        await this.d.files.ensureLocal(site.project.id, deployment.id);
        this.ready.add(deployment.id);
      }
      if (deployment && deploymentKind(deployment) && !this.d.bandwidth?.blocked(site.project.id)) {
        // PHP's built-in server answers any file of the deployment itself: dotfiles (.env, .git)
        // are refused before it sees them, as static sites refuse them (static-site.ts).
        if (deploymentKind(deployment) === 'php' && isDotPath(req.url)) return this.hijackWrite(site.project.id, req, reply, DOTFILE_NOT_FOUND);
        return proxy(this.d, site.project, deployment, site.envVersion, req, reply, requestHeaderBytes(req.raw) + Number(req.headers['content-length'] ?? 0));
      }
      // Unpublished (or switched to a static deployment): a process this instance still runs goes.
      if (this.d.runtime.running(site.project.id) && !this.d.service.switching(site.project.id)) void this.d.runtime.retire(site.project.id, deployment && deploymentKind(deployment) ? deployment.id : undefined);
      const answer = this.respond(site, req.raw);
      const res = answer instanceof Promise ? await answer : answer;
      return this.hijackWrite(site.project.id, req, reply, res);
    });
  }

  /**
   * Written straight to the socket: the platform's onSend hooks (CORS, serialisation) are for the
   * API, and this is exactly what the front door writes.
   */
  private hijackWrite(projectId: string, req: FastifyRequest, reply: FastifyReply, res: SiteResponse): FastifyReply {
    reply.hijack();
    this.write(projectId, req.raw, reply.raw, res);
    return reply;
  }

  /**
   * The front door (raw node:http): true when it took the request. Only answers what it can
   * without the database; the first request of a site (or after the cache's TTL) goes through Fastify.
   */
  readonly front = (req: http.IncomingMessage, res: http.ServerResponse): boolean => {
    const sub = this.subdomain(req.headers.host);
    if (!sub) return false;
    const hit = this.d.service.cachedLiveSite(sub);
    if (!hit?.site) return false;
    const deployment = hit.site.deployment;
    if (deployment && (deploymentKind(deployment) || !this.ready.has(deployment.id)) && !this.d.bandwidth?.blocked(hit.site.project.id)) return false;
    const answer = this.respond(hit.site, req);
    const projectId = hit.site.project.id;
    if (answer instanceof Promise) {
      answer.then(
        (r) => this.write(projectId, req, res, r),
        (err) => {
          this.d.log.error({ err, url: req.url }, 'hosting gateway: could not answer');
          if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
          res.end('Internal server error');
        },
      );
    } else this.write(projectId, req, res, answer);
    return true;
  };

  /** The answer of a static site (or of a project without a deployment) to a request. */
  private respond(site: LiveSite, req: http.IncomingMessage): SiteResponse | Promise<SiteResponse> {
    const over = this.d.bandwidth?.blocked(site.project.id);
    if (over) return { status: 503, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }, body: bandwidthPage(this.d.bandwidth!.message(over)), uncounted: true };
    const deployment = site.deployment;
    if (!deployment) {
      const host = req.headers.host ?? '';
      return { status: 404, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' }, body: noSitePage(host), uncounted: true };
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return METHOD_NOT_ALLOWED;
    let root = this.roots.get(deployment.id);
    if (root === undefined) {
      root = path.join(this.d.files.cacheDir(deployment.id), deployment.root);
      if (this.roots.size >= 1000) this.roots.clear();
      this.roots.set(deployment.id, root);
    }
    return this.d.statics.serve({ deploymentId: deployment.id, servedRoot: root, urlPath: pathOf(req.url), spa: isSpa(deployment.type), headers: req.headers, rules: deployment.rules, query: queryOf(req.url) });
  }

  private write(projectId: string, req: http.IncomingMessage, res: http.ServerResponse, answer: SiteResponse): void {
    const head = req.method === 'HEAD';
    const body = answer.body;
    if (typeof body === 'string' || Buffer.isBuffer(body)) {
      const length = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
      if (!answer.uncounted) {
        this.d.traffic.record(projectId, answer.status, pathOf(req.url), requestHeaderBytes(req) + Number(req.headers['content-length'] ?? 0), head ? 0 : length);
      }
      if (answer.flat) res.writeHead(answer.status, answer.flat);
      else res.writeHead(answer.status, answer.status === 304 ? answer.headers : { ...answer.headers, 'content-length': String(length) });
      res.end(head ? undefined : body);
      return;
    }
    this.d.traffic.record(projectId, answer.status, pathOf(req.url), requestHeaderBytes(req) + Number(req.headers['content-length'] ?? 0), head ? 0 : Number(answer.headers['content-length'] ?? 0));
    res.writeHead(answer.status, answer.headers);
    if (head) {
      body.destroy();
      res.end();
    } else {
      body.on('error', () => res.destroy());
      body.pipe(res);
    }
  }

  /**
   * The server's 'upgrade' event (front-door.ts): a WebSocket (or other upgrade) for a dynamic
   * site is tunnelled to its process; for anything else (the API, the console, static sites,
   * unknown hosts) it is refused with a plain answer and the connection closed.
   */
  readonly upgrade = (req: http.IncomingMessage, socket: Duplex, head: Buffer): void => {
    socket.on('error', () => socket.destroy());
    const sub = this.subdomain(req.headers.host);
    if (!sub) return refuseUpgrade(socket, 404, 'Not Found');
    void this.upgradeSite(sub, req, socket, head).catch((err: unknown) => {
      this.d.log.error({ err, url: req.url }, 'hosting gateway: upgrade failed');
      refuseUpgrade(socket, 503, 'Service Unavailable');
    });
  };

  private async upgradeSite(sub: string, req: http.IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const site = await this.d.service.liveSite(sub);
    const deployment = site?.deployment;
    if (!site || !deployment || !deploymentKind(deployment)) return refuseUpgrade(socket, 404, 'Not Found');
    if (deploymentKind(deployment) === 'php' && isDotPath(req.url)) return refuseUpgrade(socket, 404, 'Not Found');
    if (this.d.bandwidth?.blocked(site.project.id)) return refuseUpgrade(socket, 503, 'Service Unavailable');
    const project = site.project;
    const urlPath = pathOf(req.url);
    let upstream;
    const fromPeer = isPeerRequest(req.headers, this.d.peerToken);
    try {
      upstream = await this.d.runtime.ensure(this.d.service.specOf(project, deployment, site.envVersion), { forRequest: true, forwarded: fromPeer });
    } catch {
      if (!fromPeer) this.d.traffic.record(project.id, 503, urlPath, requestHeaderBytes(req), 0);
      return refuseUpgrade(socket, 503, 'Service Unavailable');
    }
    if (socket.destroyed) return;
    const encrypted = Boolean((req.socket as { encrypted?: boolean }).encrypted);
    const forwardedFor = fromPeer && typeof req.headers['x-forwarded-for'] === 'string' ? req.headers['x-forwarded-for'] : (req.socket.remoteAddress ?? '');
    const forwardedProto = fromPeer && req.headers['x-forwarded-proto'] === 'https' ? 'https' : encrypted ? 'https' : 'http';
    tunnel(req, socket, head, {
      upstream,
      forwardedFor,
      forwardedProto,
      // A request another instance forwarded is counted there, once.
      done: (status, bytesIn, bytesOut) => (fromPeer ? undefined : this.d.traffic.record(project.id, status, urlPath, bytesIn, bytesOut)),
    });
  }

  private subdomain(host: string | undefined): string | undefined {
    if (host === undefined) return undefined;
    // A host name is at most 253 characters: a longer Host is no site's, and is kept out of the
    // Map (V8 hashes a string over 16,383 characters by its length alone: such keys collide).
    if (host.length > 300) return undefined;
    let sub = this.subs.get(host);
    if (sub === undefined) {
      sub = subdomainOf(host, this.d.platformDomain) ?? null;
      if (this.subs.size >= 1000) this.subs.clear();
      this.subs.set(host, sub);
    }
    return sub ?? undefined;
  }
}

const DOTFILE_NOT_FOUND: SiteResponse = { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Not found' };

/** Whether a request path names a dotfile or dot-folder (decoded), other than /.well-known/. */
export function isDotPath(url: string | undefined): boolean {
  let p = pathOf(url);
  try {
    p = decodeURIComponent(p);
  } catch {
    return true; // undecodable: never handed to a site's file server
  }
  return p.split(/[/\\]/).some((seg) => seg.startsWith('.') && seg !== '.well-known' && seg !== '.' && seg !== '..');
}

const METHOD_NOT_ALLOWED: SiteResponse = { status: 405, headers: { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }, body: 'Method not allowed' };

function queryOf(url: string | undefined): string {
  const q = url === undefined ? -1 : url.indexOf('?');
  return q < 0 ? '' : url!.slice(q);
}

function pathOf(url: string | undefined): string {
  if (url === undefined) return '/';
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

async function proxy(d: GatewayDeps, project: ProjectRow, deployment: DeploymentRow, envVersion: number, req: FastifyRequest, reply: FastifyReply, bytesIn: number) {
  const urlPath = req.url.split('?')[0];
  let upstream;
  const fromPeer = isPeerRequest(req.headers, d.peerToken);
  // A request another instance forwarded is counted there (traffic, errors, bandwidth), once.
  const record: TrafficCounter['record'] = (...args) => (fromPeer ? undefined : d.traffic.record(...args));
  try {
    upstream = await d.runtime.ensure(d.service.specOf(project, deployment, envVersion), { forRequest: true, forwarded: fromPeer });
    // This instance may still run an older deployment of the project (switched elsewhere).
    const running = d.runtime.running(project.id);
    if (running && running.deploymentId !== deployment.id) void d.runtime.retire(project.id, deployment.id);
  } catch {
    record(project.id, 503, urlPath, bytesIn, 0);
    return reply.code(503).type('text/html; charset=utf-8').header('retry-after', '5').send(unavailablePage());
  }
  // The client's own X-Forwarded-* are replaced: only this gateway's are true (or, for a request
  // another instance forwarded, that instance's). The instances' token never reaches a site.
  const headers: http.OutgoingHttpHeaders = endToEndHeaders(req.headers, !fromPeer);
  delete headers[PEER_HEADER];
  if (!fromPeer) {
    headers['x-forwarded-for'] = req.ip;
    headers['x-forwarded-host'] = req.headers.host;
    headers['x-forwarded-proto'] = req.protocol;
  }
  const { peer, ...target } = 'socketPath' in upstream ? { ...upstream, peer: undefined } : upstream;
  if (peer) headers[PEER_HEADER] = peer;

  return new Promise<FastifyReply>((resolve) => {
    let bodyIn = 0;
    const up = http.request({ ...target, method: req.method, path: req.url, headers, agent }, (res) => {
      let out = 0;
      // Count in a pass-through: a 'data' listener on res itself would drain it before Fastify pipes it.
      const counted = new PassThrough({
        transform(chunk: Buffer, _e, done) {
          out += chunk.length;
          done(null, chunk);
        },
      });
      counted.on('end', () => record(project.id, res.statusCode ?? 502, urlPath, Math.max(bytesIn, requestHeaderBytes(req.raw) + bodyIn), out));
      res.on('error', (err) => counted.destroy(err));
      res.pipe(counted);
      resolve(reply.code(res.statusCode ?? 502).headers(endToEndHeaders(res.headers)).send(counted));
    });
    up.setTimeout(60_000, () => up.destroy(new Error('upstream timeout')));
    up.on('error', () => {
      if (reply.sent) return;
      record(project.id, 502, urlPath, bytesIn, 0);
      resolve(reply.code(502).type('text/html; charset=utf-8').send(unavailablePage()));
    });
    const counter = new PassThrough({
      transform(chunk: Buffer, _e, done) {
        bodyIn += chunk.length;
        done(null, chunk);
      },
    });
    // A client that goes away mid-body (or is cut off as too slow) takes the site's request with
    // it, rather than leaving the site waiting for the rest until the upstream timeout.
    req.raw.on('close', () => {
      if (!req.raw.complete) up.destroy();
    });
    req.raw.pipe(counter).pipe(up);
  });
}

function requestHeaderBytes(req: http.IncomingMessage): number {
  let n = (req.method?.length ?? 0) + (req.url?.length ?? 0) + 12;
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i++) n += raw[i].length + 2;
  return n;
}
