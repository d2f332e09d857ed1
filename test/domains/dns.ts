// A local authoritative DNS server for the custom-domain tests (dns2 on 127.0.0.1, a random high
// port, UDP and TCP): CNAME, A and AAAA records the test publishes. An A/AAAA question for a name
// with a CNAME is answered with the CNAME and the target's records, as a recursive resolver would.
import { Packet, createServer, type DnsServer } from 'dns2';
import { listenDns, randomQuietPort } from '../helpers/ports';

export type HostRecord = { type: 'CNAME'; value: string } | { type: 'A'; value: string } | { type: 'AAAA'; value: string };

export interface DomainDns {
  /** "127.0.0.1:PORT", for DNS_SERVERS and pebble's -dnsserver. */
  server: string;
  set(name: string, records: HostRecord[]): void;
  close(): Promise<void>;
}

export async function startDomainDns(): Promise<DomainDns> {
  const zone = new Map<string, HostRecord[]>();
  const T = Packet.TYPE;
  const answer = (name: string, qtype: number, out: object[], depth = 0): void => {
    const records = zone.get(name) ?? [];
    for (const r of records) {
      if (r.type === 'CNAME' && (qtype === T.CNAME || qtype === T.A || qtype === T.AAAA)) {
        out.push({ name, type: T.CNAME, class: Packet.CLASS.IN, ttl: 60, domain: r.value });
        if (qtype !== T.CNAME && depth < 5) answer(r.value, qtype, out, depth + 1);
      }
      if (r.type === 'A' && qtype === T.A) out.push({ name, type: T.A, class: Packet.CLASS.IN, ttl: 60, address: r.value });
      if (r.type === 'AAAA' && qtype === T.AAAA) out.push({ name, type: T.AAAA, class: Packet.CLASS.IN, ttl: 60, address: r.value });
    }
  };
  let server: DnsServer | undefined;
  let port = 0;
  for (let attempt = 0; attempt < 20 && !server; attempt++) {
    port = randomQuietPort();
    const candidate = createServer({
      udp: true,
      tcp: true,
      handle: (request, send) => {
        const response = Packet.createResponseFromRequest(request);
        const [q] = request.questions;
        const name = q.name.toLowerCase().replace(/\.$/, '');
        if (!zone.has(name)) response.header.rcode = 3; // NXDOMAIN
        const out: object[] = [];
        answer(name, q.type, out);
        response.answers.push(...(out as never[]));
        send(response);
      },
    });
    try {
      await listenDns(candidate, port, '127.0.0.1');
      server = candidate;
    } catch {
      await candidate.close().catch(() => undefined);
    }
  }
  if (!server) throw new Error('no free port for the test DNS server');
  const s = server;
  return { server: `127.0.0.1:${port}`, set: (name, records) => void zone.set(name.toLowerCase(), records), close: () => s.close() };
}
