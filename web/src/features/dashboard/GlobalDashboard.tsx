// The account's dashboard: what the platform measured across the developer's projects (the usage
// API): the four stats, charts over the chosen range, quick actions and usage against the plan.
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { keepPreviousData } from '@tanstack/react-query';
import { useGetAccountUsage } from '../../api/generated/usage/usage';
import type { UsageReport } from '../../api/generated/model/usageReport';
import type { UsageRange } from '../../api/generated/model/usageRange';
import { Icon, type IconName } from '../../components/Icon';
import { PageHeader } from '../../components/PageHeader';
import { SelectField } from '../../components/Field';
import { ErrorState, Loading } from '../../components/States';
import { formatSize } from '../../lib/format';
import { usePageTitle } from '../../lib/usePageTitle';
import { UsageChart } from './UsageChart';
import { UsageLimits } from './UsageLimits';
import { RANGES, bucketLabel, formatCount, formatRate } from './usage-format';
import { RecentActivity } from '../activity/RecentActivity';

const ACTIONS: { label: string; to: string; icon: IconName }[] = [
  { label: 'API Keys', to: '/console/api-keys', icon: 'key' },
  { label: 'Security', to: '/console/account#mfa-title', icon: 'shield' },
  { label: 'Billing', to: '/console/account#billing-title', icon: 'chart' },
  { label: 'Settings', to: '/console/account', icon: 'settings' },
];

const REQUEST_SERIES = [
  { name: '2xx', color: 'var(--c-success)' },
  { name: '3xx', color: 'var(--c-accent)' },
  { name: '4xx', color: 'var(--c-warning)' },
  { name: '5xx', color: 'var(--c-danger)' },
];

/** `activity`: the recent-activity panel beside the charts (the account's activity log by default). */
export default function GlobalDashboard({ activity = <RecentActivity /> }: { activity?: ReactNode }) {
  usePageTitle('Dashboard');
  const [range, setRange] = useState<UsageRange>('7d');
  const usage = useGetAccountUsage({ range }, { query: { refetchInterval: 30_000, placeholderData: keepPreviousData } });
  const report = usage.data;
  return (
    <div className="console-page">
      <PageHeader title="Dashboard" description="An overview of your account." actions={<Link to="/console" className="btn btn-primary">View projects</Link>} />
      {usage.isPending ? (
        <Loading label="Loading usage..." />
      ) : usage.isError || !report ? (
        <ErrorState title="Could not load usage" error={usage.error} onRetry={() => usage.refetch()} />
      ) : (
        <Stats report={report} />
      )}
      <div className="dash-grid">
        <section className="card panel dash-wide" aria-labelledby="usage-title">
          <div className="panel-head">
            <h2 id="usage-title" className="panel-title">Resource usage</h2>
            <div className="range-select">
              <SelectField label="Period" value={range} onChange={(e) => setRange(e.target.value as UsageRange)}>
                {RANGES.map((r) => (
                  <option key={r.range} value={r.range}>{r.label}</option>
                ))}
              </SelectField>
            </div>
          </div>
          {report && <Charts report={report} />}
        </section>
        {activity}
        <section className="card panel" aria-labelledby="quick-title">
          <h2 id="quick-title" className="panel-title">Quick actions</h2>
          <ul className="quick-actions">
            {ACTIONS.map((a) => (
              <li key={a.label}>
                <Link to={a.to} className="quick-action">
                  <Icon name={a.icon} /> {a.label}
                </Link>
              </li>
            ))}
          </ul>
        </section>
        <section className="card panel" aria-labelledby="limits-title">
          <h2 id="limits-title" className="panel-title">Usage limits</h2>
          {report && <UsageLimits report={report} />}
        </section>
      </div>
    </div>
  );
}

function Stats({ report }: { report: UsageReport }) {
  const { totals } = report;
  const stats: { label: string; value: string; note: string; icon: IconName }[] = [
    { label: 'Database Size', value: formatSize(totals.database_bytes), note: 'all project databases', icon: 'database' },
    { label: 'Storage Used', value: formatSize(totals.storage_bytes), note: 'files and site deployments', icon: 'cloud' },
    { label: 'Active Users', value: formatCount(totals.active_users_month), note: 'signed in this month', icon: 'user' },
    { label: 'Requests/sec', value: formatRate(totals.requests_per_second), note: 'over the last 5 minutes', icon: 'bolt' },
  ];
  return (
    <ul className="stat-grid" aria-label="Account usage">
      {stats.map((s) => (
        <li key={s.label} className="card stat-card">
          <span className="feature-icon">
            <Icon name={s.icon} size={20} />
          </span>
          <span className="stat-label">{s.label}</span>
          <span className="stat-value">{s.value}</span>
          <span className="stat-note muted">{s.note}</span>
        </li>
      ))}
    </ul>
  );
}

function Charts({ report }: { report: UsageReport }) {
  const { series, active_users, totals, bucket } = report;
  const requests = totals.requests.s2xx + totals.requests.s3xx + totals.requests.s4xx + totals.requests.s5xx;
  const peakUsers = Math.max(0, ...active_users.map((d) => d.users));
  return (
    <div className="usage-charts">
      <UsageChart
        title={`API requests per ${bucket}`}
        summary={`${formatCount(requests)} requests, ${formatCount(totals.requests.s4xx + totals.requests.s5xx)} errors`}
        series={REQUEST_SERIES}
        points={series.map((p) => ({ label: bucketLabel(p.start, bucket), values: [p.requests.s2xx, p.requests.s3xx, p.requests.s4xx, p.requests.s5xx] }))}
      />
      <UsageChart
        title="Active users per day"
        summary={`up to ${formatCount(peakUsers)} a day`}
        series={[{ name: 'Users', color: 'var(--c-primary)' }]}
        points={active_users.map((d) => ({ label: bucketLabel(`${d.day}T00:00:00Z`, 'day'), values: [d.users] }))}
      />
      <UsageChart
        title={`Hosting bandwidth per ${bucket}`}
        summary={`${formatSize(totals.bandwidth_bytes)} in and out`}
        series={[{ name: 'Bandwidth', color: 'var(--c-accent)' }]}
        points={series.map((p) => ({ label: bucketLabel(p.start, bucket), values: [p.bandwidth_bytes] }))}
        format={formatSize}
      />
    </div>
  );
}
