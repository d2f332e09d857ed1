import { Suspense, useEffect, useRef } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigate, useParams } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { Icon, type IconName } from '../../components/Icon';
import { Logo } from '../../components/Logo';
import { PageLoader } from '../../components/States';
import { getEmail, signOut } from '../../lib/session';
import { useTokenGate } from './useTokenGate';
import { BrowserAlerts } from '../alerts/BrowserAlerts';
import '../../styles/console.css';

interface NavItem {
  label: string;
  icon: IconName;
  project: string;
  global: string;
}

const SECTIONS: NavItem[] = [
  { label: 'Dashboard', icon: 'chart', project: 'dashboard', global: '/dashboard' },
  { label: 'Database', icon: 'database', project: 'database', global: '/console/database' },
  { label: 'API Keys', icon: 'key', project: 'api-keys', global: '/console/api-keys' },
  { label: 'Storage', icon: 'cloud', project: 'storage', global: '/console/storage' },
  { label: 'Authentication', icon: 'shield', project: 'authentication', global: '/console/authentication' },
  { label: 'Hosting', icon: 'globe', project: 'hosting', global: '/console/hosting' },
  { label: 'Email', icon: 'mail', project: 'email', global: '/console/email' },
  { label: 'Settings', icon: 'settings', project: 'account', global: '/console/account' },
];

export function ConsoleNav() {
  const { projectId } = useParams();
  const { pathname } = useLocation();
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    // On narrow screens the bar scrolls sideways: keep the current section in view.
    const active = ref.current?.querySelector<HTMLElement>('a.is-active');
    active?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [pathname]);
  return (
    <nav className="console-nav" aria-label="Console sections" ref={ref}>
      <ul>
        {SECTIONS.map((s) => {
          const to = projectId ? `/project/${encodeURIComponent(projectId)}/${s.project}` : s.global;
          return (
            <li key={s.label}>
              <NavLink to={to} end className={({ isActive }) => (isActive ? 'is-active' : undefined)}>
                <Icon name={s.icon} size={16} />
                <span>{s.label}</span>
              </NavLink>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

function ConsoleHeader() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const email = getEmail();
  return (
    <header className="console-header">
      <div className="console-header-inner">
        <Link to="/console" className="brand" aria-label="Hostbase console: projects">
          <Logo />
          <span className="console-tag">Console</span>
        </Link>
        <div className="console-header-actions">
          <Link to="/console" className="btn btn-ghost btn-sm hide-sm">
            Projects
          </Link>
          <Link to="/docs" className="btn btn-ghost btn-sm hide-sm">
            Docs
          </Link>
          {email && (
            <span className="console-user hide-sm" title={email}>
              <span className="avatar" aria-hidden="true">
                {email[0]?.toUpperCase()}
              </span>
              <span className="console-email">{email}</span>
            </span>
          )}
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            aria-label="Sign out"
            onClick={() => {
              signOut();
              queryClient.clear();
              navigate('/auth/login');
            }}
          >
            <Icon name="logout" size={16} /> <span className="signout-text">Sign out</span>
          </button>
        </div>
      </div>
    </header>
  );
}

export default function ConsoleLayout() {
  const gate = useTokenGate();
  if (gate !== 'allowed') {
    return (
      <div className="console-gate">
        <PageLoader />
      </div>
    );
  }
  return (
    <div className="console">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <ConsoleHeader />
      <ConsoleNav />
      <BrowserAlerts />
      <main id="main" className="console-main">
        <Suspense fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}
