import { Link } from 'react-router-dom';
import { Icon } from '../../components/Icon';
import { getToken } from '../../lib/session';
import { usePageTitle } from '../../lib/usePageTitle';
import { AuthCard } from './AuthLayout';

export default function EmailVerified() {
  usePageTitle('Email verified');
  const signedIn = !!getToken();
  return (
    <AuthCard title="Email verified">
      <div className="auth-done" role="status">
        <span className="auth-done-icon">
          <Icon name="check" size={28} />
        </span>
        <p>Thank you. Your email address has been confirmed.</p>
      </div>
      <Link to={signedIn ? '/console' : '/auth/login'} className="btn btn-primary btn-block">
        {signedIn ? 'Go to the console' : 'Sign in'}
      </Link>
    </AuthCard>
  );
}
