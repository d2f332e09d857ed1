import { Suspense } from 'react';
import { Link, Outlet } from 'react-router-dom';
import { Logo } from '../../components/Logo';
import { PageLoader } from '../../components/States';
import '../../styles/auth.css';

export default function AuthLayout() {
  return (
    <div className="auth-shell">
      <header className="auth-top">
        <Link to="/" aria-label="Hostbase home">
          <Logo />
        </Link>
      </header>
      <main className="auth-main">
        <Suspense fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}

export function AuthCard({ title, subtitle, children }: { title: string; subtitle?: React.ReactNode; children: React.ReactNode }) {
  return (
    <section className="auth-card" aria-labelledby="auth-title">
      <h1 id="auth-title">{title}</h1>
      {subtitle && <p className="auth-subtitle">{subtitle}</p>}
      {children}
    </section>
  );
}
