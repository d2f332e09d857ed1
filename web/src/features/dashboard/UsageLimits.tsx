// What the account uses against its plan's limits (lib/plans.ts on the server): a bar where the
// plan has a limit, the figure alone where it has none.
import type { UsageReport } from '../../api/generated/model/usageReport';
import { ProgressBar } from '../../components/ProgressBar';
import { formatSize } from '../../lib/format';
import { formatCount } from './usage-format';

interface Meter {
  label: string;
  used: number;
  limit: number | null;
  format: (n: number) => string;
  /** Shown after the figure when there is no limit to compare with. */
  note?: string;
}

export function UsageLimits({ report }: { report: Pick<UsageReport, 'totals' | 'limits'> }) {
  const { totals, limits } = report;
  const meters: Meter[] = [
    { label: 'Database', used: totals.database_bytes, limit: limits.database_bytes, format: formatSize },
    { label: 'Storage', used: totals.storage_bytes, limit: limits.storage_bytes, format: formatSize },
    { label: 'Monthly active users', used: totals.active_users_month, limit: limits.monthly_active_users, format: formatCount },
    { label: 'Bandwidth', used: totals.bandwidth_bytes, limit: null, format: formatSize, note: 'in this period' },
  ];
  return (
    <>
      <p className="muted usage-plan">
        {limits.label} plan{limits.label === 'Enterprise' ? ': no limits' : ''}
      </p>
      <ul className="meter-list">
        {meters.map((m) => (
          <li key={m.label}>
            <div className="meter-head">
              <span>{m.label}</span>
              <span className="mono">
                {m.limit !== null ? `${m.format(m.used)} of ${m.format(m.limit)}` : `${m.format(m.used)}${m.note ? ` ${m.note}` : ' (unlimited)'}`}
              </span>
            </div>
            {m.limit !== null && m.limit > 0 && (
              <ProgressBar value={(m.used / m.limit) * 100} label={`${m.label} used of the plan's limit`} showValue={false} tone={m.used >= m.limit ? 'danger' : m.used >= 0.8 * m.limit ? 'warning' : 'primary'} />
            )}
          </li>
        ))}
      </ul>
    </>
  );
}
