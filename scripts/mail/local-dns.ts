// Try hosted e-mail on one machine, without a real DNS zone: a small authoritative DNS server on
// 127.0.0.1 that serves the records the platform asks a domain to publish, so its verification can
// pass. Feed it the answer of smtp_domain_details, then run the platform with DNS_SERVERS pointing
// at it:
//
//   curl -s $A/project/$P/smtp/smtp_domain_details -H "authorization: Bearer $T" -H "$J" -d '{}' \
//     | npx tsx scripts/mail/local-dns.ts --port 5300          # keeps serving until Ctrl-C
//   DNS_SERVERS=127.0.0.1:5300 npm start
//
// Names it wasn't given answer NXDOMAIN; it never forwards a query. For tests and trials only:
// a real domain publishes these records at its DNS host.
import { startTestDns, type PublishedRecord } from '../../test/mail/dns-server';

interface Details {
  domain: string | null;
  dnsRecords: PublishedRecord[];
}

async function main() {
  const i = process.argv.indexOf('--port');
  const port = i > 0 ? Number(process.argv[i + 1]) : 5300;
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`--port must be a port number, got "${process.argv[i + 1]}"`);
  let input = '';
  for await (const chunk of process.stdin) input += chunk;
  const details = JSON.parse(input) as Details;
  if (!details.domain || !Array.isArray(details.dnsRecords)) throw new Error('expected the JSON of smtp_domain_details for a project that has a domain');
  const dns = await startTestDns({ port });
  dns.publish(details.domain, details.dnsRecords);
  console.log(`serving ${details.dnsRecords.length} records of ${details.domain} on ${dns.server} (udp and tcp); DNS_SERVERS=${dns.server}`);
  const stop = () => void dns.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: Error) => {
  console.error(`local-dns: ${err.message}`);
  process.exit(1);
});
