// Custom domains of hosted sites: the API, the front of the gateway for custom Hosts,
// the HTTPS listener (SNI) and the periodic renewal. As a plugin registered before hosting: its
// one onRequest hook runs before the gateway's and, for a verified custom domain, answers ACME
// HTTP-01 challenges, redirects plain HTTP to HTTPS once a certificate exists, and otherwise hands
// the request to the gateway as `{sub}.{PLATFORM_DOMAIN}` (the original Host in X-Forwarded-Host).
// A claimed but unverified hostname gets a 404 and no certificate.
import tls from 'node:tls';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Deps } from '../../platform/deps';
import { AcmeIssuer, type CertificateIssuer } from './acme';
import { DomainsRepository } from './domains.repository';
import { createDomainLookup, DomainsService, type DomainLookup } from './domains.service';
import { createDomainsHandlers } from './domains.handlers';
import { hostOfHeader, isPlatformHost } from './hostnames';

const CHALLENGE_PREFIX = '/.well-known/acme-challenge/';
const RENEW_CHECK_MS = 60 * 60_000;

export interface DomainsModuleOptions {
  dns?: DomainLookup;
  issuer?: CertificateIssuer;
  /** How often the renewal check runs (default hourly); 0: never (tests call renewDue). */
  renewCheckMs?: number;
}

export function createDomainsModule(deps: Deps, options: DomainsModuleOptions = {}) {
  const repo = new DomainsRepository(deps.db);
  const c = deps.config.domains;
  const service = new DomainsService({
    repo,
    clock: deps.clock,
    secrets: deps.secrets,
    lookups: deps.lookups,
    dns: options.dns ?? createDomainLookup(deps.config.dnsServers),
    issuer: options.issuer ?? new AcmeIssuer({ directoryUrl: c.acmeDirectoryUrl, email: c.acmeEmail, caFile: c.acmeCaFile, repo, secrets: deps.secrets }),
    platformDomain: deps.config.platformDomain,
    mailHost: deps.config.mailHost,
    addresses: c.addresses,
    log: deps.log,
  });
  return { service, handlers: createDomainsHandlers(service) };
}

export const domainsPlugin = fp(
  async (app: FastifyInstance, options: DomainsModuleOptions) => {
    const domains = createDomainsModule(app.deps, options);
    const service = domains.service;
    app.decorate('domains', service);
    app.contractParts.add('domains', domains);
    const { platformDomain } = app.deps.config;
    const httpsPort = app.deps.config.domains.httpsPort;
    let https: tls.Server | undefined;
    let publicHttpsPort = httpsPort;

    app.addHook('onRequest', async (req, reply) => {
      const host = hostOfHeader(req.headers.host);
      if (!host || isPlatformHost(host, platformDomain)) return;
      const url = req.raw.url ?? '/';
      if (url.startsWith(CHALLENGE_PREFIX)) {
        const answer = await service.challenge(url.slice(CHALLENGE_PREFIX.length).split('?')[0], host);
        if (answer !== undefined) return reply.code(200).header('content-type', 'text/plain').header('cache-control', 'no-store').send(answer);
      }
      const route = await service.route(host);
      if (!route) return; // not a custom domain: the platform answers as usual
      if (!route.verified) return reply.code(404).header('content-type', 'text/plain; charset=utf-8').send(`No site is published at ${host}.\n`);
      const encrypted = (req.raw.socket as tls.TLSSocket | undefined)?.encrypted === true;
      if (!encrypted && route.hasCertificate && https !== undefined) {
        const port = publicHttpsPort === 443 ? '' : `:${publicHttpsPort}`;
        return reply.code(308).header('location', `https://${host}${port}${url}`).send();
      }
      req.raw.headers['x-forwarded-host'] = req.headers.host;
      req.raw.headers.host = `${route.subdomain}.${platformDomain}`;
    });

    // HTTPS by SNI: TLS ends here and the decrypted stream joins the platform's HTTP server as one
    // more connection, so every limit and route applies alike. No certificate: no handshake.
    if (httpsPort !== undefined) {
      app.addHook('onListen', async () => {
        https = tls.createServer({
          SNICallback: (servername, cb) => {
            service.secureContext(servername).then(
              (ctx) => (ctx ? cb(null, ctx) : cb(new Error(`no certificate for ${servername}`))),
              (err) => cb(err as Error),
            );
          },
          ALPNProtocols: ['http/1.1'],
        });
        https.on('secureConnection', (socket) => app.server.emit('connection', socket));
        https.on('tlsClientError', () => undefined);
        await new Promise<void>((resolve, reject) => {
          https!.once('error', reject);
          https!.listen(httpsPort, app.deps.config.host, () => resolve());
        });
        publicHttpsPort = service.httpsPort = (https.address() as AddressInfo).port;
        app.log.info({ port: publicHttpsPort }, 'custom domains: HTTPS listening');
      });
    }

    const every = options.renewCheckMs ?? RENEW_CHECK_MS;
    let timer: NodeJS.Timeout | undefined;
    if (every > 0) {
      app.addHook('onReady', async () => {
        timer = setInterval(() => void service.renewDue().catch((err) => app.log.warn({ err }, 'custom domains: renewal check failed')), every);
        timer.unref();
      });
    }
    app.addHook('onClose', async () => {
      if (timer) clearInterval(timer);
      await new Promise<void>((resolve) => (https ? https.close(() => resolve()) : resolve()));
      await service.settle();
    });
  },
  { name: 'hostbase-domains', dependencies: ['hostbase-contract-parts', 'hostbase-accounts', 'hostbase-projects'], decorators: { fastify: ['deps'] } },
);

declare module 'fastify' {
  interface FastifyInstance {
    domains: DomainsService;
  }
}
