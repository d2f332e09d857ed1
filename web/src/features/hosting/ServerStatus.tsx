import { useGetContainerStats } from '../../api/generated/hosting/hosting';
import { ProgressBar } from '../../components/ProgressBar';
import { Empty, ErrorState, Loading } from '../../components/States';
import { STATS_POLL_MS } from './siteStatus';

/** CPU, memory and network of the live site's process, polled. */
export function ServerStatus({ projectId, domain, enabled }: { projectId: string; domain: string; enabled: boolean }) {
  const stats = useGetContainerStats(projectId, { domain }, { query: { enabled, refetchInterval: STATS_POLL_MS, retry: false } });
  if (!enabled) return <Empty icon="server" title="No live deployment">Deploy a site to see its server status.</Empty>;
  if (stats.isPending) return <Loading label="Loading server status..." />;
  if (stats.isError) return <ErrorState title="Server status unavailable" error={stats.error} onRetry={() => stats.refetch()} />;
  const s = stats.data;
  const netMax = Math.max(s.rx_mb, s.tx_mb, 1);
  const bars = [
    { label: 'CPU Usage', value: s.cpu_percent, text: `${s.cpu_percent.toFixed(1)}%` },
    { label: 'Memory', value: s.mem_percent, text: `${s.mem_percent.toFixed(1)}%` },
    { label: 'Network Received', value: (s.rx_mb / netMax) * 100, text: `${s.rx_mb.toFixed(2)} MB` },
    { label: 'Network Transmitted', value: (s.tx_mb / netMax) * 100, text: `${s.tx_mb.toFixed(2)} MB` },
  ];
  return (
    <ul className="meter-list">
      {bars.map((b) => (
        <li key={b.label}>
          <div className="meter-head">
            <span>{b.label}</span>
            <span className="mono">{b.text}</span>
          </div>
          <ProgressBar value={b.value} label={b.label} showValue={false} tone={b.value > 85 && !b.label.startsWith('Network') ? 'danger' : 'primary'} />
        </li>
      ))}
      {s.status && <li className="muted">Process: {s.status}</li>}
      {s.last_exit && (
        <li className="muted" role="status">
          Last stopped: {s.last_exit}
          {s.restarts ? ` (${s.restarts} restart${s.restarts === 1 ? '' : 's'} recently)` : ''}
        </li>
      )}
    </ul>
  );
}
