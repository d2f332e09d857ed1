import type { SmtpDomainDetails } from '../../api/generated/model';
import { CopyButton } from '../../components/CopyButton';
import { DataTable } from '../../components/DataTable';
import { Empty } from '../../components/States';
import { Pill } from '../../components/StatusBadge';

export function DnsRecordsTable({ details }: { details: SmtpDomainDetails }) {
  const records = details.dnsRecords ?? [];
  return (
    <section className="card panel" aria-labelledby="dns-title">
      <h2 id="dns-title" className="panel-title">DNS records</h2>
      <p className="muted">Add these records at your DNS provider. DNS propagation can take up to 48 hours.</p>
      {records.length === 0 ? (
        <Empty icon="globe" title="No records to show" />
      ) : (
        <DataTable caption="DNS records" columns={['Type', 'Host', 'Value', 'Priority', 'TTL', 'Status']}>
          {records.map((r, i) => (
            <tr key={`${r.type}-${r.host}-${i}`}>
              <td data-label="Type">
                <strong>{r.type}</strong>
                {r.purpose && <span className="muted"> ({r.purpose})</span>}
              </td>
              <td data-label="Host">
                <span className="uid">
                  <code>{r.host}</code>
                  <CopyButton value={r.host} label={`${r.type} host`} />
                </span>
              </td>
              <td data-label="Value">
                <span className="uid dns-value">
                  <code title={r.value}>{r.value}</code>
                  <CopyButton value={r.value} label={`${r.type} value`} />
                </span>
              </td>
              <td data-label="Priority">{r.priority ?? '-'}</td>
              <td data-label="TTL">{r.ttl}</td>
              <td data-label="Status">
                {r.verified === undefined ? (
                  <span className="muted">-</span>
                ) : r.verified ? (
                  <Pill tone="green">found</Pill>
                ) : (
                  <Pill tone="yellow">missing</Pill>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}
