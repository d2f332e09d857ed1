export function ProgressBar({
  value,
  label,
  tone = 'primary',
  showValue = true,
}: {
  value: number;
  label: string;
  tone?: 'primary' | 'success' | 'danger' | 'warning';
  showValue?: boolean;
}) {
  const pct = Math.max(0, Math.min(100, Math.round(value)));
  return (
    <div className="progress-wrap">
      <div
        className={`progress progress-${tone}`}
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
      >
        <div className="progress-fill" style={{ width: `${pct}%` }} />
      </div>
      {showValue && <span className="progress-value">{pct}%</span>}
    </div>
  );
}
