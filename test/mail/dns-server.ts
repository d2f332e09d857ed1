// A local authoritative DNS server for the mail tests (dns2 on 127.0.0.1, a random high port,
// UDP and TCP on the same port): it answers from a zone the test edits as it goes. Names not in
// the zone are NXDOMAIN; a name with no record of the asked type is an empty NOERROR answer.
import { Packet, createServer, type DnsServer } from 'dns2';
import { listenDns, randomQuietPort } from '../helpers/ports';

export type ZoneRecord = { type: 'MX'; exchange: string; priority: number } | { type: 'TXT'; data: string | string[] };

export interface TestDns {
  /** "127.0.0.1:PORT", for DNS_SERVERS. */
  server: string;
  /** Records by lower-case fully qualified name (no trailing dot). */
  zone: Map<string, ZoneRecord[]>;
  set(name: string, records: ZoneRecord[]): void;
  /** Serves a domain's records as smtp_domain_details lists them (see zoneOf). */
  publish(domain: string, records: PublishedRecord[], skip?: string[]): void;
  queries: string[];
  close(): Promise<void>;
}

/** A long TXT value as the several strings of at most 255 bytes DNS carries it in. */
export function txtStrings(value: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < value.length; i += 255) out.push(value.slice(i, i + 255));
  return out;
}

/** A DNS record as smtp_domain_details lists it. */
export interface PublishedRecord {
  type: string;
  host: string;
  value: string;
  priority?: number;
}

/**
 * The zone entries that publish a domain's records (host "@" is the domain itself), leaving out
 * the kinds in `skip` ("mx", "spf", "dmarc", "dkim"): their names answer with no record.
 */
export function zoneOf(domain: string, records: PublishedRecord[], skip: string[] = []): Map<string, ZoneRecord[]> {
  const byName = new Map<string, ZoneRecord[]>();
  for (const r of records) {
    const name = (r.host === '@' ? domain : `${r.host}.${domain}`).toLowerCase();
    const kind = r.type === 'MX' ? 'mx' : r.host === '@' ? 'spf' : r.host === '_dmarc' ? 'dmarc' : 'dkim';
    const list = byName.get(name) ?? [];
    byName.set(name, list);
    if (skip.includes(kind)) continue;
    list.push(r.type === 'MX' ? { type: 'MX', exchange: r.value, priority: r.priority ?? 10 } : { type: 'TXT', data: txtStrings(r.value) });
  }
  return byName;
}

/** Listens on 127.0.0.1: `port`, or a random free high port. */
export async function startTestDns(options: { port?: number; address?: string } = {}): Promise<TestDns> {
  const zone = new Map<string, ZoneRecord[]>();
  const queries: string[] = [];
  let server: DnsServer | undefined;
  let port = 0;
  const address = options.address ?? '127.0.0.1';
  for (let attempt = 0; attempt < (options.port ? 1 : 20) && !server; attempt++) {
    port = options.port ?? randomQuietPort();
    const candidate = createServer({
      udp: true,
      tcp: true,
      handle: (request, send) => {
        const response = Packet.createResponseFromRequest(request);
        const [question] = request.questions;
        const name = question.name.toLowerCase().replace(/\.$/, '');
        queries.push(`${name} ${question.type}`);
        const records = zone.get(name);
        if (!records) response.header.rcode = 3; // NXDOMAIN
        for (const r of records ?? []) {
          if (r.type === 'MX' && question.type === Packet.TYPE.MX)
            response.answers.push({ name: question.name, type: Packet.TYPE.MX, class: Packet.CLASS.IN, ttl: 3600, exchange: r.exchange, priority: r.priority } as never);
          if (r.type === 'TXT' && question.type === Packet.TYPE.TXT)
            response.answers.push({ name: question.name, type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 3600, data: r.data } as never);
        }
        send(response);
      },
    });
    try {
      await listenDns(candidate, port, address);
      server = candidate;
    } catch (err) {
      await candidate.close().catch(() => undefined);
      if (options.port) throw err;
    }
  }
  if (!server) throw new Error('no free port for the test DNS server');
  const s = server;
  return {
    server: `${address}:${port}`,
    zone,
    queries,
    set: (name, records) => void zone.set(name.toLowerCase(), records),
    publish: (domain, records, skip) => {
      for (const [name, list] of zoneOf(domain, records, skip)) zone.set(name, list);
    },
    close: () => s.close(),
  };
}
