// The DNS records a project publishes for its mail domain, and the check that they are there:
// real lookups through a resolver whose servers come from the config (DNS_SERVERS; tests point it
// at a local authoritative server), each record found as published or named in the answer.
import { promises as dns } from 'node:dns';
import { dkimRecordValue, dkimTags } from './dkim';

export const DNS_TTL = 3600;
export const MX_PRIORITY = 10;

export type RecordKey = 'mx' | 'spf' | 'dmarc' | 'dkim';

export interface MailDnsRecord {
  key: RecordKey;
  type: 'MX' | 'TXT';
  /** Relative to the domain: "@", "_dmarc", "{selector}._domainkey". */
  host: string;
  value: string;
  priority?: number;
  ttl: number;
  purpose: string;
}

/** What verification reads; the real one is createDnsLookup, tests may pass their own. */
export interface DnsLookup {
  resolveMx(name: string): Promise<{ exchange: string; priority: number }[]>;
  resolveTxt(name: string): Promise<string[][]>;
}

/** Node's resolver (c-ares) on the given servers ("ip[:port]"), or the system's when none are given. */
export function createDnsLookup(servers?: string[], timeoutMs = 2500): DnsLookup {
  const resolver = new dns.Resolver({ timeout: timeoutMs, tries: 2 });
  if (servers?.length) resolver.setServers(servers);
  return { resolveMx: (name) => resolver.resolveMx(name), resolveTxt: (name) => resolver.resolveTxt(name) };
}

export interface DomainKeys {
  domain: string;
  mailHost: string;
  dkimSelector: string;
  dkimPublicKey: string;
}

export function mailRecords(d: DomainKeys): MailDnsRecord[] {
  return [
    { key: 'mx', type: 'MX', host: '@', value: d.mailHost, priority: MX_PRIORITY, ttl: DNS_TTL, purpose: 'Inbound mail' },
    { key: 'spf', type: 'TXT', host: '@', value: 'v=spf1 mx -all', ttl: DNS_TTL, purpose: 'SPF' },
    { key: 'dmarc', type: 'TXT', host: '_dmarc', value: `v=DMARC1; p=quarantine; adkim=r; aspf=r`, ttl: DNS_TTL, purpose: 'DMARC' },
    { key: 'dkim', type: 'TXT', host: `${d.dkimSelector}._domainkey`, value: dkimRecordValue(d.dkimPublicKey), ttl: DNS_TTL, purpose: 'DKIM' },
  ];
}

const LABELS: Record<RecordKey, string> = { mx: 'MX', spf: 'TXT (SPF)', dmarc: 'TXT (DMARC)', dkim: 'TXT (DKIM)' };
export const recordLabel = (r: Pick<MailDnsRecord, 'key' | 'host'>) => `${LABELS[r.key]} record at ${r.host}`;

export interface RecordCheck {
  key: RecordKey;
  found: boolean;
  /** Why the record does not count, naming it ("MX record at @ was not found"). */
  problem?: string;
}

const fqdn = (host: string, domain: string) => (host === '@' ? domain : `${host}.${domain}`);
const bareHost = (h: string) => h.toLowerCase().replace(/\.$/, '');
const NOT_FOUND = new Set(['ENODATA', 'ENOTFOUND', 'NOTFOUND', 'NODATA']);

type Lookup<T> = { ok: true; value: T } | { ok: false; missing: true } | { ok: false; missing: false; code: string };

async function lookup<T>(run: () => Promise<T>): Promise<Lookup<T>> {
  try {
    return { ok: true, value: await run() };
  } catch (err) {
    const code = String((err as { code?: string }).code ?? 'ERROR');
    return NOT_FOUND.has(code) ? { ok: false, missing: true } : { ok: false, missing: false, code };
  }
}

/** Looks every record up (in parallel) and says, for each, whether it is published as expected. */
export async function checkRecords(dnsLookup: DnsLookup, d: DomainKeys, records = mailRecords(d)): Promise<RecordCheck[]> {
  return Promise.all(records.map((r) => checkRecord(dnsLookup, d, r)));
}

async function checkRecord(dnsLookup: DnsLookup, d: DomainKeys, r: MailDnsRecord): Promise<RecordCheck> {
  const label = recordLabel(r);
  const name = fqdn(r.host, d.domain);
  const fail = (problem: string): RecordCheck => ({ key: r.key, found: false, problem: `${label} ${problem}` });

  if (r.key === 'mx') {
    const res = await lookup(() => dnsLookup.resolveMx(name));
    if (!res.ok) return res.missing ? fail('was not found') : fail(`could not be looked up (${res.code})`);
    if (!res.value.length) return fail('was not found');
    if (res.value.some((mx) => bareHost(mx.exchange) === d.mailHost)) return { key: r.key, found: true };
    return fail(`points to ${res.value.map((mx) => bareHost(mx.exchange) || '.').join(', ')}, not ${d.mailHost}`);
  }

  const res = await lookup(() => dnsLookup.resolveTxt(name));
  if (!res.ok) return res.missing ? fail('was not found') : fail(`could not be looked up (${res.code})`);
  // A record published as several strings (DKIM keys are longer than 255 bytes) is one text.
  const texts = res.value.map((chunks) => chunks.join('').trim());

  if (r.key === 'spf') {
    const spf = texts.filter((t) => /^v=spf1(\s|$)/i.test(t));
    if (!spf.length) return fail('was not found');
    if (spf.length > 1) return fail('is published more than once (keep one v=spf1 record)');
    const terms = spf[0].toLowerCase().split(/\s+/);
    const allows = terms.some((t) => ['mx', '+mx', `a:${d.mailHost}`, `+a:${d.mailHost}`, `include:${d.mailHost}`].includes(t));
    return allows ? { key: r.key, found: true } : fail(`does not allow the mail host (publish "${r.value}")`);
  }

  if (r.key === 'dmarc') {
    const dmarc = texts.filter((t) => /^v=dmarc1\s*(;|$)/i.test(t));
    if (dmarc.length === 1) return { key: r.key, found: true };
    if (dmarc.length > 1) return fail('is published more than once (keep one v=DMARC1 record)');
    return texts.length ? fail('does not start with v=DMARC1') : fail('was not found');
  }

  const keys = texts.map(dkimTags).filter((tags) => tags.has('p'));
  if (!keys.length) return texts.length ? fail('has no public key (p=)') : fail('was not found');
  if (keys.some((tags) => tags.get('p') === d.dkimPublicKey)) return { key: r.key, found: true };
  return fail('has a different public key');
}

/** The verify answer for a failed check: each missing or wrong record, and the propagation note. */
export function notVerifiedMessage(checks: RecordCheck[], alreadyVerified = false): string {
  const problems = checks.filter((c) => !c.found).map((c) => c.problem);
  const lead = alreadyVerified ? 'The domain stays verified, but' : 'Not verified';
  return `${lead}: ${problems.join('; ')}. DNS changes can take up to 48 hours to propagate.`;
}
