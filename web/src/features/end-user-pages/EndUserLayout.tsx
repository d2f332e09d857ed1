// Public pages that a project's END USERS reach from the mails the platform sends for the
// project (when it has no site_url of its own): reset password and verify email. Neutral
// branding: the end user knows the developer's app, not Hostbase, so no platform navigation.
import { Suspense, useEffect } from 'react';
import { Outlet } from 'react-router-dom';
import { Icon } from '../../components/Icon';
import { PageLoader } from '../../components/States';
import '../../styles/auth.css';

export default function EndUserLayout() {
  return (
    <div className="auth-shell enduser-shell">
      <main className="auth-main enduser-main">
        <Suspense fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      </main>
      <footer className="enduser-foot">
        <Icon name="shield" size={14} /> Secured by Hostbase
      </footer>
    </div>
  );
}

/** The tab title without the platform's name. */
export function useEndUserTitle(title: string): void {
  useEffect(() => {
    document.title = title;
  }, [title]);
}
