// Sample content: account-wide usage numbers are not in the contract yet.
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Icon, type IconName } from '../../components/Icon';
import { PageHeader, SampleNotice } from '../../components/PageHeader';
import { ProgressBar } from '../../components/ProgressBar';
import { SelectField } from '../../components/Field';
import { usePageTitle } from '../../lib/usePageTitle';

const STATS: { label: string; value: string; change: string; icon: IconName }[] = [
  { label: 'Database Size', value: '2.4 GB', change: '+12% this month', icon: 'database' },
  { label: 'Storage Used', value: '45.2 GB', change: '+8% this month', icon: 'cloud' },
  { label: 'Active Users', value: '12,847', change: '+23% this month', icon: 'user' },
  { label: 'Requests/sec', value: '1,284', change: '+5% this month', icon: 'bolt' },
];

const RANGES = ['Last 7 days', '30 days', '3 months'] as const;
const USAGE: Record<(typeof RANGES)[number], number[]> = {
  'Last 7 days': [42, 55, 48, 61, 70, 66, 74],
  '30 days': [38, 44, 51, 47, 58, 62, 55, 67, 71, 69, 75, 80],
  '3 months': [30, 36, 41, 45, 52, 57, 61, 66, 70, 74, 78, 83],
};

const ACTIVITY = [
  { text: 'New user signed up in my-app', when: '2 minutes ago' },
  { text: 'cat.png uploaded to storage', when: '18 minutes ago' },
  { text: 'Site deployed to my-app', when: '1 hour ago' },
  { text: 'Authentication API key rotated', when: 'Yesterday' },
];

const ACTIONS: { label: string; to: string; icon: IconName }[] = [
  { label: 'API Keys', to: '/console/api-keys', icon: 'key' },
  { label: 'Security', to: '/console/account', icon: 'shield' },
  { label: 'Billing', to: '/console/account', icon: 'chart' },
  { label: 'Settings', to: '/console/account', icon: 'settings' },
];

const LIMITS = [
  { label: 'Database', used: 2.4, total: 5 },
  { label: 'Storage', used: 45.2, total: 100 },
  { label: 'Bandwidth', used: 150, total: 500 },
];

export default function GlobalDashboard() {
  usePageTitle('Dashboard');
  const [range, setRange] = useState<(typeof RANGES)[number]>('Last 7 days');
  const series = USAGE[range];
  return (
    <div className="console-page">
      <PageHeader title="Dashboard" description="An overview of your account." actions={<Link to="/console" className="btn btn-primary">View projects</Link>} />
      <SampleNotice />
      <ul className="stat-grid">
        {STATS.map((s) => (
          <li key={s.label} className="card stat-card">
            <span className="feature-icon">
              <Icon name={s.icon} size={20} />
            </span>
            <span className="stat-label">{s.label}</span>
            <span className="stat-value">{s.value}</span>
            <span className="stat-change">{s.change}</span>
          </li>
        ))}
      </ul>
      <div className="dash-grid">
        <section className="card panel" aria-labelledby="usage-title">
          <div className="panel-head">
            <h2 id="usage-title" className="panel-title">Resource usage</h2>
            <div className="range-select">
              <SelectField label="Period" value={range} onChange={(e) => setRange(e.target.value as (typeof RANGES)[number])}>
                {RANGES.map((r) => (
                  <option key={r}>{r}</option>
                ))}
              </SelectField>
            </div>
          </div>
          <ul className="bar-chart" aria-label={`Resource usage, ${range}`}>
            {series.map((v, i) => (
              <li key={i} className="bar-col">
                <span className="bar" style={{ height: `${v}%` }} />
                <span className="visually-hidden">{v}%</span>
              </li>
            ))}
          </ul>
        </section>
        <section className="card panel" aria-labelledby="activity-title">
          <h2 id="activity-title" className="panel-title">Recent activity</h2>
          <ul className="activity-list">
            {ACTIVITY.map((a) => (
              <li key={a.text}>
                <span>{a.text}</span>
                <span className="muted">{a.when}</span>
              </li>
            ))}
          </ul>
        </section>
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
          <ul className="meter-list">
            {LIMITS.map((l) => (
              <li key={l.label}>
                <div className="meter-head">
                  <span>{l.label}</span>
                  <span className="mono">
                    {l.used} of {l.total} GB
                  </span>
                </div>
                <ProgressBar value={(l.used / l.total) * 100} label={`${l.label} usage`} showValue={false} />
              </li>
            ))}
          </ul>
        </section>
      </div>
    </div>
  );
}
