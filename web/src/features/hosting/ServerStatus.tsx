// The live site's server status: CPU and memory of its process, and its network, polled. A static
// site has no process: it says so instead of showing zeros as if they were measured.
import { useGetContainerStats } from '../../api/generated/hosting/hosting';
import { ProgressBar } from '../../components/ProgressBar';
import { Empty, ErrorState, Loading } from '../../components/States';
import { formatNumber, formatSize } from '../../lib/format';
import { STATS_POLL_MS } from './siteStatus';

export const STATIC_NOT_RUNNING = 'Not running: static site';

// The contract counts network in MiB (rx_mb, tx_mb): bytes for the one size format.
const MIB = 1024 * 1024;
const percent = (n: number) => `${formatNumber(n, { minimumFractionDigits: 1, maximumFractionDigits: 1 })}%`;

/** CPU, memory and network of the live site's process, polled. */
export function ServerStatus({ projectId, domain, enabled }: { projectId: string; domain: string; enabled: boolean }) {
  const stats = useGetContainerStats(projectId, { domain }, { query: { enabled, refetchInterval: STATS_POLL_MS, retry: false } });
  if (!enabled) return <Empty icon="server" title="No live deployment">Deploy a site to see its server status.</Empty>;
  if (stats.isPending) return <Loading label="Loading server status..." />;
  if (stats.isError) return <ErrorState title="Server status unavailable" error={stats.error} onRetry={() => stats.refetch()} />;
  const s = stats.data;
  const isStatic = s.status === 'static';
  const netMax = Math.max(s.rx_mb, s.tx_mb, 1);
  const bars = [
    ...(isStatic
      ? []
      : [
          { label: 'CPU Usage', value: s.cpu_percent, text: percent(s.cpu_percent) },
          { label: 'Memory', value: s.mem_percent, text: percent(s.mem_percent) },
        ]),
    { label: 'Network Received', value: (s.rx_mb / netMax) * 100, text: formatSize(s.rx_mb * MIB) },
    { label: 'Network Transmitted', value: (s.tx_mb / netMax) * 100, text: formatSize(s.tx_mb * MIB) },
  ];
  return (
    <ul className="meter-list">
      {isStatic && (
        <li className="muted" role="status">
          {STATIC_NOT_RUNNING}: its files are served as they are, with no process using CPU or memory.
        </li>
      )}
      {bars.map((b) => (
        <li key={b.label}>
          <div className="meter-head">
            <span>{b.label}</span>
            <span className="mono">{b.text}</span>
          </div>
          <ProgressBar value={b.value} label={b.label} showValue={false} tone={b.value > 85 && !b.label.startsWith('Network') ? 'danger' : 'primary'} />
        </li>
      ))}
      {s.status && !isStatic && <li className="muted">Process: {s.status}</li>}
      {s.last_exit && (
        <li className="muted" role="status">
          Last stopped: {s.last_exit}
          {s.restarts ? ` (${s.restarts} restart${s.restarts === 1 ? '' : 's'} recently)` : ''}
        </li>
      )}
    </ul>
  );
}
