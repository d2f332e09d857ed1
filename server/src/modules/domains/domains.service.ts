// Custom domains of hosted sites: the rules. A project claims a hostname (plan limit counted over
// the account's projects), is shown the record to publish (CNAME to its site's name, or A/AAAA to
// the platform's addresses for an apex), verifies it through the configured resolver (DNS_SERVERS),
// and once verified, and the only verified claim of that name, the platform obtains its
// certificate over ACME, serves it by SNI and renews it before expiry (renewDue, one instance per
// domain at a time by a lease on its row).
import { promises as dns } from 'node:dns';
import tls from 'node:tls';
import type { Clock } from '../../platform/clock';
import type { LookupCache } from '../../platform/lookup-cache';
import type { SecretBox } from '../../platform/crypto';
import { planLimits } from '../plans';
import { Errors } from '../../platform/errors';
import type { ProjectRow } from '../projects';
import type { CertificateIssuer } from './acme';
import type { DomainRoute, DomainsRepository } from './domains.repository';
import type { SiteDomainRow } from './domains.tables';
import { DOMAIN_MESSAGES, normalizeHostname } from './hostnames';

export const RENEW_BEFORE_DAYS = 30;
const DAY = 86_400_000;
const RETRY_AFTER_MS = 15 * 60_000;
const LEASE_MS = 10 * 60_000;
const ROUTE_TTL_MS = 5_000;

export interface DomainLookup {
  resolveCname(name: string): Promise<string[]>;
  resolve4(name: string): Promise<string[]>;
  resolve6(name: string): Promise<string[]>;
}

export function createDomainLookup(servers?: string[], timeoutMs = 2500): DomainLookup {
  const resolver = new dns.Resolver({ timeout: timeoutMs, tries: 2 });
  if (servers?.length) resolver.setServers(servers);
  return { resolveCname: (n) => resolver.resolveCname(n), resolve4: (n) => resolver.resolve4(n), resolve6: (n) => resolver.resolve6(n) };
}

export interface DomainRecord {
  type: 'CNAME' | 'A' | 'AAAA';
  host: string;
  value: string;
}

export type DomainStatus = 'pending' | 'issuing' | 'active' | 'failed';

export interface SiteDomainView {
  hostname: string;
  status: DomainStatus;
  verified: boolean;
  records: DomainRecord[];
  certificate_expires_at: string | null;
  error: string | null;
  created_at: string;
}

export interface DomainsServiceDeps {
  repo: DomainsRepository;
  clock: Clock;
  secrets: SecretBox;
  dns: DomainLookup;
  issuer: CertificateIssuer;
  platformDomain: string;
  mailHost?: string;
  addresses: string[];
  log?: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
  /**
   * Where routes and TLS contexts are kept between changes, dropped on every instance by the
   * notices of migrations/0025 (unknown names too, so a flood of made-up Hosts costs one query per
   * name, not per request). Without it, a short-lived local cache.
   */
  lookups?: Pick<LookupCache, 'get' | 'barrier'>;
}

export class DomainsService {
  private readonly routes = new Map<string, { at: number; route: DomainRoute | undefined }>();
  private readonly contexts = new Map<string, { at: number; expires: number; ctx: tls.SecureContext }>();
  private readonly running = new Set<Promise<unknown>>();
  /** The port HTTPS is served on, once listening (HTTPS_PORT; the plugin sets it). */
  httpsPort?: number;

  constructor(private readonly d: DomainsServiceDeps) {}

  private hostname(input: unknown): string {
    const check = normalizeHostname(input, this.d.platformDomain, this.d.mailHost);
    if (!check.ok) throw Errors.badRequest(check.message);
    return check.hostname;
  }

  records(project: Pick<ProjectRow, 'subdomain'>, hostname: string): DomainRecord[] {
    const out: DomainRecord[] = [{ type: 'CNAME', host: hostname, value: `${project.subdomain}.${this.d.platformDomain}` }];
    for (const a of this.d.addresses) out.push({ type: a.includes(':') ? 'AAAA' : 'A', host: hostname, value: a });
    return out;
  }

  view(project: Pick<ProjectRow, 'subdomain'>, row: SiteDomainRow): SiteDomainView {
    const verified = !!row.verifiedAt;
    const status: DomainStatus = !verified ? 'pending' : row.certPem ? 'active' : row.lastError ? 'failed' : 'issuing';
    return {
      hostname: row.hostname,
      status,
      verified,
      records: this.records(project, row.hostname),
      certificate_expires_at: row.certExpiresAt?.toISOString() ?? null,
      error: row.lastError ?? null,
      created_at: row.createdAt.toISOString(),
    };
  }

  list(project: ProjectRow): Promise<SiteDomainRow[]> {
    return this.d.repo.list(project.id);
  }

  async add(project: ProjectRow, input: unknown): Promise<SiteDomainRow> {
    const hostname = this.hostname(input);
    if (await this.d.repo.find(project.id, hostname)) throw Errors.conflict('This hostname is already added to this site');
    const taken = await this.d.repo.verifiedByName(hostname);
    if (taken) throw Errors.conflict('This hostname is already used by another site');
    const result = await this.d.repo.addWithinPlan(project.ownerId, project.id, hostname, (plan) => planLimits(plan).customDomains);
    if (result.refusedPlan !== undefined) {
      const p = planLimits(result.refusedPlan);
      const allowed = p.customDomains === 0 ? 'no custom domains' : `${p.customDomains} custom domains`;
      throw Errors.forbidden(`Your ${p.label} plan allows ${allowed}. Upgrade the plan in Settings → Billing.`);
    }
    if (!result.row) throw Errors.conflict('This hostname is already added to this site');
    await this.forget(hostname);
    return result.row;
  }

  private async own(project: ProjectRow, input: unknown): Promise<SiteDomainRow> {
    const row = await this.d.repo.find(project.id, this.hostname(input));
    if (!row) throw Errors.notFound('Domain');
    return row;
  }

  /**
   * Looks the records up now. Verified when the hostname's CNAME is the site's name, or (with
   * CUSTOM_DOMAIN_ADDRESSES) its A/AAAA records are all the platform's. Then the certificate is
   * requested in the background. A verified domain stays verified.
   */
  async verify(project: ProjectRow, input: unknown): Promise<{ message: string; row: SiteDomainRow }> {
    const row = await this.own(project, input);
    if (row.verifiedAt) return { message: 'verified', row };
    const taken = await this.d.repo.verifiedByName(row.hostname);
    if (taken && taken.id !== row.id) throw Errors.conflict('This hostname is already used by another site');
    const problem = await this.dnsProblem(project, row.hostname);
    if (problem) return { message: problem, row };
    if (!(await this.d.repo.markVerified(row.id, this.d.clock.now()))) throw Errors.conflict('This hostname is already used by another site');
    await this.forget(row.hostname);
    const fresh = (await this.d.repo.byId(row.id)) ?? row;
    this.track(this.obtain(fresh));
    return { message: 'verified', row: fresh };
  }

  private async dnsProblem(project: ProjectRow, hostname: string): Promise<string | undefined> {
    const target = `${project.subdomain}.${this.d.platformDomain}`;
    const cnames = await this.d.dns.resolveCname(hostname).catch(() => [] as string[]);
    if (cnames.some((c) => c.toLowerCase().replace(/\.$/, '') === target)) return undefined;
    if (cnames.length) return `The CNAME record of ${hostname} points at ${cnames[0]}, not ${target}`;
    if (this.d.addresses.length) {
      const found = [...(await this.d.dns.resolve4(hostname).catch(() => [] as string[])), ...(await this.d.dns.resolve6(hostname).catch(() => [] as string[]))];
      const ours = new Set(this.d.addresses.map((a) => a.toLowerCase()));
      if (found.length && found.every((a) => ours.has(a.toLowerCase()))) return undefined;
      if (found.length) return `The A/AAAA records of ${hostname} point at ${found.filter((a) => !ours.has(a.toLowerCase())).join(', ')}, not at the platform's addresses`;
      return `No CNAME record to ${target} (nor A/AAAA record to the platform's addresses) was found at ${hostname}`;
    }
    return `No CNAME record to ${target} was found at ${hostname}`;
  }

  async remove(project: ProjectRow, input: unknown): Promise<void> {
    const row = await this.own(project, input);
    await this.d.repo.remove(row.id);
    await this.forget(row.hostname);
  }

  /** After a change of the name's claims: in force here and (with lookups) on every instance before the answer. */
  private async forget(hostname: string): Promise<void> {
    this.routes.delete(hostname);
    this.contexts.delete(hostname);
    await this.d.lookups?.barrier();
  }

  /** Where a custom Host goes; undefined: not a custom domain. */
  async route(hostname: string): Promise<DomainRoute | undefined> {
    if (this.d.lookups) {
      const kept = await this.d.lookups.get(`domain-route:${hostname}`, async () => ({ route: await this.d.repo.route(hostname) }), () => [`domain:${hostname}`]);
      return kept?.route;
    }
    const now = Date.now();
    const hit = this.routes.get(hostname);
    if (hit && now - hit.at < ROUTE_TTL_MS) return hit.route;
    const route = await this.d.repo.route(hostname);
    if (this.routes.size >= 10_000) this.routes.clear();
    this.routes.set(hostname, { at: now, route });
    return route;
  }

  /** The key authorisation of an HTTP-01 token for this hostname, from any instance's order. */
  challenge(token: string, hostname: string): Promise<string | undefined> {
    if (!/^[A-Za-z0-9_-]{1,256}$/.test(token)) return Promise.resolve(undefined);
    return this.d.repo.challenge(token, hostname);
  }

  /** The TLS context of a verified domain with a certificate (SNI); undefined: refuse the handshake. */
  async secureContext(servername: string): Promise<tls.SecureContext | undefined> {
    const name = servername.toLowerCase().replace(/\.$/, '');
    const now = Date.now();
    if (this.d.lookups) {
      const kept = await this.d.lookups.get(`domain-tls:${name}`, () => this.contextOf(name), () => [`domain:${name}`]);
      // A certificate past its expiry is read again (a renewal may not have told anyone yet).
      return kept && kept.expires > now ? kept.ctx : (await this.contextOf(name))?.ctx;
    }
    const hit = this.contexts.get(name);
    if (hit && now - hit.at < 60_000 && hit.expires > now) return hit.ctx;
    const made = await this.contextOf(name);
    if (!made) return undefined;
    if (this.contexts.size >= 10_000) this.contexts.clear();
    this.contexts.set(name, { at: now, ...made });
    return made.ctx;
  }

  private async contextOf(name: string): Promise<{ expires: number; ctx: tls.SecureContext } | undefined> {
    const cert = await this.d.repo.certificate(name);
    if (!cert) return undefined;
    return { expires: cert.expiresAt.getTime(), ctx: tls.createSecureContext({ cert: cert.certPem, key: this.d.secrets.open(cert.keySealed) }) };
  }

  /** Obtains (or renews) one domain's certificate if this instance gets its lease. */
  async obtain(row: SiteDomainRow): Promise<boolean> {
    const now = this.d.clock.now();
    if (!(await this.d.repo.claim(row.id, now, new Date(now.getTime() + LEASE_MS)))) return false;
    try {
      const cert = await this.d.issuer.issue(row.hostname);
      await this.d.repo.storeCertificate(row.id, cert.certPem, this.d.secrets.seal(cert.keyPem), cert.expiresAt);
      await this.forget(row.hostname);
      this.d.log?.info({ hostname: row.hostname, expiresAt: cert.expiresAt }, 'custom domain: certificate obtained');
      return true;
    } catch (err) {
      const message = `The certificate could not be obtained: ${err instanceof Error ? err.message : String(err)}`;
      this.d.log?.warn({ hostname: row.hostname, err }, 'custom domain: certificate failed');
      await this.d.repo.storeFailure(row.id, message, new Date(this.d.clock.now().getTime() + RETRY_AFTER_MS)).catch(() => undefined);
      return false;
    }
  }

  /** The periodic check: every verified domain without a certificate, or expiring within 30 days. */
  async renewDue(): Promise<number> {
    const now = this.d.clock.now();
    const due = await this.d.repo.due(now, new Date(now.getTime() + RENEW_BEFORE_DAYS * DAY));
    let done = 0;
    for (const row of due) if (await this.obtain(row)) done++;
    return done;
  }

  private track(p: Promise<unknown>): void {
    const t = p.catch(() => undefined).finally(() => this.running.delete(t));
    this.running.add(t);
  }

  /** Waits for the certificate requests this instance started (shutdown, tests). */
  async settle(): Promise<void> {
    while (this.running.size) await Promise.all([...this.running]);
  }
}

export { DOMAIN_MESSAGES };
