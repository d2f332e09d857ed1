import { CopyButton } from '../../components/CopyButton';
import { IMAP_PORT, SMTP_PORT } from './mail';

export function ServerSettings({ host }: { host: string }) {
  const rows = [
    { label: 'IMAP server', value: host, extra: `Port ${IMAP_PORT} · SSL/TLS` },
    { label: 'SMTP server', value: host, extra: `Port ${SMTP_PORT} · SSL/TLS` },
  ];
  return (
    <section className="card panel" aria-labelledby="server-settings-title">
      <h2 id="server-settings-title" className="panel-title">Mail server settings</h2>
      <dl className="settings-list">
        {rows.map((r) => (
          <div key={r.label}>
            <dt>{r.label}</dt>
            <dd>
              <code>{r.value}</code> <CopyButton value={r.value} label={r.label} /> <span className="muted">{r.extra}</span>
            </dd>
          </div>
        ))}
        <div>
          <dt>Username</dt>
          <dd>Your full email address</dd>
        </div>
      </dl>
    </section>
  );
}
