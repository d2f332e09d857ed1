// The project's database size, and the account's (every project) against the plan's limit.
import type { DbTableList } from '../../api/generated/model';
import { ProgressBar } from '../../components/ProgressBar';
import { formatSize } from '../../lib/format';

export function DatabaseUsage({ list }: { list: Pick<DbTableList, 'size_bytes' | 'usage_bytes' | 'limit_bytes'> }) {
  const used = list.usage_bytes ?? list.size_bytes;
  const full = list.limit_bytes ? used / list.limit_bytes : 0;
  return (
    <section className="card usage-card" aria-label="Database size">
      <div className="usage-head">
        <span>Database size</span>
        <span className="muted mono">{list.limit_bytes ? `${formatSize(used)} of ${formatSize(list.limit_bytes)}` : formatSize(used)}</span>
      </div>
      {list.limit_bytes ? (
        <ProgressBar value={full * 100} label="Database size against the plan's limit" tone={full >= 0.9 ? 'danger' : full >= 0.75 ? 'warning' : 'primary'} showValue={false} />
      ) : null}
      <dl className="usage-split">
        <div>
          <dt>This project</dt>
          <dd className="mono">{formatSize(list.size_bytes)}</dd>
        </div>
        {list.usage_bytes !== undefined && (
          <div>
            <dt>All your projects</dt>
            <dd className="mono">{formatSize(list.usage_bytes)}</dd>
          </div>
        )}
      </dl>
    </section>
  );
}
