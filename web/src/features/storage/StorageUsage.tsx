// The account's storage as the API counts it (listObjects' usage fields): files and hosted sites
// apart, against the plan's limit when it has one.
import type { FileList } from '../../api/generated/model/fileList';
import { ProgressBar } from '../../components/ProgressBar';
import { formatSize } from '../../lib/format';

export function StorageUsage({ usage, label = 'Storage used' }: { usage: Pick<FileList, 'usage_bytes' | 'files_bytes' | 'hosting_bytes' | 'quota_bytes'>; label?: string }) {
  const used = usage.usage_bytes ?? 0;
  return (
    <div className="storage-usage">
      <div className="usage-head">
        <span>{label}</span>
        <span className="muted mono">{usage.quota_bytes ? `${formatSize(used)} of ${formatSize(usage.quota_bytes)}` : formatSize(used)}</span>
      </div>
      {usage.quota_bytes ? <ProgressBar value={(used / usage.quota_bytes) * 100} label={label} showValue={false} /> : null}
      <dl className="usage-split" aria-label="Storage by use">
        <div>
          <dt>Files</dt>
          <dd className="mono">{formatSize(usage.files_bytes ?? 0)}</dd>
        </div>
        <div>
          <dt>Hosting</dt>
          <dd className="mono">{formatSize(usage.hosting_bytes ?? 0)}</dd>
        </div>
      </dl>
    </div>
  );
}
