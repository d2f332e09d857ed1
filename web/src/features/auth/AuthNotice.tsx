// The outcome panel of an auth screen (link sent, password changed, email verified, link invalid).
import type { ReactNode } from 'react';
import { Icon, type IconName } from '../../components/Icon';

export function AuthNotice({ icon, error = false, children }: { icon: IconName; error?: boolean; children: ReactNode }) {
  return (
    <div className="auth-done" role={error ? 'alert' : 'status'}>
      <span className={error ? 'auth-done-icon auth-done-error' : 'auth-done-icon'}>
        <Icon name={icon} size={28} />
      </span>
      <p>{children}</p>
    </div>
  );
}
