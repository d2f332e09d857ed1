import { Suspense, useEffect, useState } from 'react';
import { Link, NavLink, Outlet, useLocation } from 'react-router-dom';
import { Icon } from '../../components/Icon';
import { PageLoader } from '../../components/States';
import { Logo } from '../../components/Logo';
import '../../styles/marketing.css';

const NAV = [
  { to: '/about', label: 'About' },
  { to: '/pricing', label: 'Pricing' },
  { to: '/blog', label: 'Blog' },
  { to: '/careers', label: 'Careers' },
  { to: '/contact', label: 'Contact' },
  { to: '/docs', label: 'Docs' },
  { to: '/console', label: 'Console' },
];

export function SiteNav() {
  const [open, setOpen] = useState(false);
  const { pathname } = useLocation();
  useEffect(() => {
    setOpen(false);
  }, [pathname]);
  return (
    <header className="site-header">
      <nav className="site-nav container" aria-label="Main">
        <Link to="/" className="brand" aria-label="Hostbase home">
          <Logo />
        </Link>
        <button
          type="button"
          className="icon-btn nav-toggle"
          aria-expanded={open}
          aria-controls="site-menu"
          aria-label={open ? 'Close menu' : 'Open menu'}
          onClick={() => setOpen((o) => !o)}
        >
          <Icon name={open ? 'close' : 'menu'} size={22} />
        </button>
        <div id="site-menu" className={`site-menu${open ? ' is-open' : ''}`}>
          <ul className="site-links">
            {NAV.map((n) => (
              <li key={n.to}>
                <NavLink to={n.to} className={({ isActive }) => (isActive ? 'is-active' : undefined)}>
                  {n.label}
                </NavLink>
              </li>
            ))}
          </ul>
          <Link to="/console" className="btn btn-primary btn-sm">
            Get Started
          </Link>
        </div>
      </nav>
    </header>
  );
}

export function SiteFooter() {
  return (
    <footer className="site-footer">
      <div className="container footer-grid">
        <div>
          <Logo />
          <p className="footer-tag">The open-source backend for developers who ship.</p>
        </div>
        <nav aria-label="Footer">
          <ul className="footer-links">
            <li><Link to="/pricing">Pricing</Link></li>
            <li><Link to="/docs">Documentation</Link></li>
            <li><Link to="/console">Console</Link></li>
            <li><Link to="/about">About</Link></li>
            <li><Link to="/blog">Blog</Link></li>
            <li><Link to="/careers">Careers</Link></li>
            <li><Link to="/contact">Contact</Link></li>
          </ul>
        </nav>
        <ul className="footer-legal" aria-label="Legal">
          <li><span aria-disabled="true">Privacy</span></li>
          <li><span aria-disabled="true">Terms</span></li>
          <li><span aria-disabled="true">Security</span></li>
        </ul>
      </div>
      <p className="container footer-copy">© {new Date().getFullYear()} Hostbase. Open source under the MIT licence.</p>
    </footer>
  );
}

export default function PublicLayout() {
  const { pathname } = useLocation();
  // A block, not an arrow's value: Chromium's scrollTo now returns a promise, which React would
  // take for the effect's cleanup and call (a crash on the next navigation).
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  return (
    <div className="site">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <SiteNav />
      <main id="main" className="site-main">
        <Suspense fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      </main>
      <SiteFooter />
    </div>
  );
}
